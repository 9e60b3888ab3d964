package org.lbsim.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Downsampling, summaries, CDFs and the power-law fit behind the figures. */
class StatsTest {
    @Test
    void the_fitted_slope_of_a_square_root_law_is_one_half() {
        int n = 60;
        double[] x = new double[n];
        double[] y = new double[n];
        Random r = new Random(7);
        for (int i = 0; i < n; i++) {
            x[i] = 1024 * Math.pow(2, i / 4.0); // 1 KiB .. 32 MiB
            y[i] = 3.7 * Math.pow(x[i], 0.5) * (1 + 0.05 * (r.nextDouble() - 0.5)); // +-2.5 % noise
        }
        Stats.PowerFit fit = Stats.powerFit(x, y);
        assertThat(fit.slope()).isCloseTo(0.5, within(0.01));
        assertThat(fit.prefactor()).isCloseTo(3.7, within(0.3));
        assertThat(fit.r2()).isGreaterThan(0.999);
        assertThat(fit.points()).isEqualTo(n);
    }

    @Test
    void an_exact_power_law_is_recovered_and_non_positive_points_are_left_out() {
        double[] x = {0, 1, 10, 100, 1000, -5};
        double[] y = {5, 2, 2 * Math.pow(10, 0.5), 20, 2 * Math.pow(1000, 0.5), 1};
        Stats.PowerFit fit = Stats.powerFit(x, y);
        assertThat(fit.slope()).isCloseTo(0.5, within(1e-12));
        assertThat(fit.at(10_000)).isCloseTo(200, within(1e-9));
        assertThat(fit.points()).isEqualTo(4);
        assertThat(Stats.powerFit(new double[] {5, 5}, new double[] {1, 2})).as("one distinct x").isNull();
    }

    @Test
    void a_summary_has_mean_extremes_and_sample_deviation() {
        Stats.Summary s = Stats.Summary.of(1, 2, 3, 6);
        assertThat(s.n()).isEqualTo(4);
        assertThat(s.mean()).isEqualTo(3);
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.max()).isEqualTo(6);
        assertThat(s.stddev()).isCloseTo(Math.sqrt(14 / 3.0), within(1e-12));
        assertThat(Stats.Summary.of(5).stddev()).isZero();
    }

    @Test
    void min_max_downsampling_keeps_every_peak_and_the_ends() {
        int n = 100_000;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
            y[i] = Math.sin(i / 700.0);
        }
        y[31_337] = 50; // a one-sample spike
        y[77_777] = -50;
        double[][] d = Downsample.minMax(x, y, 2000);
        assertThat(d[0].length).isLessThanOrEqualTo(2000).isGreaterThan(1900);
        assertThat(d[0][0]).isZero();
        assertThat(d[0][d[0].length - 1]).isEqualTo(n - 1);
        assertThat(d[1]).contains(50.0, -50.0);
        for (int i = 1; i < d[0].length; i++) {
            assertThat(d[0][i]).as("x increasing").isGreaterThan(d[0][i - 1]);
        }
        double[][] small = Downsample.minMax(new double[] {1, 2, 3}, new double[] {4, 5, 6}, 2000);
        assertThat(small[1]).containsExactly(4, 5, 6);
    }

    @Test
    void an_empirical_cdf_steps_to_one_at_the_largest_value() {
        double[][] c = Stats.ecdf(new double[] {3, 1, 2, 2, Double.NaN}, 100);
        assertThat(c[0]).containsExactly(1, 1, 2, 2, 3);
        assertThat(c[1]).containsExactly(0, 0.25, 0.75, 0.75, 1);
        double[] many = new Random(1).doubles(100_000).toArray();
        double[][] d = Stats.ecdf(many, 2000);
        assertThat(d[0]).hasSizeLessThanOrEqualTo(2000);
        assertThat(d[1][d[1].length - 1]).isEqualTo(1.0);
        assertThat(d[1][d[1].length / 2]).isCloseTo(0.5, within(0.01));
    }

    @Test
    void the_out_of_order_cdf_reads_log2_buckets() {
        double[][] c = Stats.log2HistogramCdf(new long[] {90, 0, 6, 4, 0, 0});
        assertThat(c[0]).containsExactly(1, 2, 4, 8);
        assertThat(c[1]).containsExactly(0.9, 0.9, 0.96, 1.0);
        assertThat(Stats.log2HistogramCdf(new long[] {0, 0})[0]).isEmpty();
    }
}
