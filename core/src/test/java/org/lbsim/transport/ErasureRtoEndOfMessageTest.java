package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.LossRecoveryDrive;
import org.lbsim.testing.Packets;

/**
 * The erasure sender with {@code endOfMessage: rto}, at the sender alone: it sends fresh symbols until
 * the bytes acknowledged plus those in flight cover the message, presumes every symbol in flight lost
 * one RTO (50 us) after the last progress, and counts a late ACK of a symbol presumed lost towards
 * decoding. The message is 3,500 B in 1,000 B packets: symbols 0..2 carry 1,000 B, symbol 3 the last
 * 500 B, and every symbol after the message 1,000 B.
 */
class ErasureRtoEndOfMessageTest {
    private static final QpContext QP = LossRecoveryDrive.qp(3_500);
    private final PacketPool pool = new PacketPool();

    private static LossRecovery erasure() {
        return IdealErasure.factory(IdealErasure.Params.rto(50)).create(QP);
    }

    private Packet ack(int psn, boolean receiverComplete) {
        Packet p = Packets.ack(pool, psn, 0);
        p.receiverComplete = receiverComplete;
        return p;
    }

    /** Sends the symbols handed out, the k-th at {@code fromPs} + k us, until none is; returns them. */
    private static List<Integer> send(LossRecovery s, long fromPs) {
        List<Integer> sent = new ArrayList<>();
        for (long now = fromPs; s.nextPsn(now) >= 0; now += Time.us(1)) {
            int psn = s.nextPsn(now);
            s.onSent(psn, now);
            sent.add(psn);
        }
        return sent;
    }

    @Test
    void freshSymbolsReplaceThoseInFlightOneRtoAfterTheLastProgressAndLateAcksStillCount() {
        LossRecovery s = erasure();
        assertThat(s.timerDeadlinePs()).as("nothing in flight").isEqualTo(Long.MAX_VALUE);
        assertThat(s.idleUntilFeedback()).isFalse();
        assertThat(send(s, Time.us(1))).as("3 x 1,000 + 500 B cover the message exactly").containsExactly(0, 1, 2, 3);
        assertThat(s.idleUntilFeedback()).isTrue();
        assertThat(s.inflightBytes()).isEqualTo(3_500);
        assertThat(s.timerDeadlinePs()).as("from the first symbol of the flight, sent at 1 us").isEqualTo(Time.us(51));

        assertThat(s.onAck(ack(1, false), Time.us(10))).isTrue();
        assertThat(s.inflightBytes()).isEqualTo(2_500);
        assertThat(s.nextPsn(Time.us(10))).as("1,000 acknowledged + 2,500 in flight still cover it").isEqualTo(-1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(60));

        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(60), lost::add)).isTrue();
        assertThat(lost).as("every symbol in flight, not the acknowledged one").containsExactly(0, 2, 3);
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(s.inflightBytes()).isZero();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.onTimer(Time.us(61), lost::add)).as("nothing in flight: nothing to presume lost").isFalse();
        assertThat(s.timeouts()).isEqualTo(1);

        assertThat(send(s, Time.us(61))).as("1,000 acknowledged: three fresh symbols of 1,000 B").containsExactly(4, 5, 6);
        assertThat(s.retransmissions()).as("symbols beyond the message").isEqualTo(3);
        assertThat(s.isRetransmission(5)).as("a symbol is never resent").isFalse();
        assertThat(s.timerDeadlinePs()).as("the new flight's first symbol left at 61 us").isEqualTo(Time.us(111));

        assertThat(s.onAck(ack(2, false), Time.us(64))).as("the late ACK of a symbol presumed lost").isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(114));
        assertThat(s.inflightBytes()).as("it was no longer in flight").isEqualTo(3_000);
        assertThat(s.onAck(ack(2, false), Time.us(65))).as("counted once").isFalse();
        assertThat(s.onAck(ack(1, false), Time.us(65))).isFalse();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(114));
        assertThat(s.onAck(ack(4, false), Time.us(66))).isTrue();
        assertThat(s.complete()).as("3,000 of 3,500 B").isFalse();
        assertThat(s.onAck(ack(5, false), Time.us(67))).isTrue();
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.onTimer(Time.us(114), lost::add)).isFalse();
        assertThat(s.nextPsn(Time.us(114))).isEqualTo(-1);
    }

    @Test
    void anAckSentOnceTheReceiverCanDecodeCompletesTheMessageWhateverAcksWereLost() {
        LossRecovery s = erasure();
        send(s, Time.us(1));
        assertThat(s.onAck(ack(3, true), Time.us(10))).isTrue();
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.nextPsn(Time.us(10))).isEqualTo(-1);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(51), lost::add)).isFalse();
        assertThat(lost).isEmpty();
        assertThat(s.timeouts()).isZero();
    }
}
