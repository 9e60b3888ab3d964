package org.lbsim.kernel;

import java.util.Arrays;

/** One partition of a {@link PartitionedSimulator}: its event set, clock, counters and outboxes (by window parity, then target). */
final class Partition {
    final int index;
    /** The thread that runs this partition's windows. */
    int thread;
    final KeyedEventQueue queue = new KeyedEventQueue(256);
    /** What the other partitions sent for this window, sorted, read beside {@link #queue}. */
    final WindowIntake intake = new WindowIntake();
    /** By parity, then target: null until first used (most pairs of a finely cut fabric never exchange a packet). */
    final Outbox[][] outboxes;
    /** By parity: the earliest event in this partition's outboxes. */
    final long[] outboxMinPs = {Long.MAX_VALUE, Long.MAX_VALUE};
    /**
     * By parity, then sending thread: the partitions whose outbox to this one is not empty, in the
     * order they first wrote to it (each list written by its own thread only, read after the barrier).
     * Threads run contiguous blocks in ascending order, so the lists together are in ascending order.
     */
    final int[][][] senders;
    final int[][] senderCount;
    long nowPs;
    long events;
    long foregroundDelta;
    long windowEndPs;
    int readParity;
    int creator;
    /**
     * By creator: how many events it scheduled so far. A creator's events all run in one partition,
     * so in one thread: the partitions of a thread share one array (no cache line shared between threads).
     */
    long[] creatorCounters;
    long eventPs;
    long eventTarget;
    long eventSeq;

    Partition(int index, int count, int threads) {
        this.index = index;
        outboxes = new Outbox[2][count];
        senders = new int[2][threads][4];
        senderCount = new int[2][threads];
    }

    /** Partition {@code from}, run by {@code thread}, has just written the first event of a window into its outbox to this one. */
    void sentBy(int parity, int thread, int from) {
        int[] list = senders[parity][thread];
        int n = senderCount[parity][thread];
        if (n == list.length) {
            senders[parity][thread] = list = Arrays.copyOf(list, 2 * n);
        }
        list[n] = from;
        senderCount[parity][thread] = n + 1;
    }

    /** Takes in what the other partitions sent in the last window, then runs every event before the window's end. */
    void window(PartitionedSimulator sim) {
        EventHandler[] handlers = sim.handlers;
        WindowIntake in = intake;
        int[][] from = senders[readParity];
        for (int t = 0; t < from.length; t++) {
            int n = senderCount[readParity][t];
            for (int x = 0; x < n; x++) {
                Outbox o = sim.partition(from[t][x]).outboxes[readParity][index];
                for (int i = 0; i < o.size; i++) {
                    if (o.payload[i] != null) {
                        ((PayloadHandler) handlers[(int) (o.handlerKind[i] >>> 32)]).accept(o.payload[i]);
                    }
                    in.append(o.timePs[i], o.target[i], o.seq[i], o.handlerKind[i], o.tag[i]);
                }
                o.clear();
            }
            senderCount[readParity][t] = 0;
        }
        KeyedEventQueue q = queue;
        in.sort(q);
        int[] base = sim.creatorBase;
        int[] span = sim.creatorSpan;
        long end = windowEndPs;
        while (true) {
            // the earlier of the heap's top and the intake's head, by the same key
            long t;
            int h;
            int kind;
            long tag;
            if (in.headComesFirst(q)) {
                t = in.headTimePs();
                if (t >= end) {
                    break;
                }
                h = in.headHandler();
                kind = in.headKind();
                tag = in.headTag();
                eventTarget = in.headTarget();
                eventSeq = in.headSeq();
                in.advance();
            } else if (!q.isEmpty()) {
                t = q.peekTime();
                if (t >= end) {
                    break;
                }
                h = q.peekHandler();
                kind = q.peekKind();
                tag = q.peekTag();
                eventTarget = q.peekTarget();
                eventSeq = q.peekSeq();
                q.pop();
            } else {
                break;
            }
            if ((kind & Simulator.BACKGROUND) != 0) {
                kind &= ~Simulator.BACKGROUND;
            } else {
                foregroundDelta--;
            }
            nowPs = t;
            eventPs = t;
            events++;
            creator = span[h] > 1 ? base[h] + kind : base[h];
            handlers[h].onEvent(kind, tag);
        }
        in.drainInto(q); // what lies beyond the window waits in the heap
    }
}
