package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.FailedLink;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/**
 * OFAN 5.2: a link that fails while routing never converges black-holes every packet sprayed onto
 * it; loss recovery must still deliver every message. Once routing has converged, nothing is lost.
 */
class LossRecoveryUnderFailureTest {
    private static final ComponentSpec SACK = new ComponentSpec("sack", new SackThreshold.Params(32, 80));
    private static final ComponentSpec ERASURE = new ComponentSpec("erasure", IdealErasure.Params.rto(80));

    /** k = 4, packet spraying, 1 MiB permutation, a0-c0 down. */
    private static Scenario failedCoreLink(ComponentSpec recovery, double convergenceDelayNs) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(256 * 4096, 0), 3);
        s = TestScenarios.withRecovery(s, recovery);
        return TestScenarios.withFailures(s, TestScenarios.failLinks(List.of(new FailedLink("a0", "c0", 0)), convergenceDelayNs));
    }

    @Test
    void erasureCodingDeliversEveryMessageThroughABlackHoleWithExtraSymbols() {
        CheckedRun run = CheckedRun.of(failedCoreLink(ERASURE, -1));
        RunResult r = run.result();

        assertThat(r.counters().failedLinks()).isEqualTo(1);
        assertThat(r.counters().linkLoss()).isPositive();
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(r.cctPs()).isPositive();
        assertThat(r.counters().retransmissions()).as("extra symbols").isPositive();
        for (FlowResult f : r.flowResults()) {
            // every symbol lost on the failed link was replaced by a fresh one ...
            assertThat(f.retransmissions()).isGreaterThanOrEqualTo(run.prepared().transport().lostData(f.flow()));
            assertThat(f.packetsSent()).isEqualTo(256 + f.retransmissions());
            // ... and no PSN is ever sent twice, so no receiver sees a duplicate
            assertThat(f.duplicatesReceived()).isZero();
        }
    }

    @Test
    void sackRecoveryResendsTheHolesAndEveryFlowFinishes() {
        RunResult r = CheckedRun.of(failedCoreLink(SACK, -1)).result();

        assertThat(r.counters().linkLoss()).isPositive();
        assertThat(r.counters().retransmissions()).isPositive();
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(r.flowResults()).allSatisfy(f -> assertThat(f.finished()).isTrue());
        assertThat(r.flowResults().stream().mapToLong(f -> f.retransmissions()).sum()).isEqualTo(r.counters().retransmissions());
    }

    @Test
    void withRoutingConvergedBeforeTheRunNothingIsLostAndErasureSendsNoExtraSymbol() {
        for (ComponentSpec recovery : List.of(ERASURE, SACK)) {
            RunResult r = CheckedRun.of(failedCoreLink(recovery, 0)).result();

            assertThat(r.counters().failedLinks()).isEqualTo(1);
            assertThat(r.counters().linkLoss()).as(recovery.type()).isZero();
            assertThat(r.counters().noRouteDrops()).isZero();
            assertThat(r.counters().dropped()).isZero();
            assertThat(r.counters().timeouts()).isZero();
            assertThat(r.flowsFinished()).isEqualTo(16);
            // a receiver can only see a PSN twice if the sender sent it twice
            assertThat(r.flowResults()).allSatisfy(f -> assertThat(f.duplicatesReceived()).isLessThanOrEqualTo(f.retransmissions()));
        }
        assertThat(CheckedRun.of(failedCoreLink(ERASURE, 0)).result().counters().retransmissions()).isZero();
    }

    @Test
    void packetsAreLostOnlyUntilRoutingConverges() {
        RunResult never = CheckedRun.of(failedCoreLink(ERASURE, -1)).result();
        RunResult after5us = CheckedRun.of(failedCoreLink(ERASURE, 5_000)).result();
        RunResult before = CheckedRun.of(failedCoreLink(ERASURE, 0)).result();

        assertThat(before.counters().linkLoss()).isZero();
        assertThat(after5us.counters().linkLoss()).isPositive().isLessThan(never.counters().linkLoss());
        assertThat(after5us.flowsFinished()).isEqualTo(16);
    }
}
