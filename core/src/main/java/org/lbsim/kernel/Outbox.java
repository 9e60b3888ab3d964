package org.lbsim.kernel;

import java.util.Arrays;

/** Events bound for one partition of a {@link PartitionedSimulator}, in the order they were made; payloads ride along. */
final class Outbox extends EventColumns {
    Object[] payload = new Object[64];

    void add(long t, long tgt, long s, int h, int kind, long g, Object p) {
        append(t, tgt, s, ((long) h << 32) | (kind & 0xFFFFFFFFL), g);
        payload[size - 1] = p;
    }

    @Override
    void grown(int capacity) {
        payload = Arrays.copyOf(payload, capacity);
    }

    void clear() {
        Arrays.fill(payload, 0, size, null);
        size = 0;
    }
}
