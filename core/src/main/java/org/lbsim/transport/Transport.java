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
 *
 * <p>Connections may depend on others (collective steps): such a connection keeps a count of its
 * unfinished dependencies, and each connection a list of its dependents (CSR arrays). When a
 * connection completes, each dependent whose count reaches zero is queued to start at
 * max(its earliest start, now + its gap) in a small heap of pending starts that shares the one
 * wake-up with the static start order: O(1) per dependency edge plus O(log pending) per start.
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
    // the dependency graph of connections (empty arrays when every connection is independent)
    private final int[] depsLeft;
    private final int[] dependentsFrom;
    private final int[] dependents;
    private final long[] gapPsOf;
    private final long[] earliestStartPsOf;
    private final long[] startedPsOf;
    private final int[] qpsFrom;
    private final int[] qpsOfConnection;
    private final StartHeap pendingStarts = new StartHeap();
    /** Time of the live wake-up (Long.MAX_VALUE if none); an event whose tag is not wakeGeneration is stale. */
    private long wakePs = Long.MAX_VALUE;
    private long wakeGeneration;
    private final OutOfOrderStats outOfOrder = new OutOfOrderStats();
    private final PacketKinds kinds = new PacketKinds();

    /**
     * Out-of-order degree of arriving data (PSN minus the receiver's expected PSN) as a log2
     * histogram, and the most out-of-order packets any receiver held at once.
     */
    public static final class OutOfOrderStats {
        /** Degrees counted exactly for quantiles (larger ones share the last slot). */
        public static final int EXACT_DEGREES = 4097;
        private final long[] log2Buckets = new long[33];
        /** Arrivals per exact degree 0 .. EXACT_DEGREES - 2; the last slot counts every larger degree (PRO VI-A percentiles). */
        private final long[] byDegree = new long[EXACT_DEGREES];
        private long samples;
        private long outOfOrder;
        private long maxDegree;
        private long maxHeld;
        private long heldNow;

        void record(int degree, int held) {
            samples++;
            byDegree[Math.min(degree, EXACT_DEGREES - 1)]++;
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

        /**
         * The {@code q}-quantile (0 < q <= 1) of the out-of-order degree over all data arrivals (0 = in
         * order), exact up to {@link #EXACT_DEGREES} - 2; 0 before any arrival.
         */
        public int degreeQuantile(double q) {
            return quantileFrom(0, q);
        }

        /** The {@code q}-quantile of the degree over out-of-order arrivals only (degree >= 1); 0 when there were none. */
        public int outOfOrderDegreeQuantile(double q) {
            return quantileFrom(1, q);
        }

        private int quantileFrom(int first, double q) {
            long total = 0;
            for (int d = first; d < byDegree.length; d++) {
                total += byDegree[d];
            }
            long rank = (long) Math.ceil(q * total);
            long seen = 0;
            for (int d = first; d < byDegree.length; d++) {
                seen += byDegree[d];
                if (seen >= rank && seen > 0) {
                    return d;
                }
            }
            return 0;
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
        this(network, qps, connectionOfQp, startPsOfQp, connections, null, null, cc, bundleOfQp, lbOfQp, rng, ackBytes, convergedFib,
                batchPackets);
    }

    /**
     * @param depsOfConnection  the connections each connection waits for (null or all empty: every connection independent);
     *                          the graph must be acyclic
     * @param gapPsOfConnection the compute gap after a connection's last dependency completed, before it starts
     */
    public Transport(Network network, List<QpContext> qps, int[] connectionOfQp, long[] startPsOfQp, int connections,
                     int[][] depsOfConnection, long[] gapPsOfConnection,
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
        // dependency graph: count of unfinished dependencies, dependents as CSR, queue pairs per connection as CSR
        depsLeft = new int[connections];
        gapPsOf = new long[connections];
        earliestStartPsOf = new long[connections];
        startedPsOf = new long[connections];
        dependentsFrom = new int[connections + 1];
        qpsFrom = new int[connections + 1];
        for (int i = 0; i < n; i++) {
            qpsFrom[connectionOfQp[i] + 1]++;
            earliestStartPsOf[connectionOfQp[i]] = startPsOfQp[i];
        }
        int edges = 0;
        if (depsOfConnection != null) {
            for (int c = 0; c < connections; c++) {
                int[] deps = depsOfConnection[c];
                depsLeft[c] = deps.length;
                gapPsOf[c] = gapPsOfConnection[c];
                for (int d : deps) {
                    dependentsFrom[d + 1]++;
                    edges++;
                }
            }
        }
        for (int c = 0; c < connections; c++) {
            dependentsFrom[c + 1] += dependentsFrom[c];
            qpsFrom[c + 1] += qpsFrom[c];
            startedPsOf[c] = depsLeft[c] == 0 ? earliestStartPsOf[c] : -1;
        }
        dependents = new int[edges];
        int[] fill = Arrays.copyOf(dependentsFrom, connections);
        if (depsOfConnection != null) {
            for (int c = 0; c < connections; c++) {
                for (int d : depsOfConnection[c]) {
                    dependents[fill[d]++] = c;
                }
            }
        }
        qpsOfConnection = new int[n];
        int[] qpFill = Arrays.copyOf(qpsFrom, connections);
        for (int i = 0; i < n; i++) {
            qpsOfConnection[qpFill[connectionOfQp[i]]++] = i;
        }
        // queue pairs of independent connections start in start order; dependent ones on their dependencies' completion
        int independent = 0;
        for (int i = 0; i < n; i++) {
            independent += depsLeft[connectionOfQp[i]] == 0 ? 1 : 0;
        }
        Integer[] order = new Integer[independent];
        for (int i = 0, j = 0; i < n; i++) {
            if (depsLeft[connectionOfQp[i]] == 0) {
                order[j++] = i;
            }
        }
        Arrays.sort(order, (a, b) -> Long.compare(startPsOfQp[a], startPsOfQp[b]));
        startOrder = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
        handlerId = sim.register(this);
        if (startOrder.length > 0) {
            wakePs = senders[startOrder[0]].startPs();
            sim.schedule(handlerId, wakePs, 0, wakeGeneration);
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
        if (tag != wakeGeneration) {
            return; // superseded by an earlier wake-up for a dependent start
        }
        long now = sim.nowPs();
        wakePs = Long.MAX_VALUE;
        while (nextToStart < startOrder.length && senders[startOrder[nextToStart]].startPs() <= now) {
            SenderQp qp = senders[startOrder[nextToStart++]];
            qp.congestionControl().onStart(now);
            stacks[qp.ctx.src()].activate(qp);
        }
        while (!pendingStarts.isEmpty() && pendingStarts.topPs() <= now) {
            int c = pendingStarts.pop();
            startedPsOf[c] = now;
            for (int k = qpsFrom[c]; k < qpsFrom[c + 1]; k++) {
                SenderQp qp = senders[qpsOfConnection[k]];
                qp.congestionControl().onStart(now);
                stacks[qp.ctx.src()].activate(qp);
            }
        }
        long next = nextToStart < startOrder.length ? senders[startOrder[nextToStart]].startPs() : Long.MAX_VALUE;
        if (!pendingStarts.isEmpty()) {
            next = Math.min(next, pendingStarts.topPs());
        }
        if (next != Long.MAX_VALUE) {
            wakePs = next;
            sim.schedule(handlerId, next, 0, ++wakeGeneration);
        }
    }

    /** Queues connection {@code c}, whose dependencies all completed, to start after its gap. */
    private void release(int c, long nowPs) {
        long at = Math.max(earliestStartPsOf[c], nowPs + gapPsOf[c]);
        pendingStarts.push(at, c);
        if (at < wakePs) {
            wakePs = at;
            sim.schedule(handlerId, at, 0, ++wakeGeneration);
        }
    }

    /**
     * Pending starts ordered by time, then by when they were queued (deterministic ties): a binary
     * heap over primitive arrays.
     */
    private static final class StartHeap {
        private long[] timePs = new long[16];
        private long[] order = new long[16];
        private int[] connection = new int[16];
        private int size;
        private long pushed;

        boolean isEmpty() {
            return size == 0;
        }

        long topPs() {
            return timePs[0];
        }

        void push(long t, int c) {
            if (size == timePs.length) {
                timePs = Arrays.copyOf(timePs, size * 2);
                order = Arrays.copyOf(order, size * 2);
                connection = Arrays.copyOf(connection, size * 2);
            }
            int i = size++;
            long o = pushed++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (!before(t, o, timePs[parent], order[parent])) {
                    break;
                }
                set(i, timePs[parent], order[parent], connection[parent]);
                i = parent;
            }
            set(i, t, o, c);
        }

        int pop() {
            int top = connection[0];
            size--;
            long t = timePs[size];
            long o = order[size];
            int c = connection[size];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && before(timePs[child + 1], order[child + 1], timePs[child], order[child])) {
                    child++;
                }
                if (!before(timePs[child], order[child], t, o)) {
                    break;
                }
                set(i, timePs[child], order[child], connection[child]);
                i = child;
            }
            if (size > 0) {
                set(i, t, o, c);
            }
            return top;
        }

        private static boolean before(long t1, long o1, long t2, long o2) {
            return t1 < t2 || (t1 == t2 && o1 < o2);
        }

        private void set(int i, long t, long o, int c) {
            timePs[i] = t;
            order[i] = o;
            connection[i] = c;
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
            long now = sim.nowPs();
            connectionDonePs[c] = now;
            for (int k = dependentsFrom[c]; k < dependentsFrom[c + 1]; k++) {
                int d = dependents[k];
                if (--depsLeft[d] == 0) {
                    release(d, now);
                }
            }
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

    /**
     * When connection {@code c} started: its start time if independent, else when its dependencies and
     * gap allowed it to start; -1 if it never started.
     */
    public long connectionStartedPs(int c) {
        return startedPsOf[c];
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
