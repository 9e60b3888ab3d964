package org.lbsim.lb.dlbf;

import java.util.SplittableRandom;

/**
 * The paths of one DLBF flow (DLBF III-B): {@code n} UDP source ports {@code base .. base + n - 1}
 * (mod 2^16; switches hash them apart), each unprobed, available or unavailable with an expiry
 * back to unprobed, and the latest one-way delay measured on it. Expiry is applied lazily when a
 * state is read, so nothing runs per path between packets. Port to index is a subtraction.
 */
public final class PathStates {
    public static final byte UNPROBED = 0;
    public static final byte AVAILABLE = 1;
    public static final byte UNAVAILABLE = 2;

    private final int basePort;
    private final byte[] state;
    private final long[] expiresPs;
    private final long[] owdPs;
    private final boolean[] measured;
    private final long availPs;
    private final long unavailPs;
    private final int[] candidates;
    private long minOwdPs = Long.MAX_VALUE;
    /** Which line of Algorithm 1 the last {@link #select} returned from: one of the REUSE .. FALLBACK constants. */
    private byte lastChoice;

    /** Algorithm 1's outcomes: lines 1-2, 3-4, 5-6, 7-8. */
    public static final byte REUSE = 0;
    public static final byte RANDOM_AVAILABLE = 1;
    public static final byte RANDOM_UNPROBED = 2;
    public static final byte FALLBACK = 3;

    /**
     * @param basePort  the first UDP source port
     * @param paths     number of ports
     * @param availPs   T_avail: an available path turns unprobed this long after it was last confirmed
     * @param unavailPs T_unavail: an unavailable path turns unprobed this long after its last congestion signal
     */
    public PathStates(int basePort, int paths, long availPs, long unavailPs) {
        this.basePort = basePort & 0xFFFF;
        this.state = new byte[paths];
        this.expiresPs = new long[paths];
        this.owdPs = new long[paths];
        this.measured = new boolean[paths];
        this.availPs = availPs;
        this.unavailPs = unavailPs;
        this.candidates = new int[paths];
    }

    public int size() {
        return state.length;
    }

    /** The UDP source port of path {@code i}. */
    public int port(int i) {
        return (basePort + i) & 0xFFFF;
    }

    /** The path index of {@code port}, or -1 when the port is not one of this flow's. */
    public int indexOf(int port) {
        int i = (port - basePort) & 0xFFFF;
        return i < state.length ? i : -1;
    }

    /** The state of path {@code i} at {@code nowPs}, expired ones turned unprobed (DLBF III-B). */
    public byte state(int i, long nowPs) {
        if (state[i] != UNPROBED && nowPs >= expiresPs[i]) {
            state[i] = UNPROBED;
        }
        return state[i];
    }

    /**
     * An answer about path {@code i} came back: a congestion signal (ECN echo) makes it unavailable at
     * once for T_unavail; an unmarked one makes it available for T_avail, unless it is unavailable
     * (that lasts until it expires).
     */
    public void onEcho(int i, boolean congested, long nowPs) {
        if (congested) {
            state[i] = UNAVAILABLE;
            expiresPs[i] = nowPs + unavailPs;
        } else if (state(i, nowPs) != UNAVAILABLE) {
            state[i] = AVAILABLE;
            expiresPs[i] = nowPs + availPs;
        }
    }

    /**
     * One-way delay sample of path {@code i} from the NIC timestamps (DLBF III-C): t2 - t1, both
     * read on unsynchronised clocks, so the sample carries the host pair's clock offset; every
     * sample of the flow carries the same one, and only differences are used.
     */
    public void recordOwd(int i, long t1Ps, long t2Ps) {
        long owd = t2Ps - t1Ps;
        owdPs[i] = owd;
        measured[i] = true;
        minOwdPs = Math.min(minOwdPs, owd);
    }

    public boolean hasOwd(int i) {
        return measured[i];
    }

    /** The latest one-way delay sample of path {@code i} (offset included). */
    public long owdPs(int i) {
        return owdPs[i];
    }

    /**
     * Delta = OWD_old - OWD_new (DLBF Eq. 1). A path never measured (unprobed, reached without a
     * notification because the receiver buffer is over its threshold) is taken at the lowest
     * delay this flow ever measured: an unprobed path is presumed uncongested, which errs towards
     * more duplicates, never towards reordering. 0 when the old path was never measured.
     */
    public long deltaPs(int oldPath, int newPath) {
        if (!measured[oldPath]) {
            return 0;
        }
        long newOwd = measured[newPath] ? owdPs[newPath] : minOwdPs;
        return owdPs[oldPath] - newOwd;
    }

    /**
     * Algorithm 1 (DLBF III-B), in its strict priority order: reuse {@code oldPath} unless it is
     * unavailable; else a random available path; else a random unprobed one; else {@code oldPath}.
     * {@code oldPath} is -1 for a new flow; with no path at all left it then returns a random one.
     */
    public int select(int oldPath, long nowPs, SplittableRandom rng) {
        if (oldPath >= 0 && state(oldPath, nowPs) != UNAVAILABLE) {
            lastChoice = REUSE;
            return oldPath; // lines 1-2: reuse the active path
        }
        int n = collect(AVAILABLE, nowPs);
        if (n > 0) {
            lastChoice = RANDOM_AVAILABLE;
            return candidates[rng.nextInt(n)]; // lines 3-4
        }
        n = collect(UNPROBED, nowPs);
        if (n > 0) {
            lastChoice = RANDOM_UNPROBED;
            return candidates[rng.nextInt(n)]; // lines 5-6: explore an unknown path
        }
        lastChoice = FALLBACK;
        return oldPath >= 0 ? oldPath : rng.nextInt(state.length); // lines 7-8: fall back to the old path
    }

    /** The line of Algorithm 1 the last {@link #select} returned from ({@link #REUSE} .. {@link #FALLBACK}). */
    public byte lastChoice() {
        return lastChoice;
    }

    private int collect(byte wanted, long nowPs) {
        int n = 0;
        for (int i = 0; i < state.length; i++) {
            if (state(i, nowPs) == wanted) {
                candidates[n++] = i;
            }
        }
        return n;
    }
}
