package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;

/**
 * A host whose last look found every queue pair of its ring held back by pacing that no
 * feedback moves (a rho_max sender) does not look again before the earliest may send, unless a queue
 * pair joins or leaves the ring, a collective step starts, or rho_max changes during the run. The run
 * must be the exact path's (every look made) to the picosecond. Settings: rho_max all-to-alls with a
 * link failed from time zero (rho_max below the line rate: the senders pace), a failure during the run
 * with rho_max recomputed after convergence (and after a repair, which ends the pacing at once), a ring all-reduce whose steps start when the previous
 * ones complete, and a DCQCN run, whose pacing feedback moves (no look may be left out). Within a look,
 * a queue pair whose last look found it so held back is passed on that answer without being asked
 * (until a pacing changes); the same identity covers it.
 */
class PacedLooksTest {

    private static Map<String, Object> failedFromStart() {
        return Map.of("links", List.of(Map.of("a", "a0", "b", "c0")));
    }

    private static Map<String, Object> failedDuringRun() {
        return Map.of("convergenceDelayNs", 2000,
                "events", List.of(Map.of("atUs", 3, "link", Map.of("a", "a1", "b", "c2"), "action", "down")));
    }

    /** Down and up again: after the repair rho_max is the line rate again and the senders stop pacing at once. */
    private static Map<String, Object> failedAndRepaired() {
        return Map.of("convergenceDelayNs", 1000,
                "events", List.of(Map.of("atUs", 2, "link", Map.of("a", "a1", "b", "c2"), "action", "down"),
                        Map.of("atUs", 6, "link", Map.of("a", "a1", "b", "c2"), "action", "up")));
    }

    private static Scenario scenario(String lb, Map<String, Object> workload, Map<String, Object> cc, Map<String, Object> failures,
                                     Map<String, Object> recovery, long seed) {
        Map<String, Object> m = new HashMap<>();
        m.put("name", "paced-looks");
        m.put("seed", seed);
        m.put("topology", Map.of("type", "fat-tree", "k", 4));
        m.put("workload", workload);
        m.put("congestionControl", cc);
        m.put("loadBalancing", Map.of("type", lb));
        m.put("lossRecovery", recovery);
        m.put("failures", failures);
        return ScenarioBinder.bind(m);
    }

    private static final Map<String, Object> ALL_TO_ALL = Map.of("type", "all-to-all", "messageBytes", 65536);
    private static final Map<String, Object> RHO_MAX = Map.of("type", "fixed-rate", "rhoMax", true);
    private static final Map<String, Object> RHO_MAX_RECOMPUTED = Map.of("type", "fixed-rate", "rhoMax", true, "recomputeRhoMax", true);
    private static final Map<String, Object> ERASURE = Map.of("type", "erasure", "endOfMessage", "srtt-after-pass");

    static Stream<Arguments> runs() {
        return Stream.of(1L, 2L, 3L).flatMap(seed -> Stream.of(
                Arguments.of("all-to-all, a link failed from the start, host-spray", true, true,
                        scenario("host-spray", ALL_TO_ALL, RHO_MAX, failedFromStart(), ERASURE, seed)),
                Arguments.of("all-to-all, a link failed from the start, switch-pkt-ar, sack", true, true,
                        scenario("switch-pkt-ar", ALL_TO_ALL, RHO_MAX, failedFromStart(), Map.of("type", "sack", "threshold", 6), seed)),
                Arguments.of("all-to-all, a failure during the run, rho_max recomputed", true, true,
                        scenario("host-pkt-ar", ALL_TO_ALL, RHO_MAX_RECOMPUTED, failedDuringRun(), ERASURE, seed)),
                Arguments.of("all-to-all, a link down and up again during the run, rho_max recomputed", true, true,
                        scenario("host-spray", ALL_TO_ALL, RHO_MAX_RECOMPUTED, failedAndRepaired(), ERASURE, seed)),
                Arguments.of("permutation, a link down and up again during the run, rho_max recomputed", true, false,
                        scenario("host-spray", Map.of("type", "permutation", "messageBytes", 262144), RHO_MAX_RECOMPUTED, failedAndRepaired(), ERASURE, seed)),
                Arguments.of("ring all-reduce at a fixed rate below the line", true, false,
                        scenario("ecmp", Map.of("type", "collective", "op", "all-reduce", "algorithm", "ring", "bytes", 1_048_576),
                                Map.of("type", "fixed-rate", "rateGbps", 40), Map.of(), ERASURE, seed)),
                Arguments.of("all-to-all under DCQCN", false, false,
                        scenario("host-spray", ALL_TO_ALL, Map.of("type", "dcqcn"), failedFromStart(), Map.of("type", "nic-sr"), seed))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void leavingOutLooksAtPacedQueuePairsGivesTheExactRun(String name, boolean skips, boolean passesHeld, Scenario s) {
        PreparedRun exactRun = Simulation.prepareExact(s, null);
        RunResult exact = exactRun.run();
        PreparedRun fastRun = Simulation.prepare(s, null);
        RunResult fast = fastRun.run();

        assertThat(fast.flowResults()).isEqualTo(exact.flowResults());
        assertThat(fast.layers()).isEqualTo(exact.layers());
        assertThat(fast).usingRecursiveComparison().ignoringFields("wallTimeMs", "counters.events").isEqualTo(exact);
        assertThat(exactRun.transport().pacedLooksSkipped()).isZero();
        assertThat(exactRun.transport().heldQpsPassed()).isZero();
        if (skips) {
            assertThat(fastRun.transport().pacedLooksSkipped()).as("looks left out").isPositive();
            // one queue pair per host at a time (permutation, ring) is left to the whole-look skip above
            assertThat(fastRun.transport().heldQpsPassed() > 0).as("queue pairs passed on their last look").isEqualTo(passesHeld);
        } else {
            assertThat(fastRun.transport().pacedLooksSkipped()).as("DCQCN's pacing moves with feedback").isZero();
            assertThat(fastRun.transport().heldQpsPassed()).as("DCQCN's pacing moves with feedback").isZero();
        }
    }
}
