package org.lbsim.lb.dlbf;

import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Packet;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.SenderHooks;
import org.lbsim.spi.SenderQp;

/**
 * The DLBF sender of one queue pair: it labels data with its current path (UDP source port), keeps
 * the per-path states and one-way delays from the ACKs, runs Algorithm 1 on the flow's first packet
 * and on every congestion signal, and on a path switch injects, before any new data, either the
 * selective duplicates of Eqs. 2-3 or one notification (III-D), as the receiver's buffer allows.
 */
final class DlbfSender implements EntropyPolicy, SenderHooks {
    private final PathStates paths;
    private final SplittableRandom rng;
    private final Simulator sim;
    private final DlbfRun run;
    private final boolean notificationsEnabled;
    /** Clock offsets of this host's and the receiver's NICs: what their timestamps read minus true time. */
    private final long srcClockPs;
    private final long dstClockPs;
    private final long[] sentPsByPsn;
    private SenderQp sender;
    private int current = -1;
    /** The path this sender's pair used last: a new flow's old_port for Algorithm 1 (line 1); shared by the flows of a pair with host-pair path states. */
    private final PairPath pair;
    private int highestSent = -1;
    private int cumAck;
    /** The receiver's buffer is over its threshold: full duplicates instead of notifications (III-D). */
    private boolean receiverBufferHigh;
    /** The path the flow left when it last sent a notification (Delta's old path when the Case 2 SACK comes back). */
    private int notifiedFrom = -1;
    long pathSwitches;
    long selectiveDuplicates;
    long sackResends;
    long notifications;
    long notificationsSuppressed;
    long thresholdSwitches;
    long thresholdRecoveries;
    /** ACKs that echoed ECN (III-B congestion signals), and those of them about the path data was on. */
    long congestionEchoes;
    long congestionEchoesOnCurrent;
    /** Algorithm 1 runs by the line it returned from (PathStates.REUSE .. FALLBACK). */
    final long[] algorithm1 = new long[4];

    /** The last path data went on, of whichever flow of a (source, destination) pair sent last. */
    static final class PairPath {
        int last = -1;
    }

    DlbfSender(PathStates paths, SplittableRandom rng, Simulator sim, DlbfRun run, boolean notificationsEnabled, long srcClockPs,
               long dstClockPs, int packets) {
        this(paths, rng, sim, run, notificationsEnabled, srcClockPs, dstClockPs, packets, new PairPath());
    }

    private DlbfSender(PathStates paths, SplittableRandom rng, Simulator sim, DlbfRun run, boolean notificationsEnabled, long srcClockPs,
                       long dstClockPs, int packets, PairPath pair) {
        this.pair = pair;
        this.paths = paths;
        this.rng = rng;
        this.sim = sim;
        this.run = run;
        this.notificationsEnabled = notificationsEnabled;
        this.srcClockPs = srcClockPs;
        this.dstClockPs = dstClockPs;
        this.sentPsByPsn = new long[packets];
    }

    /**
     * The sender of the next message on the same (persistent) queue pair: the same path states, random
     * stream and current path, and the receiver-buffer mode last heard; its PSNs, send times and
     * acknowledgements are the new message's.
     */
    DlbfSender nextMessage(int packets) {
        DlbfSender next = new DlbfSender(paths, rng, sim, run, notificationsEnabled, srcClockPs, dstClockPs, packets, pair);
        next.current = current;
        next.receiverBufferHigh = receiverBufferHigh;
        return next;
    }

    /**
     * The sender of a new flow to the same destination (host-pair path states): the same path states and
     * random stream; it runs Algorithm 1 on its first packet with the path the pair used last as old_port
     * (III-B: "when a new active flow arrives"), whenever that is.
     */
    DlbfSender nextFlow(int packets) {
        return new DlbfSender(paths, rng, sim, run, notificationsEnabled, srcClockPs, dstClockPs, packets, pair);
    }

        @Override
    public void attach(SenderQp sender) {
        this.sender = sender;
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        long now = sim.nowPs();
        if (current < 0) {
            current = paths.select(pair.last, now, rng); // III-B: a new active flow runs Algorithm 1
            algorithm1[paths.lastChoice()]++;
            pair.last = current;
        }
        if (psn < sentPsByPsn.length) {
            sentPsByPsn[psn] = now; // t_sent(k) of Eq. 2: the packet leaves now
        }
        highestSent = Math.max(highestSent, psn);
        return paths.port(current);
    }

    @Override
    public void onAck(Packet ack, long nowPs) {
        cumAck = Math.max(cumAck, ack.cumAck);
        int i = paths.indexOf(ack.entropy);
        if (i < 0) {
            return;
        }
        // III-C: t1 and t2 as the two NICs' clocks read them; the offset is the same on every path of the pair
        paths.recordOwd(i, ack.echoSentPs + srcClockPs, ack.echoNicRxPs + dstClockPs);
        paths.onEcho(i, ack.ecnEcho, nowPs); // III-B: ECN echoed per path
        if (ack.ecnEcho) {
            congestionEchoes++;
            if (i == current) {
                congestionEchoesOnCurrent++;
            }
            switchIfNeeded(nowPs); // III-B: a congestion event runs Algorithm 1
        }
    }

