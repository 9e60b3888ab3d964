package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.scenario.Scenario;
import org.lbsim.transport.Transport;

/**
 * rho_max senders after a failure during the run: with {@code recomputeRhoMax} they pace, once routing
 * has converged, at rho_max of the fabric as it is (the value a run with the same link failed from time
 * zero starts with, OFAN App. A); without it they keep the healthy fabric's. Never converging changes
 * nothing.
 */
class RhoMaxAfterFailureTest {

    private static Scenario allToAll(boolean recompute, Map<String, Object> failures) {
        return ScenarioBinder.bind(Map.of(
                "name", "rho-after-failure",
                "topology", Map.of("type", "fat-tree", "k", 4),
                "workload", Map.of("type", "all-to-all", "messageBytes", 65536),
                "congestionControl", Map.of("type", "fixed-rate", "rhoMax", true, "recomputeRhoMax", recompute),
                "loadBalancing", Map.of("type", "switch-pkt-ar"),
                "failures", failures));
    }

    private static Map<String, Object> midRun(double convergenceNs) {
        return Map.of("convergenceDelayNs", convergenceNs,
                "events", List.of(Map.of("atUs", 2, "link", Map.of("a", "a0", "b", "c0"), "action", "down")));
    }

    private static long[] ratesMbps(CheckedRun run) {
        Transport t = run.prepared().transport();
        long[] rates = new long[t.flowCount()];
        for (int q = 0; q < rates.length; q++) {
            rates[q] = t.senderOf(q).congestionControl().rateMbps();
        }
        return rates;
    }

    @ParameterizedTest(name = "recomputeRhoMax = {0}")
    @ValueSource(booleans = {true, false})
    void afterConvergenceRhoMaxSendersPaceAtTheRateOfTheFabricAsItIs(boolean recompute) {
        long healthy = CheckedRun.of(allToAll(recompute, Map.of())).prepared().rhoMaxMbps();
        long failed = CheckedRun.of(allToAll(recompute, Map.of("links", List.of(Map.of("a", "a0", "b", "c0")))))
                .prepared().rhoMaxMbps();
        assertThat(failed).as("one aggregation-core link fewer carries less per flow").isLessThan(healthy);

        CheckedRun converged = CheckedRun.of(allToAll(recompute, midRun(1000)));
        assertThat(converged.result().failureEvents().get(0).convergedAtPs()).isEqualTo(3_000_000L);
        assertThat(converged.prepared().rhoMaxMbps()).as("the reported rho_max is the fabric's before the event").isEqualTo(healthy);
        assertThat(ratesMbps(converged)).containsOnly(recompute ? failed : healthy);

        CheckedRun never = CheckedRun.of(allToAll(recompute, midRun(-1)));
        assertThat(ratesMbps(never)).containsOnly(healthy);
    }
}
