package org.lbsim.transport;

import java.util.Arrays;
import java.util.List;
import org.lbsim.cc.CongestionControlFactory;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.lb.HostContext;
import org.lbsim.lb.LoadBalancer;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.qp.QpContext;
import org.lbsim.topology.Fib;

/**
 * All queue pairs of a run and the host stacks they live in. A connection (one flow of the
 * workload) is carried by one or more queue pairs (NCCL_IB_QPS_PER_CONNECTION). Starts each queue
 * pair at its start time (one pending wake-up, taken in start order) and stops the simulation when
 * the last connection completes.
 */
public final class Transport implements EventHandler {
    private final Simulator sim;
    private final HostStack[] stacks;
    private final SenderQp[] senders;
    private final ReceiverQp[] receivers;
    private final int[] startOrder;
    private final int handlerId;
    private int nextToStart;
    private int completed;
    private long lastCompletionPs;
    private long dataArrivals;
    private long deliveredPayloadBytes;
    private final long[] lostData;
    private final int[] connectionOfQp;
    private final int[] qpsLeft;
    private final long[] connectionDonePs;
    private int connectionsLeft;
    private Runnable onAllDone;
    private final OutOfOrderStats outOfOrder = new OutOfOrderStats();
    private final PacketKinds kinds = new PacketKinds();

    /**
     * Out-of-order degree of arriving data (PSN minus the receiver's expected PSN) as a log2
     * histogram, and the most out-of-order packets any receiver held at once.
     */
    public static final class OutOfOrderStats {
        private final long[] log2Buckets = new long[33];
        private long samples;
        private long outOfOrder;
        private long maxDegree;
        private long maxHeld;
        private long heldNow;

        void record(int degree, int held) {
            samples++;
            if (degree > 0) {
                outOfOrder++;
                log2Buckets[32 - Integer.numberOfLeadingZeros(degree)]++;
                maxDegree = Math.max(maxDegree, degree);
            } else {
                log2Buckets[0]++;
            }
            maxHeld = Math.max(maxHeld, held);
        }

        void held(int delta) {
            heldNow += delta;
        }

        /** Out-of-order packets all receivers hold right now, together. */
        public long heldNow() {
            return heldNow;
        }

        /** Arrivals with degree in [2^(b-1), 2^b) for bucket b >= 1; bucket 0 counts in-order arrivals. */
        public long[] log2Histogram() {
            return log2Buckets.clone();
        }

        public long samples() {
            return samples;
        }

        public long outOfOrderArrivals() {
            return outOfOrder;
        }

        public long maxDegree() {
            return maxDegree;
        }

        /** Most out-of-order packets one receiver held at once (its reorder buffer). */
        public long maxHeld() {
            return maxHeld;
        }
    }

    public OutOfOrderStats outOfOrder() {
        return outOfOrder;
    }

    /** NACKs and CNPs sent by all receivers. */
    public long nacksSent() {
        long n = 0;
        for (ReceiverQp r : receivers) {
            n += r.nacks();
        }
        return n;
    }

    public long cnpsSent() {
        long n = 0;
        for (ReceiverQp r : receivers) {
            n += r.cnps();
        }
        return n;
    }

