package org.lbsim.kernel;

import java.util.Arrays;

/**
 * The event set of both kernels: a 4-ary min-heap ordered by
 * (time, target, creator sequence), the target being the component (or multiplexed kind) the event is for, a key that each partition computes alone, so that the
 * order of events does not depend on how the fabric is split. The creator sequence is
 * {@code creator << 40 | that creator's own counter}: unique per event, so the order is total.
 * Each entry is five consecutive longs (time, target, creator sequence, handler and kind, tag).
 */
public final class KeyedEventQueue {
    private static final int ARITY = 4;
    private static final int STRIDE = 5;

    private long[] heap;
    private int size;

    public KeyedEventQueue(int initialCapacity) {
        heap = new long[Math.max(16, initialCapacity) * STRIDE];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    static boolean before(long t1, long c1, long s1, long t2, long c2, long s2) {
        return t1 < t2 || (t1 == t2 && (c1 < c2 || (c1 == c2 && s1 < s2)));
    }

    public void push(long timePs, long target, long seq, int handler, int kind, long tag) {
        if ((size + 1) * STRIDE > heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        long[] h = heap;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) / ARITY;
            int pb = parent * STRIDE;
            if (before(timePs, target, seq, h[pb], h[pb + 1], h[pb + 2])) {
                System.arraycopy(h, pb, h, i * STRIDE, STRIDE);
                i = parent;
            } else {
                break;
            }
        }
        int ib = i * STRIDE;
        h[ib] = timePs;
        h[ib + 1] = target;
        h[ib + 2] = seq;
        h[ib + 3] = ((long) handler << 32) | (kind & 0xFFFFFFFFL);
        h[ib + 4] = tag;
    }

    public long peekTime() {
        return heap[0];
    }

    public long peekTarget() {
        return heap[1];
    }

    public long peekSeq() {
        return heap[2];
    }

    public int peekHandler() {
        return (int) (heap[3] >>> 32);
    }

    public int peekKind() {
        return (int) heap[3];
    }

    public long peekTag() {
        return heap[4];
    }

    /** Removes the earliest event; read it first with the peek methods. */
    public void pop() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long[] h = heap;
        int lb = last * STRIDE;
        long t = h[lb];
        long c = h[lb + 1];
        long s = h[lb + 2];
        long m = h[lb + 3];
        long g = h[lb + 4];
        int i = 0;
        while (true) {
            int first = i * ARITY + 1;
            if (first >= last) {
                break;
            }
            int end = Math.min(first + ARITY, last);
            int bb = first * STRIDE;
            int best = first;
            for (int k = first + 1; k < end; k++) {
                int kb = k * STRIDE;
                if (before(h[kb], h[kb + 1], h[kb + 2], h[bb], h[bb + 1], h[bb + 2])) {
                    best = k;
                    bb = kb;
                }
            }
            if (before(h[bb], h[bb + 1], h[bb + 2], t, c, s)) {
                System.arraycopy(h, bb, h, i * STRIDE, STRIDE);
                i = best;
            } else {
                break;
            }
        }
        int ib = i * STRIDE;
        h[ib] = t;
        h[ib + 1] = c;
        h[ib + 2] = s;
        h[ib + 3] = m;
        h[ib + 4] = g;
    }
}
