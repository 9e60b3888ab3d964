package org.lbsim.lb.dlbf;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.lbsim.kernel.Time;
import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.BundledScheme;
import org.lbsim.spi.CounterSink;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.PacketKinds;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.SwitchContext;

/**
 * DLBF (Zhang et al.): end-host load balancing for RDMA that keeps a flow on one path (UDP source
 * port) and moves it off ECMP-made hotspots on ECN (III-B, Algorithm 1), hides the reordering of
 * each move with selective duplicates from the one-way-delay gap (III-C, Eqs. 1-3) or, on an
 * unprobed path, a notification the receiver answers by waiting (Case 1) or with a SACK (Case 2),
 * with a receiver-buffer threshold between the two (III-D). Switches hash as ECMP does. The loss
 * recovery of the run (a commodity RNIC's selective repeat, nic-sr) stays the sender's; DLBF's
 * receiver is nic-sr's with the notification cases. One bundle: entropy policy, sender hooks and
 * receiver policy of each queue pair share the scheme's per-run state.
 */
public final class Dlbf implements BundledScheme {
    public record Params(
            @Doc("candidate paths (UDP source ports) per flow; 16 = the (k/2)^2 core paths between pods of a k = 8 fat tree") int paths,
            @Doc("T_avail in microseconds: an available path not confirmed by an unmarked ACK for this long turns unprobed (paper: not given)") double availUs,
            @Doc("T_unavail in microseconds: an unavailable path turns unprobed this long after its last ECN echo (paper: not given)") double unavailUs,
            @Doc("theta in microseconds: how long the receiver waits for a notified old-path range before calling a hole a loss (paper: not given)") double thetaUs,
            @Doc("receiver out-of-order buffer, in packets, above which the sender is told to send full duplicates instead of notifications; recovery at half of it (paper: not given)") int bufferThresholdPackets,
            @Doc("III-D: a notification instead of duplicates on a switch to an unprobed path; false = always selective duplicates") boolean notifications,
            @Doc("largest NIC clock offset in ns: each host's clock is off by a fixed amount in [-x, x]; one-way-delay differences cancel it") double clockOffsetNs,
            @Doc("whose path states a new flow starts from: host-pair (the sending NIC keeps them per destination, so a new flow runs"
                    + " Algorithm 1 with the pair's last path as old_port, III-B) | queue-pair (each queue pair its own, fresh per flow unless"
                    + " nic.queuePairs is persistent)") String pathStates) {
        public static final String HOST_PAIR = "host-pair";
        public static final String QUEUE_PAIR = "queue-pair";

        public Params {
            ScenarioException.require(paths >= 1 && paths <= 1 << 16, "paths", "must be between 1 and 65536, got " + paths);
            org.lbsim.scenario.Checks.periodUs(availUs, "availUs");
            org.lbsim.scenario.Checks.periodUs(unavailUs, "unavailUs");
            org.lbsim.scenario.Checks.periodUs(thetaUs, "thetaUs");
            ScenarioException.require(bufferThresholdPackets >= 1, "bufferThresholdPackets", "must be >= 1, got " + bufferThresholdPackets);
            ScenarioException.require(clockOffsetNs >= 0 && clockOffsetNs <= 1e9, "clockOffsetNs", "must be between 0 and 1e9, got " + clockOffsetNs);
            ScenarioException.require(HOST_PAIR.equals(pathStates) || QUEUE_PAIR.equals(pathStates), "pathStates",
                    "must be host-pair or queue-pair, got " + pathStates);
        }

        /** The defaults of {@code lbsim explain dlbf} (docs/schemes.md says why). */
        public static Params defaults() {
            return new Params(16, 50, 100, 10, 16, true, 1000, HOST_PAIR);
        }
    }

    private final Params params;
    private DlbfRun run = new DlbfRun();

    public Dlbf(Params params) {
        this.params = params;
    }

    public Params params() {
        return params;
    }

