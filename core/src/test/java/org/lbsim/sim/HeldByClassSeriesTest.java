package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;

/**
 * With flows of several traffic classes (a foreground and its background), the out-of-order packets the receivers
 * hold are sampled per class too ("ooo.held class<c>"), so a figure can count the foreground's reordering alone
 * (DLBF II's all-RPS runs spray the background as well).
 */
class HeldByClassSeriesTest {
    private static Map<String, TimeSeries> series(RunResult r) {
        return r.series().stream().collect(Collectors.toMap(TimeSeries::name, s -> s));
    }

    /** A sprayed many-to-few foreground in class 0 and long-lived background in class 1 under {@code backgroundLb}. */
    private static RunResult run(String backgroundLb, boolean background) {
        Map<String, Object> workload = background
                ? Map.of("type", "jobs",
                        "jobs", List.of(Map.of("name", "moe", "op", "many-to-few", "bytes", 262144, "hosts", 9, "receivers", 2, "placement", "random")),
                        "background", List.of(Map.of("type", "long-lived", "flows", 4, "bytes", 2_000_000, "trafficClass", 1)))
                : Map.of("type", "jobs",
                        "jobs", List.of(Map.of("name", "moe", "op", "many-to-few", "bytes", 262144, "hosts", 9, "receivers", 2, "placement", "random")));
        return Lbsim.scenario(Map.of(
                "seed", 3,
                "topology", Map.of("type", "fat-tree", "k", 4),
                "loadBalancing", Map.of("type", "host-spray"),
                "congestionControl", Map.of("type", "dcqcn"),
                "lossRecovery", Map.of("type", "nic-sr"),
                "workload", workload,
                "trafficClasses", List.of(Map.of("trafficClass", 1, "loadBalancing", Map.of("type", backgroundLb))),
                "metrics", Map.of("sampleIntervalUs", 1))).run();
    }

    @Test
    void theClassSeriesAddUpToAllReceiversAndAnEcmpBackgroundHoldsNothing() {
        for (String backgroundLb : List.of("ecmp", "host-spray")) {
            Map<String, TimeSeries> s = series(run(backgroundLb, true));
            double[] all = s.get("ooo.held").values();
            double[] fg = s.get("ooo.held class0").values();
            double[] bg = s.get("ooo.held class1").values();
            assertThat(fg).hasSameSizeAs(all);
            for (int i = 0; i < all.length; i++) {
                assertThat(fg[i] + bg[i]).as("%s background, sample %d", backgroundLb, i).isEqualTo(all[i]);
                assertThat(fg[i]).isGreaterThanOrEqualTo(0);
            }
            assertThat(java.util.Arrays.stream(fg).max().orElse(0)).as("the sprayed foreground reorders").isPositive();
            if (backgroundLb.equals("ecmp")) {
                assertThat(bg).containsOnly(0.0); // one path per flow, no loss: nothing arrives out of order
            } else {
                assertThat(java.util.Arrays.stream(bg).max().orElse(0)).as("a sprayed background reorders too").isPositive();
            }
        }
    }

    @Test
    void oneClassAddsNoSeries() {
        assertThat(series(run("ecmp", false)).keySet()).contains("ooo.held").noneMatch(n -> n.startsWith("ooo.held class"));
    }
}
