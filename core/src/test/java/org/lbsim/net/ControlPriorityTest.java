package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.FlowResult;
import org.lbsim.scenario.BufferSpec;
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
 * {@code switches.controlPriority}: on a 2-leaf fabric (h0-h2 on l0, h3-h5 on l1, 100 Gb/s), h4 and h5
 * send 2 MB each to h0, so the l0 -> h0 port holds a standing queue; the probe h0 -> h3 gets its ACKs
 * back through that port. In one FIFO they wait behind the queue; with control priority they pass it
 * and the probe completes as it does alone (within one frame per hop). Packets are conserved either way.
 */
class ControlPriorityTest {
    private static final long PROBE_BYTES = 64 * 4096L;

    @TempDir
    Path dir;

    private Scenario scenario(boolean incast, boolean priority) {
        TopologySpec topo = new TopologySpec.LeafSpine(3, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(new BufferSpec.PerPort(64_000_000), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults(), priority);
        List<long[]> rows = new ArrayList<>();
        rows.add(ScenarioTweaks.flow(0, 3, PROBE_BYTES));
        if (incast) {
            rows.add(ScenarioTweaks.flow(4, 0, 2_000_000));
            rows.add(ScenarioTweaks.flow(5, 0, 2_000_000));
        }
        return new Scenario("control-priority", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                TestScenarios.erasure(), ScenarioTweaks.trace(dir, incast ? "incast.csv" : "alone.csv", rows),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    private static long probeFctPs(CheckedRun run) {
        FlowResult probe = run.result().flowResults().get(0);
        assertThat(run.result().flowsFinished()).isEqualTo(run.result().flowResults().size());
        return probe.fctPs();
    }

    @Test
    void acksPassAStandingDataQueueOnlyWithControlPriority() {
        long alone = probeFctPs(CheckedRun.of(scenario(false, false), dir));
        assertThat(probeFctPs(CheckedRun.of(scenario(false, true), dir))).as("no queue anywhere: priority changes nothing").isEqualTo(alone);

        long fifo = probeFctPs(CheckedRun.of(scenario(true, false), dir));
        long priority = probeFctPs(CheckedRun.of(scenario(true, true), dir));
        // 2:1 into h0 for the probe's whole life: its last ACK waits behind hundreds of KB at 100 Gb/s in the FIFO
        assertThat(fifo - alone).as("FIFO: the ACKs queue behind the incast").isGreaterThan(5_000_000L);
        // with priority an ACK waits at most for the frame on the wire at each of its 3 switch-side hops and at h3's NIC; the
        // probe's 64 data packets also alternate with the ACKs h0's NIC sends for the incast (one 84 B ACK slot each)
        long frameWithGapPs = (4096 + 62 + 20) * 8 * 10L;
        long ackWithGapPs = (64 + 20) * 8 * 10L;
        assertThat(priority - alone).as("priority: as if alone").isBetween(0L, 4 * frameWithGapPs + 64 * ackWithGapPs);
    }

    @Test
    void incastFlowsStillFinishAndSeeTheSameBytes() {
        CheckedRun fifo = CheckedRun.of(scenario(true, false), dir);
        CheckedRun priority = CheckedRun.of(scenario(true, true), dir);
        assertThat(priority.result().counters().delivered()).isEqualTo(priority.result().counters().injected());
        assertThat(fifo.result().counters().delivered()).isEqualTo(fifo.result().counters().injected());
        // the incast's own FCTs move by at most the probe's ACKs' share of h0's port (64 ACKs)
        for (int f = 1; f <= 2; f++) {
            long a = fifo.result().flowResults().get(f).fctPs();
            long b = priority.result().flowResults().get(f).fctPs();
            assertThat(Math.abs(a - b)).isLessThan(64 * (64 + 20) * 8 * 10L + 1_000_000L);
        }
    }
}
