package org.lbsim.transport;

import static org.lbsim.testing.LossRecoveryDrive.sendAll;
import static org.lbsim.testing.LossRecoveryDrive.sendUpTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.LossRecoveryDrive;
import org.lbsim.testing.Packets;

/**
 * `sack` at the sender alone, its timer counting from ACK progress: a hole is resent once the highest
 * acknowledged PSN runs more than {@code threshold} (3) packets past the lowest unacknowledged one, and
 * only once; the selective-ack map and the cumulative ack both stand in for ACKs that were lost. Ten
 * packets of 1,000 B, all sent at 1 us.
 */
class SackThresholdTest {
    private static final QpContext QP = LossRecoveryDrive.qp(10_000);
    private final PacketPool pool = new PacketPool();

    private static LossRecovery sack() {
        return SackThreshold.factory(new SackThreshold.Params(3, 50)).create(QP);
    }

    private Packet ack(int psn, int cumAck, long sackBits) {
        Packet p = Packets.ack(pool, psn, cumAck);
        p.sackBits = sackBits;
        return p;
    }

    @Test
    void aHoleIsResentWhenTheHighestAckRunsMoreThanThresholdPastItAndOnlyOnce() {
        LossRecovery s = sack();
        assertThat(s.timerDeadlinePs()).as("nothing sent: no timer").isEqualTo(Long.MAX_VALUE);
        sendAll(s, Time.us(1));
        assertThat(s.inflightBytes()).isEqualTo(10_000);
        assertThat(s.timerDeadlinePs()).as("from the first packet sent").isEqualTo(Time.us(51));
        // PSN 2 is lost; the ACKs of 0, 1, 3, 4 and 5 arrive
        assertThat(s.onAck(ack(0, 1, 0), Time.us(10))).isTrue();
        assertThat(s.onAck(ack(1, 2, 0), Time.us(11))).isTrue();
        for (int psn = 3; psn <= 5; psn++) {
            assertThat(s.onAck(ack(psn, 2, 0), Time.us(10 + psn))).isTrue();
        }
        assertThat(s.nextPsn(Time.us(15))).as("5 - 2 = 3 is not more than the threshold").isEqualTo(-1);
        assertThat(s.onAck(ack(6, 2, 0), Time.us(16))).isTrue();
        assertThat(s.nextPsn(Time.us(16))).as("6 - 2 = 4 is").isEqualTo(2);
        assertThat(s.isRetransmission(2)).isTrue();
        assertThat(s.onAck(ack(7, 2, 0), Time.us(17))).isTrue();
        s.onSent(s.nextPsn(Time.us(17)), Time.us(17));
        assertThat(s.retransmissions()).isEqualTo(1);
        assertThat(s.nextPsn(Time.us(17))).as("PSN 2 was queued once").isEqualTo(-1);
        assertThat(s.onAck(ack(8, 2, 0), Time.us(18))).isTrue();
        assertThat(s.nextPsn(Time.us(18))).as("the resend is not resent by later ACKs").isEqualTo(-1);
        assertThat(s.inflightBytes()).as("PSNs 2 and 9").isEqualTo(2_000);
        assertThat(s.timerDeadlinePs()).as("from the last ACK progress").isEqualTo(Time.us(68));
        assertThat(s.onAck(ack(8, 2, 0), Time.us(19))).as("a repeated ACK is no progress").isFalse();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(68));

