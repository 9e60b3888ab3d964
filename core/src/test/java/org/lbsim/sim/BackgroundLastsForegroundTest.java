package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.JobResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Background flows with {@code lasts: foreground} (DLBF IV: flows that "persist throughout the lifetime
 * of the foreground workload"): the run ends when the jobs complete, the background is cut there, and
 * nothing before the cut differs from a run whose background simply has more bytes than it can send.
 */
class BackgroundLastsForegroundTest {

    private static Scenario scenario(String lasts, long backgroundBytes, double maxTimeUs, long seed) {
        WorkloadSpec w = new WorkloadSpec.Jobs(
                List.of(new WorkloadSpec.JobSpec("ar", "all-reduce", "ring", 1L << 20, 6, "random", 1, 0, 1, 0, 0)),
                List.of(new WorkloadSpec.BackgroundSpec("long-lived", 3, backgroundBytes, false, "web-search", 0.3, 100, 0, lasts)));
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", w, seed);
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), new LimitsSpec(maxTimeUs));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void theRunEndsWithTheForegroundAndNothingBeforeTheCutChanges(long seed) {
        CheckedRun cut = CheckedRun.of(scenario("foreground", 10_000_000_000L, 1_000_000, seed));
        RunResult r = cut.result();
        JobResult ar = r.jobs().get(0);
        JobResult background = r.jobs().get(1);
        assertThat(r.completed()).isTrue();
        assertThat(r.endingDetail()).isEqualTo("3 background flows cut when the foreground completed");
        assertThat(ar.jctPs()).isPositive();
        assertThat(background.jctPs()).isEqualTo(-1);
        // the run is the foreground's: its CCT is the AllReduce's, it ends there, and the bound is the foreground's
        assertThat(r.cctPs()).isEqualTo(ar.jctPs());
        assertThat(r.simulatedPs()).isEqualTo(ar.startPs() + ar.jctPs());
        assertThat(r.lowerBoundPs()).isPositive().isLessThanOrEqualTo(r.cctPs());
        assertThat(r.flowsFinished()).isEqualTo(r.flows() - 3);

        // the same background with bytes that cannot run out, stopped a little later by the time limit
        double limitUs = r.simulatedPs() / 1e6 + 20;
        RunResult longer = CheckedRun.of(scenario("bytes", 10_000_000_000L, limitUs, seed)).result();
        assertThat(longer.ending()).isEqualTo(RunResult.TIME_LIMIT);
        List<FlowResult> a = r.flowResults();
        List<FlowResult> b = longer.flowResults();
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).finished()) {
                assertThat(b.get(i)).as("flow %d", i).usingRecursiveComparison().ignoringFields("spuriousRetransmissions", "duplicatesReceived")
                        .isEqualTo(a.get(i));
            } else {
                assertThat(b.get(i).finished()).as("background flow %d", i).isFalse();
            }
        }
        assertThat(longer.jobs().get(0).jctPs()).isEqualTo(ar.jctPs());
    }

    @Test
    void backgroundThatRunsOutFirstIsNamed() {
        RunResult r = CheckedRun.of(scenario("foreground", 20_000, 1_000_000, 1)).result();
        assertThat(r.completed()).isTrue();
        assertThat(r.endingDetail()).isEqualTo("0 background flows cut when the foreground completed; 3 ended before it (raise their bytes to make them last)");
        assertThat(r.flowsFinished()).isEqualTo(r.flows());
    }

    @Test
    void aForegroundUnfinishedByTheLimitIsStillATimeLimit() {
        RunResult r = CheckedRun.of(scenario("foreground", 10_000_000_000L, 20, 1)).result();
        assertThat(r.ending()).isEqualTo(RunResult.TIME_LIMIT);
        assertThat(r.cctPs()).isEqualTo(-1);
    }

    @Test
    void aPairwiseExchangeSendsEachPairBothWays() {
        WorkloadSpec.BackgroundSpec oneWay = new WorkloadSpec.BackgroundSpec("long-lived", 5, 1000, false, "web-search", 0.3, 100, 1, "bytes");
        WorkloadSpec.BackgroundSpec bothWays = new WorkloadSpec.BackgroundSpec("long-lived", 5, 1000, true, "web-search", 0.3, 100, 1, "bytes");
        List<org.lbsim.workload.Flow> a = flows(oneWay);
        List<org.lbsim.workload.Flow> b = flows(bothWays);
        assertThat(a).hasSize(5);
        assertThat(b).hasSize(10);
        for (int k = 0; k < 5; k++) {
            // the same random pairs as one way, each followed by its reverse
            assertThat(b.get(2 * k)).isEqualTo(a.get(k));
            assertThat(b.get(2 * k + 1).src()).isEqualTo(a.get(k).dst());
            assertThat(b.get(2 * k + 1).dst()).isEqualTo(a.get(k).src());
            assertThat(b.get(2 * k + 1).trafficClass()).isEqualTo(1);
        }
    }

    private static List<org.lbsim.workload.Flow> flows(WorkloadSpec.BackgroundSpec background) {
        WorkloadSpec w = new WorkloadSpec.Jobs(List.of(), List.of(background));
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", w, 4);
        return org.lbsim.workload.Workloads.build(w, org.lbsim.topology.Topologies.build(s.topology()), 4096,
                new java.util.SplittableRandom(4), null).flows();
    }

    @Test
    void backgroundAloneCannotLastAsLongAsAForeground() {
        assertThatThrownBy(() -> new WorkloadSpec.Jobs(List.of(),
                List.of(new WorkloadSpec.BackgroundSpec("long-lived", 3, 1000, false, "web-search", 0.3, 100, 0, "foreground"))))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("lasts: foreground needs at least one job");
        assertThatThrownBy(() -> new WorkloadSpec.BackgroundSpec("long-lived", 3, 1000, false, "web-search", 0.3, 100, 0, "forever"))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("must be bytes or foreground, got 'forever'");
    }
}
