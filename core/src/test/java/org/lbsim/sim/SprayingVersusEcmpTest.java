package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;

/** OFAN S1 on a small fabric: the paper's qualitative result that packet spraying beats per-flow ECMP. */
class SprayingVersusEcmpTest {

    /** 128 hosts (k = 8), 800 Gb/s, 0.5 us links, 800 KB per port, 4 MiB random permutation, erasure at line rate. */
    private static Scenario s1(String lb, long seed) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(8), lb, new WorkloadSpec.Permutation(4L << 20, 0), seed);
        return ScenarioTweaks.withSwitches(s, new SwitchSpec(new BufferSpec.PerPort(800_000), EcnSpec.defaults()));
    }

    @Test
    void hostPacketSprayingFinishesAPermutationSoonerThanPerFlowEcmp() {
        RunResult ecmp = CheckedRun.of(s1("ecmp", 1)).result();
        RunResult spray = CheckedRun.of(s1("host-spray", 1)).result();

        assertThat(ecmp.flowsFinished()).isEqualTo(128);
        assertThat(spray.flowsFinished()).isEqualTo(128);
        assertThat(spray.cctPs()).isLessThan(ecmp.cctPs());
        // same seed, same permutation: the comparison is about load balancing alone
        assertThat(spray.flowResults()).extracting(f -> f.src() + "->" + f.dst())
                .isEqualTo(ecmp.flowResults().stream().map(f -> f.src() + "->" + f.dst()).toList());
        // neither beats the analytic bound of the permutation
        assertThat(spray.cctPs()).isGreaterThanOrEqualTo(spray.lowerBoundPs());
        assertThat(ecmp.cctPs()).isGreaterThanOrEqualTo(ecmp.lowerBoundPs());
    }
}