    /** Without the bundle (a scheme override in code), a flow keeps DLBF's path switching but no duplicates or notifications. */
    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return newSender(host, new DlbfRun());
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong()); // III-B: the path is the hash of the five-tuple
    }

    @Override
    public void reportCounters(CounterSink sink) {
        for (Map.Entry<String, Number> e : counters().entrySet()) {
            if (e.getValue() instanceof Double d) {
                sink.add(e.getKey(), d.doubleValue());
            } else {
                sink.add(e.getKey(), e.getValue().longValue());
            }
        }
    }

    /** Every queue pair's parts for one run: DLBF's entropy policy, sender hooks and receiver with the run's loss recovery. */
    @Override
    public QueuePairScheme queuePairScheme(LossRecoveryFactory runRecovery) {
        // DLBF III runs over a commodity RNIC's selective repeat, which its receiver extends: the run's
        // nic-sr (with its RTO) when that is the run's loss recovery, else nic-sr with its 80 us default
        LossRecoveryFactory recovery = runRecovery.receiverPolicy(null) instanceof org.lbsim.transport.NicSelectiveRepeatReceiver ? runRecovery
                : org.lbsim.transport.NicSelectiveRepeat.factory(new org.lbsim.transport.NicSelectiveRepeat.Params(80));
        DlbfRun fresh = new DlbfRun();
        run = fresh;
        return new QueuePairScheme() {
            @Override
            public void registerKinds(PacketKinds kinds) {
                fresh.notifyKind = kinds.register("DLBF_NOTIFY", PacketKinds.TO_RECEIVER);
                fresh.sackKind = kinds.register("DLBF_SACK", PacketKinds.TO_SENDER);
                fresh.bufferHighKind = kinds.register("DLBF_BUFFER_HIGH", PacketKinds.TO_SENDER);
                fresh.bufferOkKind = kinds.register("DLBF_BUFFER_OK", PacketKinds.TO_SENDER);
            }

            @Override
            public QpParts create(HostContext sender) {
                DlbfSender s = pairSender(sender, fresh, null);
                DlbfReceiver r = new DlbfReceiver(fresh, Time.us(params.thetaUs()), params.bufferThresholdPackets());
                fresh.senders.add(s);
                fresh.receivers.add(r);
                LossRecovery lr = recovery.create(sender.qp());
                return new QpParts(s, lr, r, s);
            }

            /** A persistent queue pair's next message keeps the flow's path states and current path (III-B is per flow). */
            @Override
            public QpParts next(HostContext sender, QpParts previous) {
                DlbfSender s = pairSender(sender, fresh, ((DlbfSender) previous.sender()).nextMessage(sender.qp().packets()));
                DlbfReceiver r = new DlbfReceiver(fresh, Time.us(params.thetaUs()), params.bufferThresholdPackets());
                fresh.senders.add(s);
                fresh.receivers.add(r);
                return new QpParts(s, recovery.create(sender.qp()), r, s);
            }
        };
    }

    /**
     * The sender of a new flow ({@code next} null) or of a persistent queue pair's next message. With
     * host-pair path states (III-B: the sender keeps the states; a new flow's Algorithm 1 has an old_port)
     * a new flow between two hosts that already had one starts from that flow's path states, with its
     * last path as old_port; every sender becomes its pair's latest.
     */
    private DlbfSender pairSender(HostContext host, DlbfRun forRun, DlbfSender next) {
        if (!Params.HOST_PAIR.equals(params.pathStates())) {
            return next != null ? next : newSender(host, forRun);
        }
        long pair = ((long) host.qp().src() << 32) | (host.qp().dst() & 0xFFFFFFFFL);
        DlbfSender s = next;
        if (s == null) {
            DlbfSender last = forRun.lastByPair.get(pair);
            s = last == null ? newSender(host, forRun) : last.nextFlow(host.qp().packets());
        }
        forRun.lastByPair.put(pair, s);
        return s;
    }

    private DlbfSender newSender(HostContext host, DlbfRun forRun) {
        SplittableRandom rng = host.rng();
        PathStates paths = new PathStates(rng.nextInt(1 << 16), params.paths(), Time.us(params.availUs()), Time.us(params.unavailUs()));
        return new DlbfSender(paths, rng, host.simulator(), forRun, params.notifications(), clockOffsetPs(host.qp().src()),
                clockOffsetPs(host.qp().dst()), host.qp().packets());
    }

    /** The fixed offset of host {@code h}'s NIC clock, uniform in [-clockOffsetNs, clockOffsetNs], the same in every run. */
    long clockOffsetPs(int h) {
        long max = Time.ns(params.clockOffsetNs());
        return max == 0 ? 0 : new SplittableRandom(0x9E3779B97F4A7C15L * (h + 1)).nextLong(-max, max + 1);
    }

    /**
     * The run's DLBF counters, summed over its queue pairs: packets injected (selective duplicates,
     * Case 2 resends, notifications), path switches, receiver cases, threshold switches and the
     * receiver out-of-order buffer's time average per queue pair.
     */
    public Map<String, Number> counters() {
        long echoes = 0, echoesOnCurrent = 0;
        long[] algorithm1 = new long[4];
        long switches = 0, suppressed = 0, dups = 0, resends = 0, notifications = 0, thresholdSwitches = 0, recoveries = 0, duplicatesSent = 0, notesSent = 0;
        for (DlbfSender s : run.senders) {
            switches += s.pathSwitches;
            suppressed += s.notificationsSuppressed;
            dups += s.selectiveDuplicates;
            resends += s.sackResends;
            notifications += s.notifications;
            thresholdSwitches += s.thresholdSwitches;
            recoveries += s.thresholdRecoveries;
            echoes += s.congestionEchoes;
            echoesOnCurrent += s.congestionEchoesOnCurrent;
            for (int k = 0; k < algorithm1.length; k++) {
                algorithm1[k] += s.algorithm1[k];
            }
            if (s.senderQp() != null) {
                duplicatesSent += s.senderQp().duplicatesSent();
                notesSent += s.senderQp().notificationsSent();
            }
        }
        long case1 = 0, case1Losses = 0, case2 = 0, received = 0, late = 0;
        double area = 0;
        long active = 0;
        int maxHeld = 0;
        for (DlbfReceiver r : run.receivers) {
            case1 += r.case1Waits;
            case1Losses += r.case1Losses;
            case2 += r.case2Sacks;
            received += r.notificationsReceived;
            late += r.notificationsLate;
            area += r.heldPacketPs;
            active += r.activePs();
            maxHeld = Math.max(maxHeld, r.maxHeld);
        }
        Map<String, Number> c = new LinkedHashMap<>();
        c.put("dlbf.congestionEchoes", echoes);
        c.put("dlbf.congestionEchoesOnCurrentPath", echoesOnCurrent);
        c.put("dlbf.algorithm1.reuse", algorithm1[PathStates.REUSE]);
        c.put("dlbf.algorithm1.randomAvailable", algorithm1[PathStates.RANDOM_AVAILABLE]);
        c.put("dlbf.algorithm1.randomUnprobed", algorithm1[PathStates.RANDOM_UNPROBED]);
        c.put("dlbf.algorithm1.fallback", algorithm1[PathStates.FALLBACK]);
        c.put("dlbf.pathSwitches", switches);
        c.put("dlbf.selectiveDuplicates", dups);
        c.put("dlbf.case2Resends", resends);
        c.put("dlbf.duplicatesSent", duplicatesSent);
        c.put("dlbf.notifications", notifications);
        c.put("dlbf.notificationsSuppressed", suppressed);
        c.put("dlbf.controlPacketsSent", notesSent);
        c.put("dlbf.notificationsReceived", received);
        c.put("dlbf.notificationsLate", late);
        c.put("dlbf.case1Waits", case1);
        c.put("dlbf.case1Losses", case1Losses);
        c.put("dlbf.case2Sacks", case2);
        c.put("dlbf.thresholdSwitches", thresholdSwitches);
        c.put("dlbf.thresholdRecoveries", recoveries);
        c.put("dlbf.rxBufferAvgPackets", active == 0 ? 0.0 : area / active);
        c.put("dlbf.rxBufferMaxPackets", maxHeld);
        return c;
    }
}
