package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.RunResult;
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
 * A NIC's ACKs under PFC, on the fabric of {@code PfcPausedTimeTest}: h0 sends six 4096 B packets to h1 and is
 * paused from 1,540,480 to 2,626,760 ps. h1 sends h0 one 4096 B packet at time 0: 332,640 ps on h1's 100 Gb/s
 * link + 100 ns, 519,750 + 2,500 ps gap at each 64 Gb/s hop + 100 ns, 332,640 + 100 ns to h0: in h0 at 2,104,780,
 * while h0 is paused. Switches send control frames from their priority queue in both runs.
 *
 * <p>With {@code nic.controlPriority} h0's ACK leaves at once (ns-3's NIC); without it, it waits for the resume and then goes
 * before frame 5 (the round robin's turn after data), which leaves one 64 B ACK frame later (5,120 ps + a 20 B gap
 * of 1,600 ps): h0's message completes 6,720 ps later than with the ACK already gone.
 */
class NicControlPriorityTest {
    @TempDir
    Path dir;

    private RunResult run(boolean nicControlPriority) {
        TopologySpec topo = new TopologySpec.LeafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(64, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), new PfcSpec(true, 8_316, 4_158, 0, 120_000, 100), true);
        Scenario s = new Scenario("nic-control", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                TestScenarios.erasure(), ScenarioTweaks.trace(dir, "two.csv", List.of(ScenarioTweaks.flow(0, 1, 6 * 4096L), ScenarioTweaks.flow(1, 0, 4096L))),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), new NicSpec(1, 1, "per-message", nicControlPriority));
        CheckedRun run = CheckedRun.of(s, dir);
        Nic h0 = run.prepared().network().nic(0);
        assertThat(h0.controlPriority()).isEqualTo(nicControlPriority);
        assertThat(h0.pauseEvents()).as("the pause does not depend on where h0's ACK waits").isEqualTo(1);
        assertThat(h0.pausedPs(run.result().simulatedPs())).isEqualTo(2_626_760L - 1_540_480L);
        assertThat(run.result().counters().dropped()).isZero();
        return run.result();
    }

    @Test
    void aPausedNicSendsItsAckAtOnceOnlyWhenControlHasItsOwnUnpausedClass() {
        RunResult first = run(true);
        RunResult alternating = run(false);
        // h1's message completes when h0's ACK is back. Leaving h0 at 2,104,780 the ACK is in l0 at 2,209,900 and goes up
        // after frame 3 (on l0's uplink until 2,521,640); leaving at the resume it is in l0 at 2,731,880 and goes up after
        // frame 4 (until 3,043,890): one 64 Gb/s frame, 522,250 ps, later, and as much later back at h1
        assertThat(alternating.flowResults().get(1).fctPs() - first.flowResults().get(1).fctPs()).isEqualTo(3_043_890L - 2_521_640L);
        // h0's frame 5 left at the resume with its ACK gone; behind the ACK one 64 B frame later
        assertThat(alternating.flowResults().get(0).fctPs() - first.flowResults().get(0).fctPs()).isEqualTo(6_720L);
    }
}
