package org.lbsim.kernel;

/**
 * A 4-ary min-heap of events over primitive arrays, ordered by time and then by insertion
 * sequence, so events at equal times run in the order they were scheduled. No allocation per
 * event once the arrays have grown to the working size.
 */
public final class EventQueue {
    private static final int ARITY = 4;

    private long[] times;
    private long[] seqs;
    private int[] handlers;
    private int[] kinds;
    private long[] tags;
    private int size;
    private long nextSeq;

    public EventQueue(int initialCapacity) {
        int cap = Math.max(16, initialCapacity);
        times = new long[cap];
        seqs = new long[cap];
        handlers = new int[cap];
        kinds = new int[cap];
        tags = new long[cap];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void push(long timePs, int handler, int kind, long tag) {
        if (size == times.length) {
            grow();
        }
        long seq = nextSeq++;
        int i = size++;
        // sift up
        while (i > 0) {
            int parent = (i - 1) / ARITY;
            if (less(timePs, seq, times[parent], seqs[parent])) {
                move(parent, i);
                i = parent;
            } else {
                break;
            }
        }
        times[i] = timePs;
        seqs[i] = seq;
        handlers[i] = handler;
        kinds[i] = kind;
        tags[i] = tag;
    }

    public long peekTime() {
        return times[0];
    }

    public int peekHandler() {
        return handlers[0];
    }

    public int peekKind() {
        return kinds[0];
    }

    public long peekTag() {
        return tags[0];
    }

    /** Removes the earliest event; read it first with the peek methods. */
    public void pop() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = times[last];
        long s = seqs[last];
        int h = handlers[last];
        int k = kinds[last];
        long g = tags[last];
        int i = 0;
        while (true) {
            int first = i * ARITY + 1;
            if (first >= last) {
                break;
            }
            int end = Math.min(first + ARITY, last);
            int best = first;
            for (int c = first + 1; c < end; c++) {
                if (less(times[c], seqs[c], times[best], seqs[best])) {
                    best = c;
                }
            }
            if (less(times[best], seqs[best], t, s)) {
                move(best, i);
                i = best;
            } else {
                break;
            }
        }
        times[i] = t;
        seqs[i] = s;
        handlers[i] = h;
        kinds[i] = k;
        tags[i] = g;
    }

    private static boolean less(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }

    private void move(int from, int to) {
        times[to] = times[from];
        seqs[to] = seqs[from];
        handlers[to] = handlers[from];
        kinds[to] = kinds[from];
        tags[to] = tags[from];
    }

    private void grow() {
        int cap = times.length * 2;
        times = java.util.Arrays.copyOf(times, cap);
        seqs = java.util.Arrays.copyOf(seqs, cap);
        handlers = java.util.Arrays.copyOf(handlers, cap);
        kinds = java.util.Arrays.copyOf(kinds, cap);
        tags = java.util.Arrays.copyOf(tags, cap);
    }
}
