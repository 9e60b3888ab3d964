package org.lbsim.bench.eventset;

import java.util.Arrays;

/**
 * A copy of the kernel's event queue as of session 9 (commit 8711e4d), kept as the baseline of
 * {@link EventTraceBench}.
 *
 * <p>Original description:
 * A 4-ary min-heap of events ordered by time and then by insertion sequence, so events at equal
 * times run in the order they were scheduled. Each entry is four consecutive longs in one array
 * (time, sequence, handler and kind, tag): a node's four children share two cache lines, and
 * nothing is allocated per event once the array has grown to the working size.
 */
public final class CurrentHeap {
    private static final int ARITY = 4;
    private static final int STRIDE = 4;

    private long[] heap;
    private int size;
    private long nextSeq;

    public CurrentHeap(int initialCapacity) {
        heap = new long[Math.max(16, initialCapacity) * STRIDE];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void push(long timePs, int handler, int kind, long tag) {
        if ((size + 1) * STRIDE > heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        long[] h = heap;
        long seq = nextSeq++;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) / ARITY;
            int pb = parent * STRIDE;
            long pt = h[pb];
            if (timePs < pt || (timePs == pt && seq < h[pb + 1])) {
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
        h[ib] = timePs;
        h[ib + 1] = seq;
        h[ib + 2] = ((long) handler << 32) | (kind & 0xFFFFFFFFL);
        h[ib + 3] = tag;
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

    /** Removes the earliest event; read it first with the peek methods. */
    public void pop() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long[] h = heap;
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
