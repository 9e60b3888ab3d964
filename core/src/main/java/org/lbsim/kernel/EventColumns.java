package org.lbsim.kernel;

import java.util.Arrays;

/**
 * Events held as parallel columns (time, target, creator sequence, handler and kind, tag) rather than
 * as objects, so that collecting and sorting a window's events allocates nothing once the columns
 * have grown to the window's size.
 */
abstract class EventColumns {
    long[] timePs = new long[64];
    long[] target = new long[64];
    long[] seq = new long[64];
    long[] handlerKind = new long[64];
    long[] tag = new long[64];
    int size;

    /** Appends one event, doubling every column when full. */
    final void append(long t, long tgt, long s, long hk, long g) {
        if (size == timePs.length) {
            int n = size * 2;
            timePs = Arrays.copyOf(timePs, n);
            target = Arrays.copyOf(target, n);
            seq = Arrays.copyOf(seq, n);
            handlerKind = Arrays.copyOf(handlerKind, n);
            tag = Arrays.copyOf(tag, n);
            grown(n);
        }
        timePs[size] = t;
        target[size] = tgt;
        seq[size] = s;
        handlerKind[size] = hk;
        tag[size] = g;
        size++;
    }

    /** Grows the subclass's own columns to {@code capacity} entries. */
    abstract void grown(int capacity);
}
