package org.lbsim.transport;

import java.util.Arrays;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;

/**
 * Starts each queue pair at its start time. Queue pairs of independent connections start in start
 * order (one pending wake-up). A dependent connection is queued when its last dependency completes,
 * to start at max(its earliest start, now + its gap), in a small heap of pending starts that shares
 * the one wake-up with the static start order: O(1) per dependency edge plus O(log pending) per start.
 * A later message of a persistent queue pair waits for the previous one to be acknowledged.
 */
final class FlowScheduler implements EventHandler {
    private final Simulator sim;
    private final QueuePairLifecycle queuePairs;
    private final ConnectionGraph graph;
    private final ConnectionProgress progress;
    /** Persistent queue pairs, or null when every message has its own. */
    private final PersistentChains chains;
    private final long[] startPsOfQp;
    /** Queue pairs of independent connections, by start time. */
    private final int[] startOrder;
    private int nextToStart;
    private final StartHeap pendingStarts = new StartHeap();
    private int handlerId = -1;
    /** Time of the live wake-up (Long.MAX_VALUE if none); an event whose tag is not wakeGeneration is stale. */
    private long wakePs = Long.MAX_VALUE;
    private long wakeGeneration;
    /** By host: when its next queue pair starts (Long.MAX_VALUE if none), for runs whose hosts start their own. */
    private final long[] nextStartPsOfHost;
    /** Whether a completion can start queue pairs (dependencies or persistent queue pairs). */
    private final boolean startsOnCompletion;
    private final long[] startedPsOf;
    /** With persistent queue pairs: whether a connection's first queue pair started (its start may wait for its queue pair). */
    private final boolean[] connectionStarted;
    /** By queue pair: left out of its connection's data when the connection started ({@link #splitOverCarriers}). */
    private final boolean[] carriesNothing;

    FlowScheduler(Simulator sim, int hosts, ConnectionPlan plan, QueuePairLifecycle queuePairs, ConnectionGraph graph,
                  ConnectionProgress progress, PersistentChains chains) {
        this.sim = sim;
        this.queuePairs = queuePairs;
        this.graph = graph;
        this.progress = progress;
        this.chains = chains;
        this.startPsOfQp = plan.startPsOfQp();
        int n = plan.qpCount();
        int connections = plan.connections();
        nextStartPsOfHost = new long[hosts]; // 0 until the starts are scheduled: a start may be due at any time
        startsOnCompletion = queuePairs.anyBuiltOnStart(); // only dependent and continued queue pairs are queued by completions
        carriesNothing = new boolean[n];
        connectionStarted = chains != null ? new boolean[connections] : null;
        startedPsOf = new long[connections];
        for (int c = 0; c < connections; c++) {
            startedPsOf[c] = graph.ready(c) ? graph.earliestStartPs(c) : -1;
        }
        startOrder = independentByStartTime(plan.connectionOfQp());
    }

    /** Queue pairs of independent connections in start order (stable: equal times keep queue pair order). */
    private int[] independentByStartTime(int[] connectionOfQp) {
        int independent = 0;
        for (int c : connectionOfQp) {
            independent += graph.ready(c) ? 1 : 0;
        }
        Integer[] order = new Integer[independent];
        for (int i = 0, j = 0; i < connectionOfQp.length; i++) {
            if (graph.ready(connectionOfQp[i])) {
                order[j++] = i;
            }
        }
        Arrays.sort(order, (a, b) -> Long.compare(startPsOfQp[a], startPsOfQp[b]));
        return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    }

    /** Registers the scheduler and schedules the first starts; after every queue pair built up front is. */
    void scheduleStarts() {
        handlerId = sim.register(this);
        Arrays.fill(nextStartPsOfHost, Long.MAX_VALUE);
        if (startOrder.length == queuePairs.count() && chains == null) {
            startPerHost();
        } else if (startOrder.length > 0) {
            wakePs = startPsOfQp[startOrder[0]];
            sim.schedule(handlerId, wakePs, 0, wakeGeneration);
        }
    }

