package org.lbsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * A conservative parallel kernel ({@code --threads N}): the components are split into
 * partitions (by the topology node each is {@linkplain #place placed} at), each with its own event
 * set, and the partitions run side by side in synchronisation windows. A window starts at the
 * earliest pending event T of the whole run and covers [T, T + lookahead), where the lookahead is at
 * most the smallest delay of any event that crosses partitions (a link's propagation delay): nothing
 * a partition does inside a window can reach another partition inside the same window. Events for
 * another partition wait in an outbox until the window ends, then join that partition's event set.
 *
 * <p>Equal-time events are ordered by the key both kernels use ({@link Simulator}), which each
 * partition computes alone, so every component's events run in the same order however the fabric is
 * split: {@code --threads N} for any N gives the sequential run's flows. The windows do not depend on
 * the split either (the lookahead is fixed by the fabric, not by the cut).
 *
 * <p>Partition 0 runs on the thread that calls {@link #run}; the others on worker threads of their own.
 */
public final class PartitionedSimulator extends Simulator {

    private final int partitionCount;
    /** Threads the partitions run on (at most one per partition); thread j runs a contiguous block of partitions in turn. */
    private final int threadCount;
    private final long lookaheadPs;
    private final long workerStackBytes;
    private int[] nodePartition = new int[0];
    private int[] handlerPartition;
    private final Partition[] partitions;
    /** Events scheduled outside the event loop, placed when the next window starts. */
    private final Outbox outside = new Outbox();
    private long outsideCounter;
    private final List<Deferred> deferred = new ArrayList<>();
    private final List<Runnable> observers = new ArrayList<>();
    private volatile boolean stopAsked;
    /** The partition run by the calling thread during a window (partition 0), null outside windows. */
    private Partition callerPartition;
    private int writeParity;
    private long windows;

    /**
     * @param partitions       how many partitions (and threads)
     * @param lookaheadPs      the smallest delay of any event that crosses partitions (> 0)
     * @param workerStackBytes stack size of each worker thread
     */
    public PartitionedSimulator(int partitions, long lookaheadPs, long workerStackBytes) {
        this(partitions, partitions, lookaheadPs, workerStackBytes);
    }

    /**
     * @param partitions       how many partitions
     * @param threads          how many threads run them (each a contiguous block of partitions, one after
     *                         another in every window); at most {@code partitions} are used
     * @param lookaheadPs      the smallest delay of any event that crosses partitions (> 0)
     * @param workerStackBytes stack size of each worker thread
     */
    public PartitionedSimulator(int partitions, int threads, long lookaheadPs, long workerStackBytes) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.threadCount = Math.min(threads, Math.max(1, partitions));
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        if (lookaheadPs <= 0) {
            throw new IllegalArgumentException("a partitioned run needs a positive lookahead, got " + lookaheadPs + " ps");
        }
        this.partitionCount = partitions;
        this.lookaheadPs = lookaheadPs;
        setWindowPs(lookaheadPs);
        this.workerStackBytes = workerStackBytes;
        this.partitions = new Partition[partitions];
        for (int i = 0; i < partitions; i++) {
            this.partitions[i] = new Partition(i, partitions, threadCount);
        }
        for (int t = 0; t < threadCount; t++) {
            for (Partition p : block(t)) {
                p.thread = t;
            }
        }
    }

    /** The partition of each topology node; call before {@link #run}. */
    public void setNodePartitions(int[] partitionOfNode) {
        for (int p : partitionOfNode) {
            if (p < 0 || p >= partitionCount) {
                throw new IllegalArgumentException("partition " + p + " outside 0.." + (partitionCount - 1));
            }
        }
        this.nodePartition = partitionOfNode.clone();
    }

    public long lookaheadPs() {
        return lookaheadPs;
    }

    /** Synchronisation windows run so far. */
    public long windows() {
        return windows;
    }

    @Override
    public boolean partitioned() {
        return true;
    }

    @Override
    public int partitionCount() {
        return partitionCount;
    }

    @Override
    public int partitionOfNode(int node) {
        return nodePartition[node];
    }

    @Override
    public int partitionIndex() {
        Partition p = current();
        return p == null ? 0 : p.index;
    }

    @Override
    public int threadIndex() {
        Partition p = current();
        return p == null ? 0 : p.thread;
    }

    @Override
    public int threadCount() {
        return threadCount;
    }

    private Partition current() {
        Thread t = Thread.currentThread();
        if (t instanceof Worker w) {
            return w.partition;
        }
        return callerPartition;
    }

    @Override
    public long nowPs() {
        Partition p = current();
        return p == null ? nowPs : p.nowPs;
    }

    @Override
    public long eventsProcessed() {
        long n = eventsProcessed; // the events run at synchronisation points
        for (Partition p : partitions) {
            n += p.events;
        }
        return n;
    }

    @Override
    public int pendingEvents() {
        long n = outside.size + atSynchronisation.size();
        for (Partition p : partitions) {
            n += p.queue.size();
            for (Outbox[] byParity : p.outboxes) {
                for (Outbox o : byParity) {
                    n += o == null ? 0 : o.size;
                }
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    @Override
    public void stop() {
        stopAsked = true;
    }

    @Override
    public void atSynchronisationPoint(long timePs, Runnable action) {
        Partition p = current();
        if (p == null) {
            action.run();
            return;
        }
        synchronized (deferred) {
            deferred.add(new Deferred(timePs, p.eventPs, p.eventTarget, p.eventSeq, action));
        }
    }

    @Override
    public void atEverySynchronisationPoint(Runnable observer) {
        observers.add(observer);
    }

    @Override
    public void schedule(int handlerId, long timePs, int kind, long tag) {
        enqueue(handlerId, timePs, kind, tag, null, false);
    }

    @Override
    public void scheduleBackground(int handlerId, long timePs, int kind, long tag) {
        enqueue(handlerId, timePs, kind | BACKGROUND, tag, null, true);
    }

    @Override
    public void scheduleIn(int handlerId, long delayPs, int kind, long tag) {
        schedule(handlerId, nowPs() + delayPs, kind, tag);
    }

    @Override
    public void transfer(int handlerId, long timePs, int kind, long tag, Object payload) {
        enqueue(handlerId, timePs, kind, tag, payload, false);
    }

    private void enqueue(int h, long timePs, int kind, long tag, Object payload, boolean background) {
        Partition p = current();
        if (p == null) {
            if (timePs < nowPs) {
                throw new IllegalStateException("event scheduled in the past: " + timePs + " < " + nowPs);
            }
            outside.add(timePs, creatorOf(h, kind & ~BACKGROUND), ((long) OUTSIDE << CREATOR_BITS) | outsideCounter++, h, kind, tag, payload);
            return;
        }
        if (timePs < p.nowPs) {
            throw new IllegalStateException("event scheduled in the past: " + timePs + " < " + p.nowPs);
        }
        int creator = p.creator;
        long seq = ((long) creator << CREATOR_BITS) | (p.creatorCounters[creator]++ & COUNTER_MASK);
        long targetKey = creatorOf(h, kind & ~BACKGROUND);
        int target = handlerPartition[h];
        if (target == AT_SYNCHRONISATION_POINTS) {
            throw new IllegalStateException("component " + h + " runs at synchronisation points but was scheduled from inside a window");
        }
        if (!background) {
            p.foregroundDelta++;
        }
        if (target < 0 || target == p.index) {
            if (payload != null) {
                ((PayloadHandler) handlers[h]).accept(payload);
            }
            p.queue.push(timePs, targetKey, seq, h, kind, tag);
        } else {
            if (timePs < p.windowEndPs) {
                throw new IllegalStateException("an event for partition " + target + " at " + timePs + " ps lies inside the window ending at "
                        + p.windowEndPs + " ps: a cross-partition delay shorter than the lookahead of " + lookaheadPs + " ps");
            }
            Outbox[] row = p.outboxes[writeParity];
            Outbox o = row[target];
            if (o == null) {
                o = row[target] = new Outbox();
            }
            if (o.size == 0) {
                partitions[target].sentBy(writeParity, p.thread, p.index);
            }
            o.add(timePs, targetKey, seq, h, kind, tag, payload);
            if (timePs < p.outboxMinPs[writeParity]) {
                p.outboxMinPs[writeParity] = timePs;
            }
        }
    }

    @Override
    public void run(long untilPs) {
        stopAsked = false;
        timeLimitReached = false;
        wallLimitReached = false;
        if (nodePartition.length == 0 && partitionCount > 1) {
            throw new IllegalStateException("setNodePartitions was not called");
        }
        prepareTables();
        Worker[] workers = new Worker[threadCount - 1];
        CyclicBarrier start = new CyclicBarrier(threadCount);
        CyclicBarrier end = new CyclicBarrier(threadCount);
        for (int i = 1; i < threadCount; i++) {
            workers[i - 1] = new Worker(this, block(i), start, end, workerStackBytes);
            workers[i - 1].start();
        }
        Partition[] mine = block(0);
        long deadline = wallDeadlineNanos;
        Throwable failure = null;
        try {
            while (true) {
                placeOutside();
                int readParity = writeParity;
                long next = nextEventPs(readParity);
                if (foregroundEvents() <= 0 || stopAsked) {
                    break;
                }
                long global = atSynchronisation.isEmpty() ? Long.MAX_VALUE : atSynchronisation.peekTime();
                if (global <= next && global <= untilPs) {
                    runAtSynchronisation(global); // before every partition's events of the same time
                    continue;
                }
                if (next > untilPs) {
                    nowPs = untilPs;
                    timeLimitReached = true;
                    break;
                }
                if (deadline != 0 && System.nanoTime() - deadline > 0) {
                    wallLimitReached = true;
                    break;
                }
                openWindow(next, windowEnd(next, untilPs, global), readParity); // the whole fabric is observed at its end, between windows
                await(start);
                failure = runWindows(mine);
                await(end);
                for (Worker w : workers) {
                    if (w.failure != null && failure == null) {
                        failure = w.failure;
                    }
                }
                if (failure != null) {
                    break;
                }
                runDeferred();
                for (Runnable o : observers) {
                    o.run();
                }
            }
        } finally {
            for (Worker w : workers) {
                w.finish = true;
            }
            if (workers.length > 0) {
                await(start);
            }
        }
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        settleClocks();
    }

    /** The earliest event of the whole run: in the partitions' event sets and in the outboxes written in the last window. */
    private long nextEventPs(int readParity) {
        long next = Long.MAX_VALUE;
        for (Partition p : partitions) {
            if (!p.queue.isEmpty()) {
                next = Math.min(next, p.queue.peekTime());
            }
            next = Math.min(next, p.outboxMinPs[readParity]);
        }
        return next;
    }

    /** Foreground events pending anywhere: the run ends when none is left. */
    private long foregroundEvents() {
        long foreground = foregroundPending; // the events of components at synchronisation points
        for (Partition p : partitions) {
            foreground += p.foregroundDelta;
        }
        return foreground;
    }

    /** Starts the window [startPs, endPs): the partitions read the outboxes of parity {@code readParity} and write the other. */
    private void openWindow(long startPs, long endPs, int readParity) {
        nowPs = startPs; // the time outside the event loop (progress display, synchronisation points) is the window's start
        writeParity = readParity ^ 1;
        for (Partition p : partitions) {
            p.windowEndPs = endPs;
            p.readParity = readParity;
            p.outboxMinPs[writeParity] = Long.MAX_VALUE; // its outboxes were emptied in the last window
        }
        windows++;
    }

    /** Runs the window of each partition of the calling thread's block; returns what failed, or null. */
    private Throwable runWindows(Partition[] mine) {
        try {
            for (Partition p : mine) {
                callerPartition = p;
                p.window(this);
            }
            return null;
        } catch (RuntimeException | Error e) {
            return e;
        } finally {
            callerPartition = null;
        }
    }

    /** After the run: every partition's clock shows the run's end (the time limit, or its last event). */
    private void settleClocks() {
        if (!timeLimitReached) {
            long last = nowPs;
            for (Partition p : partitions) {
                last = Math.max(last, p.nowPs);
            }
            nowPs = last;
        }
        for (Partition p : partitions) {
            p.nowPs = nowPs;
        }
    }

    /** Partition {@code index}, for the partitions taking in each other's outboxes. */
    Partition partition(int index) {
        return partitions[index];
    }

    /** The partitions thread {@code t} runs: a contiguous block, so a thread works on one part of the fabric. */
    private Partition[] block(int t) {
        int from = (int) ((long) t * partitionCount / threadCount);
        int to = (int) ((long) (t + 1) * partitionCount / threadCount);
        return Arrays.copyOfRange(partitions, from, to);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while synchronising partitions", e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException("a partition thread failed", e);
        }
    }

    private void prepareTables() {
        for (int t = 0; t < threadCount; t++) {
            // one array per thread: a creator's events all run in one partition, so in one thread
            Partition[] block = block(t);
            long[] counters = block[0].creatorCounters == null ? new long[creatorCount] : Arrays.copyOf(block[0].creatorCounters, creatorCount);
            for (Partition p : block) {
                p.creatorCounters = counters;
            }
        }
        handlerPartition = new int[handlerCount];
        for (int h = 0; h < handlerCount; h++) {
            int node = handlerNode[h];
            handlerPartition[h] = node == AT_SYNCHRONISATION_POINTS ? AT_SYNCHRONISATION_POINTS
                    : node < 0 ? -1 : partitionCount == 1 ? 0 : nodePartition[node];
        }
    }

    private void runDeferred() {
        if (deferred.isEmpty()) {
            return;
        }
        // in the order of the events that asked (a total, split-independent order), each at its own time
        deferred.sort((a, b) -> a.eventPs != b.eventPs ? Long.compare(a.eventPs, b.eventPs)
                : a.target != b.target ? Long.compare(a.target, b.target) : Long.compare(a.seq, b.seq));
        long saved = nowPs;
        for (Deferred d : deferred) {
            nowPs = d.timePs;
            d.action.run();
        }
        nowPs = saved;
        deferred.clear();
    }

    private record Deferred(long timePs, long eventPs, long target, long seq, Runnable action) {
    }

    /** Events scheduled outside the event loop go to the partitions of their components. */
    private void placeOutside() {
        Outbox o = outside;
        for (int i = 0; i < o.size; i++) {
            int h = (int) (o.handlerKind[i] >>> 32);
            int target = handlerPartition[h];
            int kind = (int) o.handlerKind[i];
            if (target == AT_SYNCHRONISATION_POINTS) {
                if ((kind & BACKGROUND) == 0) {
                    foregroundPending++;
                }
                atSynchronisation.push(o.timePs[i], o.target[i], o.seq[i], h, kind, o.tag[i]);
                continue;
            }
            if (target < 0) {
                if (partitionCount > 1) {
                    throw new IllegalStateException("component " + h + " (" + handlers[h].getClass().getName()
                            + ") was scheduled outside the event loop but is placed at no node: a partitioned run cannot tell where it runs");
                }
                target = 0;
            }
            Partition p = partitions[target];
            if ((kind & BACKGROUND) == 0) {
                p.foregroundDelta++;
            }
            if (o.payload[i] != null) {
                ((PayloadHandler) handlers[h]).accept(o.payload[i]);
            }
            p.queue.push(o.timePs[i], o.target[i], o.seq[i], h, kind, o.tag[i]);
        }
        o.clear();
    }

    /** Runs a block of partitions' windows on a thread of its own, one partition after another. */
    private static final class Worker extends Thread {
        final Partition[] block;
        /** The partition whose window this thread runs now. */
        Partition partition;
        private final PartitionedSimulator sim;
        private final CyclicBarrier start;
        private final CyclicBarrier end;
        volatile boolean finish;
        volatile Throwable failure;

        Worker(PartitionedSimulator sim, Partition[] block, CyclicBarrier start, CyclicBarrier end, long stackBytes) {
            super(null, null, "lbsim-partition-" + block[0].index, stackBytes);
            this.sim = sim;
            this.block = block;
            this.start = start;
            this.end = end;
            setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                await(start);
                if (finish) {
                    return;
                }
                try {
                    for (Partition p : block) {
                        partition = p;
                        p.window(sim);
                    }
                } catch (Throwable e) {
                    failure = e;
                }
                await(end);
            }
        }
    }
}