        assertThat(s.onAck(ack(2, 9, 0), Time.us(20))).isTrue();
        assertThat(s.complete()).isFalse();
        assertThat(s.onAck(ack(9, 10, 0), Time.us(21))).isTrue();
        assertThat(s.complete()).isTrue();
        assertThat(s.inflightBytes()).isZero();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(68), lost::add)).as("a stale timer after completion").isFalse();
        assertThat(lost).isEmpty();
        assertThat(s.timeouts()).isZero();
    }

    @Test
    void aLostFirstPacketIsResentOnceTheAcksRunMoreThanThresholdPastIt() {
        LossRecovery s = sack();
        sendAll(s, Time.us(1));
        for (int psn = 1; psn <= 3; psn++) {
            assertThat(s.onAck(ack(psn, 0, 0), Time.us(10 + psn))).isTrue();
        }
        assertThat(s.nextPsn(Time.us(13))).as("3 - 0 = 3").isEqualTo(-1);
        assertThat(s.onAck(ack(4, 0, 0), Time.us(14))).isTrue();
        assertThat(s.nextPsn(Time.us(14))).as("4 - 0 = 4").isZero();
    }

    @Test
    void aHoleQueuedByTheThresholdAndThenTimedOutIsResentOnce() {
        LossRecovery s = sack();
        sendAll(s, Time.us(1));
        s.onAck(ack(0, 1, 0), Time.us(10));
        s.onAck(ack(1, 2, 0), Time.us(11));
        for (int psn = 3; psn <= 6; psn++) {
            s.onAck(ack(psn, 2, 0), Time.us(10 + psn));
        }
        assertThat(s.nextPsn(Time.us(16))).as("the threshold queued PSN 2").isEqualTo(2);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(66), lost::add)).isTrue();
        assertThat(lost).containsExactly(2, 7, 8, 9);
        assertThat(sendUpTo(s, 10, Time.us(66))).as("PSN 2 queued by both, resent once").containsExactly(2, 7, 8, 9);
        assertThat(s.retransmissions()).isEqualTo(4);
    }

    @Test
    void theSelectiveAckMapAndTheCumulativeAckStandInForLostAcks() {
        LossRecovery s = sack();
        sendAll(s, Time.us(1));
        // only the ACK of PSN 5 arrives: expected PSN 1 (so 0 arrived), the map (bit i = PSN 2 + i) says 2, 3 and 5 did
        assertThat(s.onAck(ack(5, 1, 0b1011), Time.us(10))).isTrue();
        assertThat(s.inflightBytes()).as("0, 2, 3 and 5 acknowledged").isEqualTo(6_000);
        assertThat(s.nextPsn(Time.us(10))).as("5 - 1 = 4 > 3: the holes at 1 and 4").isEqualTo(1);
        s.onSent(1, Time.us(10));
        assertThat(s.nextPsn(Time.us(10))).isEqualTo(4);
        s.onSent(4, Time.us(10));
        assertThat(s.nextPsn(Time.us(10))).isEqualTo(-1);
        // the receiver now holds 0..6 and 8 (bit 0 = PSN 8): the cumulative ack covers 1, 4 and 6, whose ACKs are lost, but not 7
        assertThat(s.onAck(ack(8, 7, 0b1), Time.us(12))).isTrue();
        assertThat(s.inflightBytes()).as("7 and 9 outstanding").isEqualTo(2_000);
        assertThat(s.nextPsn(Time.us(12))).as("8 - 7 = 1: no hole to resend").isEqualTo(-1);
        assertThat(s.onAck(ack(9, 10, 0), Time.us(13))).isTrue();
        assertThat(s.complete()).isTrue();
        assertThat(s.retransmissions()).isEqualTo(2);
    }

    @Test
    void aTimeoutReportsAndResendsEveryUnacknowledgedPacketSentAndRestartsTheTimer() {
        LossRecovery s = sack();
        assertThat(sendUpTo(s, 6, Time.us(1))).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(s.onAck(ack(0, 1, 0), Time.us(10))).isTrue();
        assertThat(s.onAck(ack(3, 1, 0), Time.us(11))).isTrue();
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(61), lost::add)).isTrue();
        assertThat(lost).as("sent and unacknowledged; 6..9 were never sent").containsExactly(1, 2, 4, 5);
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(111));
        assertThat(sendUpTo(s, 10, Time.us(61))).as("the resends first, then new data").containsExactly(1, 2, 4, 5, 6, 7, 8, 9);
        assertThat(s.retransmissions()).isEqualTo(4);
        // the resend of 5 is lost, everything else arrives: the ACK of 9 runs 4 past the hole, but the timeout's
        // resends lie below where its scan left off (PSN 6), so a lost resend is found by the timer alone
        s.onAck(ack(1, 2, 0), Time.us(62));
        s.onAck(ack(2, 4, 0), Time.us(62));
        s.onAck(ack(4, 5, 0), Time.us(62));
        for (int psn = 6; psn <= 9; psn++) {
            assertThat(s.onAck(ack(psn, 5, 0), Time.us(62))).isTrue();
        }
        assertThat(s.nextPsn(Time.us(62))).isEqualTo(-1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(112));
        lost.clear();
        assertThat(s.onTimer(Time.us(112), lost::add)).isTrue();
        assertThat(lost).containsExactly(5);
        assertThat(s.timeouts()).isEqualTo(2);
    }

    @Test
    void withEverythingSentAcknowledgedATimeoutFindsNothingToResend() {
        LossRecovery s = sack();
        assertThat(sendUpTo(s, 5, Time.us(1))).containsExactly(0, 1, 2, 3, 4);
        assertThat(s.onAck(ack(4, 5, 0), Time.us(10))).isTrue();
        assertThat(s.inflightBytes()).isZero();
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(60), lost::add)).as("nothing became sendable that was not already").isFalse();
        assertThat(lost).isEmpty();
        assertThat(s.nextPsn(Time.us(60))).isEqualTo(5);
    }

    @Test
    void theThresholdIsAtLeastOnePacket() {
        assertThatThrownBy(() -> new SackThreshold.Params(0, 80)).isInstanceOf(ScenarioException.class).hasMessageContaining("threshold");
        assertThat(new SackThreshold.Params(1, 80).threshold()).isEqualTo(1);
    }

    @Test
    void withEverythingSentAcknowledgedNoTimerRunsAndTheNextSendStartsIt() {
        LossRecovery s = sack();
        assertThat(sendUpTo(s, 5, Time.us(1))).containsExactly(0, 1, 2, 3, 4);
        s.onAck(ack(4, 5, 0), Time.us(10));
        assertThat(s.timerDeadlinePs()).as("nothing unacknowledged: no timer").isEqualTo(Long.MAX_VALUE);
        s.onSent(s.nextPsn(Time.us(100)), Time.us(100));
        assertThat(s.timerDeadlinePs()).as("from the send that found nothing outstanding").isEqualTo(Time.us(150));
        s.onSent(s.nextPsn(Time.us(101)), Time.us(101));
        assertThat(s.timerDeadlinePs()).as("a later send with data outstanding leaves it").isEqualTo(Time.us(150));
        assertThat(s.timeouts()).isZero();
    }

    @Test
    void aFirstPacketSentAtTimeZeroStartsTheTimerAtZero() {
        LossRecovery s = sack();
        s.onSent(s.nextPsn(0), 0);
        s.onSent(s.nextPsn(Time.us(1)), Time.us(1));
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(50));
    }
}
