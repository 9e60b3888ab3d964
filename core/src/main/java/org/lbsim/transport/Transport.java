package org.lbsim.transport;

import java.util.Arrays;
import java.util.List;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.PacketKinds;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.QueuePairs;
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
 *
 * <p>Queue pairs of independent connections are built up front. Those of dependent connections
 * (collective steps, which may number tens of millions) are built when their connection starts
 * and released once done and nothing refers to them any more: the sender has all its data
 * acknowledged, no packet it or its receiver made is still anywhere (in the fabric, a host's
 * control queue or the sender's extras), and the receiver's timer is idle. What the results need
 * of a released queue pair (packets sent, retransmissions, duplicates, ...) is kept in a few
 * primitive arrays. So memory follows the queue pairs in progress, not all of them.
 *
 * <p>Persistent queue pairs ({@code nic.queuePairs: persistent}): a message may name the previous
 * message on its queue pair. It starts only once that one is fully acknowledged (a message ready
 * earlier waits for it), and it is built from what the previous one leaves: the same congestion
 * control object (DCQCN's rate, alpha, timers and pacing go on), the scheme's per-queue-pair state
 * through {@link QueuePairScheme#next}, the receiver's CNP pacing and ACK labels. Loss recovery and
 * the receiver's PSN state start afresh per message; each message is still its own flow with its
 * own completion time.
 */
public final class Transport implements EventHandler, QueuePairs {
    private final Simulator sim;
    private final HostStack[] stacks;
    private final SenderQueuePair[] senders;
    private final ReceiverQueuePair[] receivers;
    private final int[] startOrder;
    private final int handlerId;
    private int nextToStart;
    private int completed;
    private long lastCompletionPs;
    private final long[] lostData;
    private final int[] connectionOfQp;
    private final int[] qpsLeft;
    private final long[] connectionDonePs;
    private int connectionsLeft;
    /** Per connection: cut when the others complete instead of awaited (null: every connection is awaited). */
    private boolean[] lastsForeground;
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
    /** By host: when its next queue pair starts (Long.MAX_VALUE if none), for runs whose hosts start their own. */
    private final long[] nextStartPsOfHost;
    /** Whether a completion can start queue pairs (dependencies or persistent queue pairs). */
    private final boolean startsOnCompletion;
    private long wakeGeneration;
    /** By partition (one in a sequential run): each receiver records into its host's partition's statistics. */
    private final OutOfOrderStats[] outOfOrderByPartition;
    private final PacketKinds kinds = new PacketKinds();
    // building queue pairs when they start (dependent connections) and releasing them when done
    private final Network network;
    private final List<QpContext> contexts;
    /** By queue pair: left out of its connection's data when the connection started ({@link #splitOverCarriers}). */
    private final boolean[] carriesNothing;
    private long idleQueuePairs;
    private final CongestionControlFactory cc;
    private final QueuePairScheme[] bundleOfQp;
    private final LoadBalancer[] lbOfQp;
    private final RandomStreams rng;
    private final int ackBytes;
    private final long[] startPsOfQp;
    /** The routes hosts know: the converged ones, then each FIB the network announces (for queue pairs built later). */
    private Fib hostFib;
    /** Whether each queue pair is built when it starts and released when done. */
    private final boolean[] lazy;
    /** Packets each queue pair's sender or receiver made that were not yet delivered or lost. */
    private final int[] outstanding;
    /**
     * A partitioned run: the same count kept per thread (a packet made on one thread may be gone on
     * another), summed when read; {@code outstanding} is then thread 0's. Queue pairs are never
     * released there, so no single thread's count has to reach zero.
     */
    private final int[][] outstandingByThread;
    /** Kept until the end (for the sampler's rate series), never released. */
    private final boolean[] kept;
    private boolean releasing = true;
    /** rho_max of the fabric as routing last converged, once it changed during the run; -1 before. */
    private long rhoMaxNowMbps = -1;
    private int live;
    private int maxLive;
    private long released;
    private final int senderTimers;
    private final int receiverTimers;
    // what the results need of released queue pairs (empty arrays when nothing is lazy)
    private final long[] retiredSent;
    private final long[] retiredRetransmissions;
    private final long[] retiredTimeouts;
    private final long[] retiredDuplicatesReceived;
    private final long[] retiredDuplicatesSent;
    private final long[] retiredReceiverDonePs;
    private long retiredNacks;
    private long retiredCnps;
    private long retiredDuplicatesSentTotal;
    private long retiredNotifications;
    // persistent queue pairs (all null when every message has its own queue pair)
    /** The previous message on each queue pair's persistent queue pair, -1 for the first. */
    private final int[] previousOnQp;
    private final int[] nextOnQp;
    /** The sender and receiver of a queue pair's previous message, held from its completion until this one is built. */
    private final SenderQueuePair[] carriedSender;
    private final ReceiverQueuePair[] carriedReceiver;
    private final boolean[] qpDone;
    /** Ready to start, but waiting for the previous message on its queue pair. */
    private final boolean[] waitingForQp;
    private final boolean[] connectionStarted;

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
        /** Of {@link #heldNow}, by the traffic class of the receiving queue pair. */
        private final long[] heldNowByClass = new long[64];

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

        void held(int delta, int trafficClass) {
            heldNow += delta;
            heldNowByClass[trafficClass] += delta;
        }

        /** Out-of-order packets all receivers hold right now, together. */
        public long heldNow() {
            return heldNow;
        }

        /** Out-of-order packets the receivers of traffic class {@code trafficClass} (0-63) hold right now, together. */
        public long heldNow(int trafficClass) {
            return heldNowByClass[trafficClass];
        }

        /** Arrivals with degree in [2^(b-1), 2^b) for bucket b >= 1; bucket 0 counts in-order arrivals. */
        public long[] log2Histogram() {
            return log2Buckets.clone();
        }

        public long samples() {
            return samples;
        }

        public long arrivals() {
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

        /** Adds {@code o}'s arrivals to these (a partitioned run's statistics, gathered at the end). */
        void add(OutOfOrderStats o) {
            for (int i = 0; i < log2Buckets.length; i++) {
                log2Buckets[i] += o.log2Buckets[i];
            }
            for (int i = 0; i < byDegree.length; i++) {
                byDegree[i] += o.byDegree[i];
            }
            samples += o.samples;
            outOfOrder += o.outOfOrder;
            maxDegree = Math.max(maxDegree, o.maxDegree);
            maxHeld = Math.max(maxHeld, o.maxHeld);
            heldNow += o.heldNow;
            for (int c = 0; c < heldNowByClass.length; c++) {
                heldNowByClass[c] += o.heldNowByClass[c];
            }
        }
    }

    /** Out-of-order statistics of all receivers (in a partitioned run, gathered from the partitions now). */
    public OutOfOrderStats outOfOrder() {
        if (outOfOrderByPartition.length == 1) {
            return outOfOrderByPartition[0];
        }
        OutOfOrderStats all = new OutOfOrderStats();
        for (OutOfOrderStats o : outOfOrderByPartition) {
            all.add(o);
        }
        return all;
    }

    /** NACKs and CNPs sent by all receivers. */
    public long nacksSent() {
        long n = retiredNacks;
        for (ReceiverQueuePair r : receivers) {
            n += r == null ? 0 : r.nacks();
        }
        return n;
    }

    public long cnpsSent() {
        long n = retiredCnps;
        for (ReceiverQueuePair r : receivers) {
            n += r == null ? 0 : r.cnps();
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
        this(network, qps, connectionOfQp, startPsOfQp, connections, depsOfConnection, gapPsOfConnection, null, cc, bundleOfQp, lbOfQp, rng,
                ackBytes, convergedFib, batchPackets);
    }

    /**
     * @param previousOnQp for each queue pair, the queue pair of the previous message on the same persistent
     *                     queue pair, or -1; null when every message has its own queue pair. Together with the
     *                     dependencies the chains must be acyclic
     */
    public Transport(Network network, List<QpContext> qps, int[] connectionOfQp, long[] startPsOfQp, int connections,
                     int[][] depsOfConnection, long[] gapPsOfConnection, int[] previousOnQp,
                     CongestionControlFactory cc, QueuePairScheme[] bundleOfQp, LoadBalancer[] lbOfQp, RandomStreams rng, int ackBytes,
                     Fib convergedFib, int batchPackets) {
        this.sim = network.simulator();
        outOfOrderByPartition = new OutOfOrderStats[sim.partitionCount()];
        for (int i = 0; i < outOfOrderByPartition.length; i++) {
            outOfOrderByPartition[i] = new OutOfOrderStats();
        }
        java.util.Set<QueuePairScheme> registered = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (QueuePairScheme scheme : bundleOfQp) {
            if (registered.add(scheme)) {
                scheme.registerKinds(kinds);
            }
        }
        int hosts = network.topology().hostCount();
        nextStartPsOfHost = new long[hosts]; // 0 until the run says how its queue pairs start: a start may be due at any time
        stacks = new HostStack[hosts];
        for (int h = 0; h < hosts; h++) {
            stacks[h] = new HostStack(h, network.nic(h), network.pool(), this, batchPackets);
        }
        int n = qps.size();
        if (n >= 1 << 30) {
            throw new IllegalArgumentException(n + " queue pairs, more than a run can address (2^30)");
        }
        senders = new SenderQueuePair[n];
        receivers = new ReceiverQueuePair[n];
        this.network = network;
        this.contexts = new java.util.ArrayList<>(qps); // a connection's shares may be re-split when it starts (carriesData)
        this.cc = cc;
        this.bundleOfQp = bundleOfQp;
        this.lbOfQp = lbOfQp;
        this.rng = rng;
        this.ackBytes = ackBytes;
        this.startPsOfQp = startPsOfQp;
        this.hostFib = convergedFib;
        network.addRoutingListener(fib -> hostFib = fib);
        this.connectionOfQp = connectionOfQp.clone();
        this.qpsLeft = new int[connections];
        this.connectionDonePs = new long[connections];
        Arrays.fill(connectionDonePs, -1);
        lazy = new boolean[n];
        kept = new boolean[n];
        carriesNothing = new boolean[n];
        outstandingByThread = new int[sim.threadCount()][];
        for (int i = 0; i < outstandingByThread.length; i++) {
            outstandingByThread[i] = new int[n];
        }
        outstanding = outstandingByThread[0];
        int lazyCount = 0;
        if (previousOnQp != null) {
            this.previousOnQp = previousOnQp.clone();
            nextOnQp = new int[n];
            Arrays.fill(nextOnQp, -1);
            for (int i = 0; i < n; i++) {
                int prev = previousOnQp[i];
                if (prev == i || prev >= n || (prev >= 0 && nextOnQp[prev] >= 0)) {
                    throw new IllegalArgumentException("queue pair " + i + " cannot follow queue pair " + prev + " on a persistent queue pair");
                }
                if (prev >= 0) {
                    nextOnQp[prev] = i;
                }
            }
            carriedSender = new SenderQueuePair[n];
            carriedReceiver = new ReceiverQueuePair[n];
            qpDone = new boolean[n];
            waitingForQp = new boolean[n];
            connectionStarted = new boolean[connections];
        } else {
            this.previousOnQp = null;
            nextOnQp = null;
            carriedSender = null;
            carriedReceiver = null;
            qpDone = null;
            waitingForQp = null;
            connectionStarted = null;
        }
        for (int i = 0; i < n; i++) {
            qpsLeft[connectionOfQp[i]]++;
            // a later message of a persistent queue pair is built from its predecessor's state, so when it starts
            lazy[i] = depsOfConnection != null && depsOfConnection[connectionOfQp[i]].length > 0 || continues(i);
            lazyCount += lazy[i] ? 1 : 0;
        }
        startsOnCompletion = lazyCount > 0; // only dependent and continued queue pairs are queued by completions
        // each queue pair's timer is a creator of its own in a partitioned run's tie-break key
        senderTimers = sim.registerMultiplexed((qp, tag) -> {
            SenderQueuePair s = senders[qp];
            if (s != null) { // a released queue pair's timer is stale
                s.onTimer(tag);
            }
        }, Math.max(1, n));
        receiverTimers = sim.registerMultiplexed((qp, tag) -> {
            ReceiverQueuePair r = receivers[qp];
            if (r != null) {
                r.onTimer(tag);
                if (isLazy(qp)) {
                    releaseIfDone(qp);
                }
            }
        }, Math.max(1, n));
        int retired = lazyCount > 0 ? n : 0;
        retiredSent = new long[retired];
        retiredRetransmissions = new long[retired];
        retiredTimeouts = new long[retired];
        retiredDuplicatesReceived = new long[retired];
        retiredDuplicatesSent = new long[retired];
        retiredReceiverDonePs = new long[retired];
        Arrays.fill(retiredReceiverDonePs, -1);
        for (int i = 0; i < n; i++) {
            if (!lazy[i]) {
                build(i, convergedFib);
            }
        }
        this.connectionsLeft = connections;
        this.onAllDone = sim::stop;
        lostData = new long[n];
        network.setLossListener(new Network.LossListener() {
            @Override
            public void onDataLost(int qp, int psn) {
                lostData[qp]++;
            }

            @Override
            public void onPacketGone(int qp) {
                if (qp >= 0 && qp < outstanding.length) { // a switch may make packets of its own
                    gone(qp);
                }
            }
        });
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
        Arrays.fill(nextStartPsOfHost, Long.MAX_VALUE);
        if (startOrder.length == senders.length && previousOnQp == null) {
            startPerHost(hosts);
        } else if (startOrder.length > 0) {
            wakePs = startPsOfQp[startOrder[0]];
            sim.schedule(handlerId, wakePs, 0, wakeGeneration);
        }
    }

    /**
     * Independent, per-message queue pairs: each host starts its own (in start order), so that starting
     * one never touches another partition of a partitioned run; a sequential run does the same, so that
     * both order equal-time events alike. Runs with dependencies or persistent queue pairs (which a
     * partitioned run refuses) start every queue pair from the transport's own wake-up.
     */
    private void startPerHost(int hosts) {
        int[] count = new int[hosts];
        for (int q : startOrder) {
            count[contexts.get(q).src()]++;
        }
        int[][] byHost = new int[hosts][];
        for (int h = 0; h < hosts; h++) {
            byHost[h] = new int[count[h]];
            count[h] = 0;
        }
        for (int q : startOrder) {
            int h = contexts.get(q).src();
            byHost[h][count[h]++] = q;
        }
        for (int h = 0; h < hosts; h++) {
            if (byHost[h].length > 0) {
                new HostStarter(byHost[h]);
            }
        }
    }

    /** Starts one host's queue pairs at their start times. */
    private final class HostStarter implements EventHandler {
        private final int[] qps;
        private final int host;
        private final int handler;
        private int next;

        HostStarter(int[] qps) {
            this.qps = qps;
            this.host = contexts.get(qps[0]).src();
            this.handler = sim.register(this);
            sim.place(handler, host);
            nextStartPsOfHost[host] = startPsOfQp[qps[0]];
            sim.schedule(handler, startPsOfQp[qps[0]], 0, 0);
        }

        @Override
        public void onEvent(int kind, long tag) {
            long now = sim.nowPs();
            nextStartPsOfHost[host] = Long.MAX_VALUE; // the queue pairs starting now are started below
            while (next < qps.length && startPsOfQp[qps[next]] <= now) {
                start(qps[next++], now);
            }
            if (next < qps.length) {
                nextStartPsOfHost[host] = startPsOfQp[qps[next]];
                sim.schedule(handler, startPsOfQp[qps[next]], 0, 0);
            }
        }
    }

    /** Whether queue pair {@code q} carries a later message of a persistent queue pair. */
    private boolean continues(int q) {
        return previousOnQp != null && previousOnQp[q] >= 0;
    }

    /** Builds queue pair {@code i}'s sender and receiver; host policies see {@code fib} as the routes. */
    private SenderQueuePair build(int i, Fib fib) {
        QpContext ctx = contexts.get(i);
        SenderQueuePair before = carriedSender == null ? null : carriedSender[i];
        ReceiverQueuePair receivedBefore = before == null ? null : carriedReceiver[i];
        // a persistent queue pair's next message goes on with its congestion control and scheme state
        var congestion = before != null ? before.congestionControl() : cc.create(ctx);
        HostContext host = new HostContext(ctx, network.topology(), fib, rng.stream("entropy", i), sim);
        QpParts parts = before != null ? bundleOfQp[i].next(host, before.parts) : bundleOfQp[i].create(host);
        senders[i] = new SenderQueuePair(ctx, stacks[ctx.src()], sim, network.pool(), congestion, parts.recovery(), parts.entropy(),
                parts.sender(), startPsOfQp[i]);
        senders[i].parts = parts;
        receivers[i] = new ReceiverQueuePair(i, ctx.dst(), ctx.src(), ctx.messageBytes(), ctx.packets(), ackBytes, ctx.trafficClass(),
                receivedBefore != null ? receivedBefore.ackPolicy()
                        : lbOfQp[i].newAckPolicy(new HostContext(ctx, network.topology(), fib, rng.stream("ack-entropy", i), sim)),
                parts.receiver(), cc.cnpIntervalPs(), outOfOrderByPartition[sim.partitionOfNode(ctx.dst())], stacks[ctx.dst()], network.pool(), sim);
        if (before != null) {
            receivers[i].continueFrom(receivedBefore);
            carriedSender[i] = null;
            carriedReceiver[i] = null;
        } else if (rhoMaxNowMbps >= 0) {
            senders[i].onRhoMaxChange(rhoMaxNowMbps, sim.nowPs());
        }
        maxLive = Math.max(maxLive, ++live);
        return senders[i];
    }

    private boolean isLazy(int qp) {
        return lazy[qp];
    }

    /**
     * Hosts leave out a look at their queue pairs when the last one found all of them held back by
     * pacing that no feedback moves, until the earliest may send (HostStack); the run is the same.
     */
    public void skipPacedLooks() {
        for (HostStack stack : stacks) {
            stack.skipPacedLooks();
        }
    }

    /** Looks at a host's queue pairs left out by {@link #skipPacedLooks}, over all hosts. */
    public long pacedLooksSkipped() {
        long n = 0;
        for (HostStack stack : stacks) {
            n += stack.pacedLooksSkipped();
        }
        return n;
    }

    /** Queue pairs the hosts' looks passed on what their last look found, without asking them. */
    public long heldQpsPassed() {
        long n = 0;
        for (HostStack stack : stacks) {
            n += stack.heldQpsPassed();
        }
        return n;
    }

    /**
     * Routing converged around a failure or repair and the fabric's rho_max is now {@code mbps}: every
     * queue pair built so far hears of it, and those built later start with it (OFAN App. A's sender
     * for the fabric as it is; congestion controls other than a rho_max sender ignore it).
     */
    public void setRhoMaxMbps(long mbps) {
        rhoMaxNowMbps = mbps;
        long now = sim.nowPs();
        for (SenderQueuePair s : senders) {
            if (s != null) {
                s.onRhoMaxChange(mbps, now);
            }
        }
        for (HostStack stack : stacks) {
            stack.pacingChanged();
        }
    }

        /** A packet of queue pair {@code qp} was made by its sender or receiver. */
    void made(int qp) {
        outstandingByThread[sim.threadIndex()][qp]++;
    }

    /** A packet of queue pair {@code qp} was delivered, lost or thrown away. */
    void gone(int qp) {
        if (--outstandingByThread[sim.threadIndex()][qp] == 0 && lazy[qp]) {
            releaseIfDone(qp);
        }
    }

    /** Releases a built-on-start queue pair once done and unreferenced, keeping what the results need. */
    private void releaseIfDone(int q) {
        SenderQueuePair s = senders[q];
        ReceiverQueuePair r = receivers[q];
        if (s == null || s.completedPs() < 0 || outstanding[q] != 0 || r.timerPs() != Long.MAX_VALUE || kept[q] || !releasing) {
            return;
        }
        if (network.originated() > 0) {
            releasing = false; // a switch program made packets: which queue pairs they refer to is unknown
            return;
        }
        LossRecovery rec = s.recovery();
        retiredSent[q] = s.sentPackets();
        retiredRetransmissions[q] = rec.retransmissions();
        retiredTimeouts[q] = rec.timeouts();
        retiredDuplicatesSent[q] = s.duplicatesSent();
        retiredDuplicatesReceived[q] = r.duplicates();
        retiredReceiverDonePs[q] = r.completedPs();
        retiredNacks += r.nacks();
        retiredCnps += r.cnps();
        retiredDuplicatesSentTotal += s.duplicatesSent();
        retiredNotifications += s.notificationsSent();
        senders[q] = null;
        receivers[q] = null;
        live--;
        released++;
    }

    /**
     * Keeps queue pairs {@code 0 .. count-1} from being released and builds those not built yet, so
     * that they can be read during and after the run (the sampler's rate series).
     */
    public void keepQueuePairs(int count) {
        for (int i = 0; i < Math.min(count, senders.length); i++) {
            kept[i] = true;
            if (senders[i] == null && !continues(i)) { // a persistent queue pair's later message is built from its predecessor
                build(i, hostFib);
            }
        }
    }

    /** Keeps every queue pair until the end of the run (tests that inspect them afterwards). */
    public void keepAllQueuePairs() {
        keepQueuePairs(senders.length);
    }

    /** Most queue pairs built and not yet released at any one time. */
    public int maxLiveQueuePairs() {
        return maxLive;
    }

    /** Queue pairs released during the run. */
    public long releasedQueuePairs() {
        return released;
    }

    /** Packets of queue pair {@code qp} made by its sender or receiver and not yet delivered or lost. */
    public int outstandingPackets(int qp) {
        int n = 0;
        for (int[] byQp : outstandingByThread) {
            n += byQp[qp];
        }
        return n;
    }

    /** Data packets queue pair {@code qp} sent (first transmissions and retransmissions). */
    public long sentPackets(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.sentPackets() : retiredOr(retiredSent, qp, 0);
    }

    public long retransmissions(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.recovery().retransmissions() : retiredOr(retiredRetransmissions, qp, 0);
    }

    public long timeouts(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.recovery().timeouts() : retiredOr(retiredTimeouts, qp, 0);
    }

    /** Data copies the scheme of queue pair {@code qp} sent on purpose. */
    public long duplicatesSent(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.duplicatesSent() : retiredOr(retiredDuplicatesSent, qp, 0);
    }

    /** Data packets queue pair {@code qp}'s receiver already had. */
    public long duplicatesReceived(int qp) {
        ReceiverQueuePair r = receivers[qp];
        return r != null ? r.duplicates() : retiredOr(retiredDuplicatesReceived, qp, 0);
    }

    /** When queue pair {@code qp}'s receiver first held the whole message, or -1. */
    public long receiverCompletedPs(int qp) {
        ReceiverQueuePair r = receivers[qp];
        return r != null ? r.completedPs() : retiredOr(retiredReceiverDonePs, qp, -1);
    }

    private static long retiredOr(long[] values, int qp, long none) {
        return qp < values.length ? values[qp] : none;
    }

    Simulator simulator() {
        return sim;
    }

    /** No start of a queue pair of host {@code host} is pending at or before {@code tPs} (one pushed later for now still comes after). */
    boolean noStartPendingThrough(int host, long tPs) {
        return wakePs > tPs && nextStartPsOfHost[host] > tPs;
    }

    /**
     * No queue pair of host {@code host} starts at or before {@code tPs}: none is pending by then, and
     * none can be added by a completion (no dependent connections, no persistent queue pairs).
     */
    boolean noStartThrough(int host, long tPs) {
        return noStartPendingThrough(host, tPs) && !startsOnCompletion;
    }

    int senderTimerHandler() {
        return senderTimers;
    }

    int receiverTimerHandler() {
        return receiverTimers;
    }

    /** The packet kinds of this run, the schemes' own included. */
    public PacketKinds kinds() {
        return kinds;
    }

    /** Data copies all senders injected and sent (not retransmissions). */
    public long duplicatesSent() {
        long n = retiredDuplicatesSentTotal;
        for (SenderQueuePair s : senders) {
            n += s == null ? 0 : s.duplicatesSent();
        }
        return n;
    }

    /** Payload-free scheme packets (notifications, probes) all senders injected and sent. */
    public long notificationsSent() {
        long n = retiredNotifications;
        for (SenderQueuePair s : senders) {
            n += s == null ? 0 : s.notificationsSent();
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
        while (nextToStart < startOrder.length && startPsOfQp[startOrder[nextToStart]] <= now) {
            start(startOrder[nextToStart++], now);
        }
        while (!pendingStarts.isEmpty() && pendingStarts.topPs() <= now) {
            int c = pendingStarts.pop();
            if (c < 0) { // a queue pair whose predecessor on its persistent queue pair just completed
                start(-c - 1, now);
                continue;
            }
            if (connectionStarted == null) {
                startedPsOf[c] = now;
            }
            boolean resplit = qpsFrom[c + 1] - qpsFrom[c] > 1 && splitOverCarriers(c, now);
            for (int k = qpsFrom[c]; k < qpsFrom[c + 1]; k++) {
                int q = qpsOfConnection[k];
                if (resplit && carriesNothing[q]) {
                    continue;
                }
                start(q, now);
            }
        }
        long next = nextToStart < startOrder.length ? startPsOfQp[startOrder[nextToStart]] : Long.MAX_VALUE;
        if (!pendingStarts.isEmpty()) {
            next = Math.min(next, pendingStarts.topPs());
        }
        if (next != Long.MAX_VALUE) {
            wakePs = next;
            sim.schedule(handlerId, next, 0, ++wakeGeneration);
        }
    }

    /**
     * Connection {@code c} starts: when its scheme leaves some of its queue pairs out
     * ({@link LoadBalancer#carriesData}), its bytes are split evenly over the others and the left-out
     * ones complete at once with nothing to send. Returns whether it re-split; not when any queue pair
     * is built already (kept for the sampler) or when all or none carry data.
     */
    private boolean splitOverCarriers(int c, long now) {
        if (previousOnQp != null) {
            return false; // persistent queue pairs keep their messages: a left-out one would hold up its successors
        }
        int carriers = 0;
        long bytes = 0;
        for (int k = qpsFrom[c]; k < qpsFrom[c + 1]; k++) {
            int q = qpsOfConnection[k];
            if (senders[q] != null) {
                return false;
            }
            QpContext ctx = contexts.get(q);
            bytes += ctx.messageBytes();
            carriesNothing[q] = !lbOfQp[q].carriesData(ctx);
            carriers += carriesNothing[q] ? 0 : 1;
        }
        if (carriers == 0 || carriers == qpsFrom[c + 1] - qpsFrom[c]) {
            return false;
        }
        int j = 0;
        for (int k = qpsFrom[c]; k < qpsFrom[c + 1]; k++) {
            int q = qpsOfConnection[k];
            if (carriesNothing[q]) {
                completed++;
                qpsLeft[c]--;
                retiredReceiverDonePs[q] = now; // nothing to receive (dependent queue pairs have retired-state arrays)
                idleQueuePairs++;
                continue;
            }
            QpContext x = contexts.get(q);
            long share = bytes / carriers + (j++ < bytes % carriers ? 1 : 0);
            int packets = (int) Math.max(1, (share + x.mtuBytes() - 1) / x.mtuBytes());
            contexts.set(q, new QpContext(x.qp(), x.src(), x.dst(), share, packets, x.mtuBytes(), x.headerBytes(), x.gapBytes(),
                    x.lineRateMbps(), x.baseRttPs(), x.rhoMaxMbps(), x.startPs(), x.hostPhase(), x.trafficClass(), x.qpIndex(),
                    x.qpsPerConnection()));
        }
        return true;
    }

    /** Queue pairs of dependent connections that their scheme left without data when the connection started. */
    public long idleQueuePairs() {
        return idleQueuePairs;
    }

    /**
     * Starts queue pair {@code q} now; a later message of a persistent queue pair whose previous message
     * is not acknowledged yet waits for it instead (an RC queue pair carries its messages in order).
     */
    private void start(int q, long now) {
        if (continues(q) && !qpDone[previousOnQp[q]]) {
            waitingForQp[q] = true;
            return;
        }
        SenderQueuePair qp = senders[q] != null ? senders[q] : build(q, hostFib);
        if (connectionStarted != null && !connectionStarted[connectionOfQp[q]]) {
            connectionStarted[connectionOfQp[q]] = true;
            startedPsOf[connectionOfQp[q]] = now; // its first queue pair's start, after any wait for its queue pair
        }
        if (!continues(q)) {
            qp.congestionControl().onStart(now); // a persistent queue pair started with its first message
            stacks[qp.ctx.src()].pacingChanged();
        }
        stacks[qp.ctx.src()].activate(qp);
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

    /** Queues queue pair {@code q}, which waited for its persistent queue pair, to start at {@code at}. */
    private void queueStart(int q, long at) {
        pendingStarts.push(at, -q - 1);
        if (at < wakePs) {
            wakePs = at;
            sim.schedule(handlerId, at, 0, ++wakeGeneration);
        }
    }

    /**
     * Pending starts ordered by time, then by when they were queued (deterministic ties): a binary
     * heap over primitive arrays. An entry is a connection, or -1 - q for a single queue pair q.
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

    SenderQueuePair sender(int qp) {
        return senders[qp];
    }

    ReceiverQueuePair receiver(int qp) {
        return receivers[qp];
    }

    /** Payload bytes of every data packet that reached its receiver, duplicates included. */
    public long deliveredPayloadBytes() {
        long n = 0;
        for (HostStack s : stacks) {
            n += s.deliveredPayloadBytes();
        }
        return n;
    }

    /** Serialised: in a partitioned run, queue pairs complete in every partition. */
    synchronized void onFlowComplete(SenderQueuePair qp) {
        completed++;
        if (awaited(connectionOfQp[qp.qp()])) {
            lastCompletionPs = Math.max(lastCompletionPs, sim.nowPs());
        }
        if (nextOnQp != null) {
            int q = qp.qp();
            qpDone[q] = true;
            int following = nextOnQp[q];
            if (following >= 0) {
                carriedSender[following] = qp;
                carriedReceiver[following] = receivers[q];
                if (waitingForQp[following]) {
                    waitingForQp[following] = false;
                    queueStart(following, sim.nowPs());
                }
            }
        }
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
            if (awaited(c) && --connectionsLeft == 0) {
                // now when sequential; when partitioned, where every partition has caught up, at the last completion's time
                // (the partition that counts the last completion is not always the one that completed last)
                sim.atSynchronisationPoint(lastCompletionPs, onAllDone);
            }
        }
        if (lazy[qp.qp()]) {
            releaseIfDone(qp.qp());
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

    /**
     * Connection {@code c} runs only while the others do: the last of the others to complete ends the
     * run (its {@link #onAllDone} action), whether or not {@code c} has completed. Call before the run.
     */
    public void lastsForeground(int c) {
        if (lastsForeground == null) {
            lastsForeground = new boolean[qpsLeft.length];
        }
        if (!lastsForeground[c]) {
            lastsForeground[c] = true;
            connectionsLeft--;
        }
        if (connectionsLeft == 0) {
            throw new IllegalStateException("every connection lasts as long as the others: nothing would end the run");
        }
    }

    /** Whether the run waits for connection {@code c} (it does not for one that {@link #lastsForeground}). */
    private boolean awaited(int c) {
        return lastsForeground == null || !lastsForeground[c];
    }

    /** Whether every connection the run waits for has completed (all of them, without {@link #lastsForeground}). */
    public boolean foregroundDone() {
        return connectionsLeft == 0;
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

    /**
     * Queue pair {@code qp}'s sender; null for a dependent connection's queue pair not started yet
     * or already released (see {@link #keepAllQueuePairs}).
     */
    @Override
    public SenderQueuePair senderOf(int qp) {
        return senders[qp];
    }

    /**
     * The congestion control that sets queue pair {@code qp}'s rate: its sender's, or, for a later message of
     * a persistent queue pair not built yet, that of the nearest earlier message still held; null if none is.
     */
    public org.lbsim.spi.CongestionControl congestionControlOf(int qp) {
        for (int q = qp; q >= 0; q = continues(q) ? previousOnQp[q] : -1) {
            if (senders[q] != null) {
                return senders[q].congestionControl();
            }
            if (carriedSender != null && carriedSender[q] != null) {
                return carriedSender[q].congestionControl();
            }
        }
        return null;
    }

    /** Queue pair {@code qp}'s receiver; null when its sender is (see {@link #senderOf}). */
    @Override
    public ReceiverQueuePair receiverOf(int qp) {
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
        long n = 0;
        for (HostStack s : stacks) {
            n += s.dataArrivals();
        }
        return n;
    }
}
