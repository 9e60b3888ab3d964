package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.metrics.FailureEventStats;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;

/**
 * A failure during a run, at the size the suite can afford: OFAN Fig. 4's setting (k = 8
 * fabric, all-to-all at rho_max, erasure with the adaptive timer, `endOfMessage: rto`), two aggregation-core links failing
 * at t = 50 us in the middle of the collective, routing converging after G = 0, 8 base RTTs or never.
 * Fig. 4 (and 5.2's text) shows SWITCH PKT AR's CCT growing with G: until routes converge its switches keep
 * spraying onto the failed links, whose short queues even attract packets. So its losses on failed
 * links and its CCT are ordered G = 0 <= 8 RTTs <= never. Messages are 64 KiB (a CCT of ~100 us, so the
 * failure falls in its middle); the 1 MiB run is examples/midrun-failure.yaml (docs/transport.md, recomputeRhoMax).
 */
class MidRunFailureConvergenceTest {

    private static Scenario fig4WithMidRunFailure(double convergenceRtts) {
        Map<String, Object> failures = new java.util.LinkedHashMap<>();
        failures.put("convergenceDelayRtts", convergenceRtts);
        failures.put("convergenceDelayNs", convergenceRtts < 0 ? -1 : 0);
        failures.put("events", List.of(
                Map.of("atUs", 50, "link", Map.of("a", "a0", "b", "c0"), "action", "down"),
                Map.of("atUs", 50, "link", Map.of("a", "a4", "b", "c1"), "action", "down")));
        return ScenarioBinder.bind(Map.of(
                "name", "midrun-fig4",
                "topology", Map.of("type", "fat-tree", "k", 8),
                "workload", Map.of("type", "all-to-all", "messageBytes", 65536),
                "switches", Map.of("ecn", Map.of("enabled", true, "kminBytes", 80000, "kmaxBytes", 80000, "pmax", 1.0)),
                "congestionControl", Map.of("type", "fixed-rate", "rhoMax", true),
                "lossRecovery", Map.of("type", "erasure", "endOfMessage", "rto", "rtoUs", 6.25, "adaptiveRto", true),
                "loadBalancing", Map.of("type", "switch-pkt-ar"),
                "failures", failures));
    }

    @Test
    void switchPktArLosesLessAndFinishesSoonerTheSoonerRoutingConvergesAfterAMidRunFailure() {
        RunResult g0 = CheckedRun.of(fig4WithMidRunFailure(0)).result();
        RunResult g8 = CheckedRun.of(fig4WithMidRunFailure(8)).result();
        RunResult never = CheckedRun.of(fig4WithMidRunFailure(-1)).result();
        String msg = String.format("CCT %d / %d / %d ps, link loss %d / %d / %d, no route %d / %d / %d (G = 0 / 8 RTTs / never)",
                g0.cctPs(), g8.cctPs(), never.cctPs(), g0.counters().linkLoss(), g8.counters().linkLoss(), never.counters().linkLoss(),
                g0.counters().noRouteDrops(), g8.counters().noRouteDrops(), never.counters().noRouteDrops());
        System.out.println("[mid-run failure] " + msg);

        for (RunResult r : List.of(g0, g8, never)) {
            assertThat(r.flowsFinished()).as(msg).isEqualTo(r.flows());
            assertThat(r.failureEvents()).hasSize(2);
            FailureEventStats first = r.failureEvents().get(0);
            assertThat(first.before().linkLoss()).as("nothing fails before 50 us").isZero();
            assertThat(first.lostAtEvent()).as(msg).isPositive();
            // every packet lost on a failed link is counted in exactly one window, and only on the failed tier
            assertThat(first.before().linkLoss() + first.during().linkLoss() + first.after().linkLoss()).isEqualTo(r.counters().linkLoss());
            for (LayerStats l : r.layers()) {
                if (!l.layer().equals("A->C") && !l.layer().equals("C->A")) {
                    assertThat(l.linkLoss()).as(l.layer()).isZero();
                }
            }
        }
        assertThat(g0.counters().linkLoss()).as(msg).isLessThanOrEqualTo(g8.counters().linkLoss());
        assertThat(g8.counters().linkLoss()).as(msg).isLessThanOrEqualTo(never.counters().linkLoss());
        assertThat(g0.cctPs()).as(msg).isLessThanOrEqualTo(g8.cctPs());
        assertThat(g8.cctPs()).as(msg).isLessThanOrEqualTo(never.cctPs());
        // with G = 0 only what the failure caught is lost on the links (the rest of G = 0's losses have no route at c0 / c1)
        assertThat(g0.counters().linkLoss()).isEqualTo(g0.failureEvents().get(0).lostAtEvent() + g0.failureEvents().get(1).lostAtEvent());
    }
}
