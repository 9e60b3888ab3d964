package org.lbsim.lb.pro;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.kernel.Time;
import org.lbsim.lb.AdaptiveRouting;
import org.lbsim.net.PolicyTable;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.BundledScheme;
import org.lbsim.spi.CounterSink;
import org.lbsim.spi.PerPartition;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Topology;

/**
 * PRO (../shared/papers/000): NIC-orchestrated round robin over per-destination-ToR path sets
 * (III-A, Algorithm 1), PathID forwarding by ACL rules at ToR and Aggr switches with adaptive
 * routing where a rule's port has failed (V, "Handling link failures"), and loss recovery with an
 * AIMD out-of-order window at the receiver (III-B, Algorithm 2) with direct placement of
 * out-of-order data (III-C). One instance per run: it holds the NICs' path sets.
 */
public final class Pro implements BundledScheme {
    public record Params(
            @Doc("microseconds: the sender's RTO for tail loss and the receiver's QP_TIMEOUT (PRO VI-A: 80)") double rtoUs,
            @Doc("packets a queue pair sends per QP-scheduler turn; set it to nic.batchPackets (PRO III-A batch variant; 1 = per packet)") int batchPackets,
            @Doc("one path set per destination ToR (PRO III-A); false = one per NIC for all destinations (ablation, PRO VI-C)") boolean destinationAware,
            @Doc("stagger the queue pairs of a NIC (span P, start at C mod M; PRO III-A); false = each starts at the set's initial C with span 1 (ablation, PRO VI-C)") boolean interQpOrchestration,
            @Doc("the initial value of each path set's counter C (a NIC's initial state per destination ToR): 'random' = drawn uniformly and independently per NIC and destination ToR from the run's random streams (PRO IV-B, Lemma 4's proof: \"RNICs pick the initial state uniformly and independently\") or 'zero' = 0 for every NIC (Algorithm 1: \"global counter C with initial value zero\"; all NICs then start on the same ToR uplink)") String roundRobinStart,
            @Doc("out-of-order window at the start, in packets; 0 = BDP / MTU (PRO Algorithm 2)") int initialWindow,
            @Doc("loss recovery: 'cautious' (PRO III-B, Algorithm 2) or 'mprdma' (the MPRDMA-style baseline of PRO Fig. 13: bitmap of L packets bounds what is in flight beyond the oldest hole, loss = more than Delta behind the highest PSN acknowledged, late ACKs mark their path slow)") String recovery,
            @Doc("with recovery 'mprdma': bitmap slots L, in packets (64: our reading of MP-RDMA); 0 = the smallest power of two >= BDP / MTU") int mprdmaBitmapPackets,
            @Doc("with recovery 'mprdma': out-of-order tolerance Delta, in packets (32, as a public MP-RDMA re-implementation); 0 = L / 2") int mprdmaDeltaPackets,
            @Doc("what restarts the sender's RTO: 'cumulative' = the cumulative ack moving (RFC 6298 5.3 with selective acks; PRO VI-A's 80 us RTO 'for the corner case of tail packet loss' then fires 80 us after the oldest hole stopped moving) or 'any-ack' = any newly acknowledged PSN (the IB spec's timer as conweave-ns3 restarts it on every ACK; tail holes then wait for the receiver's QP_TIMEOUT halvings)") String rtoRestart,
            @Doc("with recovery 'mprdma', what a detected loss resends: 'selective' = each PSN more than Delta behind snd_ooh, once (MP-RDMA's recovery as we read it) or 'go-back-n' = everything from snd_una on, acknowledged or not (the go-back-N of PRO's simulator, conweave-ns3 RecoverQueue)") String mprdmaRetransmit,
            @Doc("with recovery 'mprdma': a late ACK marks its path slow and the next packet for it goes on a random path (MP-RDMA's out-of-order aware path selection); false = packets keep PRO's round robin whatever comes back (no failure avoidance at the host)") boolean mprdmaSlowPaths,
            @Doc("with recovery 'mprdma', congestion control: 'none' = the run's congestion control alone (PRO VI-A runs DCQCN for every scheme; packets keep PRO's round robin) or 'ack-clocked' = MP-RDMA's own window on top of it (one window per queue pair, +1/cwnd per ACK, -1/2 per ACK with ECN echo, -1 and no packet for an ACK more than Delta late, up to 2 packets per ACK, each on the path of the ACK that released it; run it with congestionControl fixed-rate to have MP-RDMA's window alone)") String mprdmaWindow,
            @Doc("with mprdmaWindow 'ack-clocked': the initial window in packets, sent on paths drawn at random; 0 = BDP / MTU (line rate)") int mprdmaInitialWindow,
            @Doc("with mprdmaWindow 'ack-clocked': probability that a released packet goes on a new path drawn at random, tried at most once per base RTT (MP-RDMA's path probing; 0.01 as a public re-implementation)") double mprdmaProbe,
            @Doc("with recovery 'mprdma', what keeps PSNs inside the receiver's bitmap of L: 'hold' = the sender sends no PSN at or beyond snd_una + L or 'drop' = the sender is not gated (its rate is the run's congestion control), the receiver drops a PSN at or beyond rcv_nxt + L and answers with a NACK naming rcv_nxt, and the NACK starts a recovery that resends every unacknowledged PSN from rcv_nxt up to the snd_nxt of that moment (MP-RDMA's bitmap as public re-implementations build it)") String mprdmaBeyondBitmap) {
        public static final String CAUTIOUS = "cautious";
        public static final String MPRDMA = "mprdma";
        public static final String RTO_CUMULATIVE = "cumulative";
        public static final String RTO_ANY_ACK = "any-ack";
        public static final String SELECTIVE = "selective";
        public static final String GO_BACK_N = "go-back-n";
        public static final String HOLD = "hold";
        public static final String DROP = "drop";
        public static final String RANDOM = "random";
        public static final String ZERO = "zero";
        public static final String NONE = "none";
        public static final String ACK_CLOCKED = "ack-clocked";

        public Params {
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            ScenarioException.require(batchPackets >= 1 && batchPackets <= 4096, "batchPackets", "must be between 1 and 4096, got " + batchPackets);
            // as mprdmaInitialWindow: Algorithm 2 grows wnd by one per repeated packet, which must not wrap an int
            ScenarioException.require(initialWindow >= 0 && initialWindow <= 1 << 20, "initialWindow",
                    "must be between 0 (BDP / MTU) and 1048576, got " + initialWindow);
            ScenarioException.require(CAUTIOUS.equals(recovery) || MPRDMA.equals(recovery), "recovery",
                    "must be '" + CAUTIOUS + "' or '" + MPRDMA + "', got '" + recovery + "'");
            ScenarioException.require(mprdmaBitmapPackets >= 0 && mprdmaBitmapPackets <= 1 << 20, "mprdmaBitmapPackets",
                    "must be between 0 (BDP / MTU) and 1048576, got " + mprdmaBitmapPackets);
            ScenarioException.require(mprdmaDeltaPackets >= 0 && (mprdmaBitmapPackets == 0 || mprdmaDeltaPackets < mprdmaBitmapPackets), "mprdmaDeltaPackets",
                    "must be >= 0 (0 = L / 2) and below mprdmaBitmapPackets (" + mprdmaBitmapPackets + "), got " + mprdmaDeltaPackets);
            ScenarioException.require(RTO_CUMULATIVE.equals(rtoRestart) || RTO_ANY_ACK.equals(rtoRestart), "rtoRestart",
                    "must be '" + RTO_CUMULATIVE + "' or '" + RTO_ANY_ACK + "', got '" + rtoRestart + "'");
            ScenarioException.require(SELECTIVE.equals(mprdmaRetransmit) || GO_BACK_N.equals(mprdmaRetransmit), "mprdmaRetransmit",
                    "must be '" + SELECTIVE + "' or '" + GO_BACK_N + "', got '" + mprdmaRetransmit + "'");
            ScenarioException.require(HOLD.equals(mprdmaBeyondBitmap) || DROP.equals(mprdmaBeyondBitmap), "mprdmaBeyondBitmap",
                    "must be '" + HOLD + "' or '" + DROP + "', got '" + mprdmaBeyondBitmap + "'");
            ScenarioException.require(RANDOM.equals(roundRobinStart) || ZERO.equals(roundRobinStart), "roundRobinStart",
                    "must be '" + RANDOM + "' or '" + ZERO + "', got '" + roundRobinStart + "'");
            ScenarioException.require(NONE.equals(mprdmaWindow) || ACK_CLOCKED.equals(mprdmaWindow), "mprdmaWindow",
                    "must be '" + NONE + "' or '" + ACK_CLOCKED + "', got '" + mprdmaWindow + "'");
            ScenarioException.require(mprdmaInitialWindow >= 0 && mprdmaInitialWindow <= 1 << 20, "mprdmaInitialWindow",
                    "must be between 0 (BDP / MTU) and 1048576, got " + mprdmaInitialWindow);
            ScenarioException.require(mprdmaProbe >= 0 && mprdmaProbe <= 1, "mprdmaProbe", "must be between 0 and 1, got " + org.lbsim.scenario.Checks.plain(mprdmaProbe));
        }

        public static Params defaults() {
            return new Params(80, 1, true, true, RANDOM, 0, CAUTIOUS, 64, 32, RTO_CUMULATIVE, SELECTIVE, true, NONE, 0, 0.01, HOLD);
        }
    }

