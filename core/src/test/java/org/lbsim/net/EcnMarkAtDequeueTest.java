package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/**
 * {@code switches.ecn.markAt}: h4 and h5 send 2 MB each at line rate (fixed rate, ECN ignored) to h0
 * over 100 Gb/s links, so the queue of l1's one uplink grows at 100 Gb/s. Step marking at K = 200 KB (kmin = kmax,
 * pmax 1). On enqueue the first marked packet is one that joined a queue above K and leaves about
 * K / 100 Gb/s = 16 us later; on dequeue (ns-3's RDMA switch) the first marked packet is the one that
 * leaves while more than K wait behind it, so it leaves about that much earlier. The same bytes get
 * through either way.
 */
class EcnMarkAtDequeueTest {
    private static final long K = 200_000;

    @TempDir
    Path dir;

    private Scenario incast(String markAt) {
        TopologySpec topo = new TopologySpec.LeafSpine(3, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(new BufferSpec.PerPort(64_000_000), new EcnSpec(true, K, K, 1.0, markAt), PfcSpec.defaults());
        return new Scenario("ecn-" + markAt, 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                TestScenarios.erasure(), ScenarioTweaks.trace(dir, markAt + ".csv", List.of(ScenarioTweaks.flow(4, 0, 2_000_000),
                ScenarioTweaks.flow(5, 0, 2_000_000))), FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    /**
     * When the first ECN-marked data packet starts leaving l0 towards h0, how many marked ones left in all, and the marks
     * the run counted.
     */
    private static long[] firstMarkedDeparture(String markAt, Path dir, Scenario s) {
        long[] seen = {-1, 0, 0};
        CheckedRun run = CheckedRun.of(s, dir, (PreparedRun r) -> {
            Topology t = r.topology();
            int l0 = t.nodeByName("l0");
            int toH0 = t.portsBetween(l0, t.nodeByName("h0"))[0];
            r.network().switchAt(l0).setEgressStage(new EgressStage() {
                @Override
                public void onEnqueue(Packet p, int port, long queueBytes) {
                }

                @Override
                public void onDequeue(Packet p, int port, long queueBytes) {
                    if (port == toH0 && p.kind == Packet.DATA && p.ecnMarked) {
                        if (seen[0] < 0) {
                            seen[0] = r.simulator().nowPs();
                        }
                        seen[1]++;
                    }
                }
            });
        });
        assertThat(run.result().flowsFinished()).isEqualTo(2);
        seen[2] = run.result().counters().ecnMarks();
        return seen;
    }

    @Test
    void dequeueMarkingSignalsAboutOneQueueOfKEarlier() {
        long[] enq = firstMarkedDeparture("enqueue", dir, incast("enqueue"));
        long[] deq = firstMarkedDeparture("dequeue", dir, incast("dequeue"));
        assertThat(enq[0]).isPositive();
        assertThat(deq[0]).isPositive();
        long kDrainPs = K * 8 * 10; // 100 Gb/s = 10 ps per bit
        long framePs = (4096 + 62 + 20) * 8 * 10L;
        assertThat(enq[0] - deq[0]).as("the enqueue mark waited out the queue of K").isBetween(kDrainPs - 2 * framePs, kDrainPs + 2 * framePs);
        assertThat(deq[1]).as("both mark while the queue is above K").isPositive();
        assertThat(enq[1]).isPositive();
        // every packet goes to h0 and is marked at most once (all at l1's uplink): the run counts exactly the marked ones h0 gets
        assertThat(deq[2]).as("marks counted on dequeue").isEqualTo(deq[1]);
        assertThat(enq[2]).as("marks counted on enqueue").isEqualTo(enq[1]);
    }
}
