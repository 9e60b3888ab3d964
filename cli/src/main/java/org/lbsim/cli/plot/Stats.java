package org.lbsim.cli.plot;

import java.util.Arrays;

/** Small statistics for figures: summaries across seeds, empirical CDFs and power-law fits. */
public final class Stats {
    private Stats() {
    }

    /** Mean, extremes and sample standard deviation (0 for a single value) of a set of runs. */
    public record Summary(int n, double mean, double min, double max, double stddev) {
        public static Summary of(double... values) {
            if (values.length == 0) {
                throw new IllegalArgumentException("no values");
            }
            double sum = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (double v : values) {
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            double mean = sum / values.length;
            double ss = 0;
            for (double v : values) {
                ss += (v - mean) * (v - mean);
            }
            double sd = values.length > 1 ? Math.sqrt(ss / (values.length - 1)) : 0;
            return new Summary(values.length, mean, min, max, sd);
        }

        /**
         * Half width of the 95 % confidence interval of the mean, Student t with n - 1 degrees of
         * freedom: t(0.975, n - 1) * s / sqrt(n). NaN for a single value (no interval).
         */
        public double ci95HalfWidth() {
            return n < 2 ? Double.NaN : studentT975(n - 1) * stddev / Math.sqrt(n);
        }
    }

    /** Two-sided 95 % quantiles t(0.975, df) for df = 1 .. 30 (standard table values). */
    private static final double[] T975 = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    };

    /**
     * The 0.975 quantile of Student's t with {@code df} degrees of freedom: the table up to 30,
     * beyond it the Cornish-Fisher expansion around the normal quantile 1.959964 (error < 1e-4).
     */
    public static double studentT975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be >= 1, got " + df);
        }
        if (df <= T975.length) {
            return T975[df - 1];
        }
        double z = 1.959963985;
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        double v = df;
        return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
    }

    /**
     * y = prefactor * x^slope, fitted by least squares on (ln x, ln y).
     *
     * @param points points with x > 0 and y > 0 that entered the fit
     * @param r2     coefficient of determination in log-log space (NaN when y is constant)
     */
    public record PowerFit(double slope, double prefactor, double r2, int points) {
        public double at(double x) {
            return prefactor * Math.pow(x, slope);
        }
    }

    /** Least-squares power law through the points with positive coordinates; null when fewer than two distinct x remain. */
    public static PowerFit powerFit(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " and " + y.length);
        }
        int n = 0;
        double sx = 0;
        double sy = 0;
        for (int i = 0; i < x.length; i++) {
            if (x[i] > 0 && y[i] > 0 && Double.isFinite(x[i]) && Double.isFinite(y[i])) {
                n++;
                sx += Math.log(x[i]);
                sy += Math.log(y[i]);
            }
        }
        if (n < 2) {
            return null;
        }
        double mx = sx / n;
        double my = sy / n;
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            if (x[i] > 0 && y[i] > 0 && Double.isFinite(x[i]) && Double.isFinite(y[i])) {
                double dx = Math.log(x[i]) - mx;
                double dy = Math.log(y[i]) - my;
                sxx += dx * dx;
                sxy += dx * dy;
                syy += dy * dy;
            }
        }
        if (sxx == 0) {
            return null;
        }
        double slope = sxy / sxx;
        double intercept = my - slope * mx;
        double r2 = syy == 0 ? Double.NaN : sxy * sxy / (sxx * syy);
        return new PowerFit(slope, Math.exp(intercept), r2, n);
    }

    /**
     * Empirical CDF as a step curve: {@code [0]} sorted values, {@code [1]} the fraction of values
     * <= each. At most {@code maxPoints} points (evenly spaced ranks, always the smallest and the
     * largest value); the curve starts at (min, 0). NaN values are dropped.
     */
    public static double[][] ecdf(double[] values, int maxPoints) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        int n = v.length;
        if (n == 0) {
            return new double[][] {new double[0], new double[0]};
        }
        int k = Math.min(n, Math.max(2, maxPoints - 1));
        double[] x = new double[k + 1];
        double[] p = new double[k + 1];
        x[0] = v[0];
        p[0] = 0;
        for (int j = 0; j < k; j++) {
            int i = k == 1 ? n - 1 : (int) Math.round((double) j * (n - 1) / (k - 1));
            // a step at the last copy of a repeated value: the CDF there counts all of them
            while (i + 1 < n && v[i + 1] == v[i]) {
                i++;
            }
            x[j + 1] = v[i];
            p[j + 1] = (i + 1) / (double) n;
        }
        return new double[][] {x, p};
    }

    /**
     * The CDF of out-of-order degrees from the log2 histogram of {@link org.lbsim.metrics.OutOfOrder}:
     * point b is (2^b, fraction of arrivals with degree < 2^b), since bucket 0 holds degree 0 and
     * bucket b >= 1 holds [2^(b-1), 2^b). Empty when the histogram counts nothing.
     */
    public static double[][] log2HistogramCdf(long[] histogram) {
        long total = 0;
        int last = -1;
        for (int b = 0; b < histogram.length; b++) {
            total += histogram[b];
            if (histogram[b] > 0) {
                last = b;
            }
        }
        if (total == 0) {
            return new double[][] {new double[0], new double[0]};
        }
        double[] x = new double[last + 1];
        double[] p = new double[last + 1];
        long cum = 0;
        for (int b = 0; b <= last; b++) {
            cum += histogram[b];
            x[b] = Math.pow(2, b);
            p[b] = cum / (double) total;
        }
        return new double[][] {x, p};
    }
}