    private final Params params;
    private final long rtoPs;
    private final AdaptiveRouting fallback = new AdaptiveRouting(new AdaptiveRouting.Params(1, 8));
    private final Map<Long, PathSet> sets = new HashMap<>();
    private final List<PolicyTable> tables = new ArrayList<>();
    /** Counted where they happen: a queue pair's sender side at its source's partition, its receiver at its destination's. */
    private final PerPartition<ProCounters> counters = new PerPartition<>(ProCounters::new);
    private ProFabric fabric;
    /** A queue pair under its own ToR has one path, PathID 0 (every PathID maps to it). */
    private final int[] localPathId = {0};
    private final int[] localIndexOfPathId = new int[1 << (2 * PathIds.TOR_BITS)];

    public Pro(Params params) {
        this.params = params;
        this.rtoPs = Time.us(params.rtoUs());
    }

    private ProFabric fabric(Topology t) {
        if (fabric == null || fabric.topology() != t) {
            fabric = new ProFabric(t);
        }
        return fabric;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return entropy(host);
    }

    private ProEntropy entropy(HostContext host) {
        return new ProEntropy(pathSet(host), fabric(host.topology()).pathIdOfIndex);
    }

    /**
     * The path set of the queue pair's NIC towards its destination ToR, or null when the peer is under the same ToR.
     * Queue pairs are built during the run, in their source's partition: the table of sets is shared, so its use is
     * locked (once per queue pair); a set itself belongs to one NIC.
     */
    synchronized PathSet pathSet(HostContext host) {
        ProFabric f = fabric(host.topology());
        QpContext qp = host.qp();
        int srcTor = f.torOf(qp.src());
        int dstTor = f.torOf(qp.dst());
        if (srcTor == dstTor) {
            return null;
        }
        long key = params.destinationAware() ? (long) qp.src() << 32 | dstTor : (long) qp.src() << 32 | 0xFFFFFFFFL;
        PathSet set = sets.get(key);
        if (set == null) {
            int blocks = Math.max(1, f.paths / params.batchPackets());
            // Lemma 4: each NIC's initial state drawn uniformly and independently (from the stream of the queue pair that opens the set)
            int start = Params.RANDOM.equals(params.roundRobinStart()) ? host.rng().nextInt(blocks) : 0;
            set = new PathSet(f.paths, params.batchPackets(), params.interQpOrchestration(), start);
            sets.put(key, set);
        }
        return set;
    }

