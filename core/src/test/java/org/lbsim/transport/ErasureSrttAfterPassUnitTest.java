package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.LossRecoveryDrive;
import org.lbsim.testing.Packets;

/**
 * The htsim end of message ({@link ErasureSrttAfterPass}) at the sender alone, every time chosen by
 * hand: a message of 3,500 B in symbols of 1,000 B (symbol 3, the last of the message, 500 B). Symbols
 * 0 and 1 leave at 0 and 1 us; the ACK of 0 (receiver holding 1,000 B) at 5 us sets the smoothed RTT to
 * 5 us; symbols 2 and 3 leave at 5 and 6 us, after which the 1,000 B held and the 2,500 B sent after
 * the highest acknowledged symbol cover the message: the first pass ends at the poll at 7 us.
 */
class ErasureSrttAfterPassUnitTest {
    private static final QpContext QP = LossRecoveryDrive.qp(3_500);
    private final PacketPool pool = new PacketPool();

    private Packet ack(int psn, long echoSentPs, long receivedBytes) {
        Packet p = Packets.ack(pool, psn, 0);
        p.echoSentPs = echoSentPs;
        p.receivedBytes = receivedBytes;
        return p;
    }

    private static void send(ErasureSrttAfterPass s, int psn, long nowPs) {
        assertThat(s.nextPsn(nowPs)).isEqualTo(psn);
        s.onSent(psn, nowPs);
    }

    /** The first pass as above; the sender is left waiting from 7 us with a smoothed RTT of 5 us. */
    private ErasureSrttAfterPass firstPass() {
        ErasureSrttAfterPass s = new ErasureSrttAfterPass(QP);
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        send(s, 0, 0);
        send(s, 1, Time.us(1));
        assertThat(s.srttPs()).as("no sample yet").isZero();
        assertThat(s.onAck(ack(0, 0, 1_000), Time.us(5))).isTrue();
        assertThat(s.srttPs()).as("the first sample sets it").isEqualTo(Time.us(5));
        assertThat(s.inflightBytes()).as("symbol 1, sent after the highest acknowledged one").isEqualTo(1_000);
        send(s, 2, Time.us(5));
        send(s, 3, Time.us(6));
        assertThat(s.inflightBytes()).isEqualTo(2_500);
        assertThat(s.passEndPs()).isEqualTo(-1);
        assertThat(s.nextPsn(Time.us(7))).as("1,000 + 2,500 B cover the message exactly").isEqualTo(-1);
        assertThat(s.passEndPs()).isEqualTo(Time.us(7));
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(12));
        assertThat(s.nextPsn(Time.us(11))).as("4 us after the pass, less than one smoothed RTT").isEqualTo(-1);
        assertThat(s.passEndPs()).as("the end of the first pass is never moved").isEqualTo(Time.us(7));
        return s;
    }

    @Test
    void oneSmoothedRttAfterTheFirstPassTheTimerReportsTheUnacknowledgedSymbolsAndTheSenderGoesOn() {
        ErasureSrttAfterPass s = firstPass();
        // the ACK of 1 (sent at 1 us) at 8 us samples 7 us: 7 x 5 / 8 + 7 / 8 = 5.25 us
        assertThat(s.onAck(ack(1, Time.us(1), 2_000), Time.us(8))).isTrue();
        assertThat(s.srttPs()).isEqualTo(5_250_000);
        assertThat(s.inflightBytes()).isEqualTo(1_500);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(12.25));
        // a repeated ACK sampling 0 ps (echoing now) leaves the smoothed RTT alone, as htsim ignores zero samples
        assertThat(s.onAck(ack(1, Time.us(8), 2_000), Time.us(8))).as("no new symbol acknowledged").isFalse();
        assertThat(s.srttPs()).isEqualTo(5_250_000);

        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(12.25), lost::add)).isTrue();
        assertThat(lost).as("sent and unacknowledged").containsExactly(2, 3);
        assertThat(s.timeouts()).as("resumes").isEqualTo(1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.onTimer(Time.us(12.25), lost::add)).as("no longer waiting").isFalse();
        assertThat(s.nextPsn(Time.us(12.25))).as("exactly one smoothed RTT after the pass").isEqualTo(4);
        s.onSent(4, Time.us(12.25));
        assertThat(s.retransmissions()).as("symbols beyond the message").isEqualTo(1);
        assertThat(s.isRetransmission(4)).isFalse();
        assertThat(s.timerIsRetransmissionTimeout()).isFalse();

        // the ACK of 3 (sent at 6 us) at 13 us: 7 x 5.25 / 8 + 7 / 8 = 5.46875 us; symbol 2's bytes leave the flight
        assertThat(s.onAck(ack(3, Time.us(6), 2_500), Time.us(13))).isTrue();
        assertThat(s.srttPs()).isEqualTo(5_468_750);
        assertThat(s.inflightBytes()).as("symbol 4").isEqualTo(1_000);
        assertThat(s.complete()).isFalse();
        assertThat(s.onAck(ack(1, Time.us(1), 2_000), Time.us(14))).as("an older report of the receiver").isFalse();
        assertThat(s.complete()).isFalse();
        assertThat(s.onAck(ack(4, Time.us(12.25), 3_500), Time.us(20))).isTrue();
        assertThat(s.complete()).as("the receiver holds the message's 3,500 B").isTrue();
        assertThat(s.onAck(ack(2, Time.us(5), 3_000), Time.us(21))).isTrue();
        assertThat(s.complete()).as("a smaller report later changes nothing").isTrue();
        assertThat(s.nextPsn(Time.us(21))).isEqualTo(-1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.onTimer(Time.us(21), lost::add)).isFalse();
        assertThat(s.timeouts()).as("one wait, one resume").isEqualTo(1);
    }

    @Test
    void anAckHandledOnceTheWaitIsOverEndsItWithoutReportingLosses() {
        ErasureSrttAfterPass s = firstPass();
        // a repeated ACK of 0 (sent at 0) at 13 us samples 13 us: 7 x 5 / 8 + 13 / 8 = 6 us, exactly 13 - 7 us
        assertThat(s.onAck(ack(0, 0, 1_000), Time.us(13))).isFalse();
        assertThat(s.srttPs()).isEqualTo(Time.us(6));
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(13), lost::add)).isFalse();
        assertThat(lost).isEmpty();
        assertThat(s.nextPsn(Time.us(13))).isEqualTo(4);
    }

    @Test
    void theCompletingAckEndsTheWaitWithoutATimer() {
        ErasureSrttAfterPass s = firstPass();
        assertThat(s.onAck(ack(3, Time.us(6), 3_500), Time.us(9))).isTrue();
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(12), lost::add)).isFalse();
        assertThat(lost).isEmpty();
        assertThat(s.timeouts()).isZero();
        assertThat(s.nextPsn(Time.us(12))).isEqualTo(-1);
    }
}
