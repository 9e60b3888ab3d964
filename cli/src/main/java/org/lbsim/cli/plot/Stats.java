package org.lbsim.cli.plot;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.TDistribution;

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

    /**
     * The 0.975 quantile of Student's t with {@code df} degrees of freedom (Apache Commons
     * Statistics' {@link TDistribution}).
     */
    public static double studentT975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be >= 1, got " + df);
        }
        return TDistribution.of(df).inverseSurvivalProbability(0.025);
    }

    /** The fewest runs behind a point for which a figure or table draws a confidence interval of its mean. */
    public static final int MIN_INTERVAL_RUNS = 3;

    /** What the interval drawn around a point's mean is. */
    public enum IntervalKind {
        /** one run: the point alone */
        NONE,
        /** fewer than {@link #MIN_INTERVAL_RUNS} runs: from the smallest to the largest of them (the runs themselves) */
        RANGE,
        /** the 95 % confidence interval of the mean, Student t with n - 1 degrees of freedom */
        T95,
        /** mean +- one sample standard deviation */
        STDDEV
    }

    /**
     * The interval drawn around a point: {@code low} and {@code high} inside the range the quantity
     * can take; {@code clipped} when the interval computed reached beyond it.
     */
    public record Interval(IntervalKind kind, double low, double high, boolean clipped) {
        /** Whether there is anything to draw beyond the point. */
        public boolean drawn() {
            return kind != IntervalKind.NONE;
        }
    }

    /**
     * The interval of a point over its runs: none for one run, the runs' range (min to max) below
     * {@link #MIN_INTERVAL_RUNS} runs, else {@code wanted} (T95 or STDDEV; NONE draws none). It is
     * clipped to [{@code floor}, {@code ceiling}], what the quantity can take (NaN: no limit on that side).
     */
    public static Interval interval(Summary s, IntervalKind wanted, double floor, double ceiling) {
        if (wanted == IntervalKind.NONE || s.n() < 2) {
            return new Interval(IntervalKind.NONE, s.mean(), s.mean(), false);
        }
        double lo;
        double hi;
        IntervalKind kind;
        if (s.n() < MIN_INTERVAL_RUNS || wanted == IntervalKind.RANGE) {
            kind = IntervalKind.RANGE;
            lo = s.min();
            hi = s.max();
        } else {
            kind = wanted;
            double half = wanted == IntervalKind.T95 ? s.ci95HalfWidth() : s.stddev();
            lo = s.mean() - half;
            hi = s.mean() + half;
        }
        boolean clipped = false;
        if (!Double.isNaN(floor) && lo < floor) {
            lo = floor;
            clipped = true;
        }
        if (!Double.isNaN(ceiling) && hi > ceiling) {
            hi = ceiling;
            clipped = true;
        }
        return new Interval(kind, lo, hi, clipped);
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
