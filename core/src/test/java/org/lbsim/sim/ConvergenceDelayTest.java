package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;

/** OFAN 5.2: until G, switches keep routing onto failed links and lose those packets; after G they avoid them. */
class ConvergenceDelayTest {

    private static RunResult withG(double convergenceNs, double convergenceRtts) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(256 * 4096, 0), 3);
        s = TestScenarios.withFailures(s, new FailureSpec(List.of(new FailureSpec.FailedLink("a0", "c0", 0)), 0, convergenceNs, List.of(),
                convergenceRtts));
        return CheckedRun.of(s).result();
    }

    @Test
    void aLongerConvergenceDelayLosesMorePacketsOnTheFailedLink() {
        long never = withG(-1, -1).counters().linkLoss();
        long twoRtts = withG(0, 2).counters().linkLoss();
        long converged = withG(0, 0).counters().linkLoss();

        assertThat(converged).as("G = 0").isZero();
        assertThat(twoRtts).as("G = 2 RTTs").isPositive().isLessThan(never);
    }

    @Test
    void aDelayInRttsEqualsTheSameDelayInNanoseconds() {
        // the base RTT of a k=4 fat tree at 800 Gb/s: 6 hops of a 4158 B frame and a 64 B ACK plus 6 us of propagation
        double rttNs = 6 * 41.58 + 6 * 0.64 + 6_000;
        RunResult byRtts = withG(0, 3);
        RunResult byNs = withG(3 * rttNs, -1);
        assertThat(byRtts.counters().linkLoss()).isEqualTo(byNs.counters().linkLoss());
        assertThat(byRtts.cctPs()).isEqualTo(byNs.cctPs());
    }
}
