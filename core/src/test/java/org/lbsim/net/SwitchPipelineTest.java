package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.metrics.FlowResult;
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
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;
import org.lbsim.transport.NicSelectiveRepeat;

/**
 * Each hook of the switch pipeline, exercised with a small real mechanism on a 2-leaf, 2-spine
 * fabric (h0, h1 under l0; h2, h3 under l1). Every run goes through {@link CheckedRun}, so packet
 * conservation (switch-made, consumed and held packets included) is checked after each.
 */
class SwitchPipelineTest {
    private static final int PACKETS = 64;
    private static final int LOST = 20;
    private static final ComponentSpec NIC_SR = new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));

    @TempDir
    Path dir;

    private Scenario oneFlow(ComponentSpec recovery, List<FailureSpec.DroppedPacket> drops) {
        return oneFlow(recovery, drops, PfcSpec.defaults());
    }

    private Scenario oneFlow(ComponentSpec recovery, List<FailureSpec.DroppedPacket> drops, PfcSpec pfc) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 2, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), pfc);
        return new Scenario("pipeline", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                recovery, ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 3, PACKETS * 4096L))),
                new FailureSpec(List.of(), 0, 0, drops), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    /** The leaf port that faces {@code host}. */
    private static int downPort(Topology t, int host) {
        return t.peerPort(t.hostPort(host));
    }

    private static Switch leafOf(PreparedRun run, int host) {
        Topology t = run.topology();
        return run.network().switchAt(t.peerNode(t.hostPort(host)));
    }

    /**
     * Themis-D's two observation points (Themis 3.3): the PSNs of data leaving the destination ToR for
     * the NIC, and NACKs coming up from the NIC, one of which it blocks.
     */
    static final class NackFilter implements IngressStage, EgressStage {
        final Switch sw;
        final int hostPort;
        final int reason;
        final List<Integer> psnsDown = new ArrayList<>();
        int blocked;

        NackFilter(Switch sw, int hostPort) {
            this.sw = sw;
            this.hostPort = hostPort;
            this.reason = sw.network().consumeReason("test: NACK blocked at the destination ToR");
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.kind == Packet.NACK && ingressPort == hostPort && blocked == 0) {
                blocked++;
                sw.consume(p, reason);
                return false;
            }
            return true;
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
            if (port == hostPort && p.kind == Packet.DATA) {
                psnsDown.add(p.psn);
            }
        }
    }

    @Test
    void aDestinationTorStageSeesEveryPsnGoingDownAndCanBlockTheNackSoTheSenderFallsBackToItsTimeout() {
        List<FailureSpec.DroppedPacket> drop = List.of(new FailureSpec.DroppedPacket(0, LOST));
        CheckedRun plain = CheckedRun.of(oneFlow(NIC_SR, drop), dir);
        NackFilter[] filter = new NackFilter[1];
        CheckedRun filtered = CheckedRun.of(oneFlow(NIC_SR, drop), dir, run -> {
            Switch leaf = leafOf(run, 3);
            filter[0] = new NackFilter(leaf, downPort(run.topology(), 3));
            leaf.addIngressStage(filter[0]);
            leaf.setEgressStage(filter[0]);
        });

        FlowResult withNack = plain.result().flowResults().get(0);
        FlowResult blocked = filtered.result().flowResults().get(0);
        assertThat(withNack.timeouts()).as("with the NACK through, no timeout").isZero();
        assertThat(filter[0].blocked).isEqualTo(1);
        assertThat(filtered.prepared().network().totalConsumed()).isEqualTo(1);
        assertThat(filtered.prepared().network().consumeReasons()).containsExactly("test: NACK blocked at the destination ToR");
        assertThat(filtered.prepared().transport().receiverOf(0).nacks()).as("the receiver sent its one NACK").isEqualTo(1);
        assertThat(blocked.finished()).isTrue();
        assertThat(blocked.timeouts()).as("the blocked NACK leaves only the timeout").isGreaterThanOrEqualTo(1);
        assertThat(blocked.fctPs()).as("recovered by the 80 us RTO, so not before it").isGreaterThanOrEqualTo(80_000_000L);

        // every data packet the NIC received passed the stage's egress point in arrival order; LOST only once, resent after the first pass
        List<Integer> down = filter[0].psnsDown;
        assertThat((long) down.size()).isEqualTo(filtered.prepared().transport().receiverOf(0).receivedPackets());
        assertThat(down.stream().filter(psn -> psn == LOST).count()).isEqualTo(1);
        List<Integer> firstPass = down.subList(0, PACKETS - 1);
        assertThat(firstPass).isSorted().doesNotContain(LOST);
        assertThat(down.indexOf(LOST)).as("the resend comes after the first pass").isGreaterThanOrEqualTo(PACKETS - 1);
    }

    /** Holds PSN 1 of the flow at the source ToR and lets it go from its own timer, after PSN 2 has passed: a swap. */
    static final class Swapper implements IngressStage, EventHandler {
        final Switch sw;
        final Simulator sim;
        final int handler;
        final long holdPs;
        Packet held;

        Swapper(Switch sw, Simulator sim, long holdPs) {
            this.sw = sw;
            this.sim = sim;
            this.holdPs = holdPs;
            this.handler = sim.register(this);
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.kind == Packet.DATA && p.psn == 1 && held == null && !p.retransmission) {
                held = p;
                sw.hold(p);
                sim.schedule(handler, sim.nowPs() + holdPs, 0, 0);
                return false;
            }
            return true;
        }

        @Override
        public void onEvent(int kind, long tag) {
            Packet p = held;
            sw.release(p);
        }
    }

    /** A destination-ToR reorder buffer for one flow (ConWeave-like): out-of-order data waits for the missing PSN. */
    static final class Reorderer implements IngressStage {
        final Switch sw;
        final java.util.TreeMap<Integer, Packet> waiting = new java.util.TreeMap<>();
        int expected;
        int maxHeld;

        Reorderer(Switch sw) {
            this.sw = sw;
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.kind != Packet.DATA || p.psn < expected) {
                return true;
            }
            if (p.psn > expected) {
                waiting.put(p.psn, p);
                sw.hold(p);
                maxHeld = Math.max(maxHeld, waiting.size());
                return false;
            }
            sw.forward(p);
            expected++;
            while (!waiting.isEmpty() && waiting.firstKey() == expected) {
                sw.release(waiting.pollFirstEntry().getValue());
                expected++;
            }
            return false; // already forwarded, in order
        }
    }

    @Test
    void aHoldAndReleaseStagePutsTwoSwappedPacketsBackInOrder() {
        long holdPs = 500_000; // PSN 2 reaches the ToR one 4158-byte frame time (about 334 ns at 100G) after PSN 1
        Scenario s = oneFlow(TestScenarios.erasure(), List.of());
        CheckedRun swapped = CheckedRun.of(s, dir, run -> leafOf(run, 0).addIngressStage(new Swapper(leafOf(run, 0), run.simulator(), holdPs)));
        Reorderer[] reorder = new Reorderer[1];
        CheckedRun restored = CheckedRun.of(s, dir, run -> {
            leafOf(run, 0).addIngressStage(new Swapper(leafOf(run, 0), run.simulator(), holdPs));
            reorder[0] = new Reorderer(leafOf(run, 3));
            leafOf(run, 3).addIngressStage(reorder[0]);
        });
        CheckedRun plain = CheckedRun.of(s, dir);

        assertThat(plain.result().outOfOrder().arrivals()).isZero();
        assertThat(swapped.result().outOfOrder().arrivals()).as("PSN 2 overtook PSN 1").isEqualTo(1);
        assertThat(restored.result().outOfOrder().arrivals()).as("the destination ToR undid the swap").isZero();
        assertThat(reorder[0].maxHeld).isEqualTo(1);
        assertThat(restored.prepared().network().held()).isZero();
        assertThat(restored.result().flowResults().get(0).finished()).isTrue();
        assertThat(swapped.cctPs()).as("PSN 1 waited %d ps at the source ToR", holdPs).isGreaterThan(plain.cctPs());
    }

    /** With PFC on, a packet the switch made came in on no port: it is charged to no ingress (no pause, no crash). */
    @org.junit.jupiter.params.ParameterizedTest(name = "pfc {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aSwitchOriginatedNackMakesTheSenderResendThatPsn(boolean pfcOn) {
        PfcSpec d = PfcSpec.defaults();
        PfcSpec pfc = new PfcSpec(pfcOn, d.xoffBytes(), d.xonBytes(), d.dynamicAlpha(), d.headroomBytes(), d.deadlockCheckUs());
        CheckedRun run = CheckedRun.of(oneFlow(NIC_SR, List.of(), pfc), dir, r -> {
            Switch leaf = leafOf(r, 3);
            int ackBytes = r.scenario().packets().ackBytes();
            leaf.addIngressStage((p, port) -> {
                if (p.kind == Packet.DATA && p.psn == 10 && !p.retransmission) {
                    Packet nack = leaf.originate();
                    nack.kind = Packet.NACK;
                    nack.flow = p.flow;
                    nack.src = p.dst;
                    nack.dst = p.src;
                    nack.psn = p.psn; // still in flight, so the sender cannot know it arrived
                    nack.cumAck = p.psn;
                    nack.sizeBytes = ackBytes;
                    leaf.forward(nack);
                }
                return true;
            });
        });
        FlowResult f = run.result().flowResults().get(0);
        assertThat(run.prepared().network().originated()).isEqualTo(1);
        assertThat(run.prepared().transport().receiverOf(0).nacks()).as("the receiver itself never NACKed").isZero();
        assertThat(f.retransmissions()).as("the sender resent the PSN the switch's NACK named").isEqualTo(1);
        assertThat(f.duplicatesReceived()).isEqualTo(1);
        assertThat(f.spuriousRetransmissions()).isEqualTo(1);
    }
}
