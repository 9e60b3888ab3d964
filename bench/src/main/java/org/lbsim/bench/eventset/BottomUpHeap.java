package org.lbsim.bench.eventset;

import java.util.Arrays;

/**
 * The current 4-ary heap with a bottom-up pop: the hole left by the minimum sinks to a leaf along
 * the smaller children (no comparison with the moving entry on the way down), then the last entry
 * rises from there. New events mostly belong near the bottom (they are later than almost everything
 * pending), so the rise is short and each level costs three comparisons instead of four.
 */
public final class BottomUpHeap {
    private static final int ARITY = 4;
    private static final int STRIDE = 4;

    private long[] heap;
    private int size;
    private long nextSeq;

    public BottomUpHeap(int initialCapacity) {
        heap = new long[Math.max(16, initialCapacity) * STRIDE];
    }

    public int size() {
        return size;
    }

    public void push(long timePs, int handler, int kind, long tag) {
        if ((size + 1) * STRIDE > heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        siftUp(size++, timePs, nextSeq++, ((long) handler << 32) | (kind & 0xFFFFFFFFL), tag);
    }

    private void siftUp(int i, long t, long s, long m, long g) {
        long[] h = heap;
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

    public long peekTime() {
        return heap[0];
    }

    public int peekHandler() {
        return (int) (heap[2] >>> 32);
    }

    public int peekKind() {
        return (int) heap[2];
    }

    public long peekTag() {
        return heap[3];
    }

    public void pop() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long[] h = heap;
        int lb = last * STRIDE;
        int hole = 0;
        while (true) {
            int first = hole * ARITY + 1;
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
            int ib = hole * STRIDE;
            h[ib] = bt;
            h[ib + 1] = bs;
            h[ib + 2] = h[bb + 2];
            h[ib + 3] = h[bb + 3];
            hole = best;
        }
        siftUp(hole, h[lb], h[lb + 1], h[lb + 2], h[lb + 3]);
    }
}
