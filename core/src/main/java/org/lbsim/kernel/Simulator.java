package org.lbsim.kernel;

import java.util.Arrays;

/**
 * The discrete-event kernel. Time is a {@code long} of picoseconds. Components register once and
 * then schedule wake-ups for themselves; the kernel knows nothing about the model.
 * One instance per run (and per thread), so replications can run in parallel.
 *
 * <p>This class is the sequential kernel; {@link PartitionedSimulator} runs the same model on
 * several threads ({@code --threads}). Both run events in one canonical order, so both give the same
 * results to the picosecond however the fabric is cut:
 * <ul>
 * <li>Equal-time events are ordered by (the component the event is for, the component whose event
 * scheduled it, that creator's own counter); each kind of a {@linkplain #registerMultiplexed
 * multiplexed} component counts as a component of its own, and events scheduled outside the event
 * loop have a creator of their own. Each partition of a partitioned run computes this key alone, and
 * shortcuts that schedule an event from another component's event, or earlier, do not change it.</li>
 * <li>Time runs in synchronisation windows: a window starts at the earliest pending event T and
 * covers [T, T + window), the window being the smallest delay of any event that crosses partitions (a
 * link's propagation delay, fixed by the fabric, not by the cut). Between windows, and only there,
 * the kernel runs the events of components placed {@link #AT_SYNCHRONISATION_POINTS} (before any
 * other event of their time; a window ends at the next of them) and checks whether to stop (no
 * foreground event left, {@link #stop()}). The sequential kernel keeps the same windows, so a run
 * ends after the same events in both.</li>
 * </ul>
 * A run with {@code --threads} uses {@link PartitionedSimulator}, chosen when the run is built, so in
 * a sequential run this class has no loaded subclass and every call stays monomorphic.
 */
public class Simulator {
    static final int CREATOR_BITS = 40;
    static final long COUNTER_MASK = (1L << CREATOR_BITS) - 1;
    static final int MAX_CREATORS = 1 << (63 - CREATOR_BITS);
    /** Creator id of events scheduled outside the event loop (building the run, synchronisation points). */
    static final int OUTSIDE = 0;

    private final KeyedEventQueue queue = new KeyedEventQueue(1 << 12);
    EventHandler[] handlers = new EventHandler[64];
    int handlerCount;
    /** By handler: the topology node it is placed at, {@link #AT_SYNCHRONISATION_POINTS}, or -1 when never placed. */
    int[] handlerNode = new int[64];
    /** By handler: its first creator id and how many it has (its kinds, when multiplexed). */
    int[] creatorBase = new int[64];
    int[] creatorSpan = new int[64];
    int creatorCount = 1;
    /** By creator: how many events it has scheduled so far. */
    private long[] creatorCounters = new long[64];
    /** The creator of the event running now ({@link #OUTSIDE} outside the event loop). */
    private int creator = OUTSIDE;
    /** Events of components placed {@link #AT_SYNCHRONISATION_POINTS}, run between windows. */
    final KeyedEventQueue atSynchronisation = new KeyedEventQueue(16);
    /** The window's length (see the class comment); 1 ps when the run never says, so each instant is a window. */
    long windowPs = 1;
    long nowPs;
    long eventsProcessed;
    boolean stopRequested;
    long foregroundPending;
    boolean timeLimitReached;
    long wallDeadlineNanos;
    boolean wallLimitReached;
    /** Marks a background event inside the kind field; kinds themselves stay small. */
    static final int BACKGROUND = 1 << 30;

    public Simulator() {
        Arrays.fill(handlerNode, -1);
    }

    /**
     * Sets the length of a synchronisation window: the smallest delay of any event that crosses
     * partitions, which a partitioned run of the same fabric uses as its lookahead. Call before
     * {@link #run}; a sequential run and a partitioned run with the same window give the same results.
     */
    public void setWindowPs(long windowPs) {
        if (windowPs <= 0) {
            throw new IllegalArgumentException("a synchronisation window must be positive, got " + windowPs + " ps");
        }
        this.windowPs = windowPs;
    }

    public long windowPs() {
        return windowPs;
    }

    public long nowPs() {
        return nowPs;
    }

    public long eventsProcessed() {
        return eventsProcessed;
    }

    public int pendingEvents() {
        return queue.size() + atSynchronisation.size();
    }

    /** Registers a component and returns the id it schedules with. */
    public int register(EventHandler handler) {
        return registerMultiplexed(handler, 1);
    }

    /**
     * Registers one component that stands for {@code kinds} independent ones, told apart by the event
     * kind (0 .. kinds - 1): the transport's timers, by queue pair. Each kind has its own identity in
     * the tie-break key, and in a partitioned run each event runs in the partition that scheduled it.
     */
    public int registerMultiplexed(EventHandler handler, int kinds) {
        if (kinds < 1) {
            throw new IllegalArgumentException("kinds must be >= 1");
        }
        if ((long) creatorCount + kinds > MAX_CREATORS) {
            throw new IllegalStateException("more than " + MAX_CREATORS + " event creators in one run");
        }
        if (handlerCount == handlers.length) {
            int n = handlerCount * 2;
            handlers = Arrays.copyOf(handlers, n);
            handlerNode = Arrays.copyOf(handlerNode, n);
            Arrays.fill(handlerNode, handlerCount, n, -1);
            creatorBase = Arrays.copyOf(creatorBase, n);
            creatorSpan = Arrays.copyOf(creatorSpan, n);
        }
        int id = handlerCount++;
        handlers[id] = handler;
        creatorBase[id] = creatorCount;
        creatorSpan[id] = kinds;
        creatorCount += kinds;
        if (creatorCount > creatorCounters.length) {
            creatorCounters = Arrays.copyOf(creatorCounters, Math.max(creatorCount, creatorCounters.length * 2));
        }
        return id;
    }