    /**
     * @param qps               every queue pair; a connection (flow) may be carried by several
     * @param connectionOfQp    the connection each queue pair belongs to
     * @param startPsOfQp       when each queue pair starts sending
     * @param connections       number of connections
     * @param bundleOfQp        the scheme bundle making each queue pair's parts (entropy policy, sender loss
     *                          recovery, receiver policy, sender hooks): its traffic class's
     * @param lbOfQp            the load-balancing scheme of each queue pair (its traffic class's), which labels its ACKs
     */
    public Transport(Network network, List<QpContext> qps, int[] connectionOfQp, long[] startPsOfQp, int connections,
                     CongestionControlFactory cc, QueuePairScheme[] bundleOfQp, LoadBalancer[] lbOfQp, RandomStreams rng, int ackBytes,
                     Fib convergedFib, int batchPackets) {
        this.sim = network.simulator();
        java.util.Set<QueuePairScheme> registered = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (QueuePairScheme scheme : bundleOfQp) {
            if (registered.add(scheme)) {
                scheme.registerKinds(kinds);
            }
        }
        int hosts = network.topology().hostCount();
        stacks = new HostStack[hosts];
        for (int h = 0; h < hosts; h++) {
            stacks[h] = new HostStack(h, network.nic(h), network.pool(), this, batchPackets);
        }
        int n = qps.size();
        senders = new SenderQp[n];
        receivers = new ReceiverQp[n];
        this.connectionOfQp = connectionOfQp.clone();
        this.qpsLeft = new int[connections];
        this.connectionDonePs = new long[connections];
        Arrays.fill(connectionDonePs, -1);
        for (int i = 0; i < n; i++) {
            QpContext ctx = qps.get(i);
            LoadBalancer lb = lbOfQp[i];
            qpsLeft[connectionOfQp[i]]++;
            var congestion = cc.create(ctx);
            QpParts parts = bundleOfQp[i].create(new HostContext(ctx, network.topology(), convergedFib, rng.stream("entropy", i), sim));
            senders[i] = new SenderQp(ctx, stacks[ctx.src()], sim, network.pool(), congestion, parts.recovery(), parts.entropy(),
                    parts.sender(), startPsOfQp[i]);
            receivers[i] = new ReceiverQp(i, ctx.dst(), ctx.src(), ctx.messageBytes(), ctx.packets(), ackBytes, ctx.trafficClass(),
                    lb.newAckPolicy(new HostContext(ctx, network.topology(), convergedFib, rng.stream("ack-entropy", i), sim)),
                    parts.receiver(), cc.cnpIntervalPs(), outOfOrder, stacks[ctx.dst()], network.pool(), sim);
        }
        this.connectionsLeft = connections;
        this.onAllDone = sim::stop;
        lostData = new long[n];
        network.setLossListener((qp, psn) -> lostData[qp]++);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(startPsOfQp[a], startPsOfQp[b]));
        startOrder = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
        handlerId = sim.register(this);
        if (n > 0) {
            sim.schedule(handlerId, senders[startOrder[0]].startPs(), 0, 0);
        }
    }

    Simulator simulator() {
        return sim;
    }

    /** The packet kinds of this run, the schemes' own included. */
    public PacketKinds kinds() {
        return kinds;
    }

    /** Data copies all senders injected and sent (not retransmissions). */
    public long duplicatesSent() {
        long n = 0;
        for (SenderQp s : senders) {
            n += s.duplicatesSent();
        }
        return n;
    }

    /** Payload-free scheme packets (notifications, probes) all senders injected and sent. */
    public long notificationsSent() {
        long n = 0;
        for (SenderQp s : senders) {
            n += s.notificationsSent();
        }
        return n;
    }

    @Override
    public void onEvent(int kind, long tag) {
        long now = sim.nowPs();
        while (nextToStart < startOrder.length && senders[startOrder[nextToStart]].startPs() <= now) {
            SenderQp qp = senders[startOrder[nextToStart++]];
            stacks[qp.ctx.src()].activate(qp);
        }
        if (nextToStart < startOrder.length) {
            sim.schedule(handlerId, senders[startOrder[nextToStart]].startPs(), 0, 0);
        }
    }

    SenderQp sender(int qp) {
        return senders[qp];
    }

    ReceiverQp receiver(int qp) {
        return receivers[qp];
    }

    void countDataArrival(Packet p) {
        dataArrivals++;
        deliveredPayloadBytes += p.payloadBytes;
    }

    /** Payload bytes of every data packet that reached its receiver, duplicates included. */
    public long deliveredPayloadBytes() {
        return deliveredPayloadBytes;
    }

    void onFlowComplete(SenderQp qp) {
        completed++;
        lastCompletionPs = sim.nowPs();
        int c = connectionOfQp[qp.qp()];
        if (--qpsLeft[c] == 0) {
            connectionDonePs[c] = sim.nowPs();
            if (--connectionsLeft == 0) {
                onAllDone.run();
            }
        }
    }

    /**
     * What happens when the last connection completes; by default the simulation stops. A run may
     * instead snapshot its statistics and let the packets still in flight drain, so that late
     * duplicates are counted.
     */
    public void onAllDone(Runnable action) {
        this.onAllDone = action;
    }

    /** When every queue pair of connection {@code c} had its data acknowledged, or -1. */
    public long connectionDonePs(int c) {
        return connectionDonePs[c];
    }

    /** The connection a queue pair carries part of. */
    public int connectionOf(int qp) {
        return connectionOfQp[qp];
    }

    /** Number of queue pairs. */
    public int flowCount() {
        return senders.length;
    }

    public int connectionCount() {
        return qpsLeft.length;
    }

    public int completedFlows() {
        return completed;
    }

    public long lastCompletionPs() {
        return lastCompletionPs;
    }

    public SenderQp senderOf(int qp) {
        return senders[qp];
    }

    public ReceiverQp receiverOf(int qp) {
        return receivers[qp];
    }

    public HostStack stack(int host) {
        return stacks[host];
    }

    /** Data packets of this flow the fabric lost (dropped or sent onto a failed link). */
    public long lostData(int qp) {
        return lostData[qp];
    }

    public long dataArrivals() {
        return dataArrivals;
    }
}
