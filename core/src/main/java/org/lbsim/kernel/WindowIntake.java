package org.lbsim.kernel;

import java.util.Arrays;

/**
 * What a partition receives from the others at the start of a window, sorted once by the
 * partitioned kernel's key (time, target, creator sequence) and read in that order beside the
 * partition's own event heap, instead of being pushed into the heap one by one. At k = 32 these are 57 %
 * of all events, and each push and pop of the 4-ary heap (about 1,700 entries deep then) costs a chain
 * of unpredictable comparisons; one sort of a window's arrivals, which come nearly in order, costs
 * less. The key is a total order, so the events run in exactly the order the heap alone gives.
 *
 * <p>The sort packs each entry's time (relative to the earliest) and its index into one {@code long}
 * and sorts those; equal times are then put in (target, sequence) order. A window whose
 * arrivals span more than {@link #MAX_SPAN_PS} or number more than {@link #MAX_ENTRIES} cannot be
 * packed and goes into the heap, one push per arrival.
 */
final class WindowIntake extends EventColumns {
    private static final int INDEX_BITS = 21;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    static final int MAX_ENTRIES = 1 << INDEX_BITS;
    /** The largest time span that leaves the packed key non-negative (about 4.4 s). */
    static final long MAX_SPAN_PS = (1L << (63 - INDEX_BITS)) - 1;

    /** After {@link #sort}: (time - earliest) << INDEX_BITS | index, in key order. */
    private long[] order = new long[64];
    private int next;
    /** Whether {@link #order} holds the entries in key order (set by {@link #sort}). */
    private boolean sorted;
    /** The entry at {@link #next}, or -1 when none is left. */
    private int head = -1;

    @Override
    void grown(int capacity) {
        order = new long[capacity];
    }

    /**
     * Orders what was added since the last window; when the entries cannot be packed, moves them into
     * {@code fallback} instead and leaves nothing here.
     */
    void sort(KeyedEventQueue fallback) {
        int n = size;
        next = 0;
        if (n == 0) {
            head = -1;
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, timePs[i]);
            max = Math.max(max, timePs[i]);
        }
        if (n > MAX_ENTRIES || max - min > MAX_SPAN_PS || max - min < 0) {
            drainInto(fallback);
            return;
        }
        long[] o = order;
        for (int i = 0; i < n; i++) {
            o[i] = ((timePs[i] - min) << INDEX_BITS) | i;
        }
        Arrays.sort(o, 0, n);
        // equal times: insertion sort by (target, sequence); such runs are short
        int runStart = 0;
        for (int i = 1; i <= n; i++) {
            if (i == n || (o[i] >>> INDEX_BITS) != (o[runStart] >>> INDEX_BITS)) {
                if (i - runStart > 1) {
                    sortTies(o, runStart, i);
                }
                runStart = i;
            }
        }
        sorted = true;
        head = (int) (o[0] & INDEX_MASK);
    }

    private void sortTies(long[] o, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long e = o[i];
            int ei = (int) (e & INDEX_MASK);
            long c = target[ei];
            long s = seq[ei];
            int j = i - 1;
            while (j >= from) {
                int ji = (int) (o[j] & INDEX_MASK);
                if (target[ji] < c || (target[ji] == c && seq[ji] < s)) {
                    break;
                }
                o[j + 1] = o[j];
                j--;
            }
            o[j + 1] = e;
        }
    }

    boolean hasNext() {
        return head >= 0;
    }

    /** Whether the next event by the kernel's key is this intake's head rather than {@code heap}'s top (false when this is empty). */
    boolean headComesFirst(KeyedEventQueue heap) {
        return head >= 0 && (heap.isEmpty()
                || !KeyedEventQueue.before(heap.peekTime(), heap.peekTarget(), heap.peekSeq(), timePs[head], target[head], seq[head]));
    }

    long headTimePs() {
        return timePs[head];
    }

    long headTarget() {
        return target[head];
    }

    long headSeq() {
        return seq[head];
    }

    int headHandler() {
        return (int) (handlerKind[head] >>> 32);
    }

    int headKind() {
        return (int) handlerKind[head];
    }

    long headTag() {
        return tag[head];
    }

    /** Moves past the head. */
    void advance() {
        int i = ++next;
        head = i < size ? (int) (order[i] & INDEX_MASK) : -1;
    }

    /** Moves what is left (after {@link #sort}: the events at or after the window's end) into {@code queue}, and empties this. */
    void drainInto(KeyedEventQueue queue) {
        for (int i = sorted ? next : 0; i < size; i++) {
            int j = sorted ? (int) (order[i] & INDEX_MASK) : i;
            queue.push(timePs[j], target[j], seq[j], (int) (handlerKind[j] >>> 32), (int) handlerKind[j], tag[j]);
        }
        size = 0;
        next = 0;
        head = -1;
        sorted = false;
    }
}
