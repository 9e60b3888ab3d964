package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.LossRecoveries;
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
 * A 16-to-1 incast on a leaf-spine of 4 leaves x 5 hosts and 4 spines (100 Gb/s everywhere, 800 KB
 * per port): hosts 1..16 each send 512 KB at line rate to host 0, with ECMP and no ECN. With PFC the
 * fabric loses nothing: the congestion at l0's port to host 0 backs up as PAUSE frames through the
 * spines, the other leaves and into the sending NICs. Without PFC the same incast overflows the
 * buffers and finishes only thanks to loss recovery.
 */
class PfcSixteenToOneIncastTest {
    private static final int SENDERS = 16;
    private static final long BYTES = 128 * 4096;
    private static final PfcSpec PFC = new PfcSpec(true, 200_000, 180_000, 0, 120_000, 100);

    @TempDir
    Path dir;

    private Scenario incast(String recovery, PfcSpec pfc) {
        List<long[]> rows = new ArrayList<>();
        for (int src = 1; src <= SENDERS; src++) {
            rows.add(ScenarioTweaks.flow(src, 0, BYTES));
        }
        TopologySpec topo = new TopologySpec.LeafSpine(5, 4, 4, 1, new LinkSpec(100, 1000), new LinkSpec(100, 1000));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), pfc);
        return new Scenario("incast-16-1", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                new ComponentSpec(recovery, LossRecoveries.REGISTRY.find(recovery).orElseThrow().defaults()),
                ScenarioTweaks.trace(dir, "incast.csv", rows), FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0),
                NicSpec.defaults());
    }

    private static LayerStats layer(RunResult r, String name) {
        return r.layers().stream().filter(l -> l.layer().equals(name)).findFirst().orElseThrow();
    }

    private static String pauses(RunResult r) {
        StringBuilder sb = new StringBuilder("pauses per layer:");
        for (LayerStats l : r.layers()) {
            sb.append(' ').append(l.layer()).append('=').append(l.pauses());
        }
        return sb.append(", PAUSE frames sent ").append(r.counters().pfcPauses()).append(", drops ").append(r.counters().drops())
                .append(", CCT ").append(r.cctPs()).append(" ps vs bound ").append(r.lowerBoundPs()).toString();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"go-back-n", "sack"})
    void withPfcNothingIsDroppedAndPausesReachBackToTheSendingNics(String recovery) {
        CheckedRun run = CheckedRun.of(incast(recovery, PFC), dir);
        RunResult r = run.result();
        String measured = pauses(r);

        assertThat(r.flowsFinished()).as(measured).isEqualTo(SENDERS);
        assertThat(r.counters().dropped()).as(measured).isZero();
        assertThat(r.counters().retransmissions()).as(measured).isZero();
        assertThat(r.counters().timeouts()).as(measured).isZero();
        assertThat(r.counters().pfcDeadlock()).as(measured).isEmpty();
        assertThat(r.counters().pfcPauses()).as(measured).isPositive();
        // the pause tree: spine ports into l0, the other leaves' uplinks, and host NICs
        assertThat(layer(r, "S->L").pauses()).as(measured).isPositive();
        assertThat(layer(r, "L->S").pauses()).as(measured).isPositive();
        assertThat(layer(r, "H->L").pauses()).as(measured).isPositive();
        // every sender under the congested leaf shares its port to host 0, so every one is paused
        Network net = run.prepared().network();
        for (int h = 1; h <= 4; h++) {
            assertThat(net.nic(h).pauseEvents()).as("pauses of host %d's NIC; %s", h, measured).isPositive();
        }
        long pausedNics = java.util.stream.IntStream.rangeClosed(1, SENDERS).filter(h -> net.nic(h).pauseEvents() > 0).count();
        assertThat(pausedNics).as("sending NICs paused; " + measured).isGreaterThan(4);
        // lossless backpressure keeps the bottleneck busy: the incast ends within 1% of its bound
        assertThat(r.cctPs()).as(measured).isGreaterThanOrEqualTo(r.lowerBoundPs()).isLessThan(r.lowerBoundPs() * 101 / 100);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"go-back-n", "sack"})
    void withoutPfcTheSameIncastDropsAndRecoversByRetransmission(String recovery) {
        RunResult lossy = CheckedRun.of(incast(recovery, PfcSpec.defaults()), dir).result();
        RunResult lossless = CheckedRun.of(incast(recovery, PFC), dir).result();
        String measured = "lossy: " + pauses(lossy) + "; lossless: " + pauses(lossless);

        assertThat(lossy.counters().pfcPauses()).as(measured).isZero();
        assertThat(lossy.counters().drops()).as(measured).isPositive();
        assertThat(layer(lossy, "L->H").drops()).as("drops at the bottleneck; " + measured).isPositive();
        assertThat(lossy.counters().retransmissions()).as(measured).isGreaterThanOrEqualTo(lossy.counters().drops());
        assertThat(lossy.flowsFinished()).as(measured).isEqualTo(SENDERS);
        assertThat(lossless.cctPs()).as("PFC finishes sooner; " + measured).isLessThan(lossy.cctPs());
    }
}
