package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.QpContext;

/**
 * The ideal fixed-rate sender (OFAN 4): a host's paced queue pairs that start together are spread
 * over the packet period, so the host's aggregate is smooth; with aligned phases every host sends
 * one packet per queue pair back to back and then pauses, in step with the others.
 */
class FixedRatePhasesTest {
    private static QpContext qp(long startPs, double phase) {
        return new QpContext(0, 0, 1, 64 * 4096L, 64, 4096, 62, 20, 800_000, Time.ns(6253), 800_000, startPs, phase);
    }

    @Test
    void rankROfCStartsROverCOfAPeriodLate() {
        CongestionControlFactory spread = FixedRate.factory(new FixedRate.Params(false, 50, true));
        long periodPs = Time.serializationPs(4096 + 62 + 20, 50_000);
        for (int r = 0; r < 16; r++) {
            CongestionControl cc = spread.create(qp(Time.us(3), r / 16.0));
            assertThat(cc.earliestSendPs(0, 0)).as("rank %d of 16", r).isEqualTo(Time.us(3) + Math.round(r / 16.0 * periodPs));
        }
        CongestionControl aligned = FixedRate.factory(new FixedRate.Params(false, 50, false)).create(qp(Time.us(3), 0.5));
        assertThat(aligned.earliestSendPs(Time.us(3), 0)).isEqualTo(0);
        CongestionControl lineRate = FixedRate.factory(new FixedRate.Params(false, 0, true)).create(qp(Time.us(3), 0.5));
        assertThat(lineRate.earliestSendPs(Time.us(3), 0)).as("unpaced: no phase").isEqualTo(Time.us(3));
    }

    @Test
    void afterTheFirstPacketTheRateIsUnchanged() {
        FixedRate cc = (FixedRate) FixedRate.factory(new FixedRate.Params(false, 100, true)).create(qp(0, 0.25));
        long periodPs = Time.serializationPs(4158 + 20, 100_000);
        long first = cc.earliestSendPs(0, 0);
        cc.onSent(4158, first);
        assertThat(cc.earliestSendPs(first, 4096)).isEqualTo(first + periodPs);
    }

    @Test
    void aPacedQueuePairStartedLaterKeepsItsPhaseCountedFromItsStart() {
        CongestionControl cc = FixedRate.factory(new FixedRate.Params(false, 50, true)).create(qp(0, 0.25));
        long phasePs = Math.round(0.25 * Time.serializationPs(4096 + 62 + 20, 50_000));
        assertThat(cc.earliestSendPs(0, 0)).as("as built, from its planned start 0").isEqualTo(phasePs);
        cc.onStart(Time.us(10)); // its dependencies completed at 10 us
        assertThat(cc.earliestSendPs(Time.us(10), 0)).isEqualTo(Time.us(10) + phasePs);
        CongestionControl lineRate = FixedRate.factory(new FixedRate.Params(false, 0, true)).create(qp(0, 0.25));
        lineRate.onStart(Time.us(10));
        assertThat(lineRate.earliestSendPs(Time.us(12), 0)).as("unpaced: sends when asked").isEqualTo(Time.us(12));
    }

    @Test
    void aRhoMaxSenderFollowsANewRhoMaxUpToTheLineRateUnlessToldToKeepItsFirst() {
        QpContext ctx = new QpContext(0, 0, 1, 64 * 4096L, 64, 4096, 62, 20, 800_000, Time.ns(6253), 200_000, 0, 0);
        CongestionControl follows = FixedRate.factory(new FixedRate.Params(true, 0, false, true)).create(ctx);
        CongestionControl keeps = FixedRate.factory(new FixedRate.Params(true, 0, false, false)).create(ctx);
        CongestionControl fixed = FixedRate.factory(new FixedRate.Params(false, 50, false, true)).create(ctx);
        for (CongestionControl cc : List.of(follows, keeps, fixed)) {
            cc.onRhoMaxChange(100_000, Time.us(1));
        }
        assertThat(follows.rateMbps()).isEqualTo(100_000);
        assertThat(keeps.rateMbps()).isEqualTo(200_000);
        assertThat(fixed.rateMbps()).as("a given rate is not rho_max").isEqualTo(50_000);
        follows.onSent(4158, Time.us(1));
        assertThat(follows.earliestSendPs(Time.us(1), 4158)).isEqualTo(Time.us(1) + Time.serializationPs(4158 + 20, 100_000));
        follows.onRhoMaxChange(800_000, Time.us(2));
        follows.onSent(4158, Time.us(2));
        assertThat(follows.rateMbps()).isEqualTo(800_000);
        assertThat(follows.earliestSendPs(Time.us(2), 4158)).as("rho_max at the line rate: unpaced").isEqualTo(Time.us(2));
        follows.onRhoMaxChange(1_600_000, Time.us(3));
        assertThat(follows.rateMbps()).as("never above the line rate").isEqualTo(800_000);
    }

    private static RunResult allToAll(boolean spread, long seed) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.AllToAll(32 * 4096, 0), seed);
        // e0 lost one of its two uplinks, routes converged: rho_max paces every queue pair so that e0's last uplink is just full
        s = TestScenarios.withFailures(s, TestScenarios.failLinks(List.of(new FailureSpec.FailedLink("e0", "a0", 0)), 0));
        s = new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(),
                new ComponentSpec("fixed-rate", new FixedRate.Params(true, 0, spread)), s.lossRecovery(), s.workload(), s.failures(), s.limits());
        return CheckedRun.of(s).result();
    }

    private static long maxQueue(RunResult r, String layer) {
        return r.layers().stream().filter(l -> l.layer().equals(layer)).mapToLong(LayerStats::maxQueueBytes).max().orElseThrow();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void spreadPhasesKeepTheUplinkOfAnEdgeThatLostOneShortUnlikeAlignedBursts(long seed) {
        RunResult spread = allToAll(true, seed);
        RunResult aligned = allToAll(false, seed);
        String msg = String.format("seed %d: E->A max queue %d B spread, %d B aligned; CCT %.2f / %.2f us", seed,
                maxQueue(spread, "E->A"), maxQueue(aligned, "E->A"), spread.cctPs() / 1e6, aligned.cctPs() / 1e6);
        System.out.println("[phases] " + msg);
        assertThat(spread.flowsFinished()).isEqualTo(spread.flows());
        assertThat(aligned.flowsFinished()).isEqualTo(aligned.flows());
        // aligned: e0's two hosts burst 15 packets each at line rate into its one uplink at once
        assertThat(maxQueue(aligned, "E->A")).as(msg).isGreaterThan(10 * 4158);
        // spread: the uplink still runs full (rho_max), but no longer absorbs 30 packets per period at once
        assertThat(maxQueue(spread, "E->A")).as(msg).isLessThan(maxQueue(aligned, "E->A") * 3 / 4);
    }
}
