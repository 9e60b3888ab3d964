package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;

/** PRO VI-A balance series: load imbalance per layer and window, out-of-order degree percentiles. */
class BalanceSamplerTest {
    private static Map<String, TimeSeries> series(RunResult r) {
        return r.series().stream().collect(Collectors.toMap(TimeSeries::name, s -> s));
    }

    @Test
    void offByDefaultSoExistingRunsKeepTheirSeries() {
        RunResult r = Lbsim.scenario().leafSpine(4, 2, 2).permutation(1 << 20).scheme("ecmp").seed(1).run();
        assertThat(series(r).keySet()).noneMatch(n -> n.startsWith("load.imbalance") || n.startsWith("ooo.degree"));
    }

    @Test
    void loadImbalanceIsAtLeastOneWhereALayerSentAndPercentilesAreOrderedAndExact() {
        RunResult spray = Lbsim.scenario().leafSpine(4, 2, 4).permutation(1 << 20).scheme("host-spray").seed(2)
                .set("metrics.balanceWindowUs", 10).run();
        Map<String, TimeSeries> s = series(spray);
        TimeSeries up = s.get("load.imbalance L->S");
        assertThat(up).as("series %s", s.keySet()).isNotNull();
        assertThat(up.values().length).isGreaterThan(2);
        for (double v : up.values()) {
            assertThat(v == 0 || v >= 1.0 - 1e-9).as("max over mean is 0 (idle) or >= 1, got %s", v).isTrue();
            assertThat(v).isLessThanOrEqualTo(4.0 + 1e-9); // 4 ports: the busiest carries at most all
        }
        double[] p50 = s.get("ooo.degree.p50").values();
        double[] p99 = s.get("ooo.degree.p99").values();
        double[] p99ooo = s.get("ooo.degree.p99 out-of-order").values();
        int last = p50.length - 1;
        assertThat(p99[last]).isGreaterThanOrEqualTo(p50[last]);
        assertThat(p99ooo[last]).isGreaterThanOrEqualTo(1).isLessThanOrEqualTo(spray.outOfOrder().maxDegree());
        // the exact p99 lies in the log2 bucket the histogram puts the 99th percentile in
        long[] h = spray.outOfOrder().log2Histogram();
        long rank = (long) Math.ceil(0.99 * spray.outOfOrder().samples());
        long seen = 0;
        int bucket = 0;
        while ((seen += h[bucket]) < rank) {
            bucket++;
        }
        long low = bucket == 0 ? 0 : 1L << (bucket - 1);
        long high = bucket == 0 ? 0 : (1L << bucket) - 1;
        assertThat((long) p99[last]).isBetween(low, high);
    }

    @Test
    void needsTimeSeries() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lbsim.scenario().leafSpine(4, 2, 2).permutation(1 << 20)
                .set("metrics.sampleIntervalUs", 0).set("metrics.balanceWindowUs", 10).build())
                .hasMessageContaining("balanceWindowUs");
    }
}
