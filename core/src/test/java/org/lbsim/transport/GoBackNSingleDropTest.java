package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
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
import org.lbsim.spi.ReceiverQp;

/**
 * Go-back-N against exactly one lost packet: one 100-packet flow over ECMP (so nothing is reordered)
 * loses the first transmission of PSN 10. The receiver discards everything after the hole and NACKs
 * once; the sender rewinds to PSN 10 and resends it and every PSN it had sent by the time the NACK
 * arrived, and nothing before it.
 */
class GoBackNSingleDropTest {
    static final int PACKETS = 100;
    static final int LOST = 10;

    @TempDir
    Path dir;

    /**
     * Host 0 to host 3 across a 2-leaf, 2-spine fabric of 100 Gb/s links with 100 ns of propagation:
     * about 8 packets fit in a round trip, so the NACK comes back long before the flow is sent.
     */
    static Scenario oneFlowOneDrop(Path dir, ComponentSpec recovery, ComponentSpec cc) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 2, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        FailureSpec drop = new FailureSpec(List.of(), 0, 0, List.of(new DroppedPacket(0, LOST)));
        return new Scenario("one-drop", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), cc, recovery,
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 3, PACKETS * 4096L))), drop, LimitsSpec.defaults(),
                new MetricsSpec(0, 0), NicSpec.defaults());
    }

    @Test
    void theSenderResendsTheLostPacketAndEverythingItHadSentAfterItButNothingBefore() {
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(oneFlowOneDrop(dir, new ComponentSpec("go-back-n", new GoBackN.Params(80)), TestScenarios.lineRate()),
                dir, r -> tap[0] = WireTap.attach(r));
        RunResult r = run.result();
        FlowResult f = r.flowResults().get(0);
        ReceiverQp receiver = run.prepared().transport().receiverOf(0);

        assertThat(run.prepared().network().injectedDrops()).as("injected drops").isEqualTo(1);
        assertThat(r.counters().dropped()).as("packets lost in the fabric").isEqualTo(1);
        assertThat(f.finished()).isTrue();
        assertThat(f.timeouts()).as("timeouts: the NACK alone recovers").isZero();

        // exactly one NACK, for the lost PSN, however many packets arrived behind the hole
        assertThat(receiver.nacks()).as("NACKs sent by the receiver").isEqualTo(1);
        assertThat(tap[0].nacks()).as("NACKs that reached the sender").hasSize(1);
        WireTap.NackArrival nack = tap[0].nacks().get(0);
        assertThat(nack.epsn()).as("expected PSN carried by the NACK").isEqualTo(LOST);
        int highest = nack.highestSentBefore();
        assertThat(highest).as("highest PSN sent when the NACK arrived: the NACK must come back mid-flow for this test to mean anything")
                .isGreaterThan(LOST).isLessThan(PACKETS - 1);

        String counts = "highest PSN sent before the NACK " + highest + ", packets sent " + f.packetsSent() + ", retransmissions "
                + f.retransmissions() + ", discarded at the receiver " + receiver.discarded();
        for (int psn = 0; psn < PACKETS; psn++) {
            int expected = psn >= LOST && psn <= highest ? 2 : 1;
            assertThat(tap[0].sends(0, psn)).as("transmissions of PSN %d (%s)", psn, counts).isEqualTo(expected);
        }
        assertThat(f.retransmissions()).as(counts).isEqualTo(highest - LOST + 1);
        assertThat(f.packetsSent()).as(counts).isEqualTo(PACKETS + f.retransmissions());
        assertThat(tap[0].resends(0)).as(counts).isEqualTo(f.retransmissions());
        // everything that arrived behind the hole was thrown away, so every resend was needed
        assertThat(receiver.discarded()).as(counts).isEqualTo(highest - LOST);
        assertThat(f.duplicatesReceived()).as(counts).isZero();
        assertThat(f.spuriousRetransmissions()).as(counts).isZero();
        assertThat(receiver.expectedPsn()).isEqualTo(PACKETS);
    }
}
