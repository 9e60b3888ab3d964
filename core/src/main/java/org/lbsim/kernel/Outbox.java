package org.lbsim.kernel;

import java.util.Arrays;

/** Events bound for one partition of a {@link PartitionedSimulator}, in the order they were made; payloads ride along. */
final class Outbox {
    long[] timePs = new long[64];
    long[] target = new long[64];
    long[] seq = new long[64];
    long[] handlerKind = new long[64];
    long[] tag = new long[64];
    Object[] payload = new Object[64];
    int size;

    void add(long t, long tgt, long s, int h, int kind, long g, Object p) {
        if (size == timePs.length) {
            int n = size * 2;
            timePs = Arrays.copyOf(timePs, n);
            target = Arrays.copyOf(target, n);
            seq = Arrays.copyOf(seq, n);
            handlerKind = Arrays.copyOf(handlerKind, n);
            tag = Arrays.copyOf(tag, n);
            payload = Arrays.copyOf(payload, n);
        }
        timePs[size] = t;
        target[size] = tgt;
        seq[size] = s;
        handlerKind[size] = ((long) h << 32) | (kind & 0xFFFFFFFFL);
        tag[size] = g;
        payload[size] = p;
        size++;
    }

    void clear() {
        Arrays.fill(payload, 0, size, null);
        size = 0;
    }
}
