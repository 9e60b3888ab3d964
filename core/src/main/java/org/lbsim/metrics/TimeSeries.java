package org.lbsim.metrics;

import java.util.Arrays;

/**
 * One sampled quantity over simulated time, such as "queue.max E->A" in bytes or "rate qp3" in
 * Gb/s. The arrays are owned by the series (copies), equal length, times increasing.
 */
public record TimeSeries(String name, String unit, long[] timesPs, double[] values) {
    public TimeSeries {
        if (timesPs.length != values.length) {
            throw new IllegalArgumentException("times and values differ in length");
        }
    }

    public int size() {
        return timesPs.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeSeries t && name.equals(t.name) && unit.equals(t.unit) && Arrays.equals(timesPs, t.timesPs)
                && Arrays.equals(values, t.values);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "TimeSeries[" + name + ", " + timesPs.length + " points]";
    }
}
