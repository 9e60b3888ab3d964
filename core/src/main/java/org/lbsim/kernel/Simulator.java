package org.lbsim.kernel;

import java.util.Arrays;

/**
 * The discrete-event kernel. Time is a {@code long} of picoseconds. Components register once and
 * then schedule wake-ups for themselves; the kernel knows nothing about the model.
 * One instance per run (and per thread), so replications can run in parallel.
 *
 * <p>This class is the sequential kernel: equal-time events run in global insertion order. A run
 * with {@code --threads} uses {@link PartitionedSimulator} instead, chosen when the run is built, so
 * in a sequential run this class has no loaded subclass and every call stays monomorphic.
 */
public class Simulator {
    private final EventQueue queue = new EventQueue(1 << 12);
    EventHandler[] handlers = new EventHandler[64];
    int handlerCount;
    long nowPs;
    private long eventsProcessed;
    private boolean stopRequested;
    private long foregroundPending;
    boolean timeLimitReached;
    long wallDeadlineNanos;
    boolean wallLimitReached;
    /** The wall clock is read once per this many events (a mask): cheap enough to leave on always. */
    static final long WALL_CHECK_MASK = (1 << 14) - 1;
    /** Marks a background event inside the kind field; kinds themselves stay small. */
    static final int BACKGROUND = 1 << 30;

    public long nowPs() {
        return nowPs;
    }

    public long eventsProcessed() {
        return eventsProcessed;
    }

    public int pendingEvents() {
        return queue.size();
    }

    /** Registers a component and returns the id it schedules with. */
    public int register(EventHandler handler) {
        if (handlerCount == handlers.length) {
            handlers = Arrays.copyOf(handlers, handlerCount * 2);
        }
        handlers[handlerCount] = handler;
        return handlerCount++;
    }

    /**
     * Registers one component that stands for {@code kinds} independent ones, told apart by the event
     * kind (0 .. kinds - 1): the transport's timers, by queue pair. The same as {@link #register} here;
     * a partitioned run gives each kind its own identity in the tie-break key and runs each event in the
     * partition that scheduled it.
     */
    public int registerMultiplexed(EventHandler handler, int kinds) {
        return register(handler);
    }

    /**
     * The "node" of components that observe the whole fabric (samplers): in a partitioned run their
     * events run between windows, with every partition paused, before any other event of the same time.
     */
    public static final int AT_SYNCHRONISATION_POINTS = -2;

    /**
     * Says that component {@code handlerId} belongs to topology node {@code node} (or
     * {@link #AT_SYNCHRONISATION_POINTS}): a partitioned run runs its events in that node's partition.
     * Components never placed run their events in the partition that scheduled them. Nothing to do in
     * a sequential run.
     */
    public void place(int handlerId, int node) {
    }

    /** Whether this is a partitioned ({@code --threads}) run. */
    public boolean partitioned() {
        return false;
    }

    /** The partition whose event is running on this thread (0 outside the event loop and in a sequential run). */
    public int partitionIndex() {
        return 0;
    }

    /** How many partitions the run has (1 in a sequential run). */
    public int partitionCount() {
        return 1;
    }

    /**
     * The thread running this thread's partitions, 0 to {@link #threadCount()} - 1 (0 outside the event
     * loop and in a sequential run): what state shared by all partitions of one thread is indexed by.
     */
    public int threadIndex() {
        return 0;
    }

    /** How many threads run the partitions (1 in a sequential run). */
    public int threadCount() {
        return 1;
    }

    /** The partition of topology node {@code node} (0 in a sequential run). */
    public int partitionOfNode(int node) {
        return 0;
    }

    /**
     * Runs {@code action} where the whole simulation is in one consistent state: now in a sequential
     * run; at the end of the current synchronisation window in a partitioned one, with {@link #nowPs}
     * reading {@code timePs} (at most the current time, not before the window's start), so that it
     * may read every partition's state.
     */
    public void atSynchronisationPoint(long timePs, Runnable action) {
        action.run();
    }

    /**
     * Runs {@code observer} at every synchronisation point of a partitioned run (between windows, where
     * every partition's state is consistent); never in a sequential run, which has none.
     */
    public void atEverySynchronisationPoint(Runnable observer) {
    }

    /**
     * Schedules a wake-up of {@code handlerId}, a {@link PayloadHandler}, that carries {@code payload}:
     * the handler accepts the payload now (or, in a partitioned run, at the synchronisation point before
     * the wake-up when it lives in another partition).
     */
    public void transfer(int handlerId, long timePs, int kind, long tag, Object payload) {
        ((PayloadHandler) handlers[handlerId]).accept(payload);
        schedule(handlerId, timePs, kind, tag);
    }

    /** Schedules a wake-up of component {@code handlerId} at absolute time {@code timePs}. */
    public void schedule(int handlerId, long timePs, int kind, long tag) {
        if (timePs < nowPs) {
            throw new IllegalStateException("event scheduled in the past: " + timePs + " < " + nowPs);
        }
        foregroundPending++;
        queue.push(timePs, handlerId, kind, tag);
    }

    /**
     * Schedules a wake-up that does not by itself keep the simulation going: periodic samplers,
     * watchdogs and refresh timers. {@link #run} returns once only background events are left.
     */
    public void scheduleBackground(int handlerId, long timePs, int kind, long tag) {
        if (timePs < nowPs) {
            throw new IllegalStateException("event scheduled in the past: " + timePs + " < " + nowPs);
        }
        queue.push(timePs, handlerId, kind | BACKGROUND, tag);
    }

    public void scheduleIn(int handlerId, long delayPs, int kind, long tag) {
        schedule(handlerId, nowPs + delayPs, kind, tag);
    }

    /**
     * Makes {@link #run} return once {@code System.nanoTime()} passes {@code deadlineNanos} (checked
     * every 16384 events); 0 = no wall-clock limit.
     */
    public void setWallDeadlineNanos(long deadlineNanos) {
        this.wallDeadlineNanos = deadlineNanos;
    }

    /** Whether the last {@link #run} returned because the next event lay beyond its time limit. */
    public boolean timeLimitReached() {
        return timeLimitReached;
    }

    /** Whether the last {@link #run} returned because the wall-clock deadline passed. */
    public boolean wallLimitReached() {
        return wallLimitReached;
    }

    /** Makes {@link #run} return after the event being processed. */
    public void stop() {
        stopRequested = true;
    }

    /**
     * Runs events in order until no foreground event is left, {@link #stop()} is called, or the next
     * event lies beyond {@code untilPs}; in the last case time advances to {@code untilPs}.
     */
    public void run(long untilPs) {
        stopRequested = false;
        timeLimitReached = false;
        wallLimitReached = false;
        EventQueue q = queue;
        long deadline = wallDeadlineNanos;
        while (foregroundPending > 0 && !stopRequested) {
            long t = q.peekTime();
            if (t > untilPs) {
                nowPs = untilPs;
                timeLimitReached = true;
                return;
            }
            if (deadline != 0 && (eventsProcessed & WALL_CHECK_MASK) == 0 && System.nanoTime() - deadline > 0) {
                wallLimitReached = true;
                return;
            }
            int h = q.peekHandler();
            int kind = q.peekKind();
            long tag = q.peekTag();
            q.pop();
            if ((kind & BACKGROUND) != 0) {
                kind &= ~BACKGROUND;
            } else {
                foregroundPending--;
            }
            nowPs = t;
            eventsProcessed++;
            handlers[h].onEvent(kind, tag);
        }
    }
}
