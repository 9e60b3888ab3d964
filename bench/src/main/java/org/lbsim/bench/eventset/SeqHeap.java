package org.lbsim.bench.eventset;

import java.util.Arrays;

/**
 * The current 4-ary heap as a building block: the caller gives each entry its sequence number, so
 * several structures can share one global insertion order.
 */
final class SeqHeap {
    private static final int ARITY = 4;
    private static final int STRIDE = 4;

    private long[] heap;
    private int size;

    SeqHeap(int initialCapacity) {
        heap = new long[Math.max(16, initialCapacity) * STRIDE];
        heap[0] = Long.MAX_VALUE;
        heap[1] = Long.MAX_VALUE;
    }

    int size() {
        return size;
    }

    /** The earliest entry's time; (time, sequence) read ({@link Long#MAX_VALUE}, {@link Long#MAX_VALUE}) when empty. */
    long topTime() {
        return heap[0];
    }

    long topSeq() {
        return heap[1];
    }

    long topMeta() {
        return heap[2];
    }

    long topTag() {
        return heap[3];
    }

    void push(long t, long s, long m, long g) {
        if ((size + 1) * STRIDE > heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        long[] h = heap;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) / ARITY;
            int pb = parent * STRIDE;
            long pt = h[pb];
            if (t < pt || (t == pt && s < h[pb + 1])) {
                int ib = i * STRIDE;
                h[ib] = pt;
                h[ib + 1] = h[pb + 1];
                h[ib + 2] = h[pb + 2];
                h[ib + 3] = h[pb + 3];
                i = parent;
            } else {
                break;
            }
        }
        int ib = i * STRIDE;
        h[ib] = t;
        h[ib + 1] = s;
        h[ib + 2] = m;
        h[ib + 3] = g;
    }

    void pop() {
        int last = --size;
        long[] h = heap;
        if (last == 0) {
            h[0] = Long.MAX_VALUE;
            h[1] = Long.MAX_VALUE;
            return;
        }
        int lb = last * STRIDE;
        long t = h[lb];
        long s = h[lb + 1];
        long m = h[lb + 2];
        long g = h[lb + 3];
        int i = 0;
        while (true) {
            int first = i * ARITY + 1;
            if (first >= last) {
                break;
            }
            int end = Math.min(first + ARITY, last);
            int best = first;
            int bb = first * STRIDE;
            long bt = h[bb];
            long bs = h[bb + 1];
            for (int c = first + 1; c < end; c++) {
                int cb = c * STRIDE;
                long ct = h[cb];
                if (ct < bt || (ct == bt && h[cb + 1] < bs)) {
                    best = c;
                    bb = cb;
                    bt = ct;
                    bs = h[cb + 1];
                }
            }
            if (bt < t || (bt == t && bs < s)) {
                int ib = i * STRIDE;
                h[ib] = bt;
                h[ib + 1] = bs;
                h[ib + 2] = h[bb + 2];
                h[ib + 3] = h[bb + 3];
                i = best;
            } else {
                break;
            }
        }
        int ib = i * STRIDE;
        h[ib] = t;
        h[ib + 1] = s;
        h[ib + 2] = m;
        h[ib + 3] = g;
    }
}
