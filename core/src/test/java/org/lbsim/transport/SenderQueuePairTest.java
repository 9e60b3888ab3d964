package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.net.Packet;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;

/**
 * A sender asked directly on the built runs of {@link HostStackRingTest} (queue pair 0: host 0 to host 1, 4 packets):
 * the label it remembers per PSN, extras injected by its scheme going out first and within its pacing, and
 * extras offered after it completed.
 */
class SenderQueuePairTest {
    private static final PacketSpec PK = PacketSpec.defaults();

    @TempDir
    Path dir;

    private Transport built(String lb, org.lbsim.scenario.ComponentSpec cc) {
        return prepared(lb, cc).transport();
    }

    private PreparedRun prepared(String lb, org.lbsim.scenario.ComponentSpec cc) {
        return Simulation.prepare(HostStackRingTest.scenario(dir, lb, cc, NicSpec.defaults()), dir);
    }

    /** The ACK queue pair {@code q}'s receiver answers {@code data} with at {@code nowPs}, taken from its host's control queue. */
    private static Packet ackOf(Transport t, int q, Packet data, long nowPs) {
        ReceiverQueuePair rx = t.receiverOf(q);
        rx.onData(data, nowPs);
        return t.stack(data.dst).controlQueue().poll();
    }

    @Test
    void aSprayingSenderRemembersTheLabelEachPsnLastWentOutWith() {
        Transport t = built("host-spray", TestScenarios.lineRate());
        SenderQueuePair s = t.senderOf(0);
        assertThat(s.entropyPolicy().fixedLabel()).isFalse();
        int[] labels = new int[4];
        for (int psn = 0; psn < 4; psn++) {
            Packet p = s.poll(0);
            assertThat(p.psn).isEqualTo(psn);
            labels[psn] = p.entropy;
        }
        assertThat(labels).as("a fresh label per packet").doesNotHaveDuplicates();
        for (int psn = 0; psn < 4; psn++) {
            assertThat(s.entropyOf(psn)).isEqualTo(labels[psn]);
            assertThat(s.newDuplicate(psn).entropy).isEqualTo(labels[psn]);
        }
        assertThat(s.entropyOf(4)).as("beyond the message: never sent").isZero();
        assertThat(s.entropyOf(1_000)).isZero();
    }

    @Test
    void aFixedLabelIsTheLabelOfEveryPsnSentSoFarAndOfNoOther() {
        Transport t = built("ecmp", TestScenarios.lineRate());
        SenderQueuePair s = t.senderOf(0);
        Packet first = s.poll(0);
        s.poll(0);
        assertThat(first.entropy).isNotZero();
        assertThat(s.entropyOf(0)).isEqualTo(first.entropy);
        assertThat(s.entropyOf(1)).isEqualTo(first.entropy);
        assertThat(s.entropyOf(2)).as("not sent yet").isZero();
        assertThat(s.newDuplicate(2).entropy).isZero();
    }

    @Test
    void injectedExtrasGoOutBeforeTheNextDataPacketAndSpendThePacing() {
        Transport t = built("ecmp", HostStackRingTest.HALF_RATE);
        SenderQueuePair s = t.senderOf(0);
        Packet copy = s.newDuplicate(2);
        s.inject(copy);
        Packet note = s.newControl(Packet.ACK);
        s.inject(note);
        assertThat(s.extrasQueued()).isEqualTo(2);
        assertThat(s.poll(0)).isSameAs(copy);
        assertThat(s.poll(0)).as("the copy spent one period of pacing").isNull();
        assertThat(s.eligiblePs).isEqualTo(HostStackRingTest.HALF_RATE_PERIOD_PS);
        long period = HostStackRingTest.HALF_RATE_PERIOD_PS;
        assertThat(s.poll(period)).isSameAs(note);
        long noteFramePs = org.lbsim.kernel.Time.serializationPs(PK.headerBytes() + PK.interFrameGapBytes(), 50_000);
        assertThat(s.poll(period)).isNull();
        assertThat(s.eligiblePs).as("a header-only frame spends its own size").isEqualTo(period + noteFramePs);
        Packet data = s.poll(period + noteFramePs);
        assertThat(data.psn).isZero();
        assertThat(data.kind).isEqualTo(Packet.DATA);
        assertThat(s.extrasQueued()).isZero();
        assertThat(s.duplicatesSent()).isEqualTo(1);
        assertThat(s.notificationsSent()).isEqualTo(1);
        assertThat(s.sentPackets()).as("extras are not data sent").isEqualTo(1);
    }