    /** Algorithm 1 after a congestion signal; on a switch, what goes on the new path before new data. */
    void switchIfNeeded(long nowPs) {
        if (current < 0) {
            return;
        }
        int old = current;
        int next = paths.select(old, nowPs, rng);
        algorithm1[paths.lastChoice()]++;
        if (next == old) {
            return;
        }
        pathSwitches++;
        current = next;
        pair.last = next;
        if (highestSent < cumAck) {
            return; // nothing in flight that could arrive out of order
        }
        if (sender == null) {
            return; // without the bundle (Dlbf.newEntropyPolicy): path switching only, nothing injected
        }
        if (notificationsEnabled && !receiverBufferHigh && paths.state(next, nowPs) == PathStates.UNPROBED) {
            // III-D: an unprobed path gets one payload-free notification instead of the duplicates
            Packet n = sender.newControl(run.notifyKind);
            n.entropy = paths.port(next);
            n.psn = cumAck; // the range of packets sent before the switch: [psn, schemeBits]
            n.schemeBits = highestSent;
            sender.inject(n);
            notifiedFrom = old;
            notifications++;
            return;
        }
        if (notificationsEnabled && receiverBufferHigh && paths.state(next, nowPs) == PathStates.UNPROBED) {
            notificationsSuppressed++; // III-D: the receiver's buffer is over its threshold
        }
        injectSelectiveDuplicates(old, next, nowPs);
    }

    /** Eqs. 1-3: every unacknowledged packet that spent less than Delta on the old path is duplicated on the new one, oldest first. */
    private void injectSelectiveDuplicates(int old, int next, long nowPs) {
        long delta = paths.deltaPs(old, next);
        if (delta <= 0) {
            return; // the new path is no faster: what is in flight arrives first
        }
        int port = paths.port(next);
        int last = Math.min(highestSent, sentPsByPsn.length - 1);
        for (int psn = cumAck; psn <= last; psn++) {
            long tau = nowPs - sentPsByPsn[psn];
            if (tau < delta) {
                Packet dup = sender.newDuplicate(psn);
                dup.entropy = port;
                sender.inject(dup);
                selectiveDuplicates++;
            }
        }
    }

    @Override
    public void onSchemePacket(SenderQp s, Packet p, long nowPs) {
        if (p.kind == run.sackKind) {
            onCase2Sack(p, nowPs);
        } else if (p.kind == run.bufferHighKind) {
            if (!receiverBufferHigh) {
                thresholdSwitches++;
            }
            receiverBufferHigh = true; // III-D: full duplicates until the receiver's recovery notice
        } else if (p.kind == run.bufferOkKind) {
            if (receiverBufferHigh) {
                thresholdRecoveries++;
            }
            receiverBufferHigh = false;
        } else {
            SenderHooks.super.onSchemePacket(s, p, nowPs);
        }
    }

    /**
     * III-D Case 2: the notification came through unmarked, so the new path is available, and its
     * t1 / t2 echoed in the SACK give the new path's one-way delay. The SACK names which packets of
     * the old path's range the receiver still misses; of those, only the ones "most likely to cause
     * reordering" go again, on the current path, before new data: Eq. 3 now that Delta is known
     * (a missing packet that has spent at least Delta on the old path arrives before anything sent
     * now). Bit j of the map is PSN cumAck + j.
     */
    private void onCase2Sack(Packet sack, long nowPs) {
        int i = paths.indexOf(sack.entropy);
        if (i < 0 || notifiedFrom < 0) {
            return;
        }
        paths.recordOwd(i, sack.echoSentPs + srcClockPs, sack.echoNicRxPs + dstClockPs);
        paths.onEcho(i, false, nowPs);
        long delta = paths.deltaPs(notifiedFrom, i);
        cumAck = Math.max(cumAck, sack.cumAck);
        int port = paths.port(current);
        int last = Math.min(Math.min(sack.schemeBits, sack.cumAck + 63), sentPsByPsn.length - 1);
        for (int psn = cumAck; psn <= last; psn++) {
            boolean missing = (sack.sackBits & (1L << (psn - sack.cumAck))) == 0;
            if (missing && nowPs - sentPsByPsn[psn] < delta) {
                Packet dup = sender.newDuplicate(psn);
                dup.entropy = port;
                sender.inject(dup);
                sackResends++;
            }
        }
    }

    /** The path data goes on now (-1 before the first packet). */
    int currentPath() {
        return current;
    }

    PathStates paths() {
        return paths;
    }

    SenderQp senderQp() {
        return sender;
    }
}
