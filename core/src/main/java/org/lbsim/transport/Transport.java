package org.lbsim.transport;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
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
import org.lbsim.workload.Flow;

/**
 * All queue pairs of a run and the host stacks they live in. Starts each flow at its start time
 * (one pending wake-up, flows taken in start order) and stops the simulation when the last one
 * completes.
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
    private final OutOfOrderStats outOfOrder = new OutOfOrderStats();

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

    public Transport(Network network, List<Flow> flows, IntFunction<QpContext> contexts, CongestionControlFactory cc,
                     LossRecoveryFactory recovery, LoadBalancer lb, RandomStreams rng, int ackBytes, Fib convergedFib) {
        this.sim = network.simulator();
        int hosts = network.topology().hostCount();
        stacks = new HostStack[hosts];
        for (int h = 0; h < hosts; h++) {
            stacks[h] = new HostStack(h, network.nic(h), network.pool(), this);
        }
        int n = flows.size();
        senders = new SenderQp[n];
        receivers = new ReceiverQp[n];
        for (int i = 0; i < n; i++) {
            Flow f = flows.get(i);
            QpContext ctx = contexts.apply(i);
            senders[i] = new SenderQp(ctx, stacks[f.src()], sim, network.pool(), cc.create(ctx), recovery.create(ctx),
                    lb.newEntropyPolicy(new HostContext(ctx, network.topology(), convergedFib, rng.stream("entropy", i), sim)), f.startPs());
            receivers[i] = new ReceiverQp(i, f.dst(), f.src(), f.bytes(), ctx.packets(), ackBytes,
                    lb.newAckPolicy(new HostContext(ctx, network.topology(), convergedFib, rng.stream("ack-entropy", i), sim)),
                    recovery.receiveRule(), cc.cnpIntervalPs(), outOfOrder);
        }
        lostData = new long[n];
        network.setLossListener((flow, psn) -> lostData[flow]++);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(flows.get(a).startPs(), flows.get(b).startPs()));
        startOrder = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
        handlerId = sim.register(this);
        if (n > 0) {
            sim.schedule(handlerId, senders[startOrder[0]].startPs(), 0, 0);
        }
    }

    Simulator simulator() {
        return sim;
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
        if (completed == senders.length) {
            sim.stop();
        }
    }

    public int flowCount() {
        return senders.length;
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