    /** The whole of PRO for one queue pair: its spraying, its sender's and its receiver's loss recovery (the run's lossRecovery is not used). */
    @Override
    public QueuePairScheme queuePairScheme(LossRecoveryFactory recovery) {
        if (Params.MPRDMA.equals(params.recovery())) {
            return sender -> {
                ProFabric f = fabric(sender.topology());
                QpContext qp = sender.qp();
                ProCounters counters = this.counters.at(sender.simulator(), qp.src());
                PathSet set = pathSet(sender);
                MprdmaEntropy entropy = set != null
                        ? new MprdmaEntropy(set, f.pathIdOfIndex, f.indexOfPathId, sender.rng(), counters, params.mprdmaSlowPaths())
                        : new MprdmaEntropy(new PathSet(1, 1, false), localPathId, localIndexOfPathId, sender.rng(), counters, params.mprdmaSlowPaths());
                int bitmap = mprdmaBitmap(qp);
                int delta = params.mprdmaDeltaPackets() > 0 ? params.mprdmaDeltaPackets() : bitmap / 2;
                boolean drop = Params.DROP.equals(params.mprdmaBeyondBitmap());
                MprdmaWindow window = null;
                if (Params.ACK_CLOCKED.equals(params.mprdmaWindow())) {
                    int iw = params.mprdmaInitialWindow() > 0 ? params.mprdmaInitialWindow() : initialWindow0(qp);
                    window = new MprdmaWindow(iw, params.mprdmaProbe(), qp.baseRttPs(), counters);
                    entropy.clockedBy(window);
                }
                return new QpParts(entropy, new MprdmaSender(qp, rtoPs, cumulativeRto(), Params.GO_BACK_N.equals(params.mprdmaRetransmit()), bitmap, delta, drop,
                        entropy, window, sender.rng(), counters), new MprdmaReceiver(drop ? bitmap : Integer.MAX_VALUE,
                        this.counters.at(sender.simulator(), qp.dst())));
            };
        }
        return sender -> {
            ProEntropy entropy = entropy(sender);
            QpContext qp = sender.qp();
            return new QpParts(entropy, new ProSender(qp, rtoPs, cumulativeRto(), entropy, counters.at(sender.simulator(), qp.src())),
                    new ProReceiver(initialWindow(qp), rtoPs, counters.at(sender.simulator(), qp.dst())));
        };
    }

