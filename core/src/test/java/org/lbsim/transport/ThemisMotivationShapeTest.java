package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.Dcqcn;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;

/**
 * Themis 2.2, Fig. 1 in small: the two 4-host rings whose every hop crosses the spines of a 2-leaf,
 * 4-spine fabric at 100 Gb/s, NIC-SR, DCQCN, PFC, no loss. Per-flow ECMP never reorders; spraying
 * does, and what that costs depends on whether a NACK cuts the DCQCN rate: if it does (Themis'
 * text), the senders slow down until reordering is rare; if only CNPs cut, they keep sending
 * near line rate and a sizeable share of the traffic is spurious retransmissions (the paper's
 * measured shape; docs/papers/themis.md, Fig. 1, judges both readings against the paper).
 */
class ThemisMotivationShapeTest {
    private static final long FLOW_BYTES = 4_000_000;

    @TempDir
    Path dir;

    private Scenario ring(String lb, boolean nackCutsRate) {
        TopologySpec fabric = new TopologySpec.LeafSpine(4, 2, 4, 1, new LinkSpec(100, 1000), new LinkSpec(100, 1000));
        PfcSpec d = PfcSpec.defaults();
        SwitchSpec switches = new SwitchSpec(new BufferSpec.PerPort(64_000_000), EcnSpec.defaults(),
                new PfcSpec(true, 2_000_000, 1_800_000, 0, 1_000_000, d.deadlockCheckUs()));
        Dcqcn.Params p = Dcqcn.Params.defaults();
        Dcqcn.Params dcqcn = new Dcqcn.Params(p.rateIncreaseTimerUs(), p.rateDecreaseIntervalUs(), p.byteCounterBytes(),
                p.additiveIncreaseGbps(), p.hyperIncreaseGbps(), p.alphaGain(), p.alphaUpdateUs(), p.fastRecoveryStages(),
                p.minRateGbps(), p.cnpIntervalUs(), p.clampTargetRate(), nackCutsRate);
        int[][] hops = {{0, 4}, {4, 1}, {1, 5}, {5, 0}, {2, 6}, {6, 3}, {3, 7}, {7, 2}};
        List<long[]> flows = new ArrayList<>();
        for (int[] h : hops) {
            flows.add(ScenarioTweaks.flow(h[0], h[1], FLOW_BYTES));
        }
        return new Scenario("themis-ring", 1, fabric, new PacketSpec(1000, 62, 64, 20), switches, TestScenarios.lb(lb),
                new ComponentSpec("dcqcn", dcqcn), new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)),
                ScenarioTweaks.trace(dir, "ring-" + lb + "-" + nackCutsRate + ".csv", flows),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    private static double spuriousShare(RunResult r) {
        long sent = 0;
        for (FlowResult f : r.flowResults()) {
            sent += f.packetsSent();
        }
        return (double) r.counters().spuriousRetransmissions() / sent;
    }

    @Test
    void sprayingOverNicSrRetransmitsSpuriouslyAndNackCutsTradeThatForALowerRate() {
        RunResult ecmp = CheckedRun.of(ring("ecmp", true), dir).result();
        RunResult cutOnNack = CheckedRun.of(ring("host-spray", true), dir).result();
        RunResult cutOnCnpOnly = CheckedRun.of(ring("host-spray", false), dir).result();
        String measured = String.format("spurious share / CCT: ECMP %.4f / %d ps, spraying with NACK cuts %.4f / %d ps (%d NACKs),"
                        + " spraying with CNP-only cuts %.4f / %d ps (%d NACKs)", spuriousShare(ecmp), ecmp.cctPs(), spuriousShare(cutOnNack),
                cutOnNack.cctPs(), cutOnNack.counters().nacks(), spuriousShare(cutOnCnpOnly), cutOnCnpOnly.cctPs(), cutOnCnpOnly.counters().nacks());

        for (RunResult r : List.of(ecmp, cutOnNack, cutOnCnpOnly)) {
            assertThat(r.flowsFinished()).as(measured).isEqualTo(8);
            assertThat(r.counters().dropped()).as("lossless; " + measured).isZero();
        }
        // per-flow ECMP: one path per flow, nothing out of order, nothing resent
        assertThat(ecmp.outOfOrder().arrivals()).as(measured).isZero();
        assertThat(ecmp.counters().retransmissions()).as(measured).isZero();
        // spraying without NACK cuts: the senders stay fast and a sizeable share is resent for nothing
        assertThat(spuriousShare(cutOnCnpOnly)).as(measured).isGreaterThan(0.02);
        assertThat(cutOnCnpOnly.counters().retransmissions()).as(measured).isEqualTo(cutOnCnpOnly.counters().spuriousRetransmissions());
        // with NACK cuts: far fewer NACKs and resends, paid for with a slower completion
        assertThat(cutOnNack.counters().nacks()).as(measured).isPositive().isLessThan(cutOnCnpOnly.counters().nacks() / 10);
        assertThat(spuriousShare(cutOnNack)).as(measured).isLessThan(spuriousShare(cutOnCnpOnly) / 10);
        assertThat(cutOnNack.cctPs()).as(measured).isGreaterThan(cutOnCnpOnly.cctPs());
    }
}