    /** The creator id of an event of handler {@code h} with kind {@code kind}. */
    final int creatorOf(int h, int kind) {
        return creatorSpan[h] > 1 ? creatorBase[h] + kind : creatorBase[h];
    }

    /**
     * The "node" of components that observe or change the whole fabric (samplers): their events run
     * between windows, with every partition paused, before any other event of the same time.
     */
    public static final int AT_SYNCHRONISATION_POINTS = -2;

    /**
     * Says that component {@code handlerId} belongs to topology node {@code node} (or
     * {@link #AT_SYNCHRONISATION_POINTS}): a partitioned run runs its events in that node's partition.
     * Components never placed run their events in the partition that scheduled them.
     */
    public void place(int handlerId, int node) {
        handlerNode[handlerId] = node;
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
     * may read every partition's state. An action may read the fabric (a partitioned run's reads then
     * include the rest of the window) but must not change what the run does.
     */
    public void atSynchronisationPoint(long timePs, Runnable action) {
        action.run();
    }

    /**
     * Runs {@code observer} at every synchronisation point of a partitioned run (between windows, where
     * every partition's state is consistent); never in a sequential run, which needs none.
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
        foregroundPending++;
        push(handlerId, timePs, kind, tag);
    }

    /**
     * Schedules a wake-up that does not by itself keep the simulation going: periodic samplers,
     * watchdogs and refresh timers. {@link #run} returns once only background events are left.
     */
    public void scheduleBackground(int handlerId, long timePs, int kind, long tag) {
        push(handlerId, timePs, kind | BACKGROUND, tag);
    }

    private void push(int h, long timePs, int kind, long tag) {
        if (timePs < nowPs) {
            throw new IllegalStateException("event scheduled in the past: " + timePs + " < " + nowPs);
        }
        int c = creator;
        long seq = ((long) c << CREATOR_BITS) | (creatorCounters[c]++ & COUNTER_MASK);
        if (c == OUTSIDE && handlerNode[h] == AT_SYNCHRONISATION_POINTS) {
            atSynchronisation.push(timePs, creatorOf(h, kind & ~BACKGROUND), seq, h, kind, tag);
        } else {
            queue.push(timePs, creatorOf(h, kind & ~BACKGROUND), seq, h, kind, tag);
        }
    }

    public void scheduleIn(int handlerId, long delayPs, int kind, long tag) {
        schedule(handlerId, nowPs + delayPs, kind, tag);
    }

    /**
     * Makes {@link #run} return once {@code System.nanoTime()} passes {@code deadlineNanos} (checked
     * between windows); 0 = no wall-clock limit.
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

    /** Makes {@link #run} return at the end of the current window (where a partitioned run can stop). */
    public void stop() {
        stopRequested = true;
    }

    /**
     * Runs events in order, window by window, until no foreground event is left, {@link #stop()} is
     * called, or the next event lies beyond {@code untilPs}; in the last case time advances to
     * {@code untilPs}.
     */
    public void run(long untilPs) {
        stopRequested = false;
        timeLimitReached = false;
        wallLimitReached = false;
        KeyedEventQueue q = queue;
        while (true) {
            if (foregroundPending <= 0 || stopRequested) {
                return;
            }
            long next = q.isEmpty() ? Long.MAX_VALUE : q.peekTime();
            long global = atSynchronisation.isEmpty() ? Long.MAX_VALUE : atSynchronisation.peekTime();
            if (global <= next && global <= untilPs) {
                runAtSynchronisation(global);
                continue;
            }
            if (next > untilPs) {
                nowPs = untilPs;
                timeLimitReached = true;
                return;
            }
            if (wallDeadlineNanos != 0 && System.nanoTime() - wallDeadlineNanos > 0) {
                wallLimitReached = true;
                return;
            }
            long windowEnd = windowEnd(next, untilPs, global);
            while (!q.isEmpty() && q.peekTime() < windowEnd) {
                runHead(q, true);
            }
            creator = OUTSIDE;
        }
    }

    /** The end of the window that starts at {@code startPs}: a window length later, cut at the run's limit and the next synchronisation event. */
    final long windowEnd(long startPs, long untilPs, long nextSynchronisationPs) {
        long end = startPs + windowPs < startPs ? Long.MAX_VALUE : startPs + windowPs;
        if (untilPs < end - 1) {
            end = untilPs + 1;
        }
        return Math.min(end, nextSynchronisationPs);
    }

    /** Runs the events of components placed at synchronisation points due at {@code timePs}. */
    final void runAtSynchronisation(long timePs) {
        KeyedEventQueue q = atSynchronisation;
        while (!q.isEmpty() && q.peekTime() == timePs) {
            runHead(q, false);
        }
    }

    /** Pops the earliest event of {@code q} and runs it, as its own creator or (between windows) from outside the event loop. */
    private void runHead(KeyedEventQueue q, boolean inWindow) {
        long t = q.peekTime();
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
        if (inWindow) {
            creator = creatorOf(h, kind);
        }
        handlers[h].onEvent(kind, tag);
    }
}
