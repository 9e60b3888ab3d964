package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;

/** DESIGN.md analytic checks: zero drops with PFC, on a 15-to-1 incast that overflows an 800 KB port without it. */
class PfcIncastTest {
    private static final EcnSpec ECN_OFF = new EcnSpec(false, 0, 0, 0);
    private static final PfcSpec PFC = new PfcSpec(true, 200_000, 180_000, 0, 120_000, 100);

    @TempDir
    Path dir;

    /** Every other host of a k = 4 fat tree sends 1 MiB to host 0. */
    private Scenario incast(PfcSpec pfc) {
        List<long[]> rows = new ArrayList<>();
        for (int src = 1; src < 16; src++) {
            rows.add(flow(src, 0, 256 * 4096));
        }
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", trace(dir, "incast.csv", rows), 1);
        return ScenarioTweaks.withSwitches(s, new SwitchSpec(BufferSpec.defaults(), ECN_OFF, pfc));
    }

    @Test
    void withoutPfcTheIncastOverflowsTheBottleneckAndNeedsRetransmissions() {
        RunResult r = CheckedRun.of(incast(PfcSpec.defaults()), dir).result();
        assertThat(PfcSpec.defaults().enabled()).isFalse();
        assertThat(r.counters().drops()).isPositive();
        assertThat(r.counters().retransmissions()).isPositive();
        assertThat(r.counters().pfcPauses()).isZero();
    }

    @Test
    void withPfcTheSameIncastLosesNothingAndPausesUpstreamPorts() {
        CheckedRun run = CheckedRun.of(incast(PFC), dir);
        RunResult r = run.result();

        assertThat(r.counters().dropped()).isZero();
        assertThat(r.counters().retransmissions()).isZero();
        assertThat(r.counters().timeouts()).isZero();
        assertThat(r.counters().pfcPauses()).isPositive();
        assertThat(r.counters().pfcDeadlock()).isEmpty();
        assertThat(r.flowsFinished()).isEqualTo(15);
        assertThat(r.layers().stream().mapToLong(l -> l.pauses()).sum()).isPositive();
        // host 0's link carries every frame once: the CCT cannot beat 15 MiB back to back on it
        assertThat(r.cctPs()).isGreaterThanOrEqualTo(15L * 256 * 41_780);
        assertThat(r.cctPs()).isGreaterThanOrEqualTo(r.lowerBoundPs());
    }

    @Test
    void pfcFinishesTheIncastSoonerThanDropAndRetransmit() {
        long lossy = CheckedRun.of(incast(PfcSpec.defaults()), dir).cctPs();
        long lossless = CheckedRun.of(incast(PFC), dir).cctPs();
        assertThat(lossless).isLessThan(lossy);
    }
}