    private boolean cumulativeRto() {
        return Params.RTO_CUMULATIVE.equals(params.rtoRestart());
    }

    /** MP-RDMA's bitmap length L: as configured, or the smallest power of two that holds a BDP of packets. */
    int mprdmaBitmap(QpContext qp) {
        if (params.mprdmaBitmapPackets() > 0) {
            return params.mprdmaBitmapPackets();
        }
        int bdp = initialWindow0(qp);
        return Integer.highestOneBit(bdp) == bdp ? bdp : Integer.highestOneBit(bdp) << 1;
    }

    /** Algorithm 2: QP.wnd starts at BDP / MTU (line rate x base RTT of the longest idle path). */
    int initialWindow(QpContext qp) {
        if (params.initialWindow() > 0) {
            return params.initialWindow();
        }
        return initialWindow0(qp);
    }

    private static int initialWindow0(QpContext qp) {
        double bdpBytes = qp.lineRateMbps() * 1e6 / 8 * (qp.baseRttPs() * 1e-12);
        return (int) Math.max(1, Math.ceil(bdpBytes / qp.mtuBytes()));
    }

    /** Where no PathID rule decides (a failed port, local traffic), the switch does Tomahawk-style AR (PRO V). */
    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return fallback.newPortSelector(sw);
    }

    /**
     * PRO V: ACL rules from the FIB. A ToR sends traffic for other ToRs out of the uplink its PathID's
     * low 6 bits name; an Aggr sends traffic for a ToR down the parallel link the high 6 bits name.
     * The policy table skips a rule port that is down or has left the FIB group and falls back to AR.
     */
    @Override
    public void programSwitch(SwitchContext ctx, Switch sw) {
        ProFabric f = fabric(ctx.topology());
        Topology t = ctx.topology();
        List<PolicyTable.Rule> rules = new ArrayList<>();
        if (t.tier(ctx.node()) == 1) {
            int[] up = f.torUplinks(ctx.node());
            int[] local = up.length == 0 ? null : f.hostRange(ctx.node()); // no Aggr above (a custom fabric): no PathID rules
            for (int u = 0; u < up.length; u++) {
                if (local[0] > 0) {
                    rules.add(new PolicyTable.Rule(-1, 0, 0xFFFF, PathIds.TOR_MASK, u, 0, local[0] - 1, -1, new int[] {up[u]}));
                }
                if (local[1] < t.hostCount() - 1) {
                    rules.add(new PolicyTable.Rule(-1, 0, 0xFFFF, PathIds.TOR_MASK, u, local[1] + 1, t.hostCount() - 1, -1, new int[] {up[u]}));
                }
            }
        } else if (f.twoTier()) {
            for (int tor = 0; tor < t.nodeCount(); tor++) {
                if (t.isHost(tor) || t.tier(tor) != 1) {
                    continue;
                }
                int[] down = f.downlinksTo(ctx.node(), tor);
                int[] range = f.hostRange(tor);
                for (int d = 0; d < down.length && down.length > 1; d++) {
                    rules.add(new PolicyTable.Rule(-1, 0, 0xFFFF, PathIds.AGGR_MASK, d << PathIds.TOR_BITS, range[0], range[1], -1, new int[] {down[d]}));
                }
            }
        }
        if (!rules.isEmpty()) {
            PolicyTable table = new PolicyTable(rules);
            tables.add(table);
            sw.setPolicyTable(table);
        }
    }

    @Override
    public void reportCounters(CounterSink sink) {
        ProCounters counters = ProCounters.sum(this.counters.all());
        sink.add("pro.nacks", counters.nacks);
        sink.add("pro.repeats", counters.repeats);
        sink.add("pro.receiverTimeouts", counters.timeouts);
        sink.add("pro.senderTimeouts", counters.senderTimeouts);
        sink.add("pro.pathIdForwarded", policyHits());
        sink.add("pro.arFallbacks", policyFallbacks());
        sink.add("pro.pathSets", sets.size());
        if (Params.MPRDMA.equals(params.recovery())) {
            sink.add("pro.mprdmaRecoveries", counters.mprdmaRecoveries);
            sink.add("pro.mprdmaBitmapStalls", counters.mprdmaBitmapStalls);
            sink.add("pro.mprdmaSlowMarks", counters.mprdmaSlowMarks);
            sink.add("pro.mprdmaRepaths", counters.mprdmaRepaths);
            if (Params.DROP.equals(params.mprdmaBeyondBitmap())) {
                sink.add("pro.mprdmaBitmapDrops", counters.mprdmaBitmapDrops);
            }
            if (Params.ACK_CLOCKED.equals(params.mprdmaWindow())) {
                sink.add("pro.mprdmaEcnCuts", counters.mprdmaEcnCuts);
                sink.add("pro.mprdmaPrunedAcks", counters.mprdmaPrunedAcks);
            }
        }
    }

    /** Packets the PathID rules forwarded, and packets that matched a rule whose port was unusable and went to AR. */
    public long policyHits() {
        return tables.stream().mapToLong(PolicyTable::hits).sum();
    }

    public long policyFallbacks() {
        return tables.stream().mapToLong(PolicyTable::fallbacks).sum();
    }

    /** NACKs the receivers sent (one per PSN presumed lost). */
    public long nacks() {
        return ProCounters.sum(counters.all()).nacks;
    }

    /** Repeated arrivals (PKT_REPEAT) at the receivers. */
    public long repeats() {
        return ProCounters.sum(counters.all()).repeats;
    }

    /** Receiver QP_TIMEOUTs (window halvings). */
    public long receiverTimeouts() {
        return ProCounters.sum(counters.all()).timeouts;
    }

    public long senderTimeouts() {
        return ProCounters.sum(counters.all()).senderTimeouts;
    }

    public Params params() {
        return params;
    }
}
