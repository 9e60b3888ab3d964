package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.FixedRate;
import org.lbsim.metrics.FlowResult;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.ReceiverQp;

/**
 * Go-back-N with the receiver's reorder window ({@code reorderWindowPackets}, htsim's RoCE sink):
 * data less than W packets above the expected PSN is kept without an answer, data beyond is
 * dropped and NACKed once, and the cumulative ACK jumps over the kept packets when the hole fills.
 *
 * <p>Two hosts under two leaves joined by one spine, 100 Gb/s links of 100 ns, one flow over ECMP
 * (nothing is reordered) whose first transmission of PSN {@value #LOST} is lost.
 */
class GoBackNReorderWindowTest {
    static final int LOST = 10;

    @TempDir
    Path dir;

    private Scenario oneFlow(int packets, ComponentSpec recovery, ComponentSpec cc, boolean drop, String name) {
        TopologySpec topo = new TopologySpec.LeafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        FailureSpec failures = new FailureSpec(List.of(), 0, 0, drop ? List.of(new DroppedPacket(0, LOST)) : List.of());
        return new Scenario("reorder-window", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), cc, recovery,
                ScenarioTweaks.trace(dir, name + ".csv", List.of(ScenarioTweaks.flow(0, 1, packets * 4096L))), failures,
                LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    private static ComponentSpec goBackN(int windowPackets) {
        return new ComponentSpec("go-back-n", new GoBackN.Params(80, "once-per-epsn", 500, "on-progress", "nack-epsn", windowPackets));
    }

    /** 10 Gb/s pacing: a data packet every ~3.4 us, longer than the ~2.2 us round trip, so an ACK is back before the next send. */
    private static ComponentSpec paced() {
        return new ComponentSpec("fixed-rate", new FixedRate.Params(false, 10));
    }

    @Test
    void aLossInsideTheWindowIsResentOnceByTheTimerAndTheAckJumpsOverWhatTheReceiverKept() {
        int packets = 40; // the whole flow fits in the window: nothing beyond it triggers a NACK
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(oneFlow(packets, goBackN(64), paced(), true, "w"), dir, r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        ReceiverQp rx = run.prepared().transport().receiverOf(0);

        assertThat(f.finished()).isTrue();
        assertThat(rx.nacks()).as("NACKs: every packet after the hole was inside the window").isZero();
        assertThat(rx.discarded()).isZero();
        assertThat(f.timeouts()).as("the timer recovers the hole").isEqualTo(1);
        for (int psn = 0; psn < packets; psn++) {
            assertThat(tap[0].sends(0, psn)).as("transmissions of PSN %d", psn).isEqualTo(psn == LOST ? 2 : 1);
        }
        assertThat(f.retransmissions()).isEqualTo(1);
        assertThat(f.duplicatesReceived()).isZero();
        assertThat(rx.expectedPsn()).isEqualTo(packets);

        // the timer fires while the flow is still being sent (80 us after the last progress; the flow takes ~134 us):
        // the sender resends PSN LOST in one pacing slot, the ACK it draws jumps over everything the receiver kept,
        // and the sender goes on with new data, so the flow ends exactly one packet period after a loss-free run
        WireTap[] cleanTap = new WireTap[1];
        FlowResult clean = CheckedRun.of(oneFlow(packets, goBackN(64), paced(), false, "c"), dir, r -> cleanTap[0] = WireTap.attach(r))
                .result().flowResults().get(0);
        assertThat(clean.retransmissions()).isZero();
        long periodPs = cleanTap[0].firstSentPs(0, 1) - cleanTap[0].firstSentPs(0, 0);
        assertThat(tap[0].lastSentPs(0, LOST)).as("the resend comes before the last new packet").isLessThan(tap[0].firstSentPs(0, packets - 1));
        assertThat(f.fctPs() - clean.fctPs()).isEqualTo(periodPs);
        assertThat(f.fctPs() - tap[0].lastSentPs(0, packets - 1)).isEqualTo(clean.fctPs() - cleanTap[0].lastSentPs(0, packets - 1));

        // the strict receiver throws away what arrived behind the hole and NACKs at once: the sender resends the
        // lost PSN and the one it had sent after it before the NACK came back, and needs no timer
        WireTap[] strictTap = new WireTap[1];
        CheckedRun strict = CheckedRun.of(oneFlow(packets, goBackN(0), paced(), true, "s"), dir, r -> strictTap[0] = WireTap.attach(r));
        FlowResult s = strict.result().flowResults().get(0);
        ReceiverQp srx = strict.prepared().transport().receiverOf(0);
        assertThat(srx.nacks()).isEqualTo(1);
        assertThat(srx.discarded()).isEqualTo(1);
        assertThat(s.timeouts()).isZero();
        for (int psn = 0; psn < packets; psn++) {
            assertThat(strictTap[0].sends(0, psn)).as("strict: transmissions of PSN %d", psn).isEqualTo(psn == LOST || psn == LOST + 1 ? 2 : 1);
        }
    }

    @Test
    void beyondTheWindowTheReceiverNacksOnceAndTheSenderSkipsWhatTheJumpingAckCovers() {
        int packets = 100;
        int window = 16;
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(oneFlow(packets, goBackN(window), TestScenarios.lineRate(), true, "n"), dir,
                r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        ReceiverQp rx = run.prepared().transport().receiverOf(0);

        assertThat(f.finished()).isTrue();
        assertThat(f.timeouts()).isZero();
        // PSN LOST + window is the first packet outside the window: its arrival draws the one NACK
        assertThat(rx.nacks()).isEqualTo(1);
        assertThat(tap[0].nacks()).hasSize(1);
        WireTap.NackArrival nack = tap[0].nacks().get(0);
        assertThat(nack.epsn()).isEqualTo(LOST);
        int beyond = LOST + window;
        int highest = nack.highestSentBefore();
        assertThat(highest).as("the NACK must come back mid-flow").isGreaterThan(beyond).isLessThan(packets - 1);
        // everything from the first packet outside the window to the highest sent was thrown away ...
        assertThat(rx.discarded()).isEqualTo(highest - beyond + 1);
        // ... while the packets inside it were kept: the resent LOST moves the cumulative ACK to `beyond` at once,
        // and the sender, back at LOST, resends only what it put on the wire before that ACK arrived
        int resentInside = 0;
        while (tap[0].sends(0, LOST + 1 + resentInside) == 2) {
            resentInside++;
        }
        assertThat(resentInside).as("kept packets resent in the ACK's round trip").isPositive().isLessThan(window - 1);
        for (int psn = 0; psn < packets; psn++) {
            boolean resent = psn == LOST || (psn > LOST && psn <= LOST + resentInside) || (psn >= beyond && psn <= highest);
            assertThat(tap[0].sends(0, psn)).as("transmissions of PSN %d (highest %d)", psn, highest).isEqualTo(resent ? 2 : 1);
        }
        assertThat(f.duplicatesReceived()).as("kept packets resent").isEqualTo(resentInside);
        assertThat(f.retransmissions()).isEqualTo(1 + resentInside + highest - beyond + 1);
        assertThat(rx.expectedPsn()).isEqualTo(packets);
    }

    @Test
    void theWindowIsZeroOrAtLeastTwoAndZeroIsTheStrictReceiver() {
        assertThat(new GoBackN.Params(80).reorderWindowPackets()).isZero();
        assertThat(((GoBackN.Params) LossRecoveries.REGISTRY.find("go-back-n").orElseThrow().defaults()).reorderWindowPackets()).isZero();
        assertThat(new GoBackN.Params(80, "once-per-epsn", 500, "on-progress", "nack-epsn").reorderWindowPackets()).isZero();
        for (int bad : new int[] {-1, 1, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> new GoBackN.Params(80, "once-per-epsn", 500, "on-progress", "nack-epsn", bad))
                    .isInstanceOf(ScenarioException.class).hasMessageContaining("reorderWindowPackets");
        }
        assertThat(new GoBackN.Params(80, "once-per-epsn", 500, "on-progress", "nack-epsn", 2).reorderWindowPackets()).isEqualTo(2);
        assertThat(new GoBackN.Params(80, "once-per-epsn", 500, "on-progress", "nack-epsn", 64).reorderWindowPackets()).isEqualTo(64);
        assertThat(GoBackN.factory(new GoBackN.Params(80)).receiverPolicy(null)).isInstanceOf(InOrderOnlyReceiver.class);
        assertThat(GoBackN.factory(new GoBackN.Params(80, "once-per-epsn", 500, "on-progress", "nack-epsn", 64)).receiverPolicy(null))
                .isInstanceOf(ReorderWindowReceiver.class);
    }
}