    @Test
    void anExtraOfferedAfterTheSenderCompletedIsDroppedAndReleased() {
        CheckedRun run = CheckedRun.of(HostStackRingTest.scenario(dir, TestScenarios.lineRate(), NicSpec.defaults()), dir,
                r -> r.transport().keepAllQueuePairs());
        PreparedRun p = run.prepared();
        SenderQueuePair s = p.transport().senderOf(0);
        assertThat(s.completedPs()).isPositive();
        long outstanding = p.network().pool().outstanding();
        s.inject(s.newDuplicate(0));
        s.inject(s.newControl(Packet.ACK));
        assertThat(s.extrasQueued()).isZero();
        assertThat(p.network().pool().outstanding()).isEqualTo(outstanding);
        assertThat(p.transport().outstandingPackets(0)).isZero();
        assertThat(s.poll(p.simulator().nowPs())).isNull();
        assertThat(s.eligiblePs).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anExtraInjectedIntoAQueuePairOutOfTheRingPutsItBackAndGoesOutAtTheNextLook() {
        Transport t = built("ecmp", TestScenarios.lineRate());
        HostStack host = t.stack(0);
        SenderQueuePair s = t.senderOf(4); // its one packet to host 2
        host.activate(s);
        Packet data = host.poll(0);
        assertThat(data.flow).isEqualTo(4);
        assertThat(data.psn).isZero();
        assertThat(host.poll(0)).as("nothing more until feedback").isNull();
        assertThat(s.active).as("out of the ring").isFalse();

        Packet copy = s.newDuplicate(0);
        s.inject(copy);
        assertThat(s.active).isTrue();
        assertThat(host.poll(0)).isSameAs(copy);
        assertThat(s.duplicatesSent()).isEqualTo(1);
        assertThat(t.duplicatesSent(4)).isEqualTo(1);
        assertThat(t.duplicatesSent(0)).isZero();
        assertThat(t.duplicatesSent()).isEqualTo(1);
    }

    @Test
    void extrasStillQueuedWhenTheQueuePairCompletesAreReleasedUnsent() {
        PreparedRun p = prepared("ecmp", TestScenarios.lineRate());
        Transport t = p.transport();
        SenderQueuePair s = t.senderOf(4);
        Packet data = s.poll(0);
        long outstanding = p.network().pool().outstanding();
        s.inject(s.newDuplicate(0));
        s.inject(s.newControl(Packet.ACK));
        assertThat(s.extrasQueued()).isEqualTo(2);

        s.onAck(ackOf(t, 4, data, 1_000), 2_000);
        assertThat(s.completedPs()).isEqualTo(2_000);
        assertThat(s.extrasQueued()).isZero();
        assertThat(p.network().pool().outstanding()).as("the ACK is the one packet more in hand").isEqualTo(outstanding + 1);
        assertThat(t.outstandingPackets(4)).as("the data packet and its ACK").isEqualTo(2);
        assertThat(s.duplicatesSent()).isZero();
        assertThat(s.notificationsSent()).isZero();
    }

    @Test
    void aQueuePairCompleteAtTimeZeroWaitsForNothingTakesNoExtraAndCompletesOnce() {
        Transport t = built("ecmp", HostStackRingTest.HALF_RATE);
        SenderQueuePair s = t.senderOf(4);
        Packet ack = ackOf(t, 4, s.poll(0), 0);
        s.onAck(ack, 0);
        assertThat(s.completedPs()).isZero();
        assertThat(t.completedFlows()).isEqualTo(1);

        assertThat(s.poll(0)).isNull();
        assertThat(s.eligiblePs).as("not the end of the pacing period: nothing to wait for").isEqualTo(Long.MAX_VALUE);
        s.inject(s.newDuplicate(0));
        assertThat(s.extrasQueued()).isZero();
        assertThat(t.outstandingPackets(4)).as("the data packet and its ACK").isEqualTo(2);
        s.onAck(ack, 0);
        assertThat(s.completedPs()).isZero();
        assertThat(t.completedFlows()).as("a second ACK completes nothing").isEqualTo(1);
    }

    @Test
    void anErasureSenderWithItsMessageOutAndItsTimerArmedWaitsOnlyForFeedback() {
        Transport t = Simulation.prepare(TestScenarios.withRecovery(
                HostStackRingTest.scenario(dir, TestScenarios.lineRate(), NicSpec.defaults()), TestScenarios.erasure()), dir).transport();
        SenderQueuePair s = t.senderOf(4);
        assertThat(s.idleUntilFeedback()).as("its symbol is still to send").isFalse();
        assertThat(s.poll(0).psn).isZero();
        assertThat(s.poll(0)).isNull();
        assertThat(s.idleUntilFeedback()).as("the timer armed at the send is the recovery's deadline").isTrue();
        s.inject(s.newControl(Packet.ACK));
        assertThat(s.idleUntilFeedback()).as("an extra waits").isFalse();
    }
}