    /**
     * Independent, per-message queue pairs: each host starts its own (in start order), so that starting
     * one never touches another partition of a partitioned run; a sequential run does the same, so that
     * both order equal-time events alike. Runs with dependencies or persistent queue pairs (which a
     * partitioned run refuses) start every queue pair from the scheduler's own wake-up.
     */
    private void startPerHost() {
        int hosts = nextStartPsOfHost.length;
        int[] count = new int[hosts];
        for (int q : startOrder) {
            count[queuePairs.context(q).src()]++;
        }
        int[][] byHost = new int[hosts][];
        for (int h = 0; h < hosts; h++) {
            byHost[h] = new int[count[h]];
            count[h] = 0;
        }
        for (int q : startOrder) {
            int h = queuePairs.context(q).src();
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
            this.host = queuePairs.context(qps[0]).src();
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
            } else {
                startConnection(c, now);
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

    /** Starts dependent connection {@code c}, whose dependencies and gap are behind it. */
    private void startConnection(int c, long now) {
        if (connectionStarted == null) {
            startedPsOf[c] = now;
        }
        int from = graph.qpsFrom(c);
        int to = graph.qpsFrom(c + 1);
        boolean resplit = to - from > 1 && splitOverCarriers(c, now);
        for (int k = from; k < to; k++) {
            int q = graph.qp(k);
            if (resplit && carriesNothing[q]) {
                continue;
            }
            start(q, now);
        }
    }

    /**
     * Connection {@code c} starts: when its scheme leaves some of its queue pairs out
     * ({@code LoadBalancer.carriesData}), its bytes are split evenly over the others and the left-out
     * ones complete at once with nothing to send. Returns whether it re-split; not when any queue pair
     * is built already (kept for the sampler) or when all or none carry data.
     */
    private boolean splitOverCarriers(int c, long now) {
        if (chains != null) {
            return false; // persistent queue pairs keep their messages: a left-out one would hold up its successors
        }
        int from = graph.qpsFrom(c);
        int to = graph.qpsFrom(c + 1);
        int carriers = 0;
        long bytes = 0;
        for (int k = from; k < to; k++) {
            int q = graph.qp(k);
            if (queuePairs.built(q)) {
                return false;
            }
            bytes += queuePairs.context(q).messageBytes();
            carriesNothing[q] = !queuePairs.carriesData(q);
            carriers += carriesNothing[q] ? 0 : 1;
        }
        if (carriers == 0 || carriers == to - from) {
            return false;
        }
        int j = 0;
        for (int k = from; k < to; k++) {
            int q = graph.qp(k);
            if (carriesNothing[q]) {
                progress.qpLeftOut(q);
                queuePairs.leftIdle(q, now);
                continue;
            }
            queuePairs.reshare(q, bytes / carriers + (j++ < bytes % carriers ? 1 : 0));
        }
        return true;
    }

    /**
     * Starts queue pair {@code q} now; a later message of a persistent queue pair whose previous message
     * is not acknowledged yet waits for it instead (an RC queue pair carries its messages in order).
     */
    private void start(int q, long now) {
        if (chains != null && chains.holdsBack(q)) {
            return;
        }
        SenderQueuePair qp = queuePairs.builtSender(q);
        if (connectionStarted != null && !connectionStarted[progress.connectionOf(q)]) {
            connectionStarted[progress.connectionOf(q)] = true;
            startedPsOf[progress.connectionOf(q)] = now; // its first queue pair's start, after any wait for its queue pair
        }
        queuePairs.activate(q, qp, now);
    }

    /** Connection {@code c} completed at {@code nowPs}: each dependent whose last dependency it was is queued. */
    void connectionCompleted(int c, long nowPs) {
        for (int k = graph.dependentsFrom(c); k < graph.dependentsFrom(c + 1); k++) {
            int d = graph.dependent(k);
            if (graph.dependencyDone(d)) {
                queue(graph.startPsAfter(d, nowPs), d);
            }
        }
    }

    /** Queue pair {@code q}, which waited for its persistent queue pair, starts at {@code atPs}. */
    void startWaiting(int q, long atPs) {
        queue(atPs, -q - 1);
    }

    /** Queues a pending start (a connection, or -1 - q for queue pair q), waking up earlier if it is due first. */
    private void queue(long atPs, int entry) {
        pendingStarts.push(atPs, entry);
        if (atPs < wakePs) {
            wakePs = atPs;
            sim.schedule(handlerId, atPs, 0, ++wakeGeneration);
        }
    }

    /**
     * When connection {@code c} started: its start time if independent, else when its dependencies and
     * gap allowed it to start; -1 if it never started.
     */
    long connectionStartedPs(int c) {
        return startedPsOf[c];
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
}
