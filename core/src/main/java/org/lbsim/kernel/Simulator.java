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
        queue.push(timePs, handlerId, kind, tag);
    }

    public void scheduleIn(int handlerId, long delayPs, int kind, long tag) {
        schedule(handlerId, nowPs + delayPs, kind, tag);
    }

    /** Makes {@link #run} return after the event being processed. */
    public void stop() {
        stopRequested = true;
    }

    /**
     * Runs events in order until the queue is empty, {@link #stop()} is called, or the next event
     * lies beyond {@code untilPs}; in the last case time advances to {@code untilPs}.
     */
    public void run(long untilPs) {
        stopRequested = false;
        EventQueue q = queue;
        while (!q.isEmpty() && !stopRequested) {
            long t = q.peekTime();
            if (t > untilPs) {
                nowPs = untilPs;
                return;
            }
            int h = q.peekHandler();
            int kind = q.peekKind();
            long tag = q.peekTag();
            q.pop();
            nowPs = t;
            eventsProcessed++;
            handlers[h].onEvent(kind, tag);
        }
    }
}
