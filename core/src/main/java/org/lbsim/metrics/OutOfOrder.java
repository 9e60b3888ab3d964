package org.lbsim.metrics;

import java.util.Arrays;

/**
 * Reordering seen by receivers: the out-of-order degree of each arriving data packet (its PSN
 * minus the receiver's expected PSN, 0 when in order) as a log2 histogram, and the most
 * out-of-order packets a receiver held at once.
 *
 * @param samples       data packets that arrived (summary.json {@code outOfOrder.samples})
 * @param arrivals      of those, the ones that arrived out of order (degree >= 1; {@code outOfOrder.arrivals})
 * @param log2Histogram bucket 0 counts in-order arrivals; bucket b >= 1 counts degrees in [2^(b-1), 2^b)
 */
public record OutOfOrder(long samples, long arrivals, long maxDegree, long maxHeld, long[] log2Histogram) {
    @Override
    public boolean equals(Object o) {
        return o instanceof OutOfOrder x && samples == x.samples && arrivals == x.arrivals
                && maxDegree == x.maxDegree && maxHeld == x.maxHeld && Arrays.equals(log2Histogram, x.log2Histogram);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(samples) * 31 + Arrays.hashCode(log2Histogram);
    }

    @Override
    public String toString() {
        return "OutOfOrder[samples=" + samples + ", arrivals=" + arrivals + ", maxDegree=" + maxDegree + ", maxHeld=" + maxHeld + "]";
    }
}
