package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.LayerStats;
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
 * PFC paused time, computed by hand: h0 sends six 4096 B packets to h1 over 100 Gb/s host links and a
 * 64 Gb/s leaf-spine link (100 ns each), so frames pile up at l0's ingress from h0. XOFF 8,316 B (two
 * frames): the third frame held pauses h0; XON 4,158 B: down to one frame resumes it.
 *
 * <p>At 100 Gb/s a frame (4158 B) takes 332,640 ps, with its gap 334,240 ps, so frame k leaves h0 at
 * k x 334,240 and is in l0 at a_k = k x 334,240 + 432,640. At 64 Gb/s (125 ps per byte) l0's uplink
 * takes 519,750 + 2,500 = 522,250 ps per frame: frame k starts at d_k = max(a_k, d_(k-1) + 522,250) and
 * leaves l0's ingress count at r_k = d_k + 522,250. d_0..d_4 = 432,640, 954,890, 1,477,140, 1,999,390,
 * 2,521,640. At a_3 = 1,435,360 frames 1, 2, 3 are held (r_0 = 954,890 passed, r_1 = 1,477,140 not):
 * 12,474 B > XOFF, PAUSE. It reaches h0 a 64 B frame (5,120 ps) and 100 ns later, at 1,540,480, while
 * frame 4 (1,336,960 .. 1,669,600) is on the wire: frame 5 waits. At r_3 = 2,521,640 only frame 4 is
 * held: RESUME, at h0 at 2,626,760. h0's NIC was paused 2,626,760 - 1,540,480 = 1,086,280 ps.
 */
class PfcPausedTimeTest {
    @TempDir
    Path dir;

