package org.lbsim.cli.plot;

/**
 * Thins long series before they are drawn, so a vector figure of a million samples stays a few
 * hundred kilobytes. Min/max per bucket: the points are cut into equal runs of consecutive
 * samples and each run keeps its smallest and largest value (in their original order), plus the
 * first and last sample. Peaks survive exactly, which matters for queue depths; at ~2 points per
 * pixel column the drawn envelope is the same as the full series.
 */
public final class Downsample {
    /** Points kept per series by default: about two per pixel column of a 1000-pixel plot. */
    public static final int DEFAULT_POINTS = 2000;

    private Downsample() {
    }

    /** x and y of the kept points ({@code [0]} = x, {@code [1]} = y); copies when nothing is dropped. NaN values are skipped. */
    public static double[][] minMax(double[] x, double[] y, int maxPoints) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " and " + y.length);
        }
        if (maxPoints < 4) {
            throw new IllegalArgumentException("maxPoints must be >= 4, got " + maxPoints);
        }
        int n = x.length;
        if (n <= maxPoints) {
            return new double[][] {x.clone(), y.clone()};
        }
        int buckets = (maxPoints - 2) / 2;
        double[] ox = new double[2 + 2 * buckets];
        double[] oy = new double[ox.length];
        int k = 0;
        ox[k] = x[0];
        oy[k++] = y[0];
        int inner = n - 2;
        for (int b = 0; b < buckets; b++) {
            int from = 1 + (int) ((long) b * inner / buckets);
            int to = 1 + (int) ((long) (b + 1) * inner / buckets);
            int lo = -1;
            int hi = -1;
            for (int i = from; i < to; i++) {
                double v = y[i];
                if (Double.isNaN(v)) {
                    continue;
                }
                if (lo < 0 || v < y[lo]) {
                    lo = i;
                }
                if (hi < 0 || v > y[hi]) {
                    hi = i;
                }
            }
            if (lo < 0) {
                continue;
            }
            int first = Math.min(lo, hi);
            int second = Math.max(lo, hi);
            ox[k] = x[first];
            oy[k++] = y[first];
            if (second != first) {
                ox[k] = x[second];
                oy[k++] = y[second];
            }
        }
        ox[k] = x[n - 1];
        oy[k++] = y[n - 1];
        return new double[][] {java.util.Arrays.copyOf(ox, k), java.util.Arrays.copyOf(oy, k)};
    }
}
