package org.lbsim.kernel;

import java.util.Arrays;

/**
 * The discrete-event kernel. Time is a {@code long} of picoseconds. Components register once and
 * then schedule wake-ups for themselves; the kernel knows nothing about the model.
 * One instance per run (and per thread), so replications can run in parallel.
 */
public final class Simulator {
    private final EventQueue queue = new EventQueue(1 << 12);
    private EventHandler[] handlers = new EventHandler[64];
    private int handlerCount;
    private long nowPs;
    private long eventsProcessed;
    private boolean stopRequested;
    private long foregroundPending;
    private boolean timeLimitReached;
    private long wallDeadlineNanos;
    private boolean wallLimitReached;
    /** The wall clock is read once per this many events (a mask): cheap enough to leave on always. */
    private static final long WALL_CHECK_MASK = (1 << 14) - 1;
    /** Marks a background event inside the kind field; kinds themselves stay small. */
    private static final int BACKGROUND = 1 << 30;

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
