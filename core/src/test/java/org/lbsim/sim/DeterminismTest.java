package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;

/** Same scenario and seed give the same result; another seed gives another draw. */
class DeterminismTest {

    /** Randomness everywhere: the permutation, per-packet entropies, ECN coin flips and random link failures. */
    private static Scenario busy(long seed) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(256 * 4096, 0), seed);
        s = TestScenarios.withFailures(s, new FailureSpec(List.of(), 0.05, 2_000));
        s = ScenarioTweaks.withSwitches(s, new SwitchSpec(BufferSpec.defaults(), new EcnSpec(true, 1_000, 200_000, 0.5)));
        return ScenarioTweaks.withLimits(s, new LimitsSpec(5_000));
    }

    private static List<String> pairs(RunResult r) {
        return r.flowResults().stream().map(f -> f.src() + "->" + f.dst()).toList();
    }

    @Test
    void theSameScenarioAndSeedTwiceGiveEqualResultsApartFromWallTime() {
        RunResult a = CheckedRun.of(busy(43)).result();
        RunResult b = CheckedRun.of(busy(43)).result();

        assertThat(b.flowResults()).isEqualTo(a.flowResults());
        assertThat(b.layers()).isEqualTo(a.layers());
        assertThat(b.counters()).isEqualTo(a.counters());
        assertThat(b.cctPs()).isEqualTo(a.cctPs());
        assertThat(b).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(a);
        // the run exercised every random stream, so there was something to be nondeterministic about
        assertThat(a.flowsFinished()).isEqualTo(16);
        assertThat(a.counters().failedLinks()).isPositive();
        assertThat(a.counters().ecnMarks()).isPositive();
    }

    @Test
    void anotherSeedDrawsAnotherPermutation() {
        RunResult a = CheckedRun.of(busy(43)).result();
        RunResult c = CheckedRun.of(busy(45)).result(); // seed 44 cuts a host off (rejected as a partition)

        assertThat(pairs(c)).isNotEqualTo(pairs(a));
        assertThat(c).usingRecursiveComparison().ignoringFields("wallTimeMs", "seed").isNotEqualTo(a);
    }

    @Test
    void runsInParallelThreadsGiveTheSameResultsAsOneAtATime() throws Exception {
        RunResult alone = CheckedRun.of(busy(43)).result();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<RunResult>> futures = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                futures.add(pool.submit(() -> CheckedRun.of(busy(43)).result()));
            }
            for (java.util.concurrent.Future<RunResult> f : futures) {
                assertThat(f.get()).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(alone);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
