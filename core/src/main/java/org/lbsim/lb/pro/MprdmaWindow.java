package org.lbsim.lb.pro;

import java.util.random.RandomGenerator;

/**
 * MP-RDMA's congestion control and multi-path ACK clocking (MP-RDMA, NSDI '18, PRO's [16]), for the
 * MPRDMA-style baseline with {@code mprdmaWindow: ack-clocked}. One window for the queue pair, no
 * per-path state; an ACK is a virtual path's clock:
 * <ul>
 * <li>every ACK without ECN echo grows the window by 1/cwnd, every ACK with ECN echo cuts it by 1/2
 *     (so a round trip of marked ACKs halves it); never below one packet;</li>
 * <li>an ACK of a first transmission more than Delta below snd_ooh is late: its virtual path is
 *     pruned (it clocks no packet) and the window loses one packet;</li>
 * <li>any other ACK releases up to two packets (awnd = cwnd - packets in flight - packets released
 *     and not yet sent), each on the ACK's own virtual path (its PathID), except that at most once per
 *     base RTT, with probability {@code probe}, a released packet goes on a path drawn at random (a new
 *     virtual path);</li>
 * <li>the first cwnd packets go on paths drawn at random; an RTO halves the window and releases one
 *     packet on the last ACK's path; after it, as in a recovery, every ACK releases at least one.</li>
 * </ul>
 * Sources: the MP-RDMA paper's text could not be read here (only its opening), so the rules and
 * numbers follow two public re-implementations that agree on them: github:the-sure/htsim
 * htsim/sim/mprdma.cpp at 05ccbd0 ({@code MPRdmaSrc::processAck} :254-256 the per-ACK window, :263-270
 * the late ACK, :290-297 two packets per ACK on the ACK's path, :167 the RTO halving, :33-38 Delta 32,
 * L 64, probe 1 %) and github:Cherries-Man/NS3-MP-RDMA mp-rdma-hw.cc at 81a0e22 (:296-303 the per-ACK
 * window, :326-331 late ACKs dropped, :356-370 awnd and at most two packets per ACK on the ACK's port).
 * Both start at one packet; we start at the initial window given (0 = BDP / MTU, line rate, as every
 * other transport of PRO's figures starts). Every packet, new or resent, needs a release: resends in
 * recovery are ACK-clocked too (htsim sends one per ACK in recovery).
 */
final class MprdmaWindow {
    /** Packets released and not yet sent, at most (a release beyond it is left to the next ACK). */
    static final int MAX_PENDING = 64;
    /** A released packet with no path of its own: a path drawn at random. */
    static final int RANDOM = -1;

    private final double probe;
    private final long baseRttPs;
    private final ProCounters counters;
    private final int[] pending = new int[MAX_PENDING];
    private int head;
    private int size;
    /** Packets of the initial window not sent yet: they need no ACK and go on paths drawn at random. */
    private int unclocked;
    private double cwnd;
    private int lastPathId = RANDOM;
    private long nextProbePs;

    MprdmaWindow(int initialWindow, double probe, long baseRttPs, ProCounters counters) {
        this.cwnd = Math.max(1, initialWindow);
        this.probe = probe;
        this.baseRttPs = baseRttPs;
        this.counters = counters;
        this.unclocked = Math.max(1, initialWindow);
    }

    /** Released packets that wait to be sent. */
    int released() {
        return size + unclocked;
    }

    double cwnd() {
        return cwnd;
    }

    /**
     * An ACK arrived. {@code inflightPackets} is what is sent and not acknowledged once it is counted
     * (MP-RDMA's snd_nxt - snd_una - inflate); {@code late} = it acknowledges a first transmission more
     * than Delta below snd_ooh; {@code unsentPackets} = PSNs never sent yet.
     */
    void onAck(boolean ecnEcho, boolean late, int pathId, int inflightPackets, int unsentPackets, boolean inRecovery, long nowPs,
               RandomGenerator rng) {
        if (ecnEcho) {
            cwnd -= 0.5;
            counters.mprdmaEcnCuts++;
        } else {
            cwnd += 1 / cwnd;
        }
        if (late) {
            cwnd -= 1;
            counters.mprdmaPrunedAcks++;
        }
        cwnd = Math.max(1, cwnd);
        lastPathId = pathId;
        if (late) {
            return; // the late virtual path is pruned: this ACK clocks nothing
        }
        int awnd = (int) Math.floor(cwnd - inflightPackets - released());
        int release = Math.min(2, awnd);
        if (inRecovery) {
            release = Math.max(1, release); // a resend per ACK in recovery
        } else {
            release = Math.min(release, unsentPackets);
        }
        for (int i = 0; i < release && size < MAX_PENDING; i++) {
            int path = pathId;
            if (probe > 0 && nowPs >= nextProbePs) {
                nextProbePs = nowPs + baseRttPs;
                if (rng.nextDouble() < probe) {
                    path = RANDOM;
                }
            }
            push(path);
        }
    }

    /** The RTO fired: the window halves and one packet (the resend) is released on the last ACK's path. */
    void onTimeout() {
        cwnd = Math.max(1, cwnd / 2);
        if (released() == 0) {
            push(lastPathId);
        }
    }

    /** A NACK (the receiver dropped data beyond its bitmap) releases one packet, the resend, on the NACK's path. */
    void onNack(int pathId) {
        lastPathId = pathId;
        if (released() == 0) {
            push(pathId);
        }
    }

    /** The path of the next packet sent (its PathID, or {@link #RANDOM}); the release is spent. */
    int take() {
        if (size == 0) {
            unclocked = Math.max(0, unclocked - 1);
            return RANDOM;
        }
        int p = pending[head];
        head = (head + 1) % MAX_PENDING;
        size--;
        return p;
    }

    private void push(int pathId) {
        pending[(head + size) % MAX_PENDING] = pathId;
        size++;
    }
}