    private static LayerStats layer(RunResult r, String name) {
        return r.layers().stream().filter(l -> l.layer().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void oneSenderPausedOnceForExactlyTheTimeItsIngressTookToDrainToXon() {
        TopologySpec topo = new TopologySpec.LeafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(64, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), new PfcSpec(true, 8_316, 4_158, 0, 120_000, 100));
        Scenario s = new Scenario("pfc-paused", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                TestScenarios.erasure(), ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 1, 6 * 4096L))),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
        CheckedRun run = CheckedRun.of(s, dir);
        RunResult r = run.result();
        Nic h0 = run.prepared().network().nic(0);
        assertThat(h0.pauseEvents()).isEqualTo(1);
        assertThat(h0.pausedPs(r.simulatedPs())).isEqualTo(2_626_760L - 1_540_480L);
        assertThat(layer(r, "H->L").pauses()).isEqualTo(1);
        assertThat(layer(r, "H->L").pausedPs()).isEqualTo(1_086_280L);
        for (LayerStats l : r.layers()) {
            if (!l.layer().equals("H->L")) {
                assertThat(l.pauses()).as(l.layer()).isZero();
                assertThat(l.pausedPs()).as(l.layer()).isZero();
            }
        }
        assertThat(r.counters().pfcPauses()).isEqualTo(1);
        assertThat(r.counters().dropped()).isZero();
        // frame 5 leaves h0 at the resume, 2,626,760: in l0 at 3,059,400 (the uplink is free since 3,043,890), in s0 at
        // 3,679,150 (free since 3,663,640), in l1 at 4,298,900, in h1 at 4,731,540; its ACK crosses 100 / 64 / 64 / 100 Gb/s
        // ports of 5,120 / 8,000 / 8,000 / 5,120 ps and four 100 ns links: back at 5,157,780
        assertThat(r.flowResults().get(0).fctPs()).isEqualTo(5_157_780L);
    }

    @Test
    void withoutPfcAPortBufferOfTwoFramesDropsExactlyTheThirdFrameAndNothingElse() {
        // The same arrivals and departures as above, lossy, with 8,316 B (two frames) per port: at a_3 = 1,435,360 frames 1
        // and 2 still hold l0's uplink buffer (r_1 = 1,477,140), so frame 3 is dropped. At a_4 = 1,769,600 frame 1 is gone
        // and 4 joins 2; at a_5 = 2,103,840 frame 2 is gone too (r_2 = 1,999,390). The erasure sender replaces the lost
        // symbol after its RTO, into idle ports. One buffer drop, at l0's uplink; no link loss, no missing route.
        TopologySpec topo = new TopologySpec.LeafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(64, 100));
        SwitchSpec switches = new SwitchSpec(new BufferSpec.PerPort(8_316), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        Scenario s = new Scenario("two-frame-buffer", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"),
                TestScenarios.lineRate(), TestScenarios.erasure(), ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 1, 6 * 4096L))),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
        RunResult r = CheckedRun.of(s, dir).result();
        assertThat(r.flowsFinished()).isEqualTo(1);
        assertThat(r.counters().drops()).as("buffer drops").isEqualTo(1);
        assertThat(r.counters().dropped()).isEqualTo(1);
        assertThat(r.counters().linkLoss()).isZero();
        assertThat(r.counters().noRouteDrops()).isZero();
        assertThat(layer(r, "L->S").drops()).isEqualTo(1);
        for (LayerStats l : r.layers()) {
            if (!l.layer().equals("L->S")) {
                assertThat(l.drops()).as(l.layer()).isZero();
            }
        }
        assertThat(r.flowResults().get(0).packetsSent()).as("six symbols and one to replace the lost one").isEqualTo(7);
    }
    @Test
    void pausedTimeAddsUpOverPausesAndCountsAnOpenPauseUpToTheReading() {
        // PAUSE and RESUME frames handed straight to h0's NIC and to l0's first port, before the flow's first frame reaches
        // either: paused over [1,000, 3,000) and [10,000, 10,500) ps; read at 2,000 (in the first pause), 5,000 (between)
        // and 10,200 ps (in the second), and after the run
        TopologySpec topo = new TopologySpec.LeafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(64, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), new PfcSpec(true, 8_316, 4_158, 0, 120_000, 100));
        Scenario s = new Scenario("pfc-paused-twice", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                TestScenarios.erasure(), ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 1, 4096L))),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
        long[] readAtPs = {2_000, 5_000, 10_200};
        long[][] read = new long[2][readAtPs.length];
        EgressPort[] port = new EgressPort[1];
        CheckedRun run = CheckedRun.of(s, dir, prepared -> {
            org.lbsim.kernel.Simulator sim = prepared.simulator();
            Network net = prepared.network();
            int l0 = prepared.topology().nodeByName("l0");
            for (int p = 0; port[0] == null; p++) {
                if (prepared.topology().portOwner(p) == l0) {
                    port[0] = net.egress(p);
                }
            }
            int nic = net.nic(0).handlerId();
            int sw = port[0].handlerId();
            for (int h : new int[] {nic, sw}) {
                sim.schedule(h, 1_000, EgressPort.PAUSE, 0);
                sim.schedule(h, 3_000, EgressPort.RESUME, 0);
                sim.schedule(h, 10_000, EgressPort.PAUSE, 0);
                sim.schedule(h, 10_500, EgressPort.RESUME, 0);
            }
            int probe = sim.register((kind, tag) -> {
                read[0][kind] = net.nic(0).pausedPs(sim.nowPs());
                read[1][kind] = port[0].pausedPs(sim.nowPs());
            });
            for (int i = 0; i < readAtPs.length; i++) {
                sim.schedule(probe, readAtPs[i], i, 0);
            }
        });
        for (long[] r : read) {
            assertThat(r).containsExactly(1_000, 2_000, 2_200);
        }
        assertThat(run.prepared().network().nic(0).pausedPs(run.result().simulatedPs())).isEqualTo(2_500);
        assertThat(port[0].pausedPs(run.result().simulatedPs())).isEqualTo(2_500);
        assertThat(port[0].pauseEvents()).isEqualTo(2);
        assertThat(run.prepared().network().nic(0).pauseEvents()).isEqualTo(2);
    }
}
