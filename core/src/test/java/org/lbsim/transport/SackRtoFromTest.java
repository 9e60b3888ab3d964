package org.lbsim.transport;

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
 * What `sack`'s timer counts from. {@code rtoFrom: progress} (the default): {@code rtoUs} after the last
 * ACK progress, then every unacknowledged packet is resent. {@code rtoFrom: send} (htsim's UEC sender):
 * each unacknowledged packet is resent {@code rtoUs} after it was last sent, whatever ACKs arrived since.
 * The threshold (100) is above the message's 10 packets, so only the timer finds the hole at PSN 1.
 */
class SackRtoFromTest {
    private static final QpContext QP = LossRecoveryDrive.qp(10_000);
    private final PacketPool pool = new PacketPool();

    private static LossRecovery sack(String rtoFrom) {
        return SackThreshold.factory(new SackThreshold.Params(100, 50, rtoFrom)).create(QP);
    }

    private Packet ack(int psn, int cumAck) {
        return Packets.ack(pool, psn, cumAck);
    }

    /** Sends the 10 packets one per microsecond (PSN i at i us); PSN 1 is lost, the others are acked 8 us after they left. */
    private void firstPass(LossRecovery s) {
        for (int psn = 0; psn < 10; psn++) {
            assertThat(s.nextPsn(Time.us(psn))).isEqualTo(psn);
            s.onSent(psn, Time.us(psn));
        }
        s.onAck(ack(0, 1), Time.us(8));
        for (int psn = 2; psn < 10; psn++) {
            assertThat(s.onAck(ack(psn, 1), Time.us(psn + 8))).isTrue();
        }
    }

    @Test
    void theDefaultTimerRunsFromTheLastAckProgressAndResendsEveryUnacknowledgedPacket() {
        LossRecovery s = SackThreshold.factory(new SackThreshold.Params(100, 50)).create(QP);
        firstPass(s);
        assertThat(s.timerDeadlinePs()).as("the last ACK progress was at 17 us").isEqualTo(Time.us(67));
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(67), lost::add)).isTrue();
        assertThat(lost).containsExactly(1);
        assertThat(s.nextPsn(Time.us(67))).isEqualTo(1);
        assertThat(s.timeouts()).isEqualTo(1);
    }

    @Test
    void theSendTimerExpiresRtoAfterTheLostPacketWasSentWhateverAcksArrived() {
        LossRecovery s = sack(SackThreshold.RTO_FROM_SEND);
        assertThat(s.timerDeadlinePs()).as("nothing sent").isEqualTo(Long.MAX_VALUE);
        firstPass(s);
        assertThat(s.timerDeadlinePs()).as("PSN 1 left at 1 us").isEqualTo(Time.us(51));
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(51), lost::add)).isTrue();
        assertThat(lost).containsExactly(1);
        assertThat(s.timerDeadlinePs()).as("nothing else is unacknowledged").isEqualTo(Long.MAX_VALUE);
        assertThat(s.nextPsn(Time.us(51))).isEqualTo(1);
        s.onSent(1, Time.us(52));
        assertThat(s.retransmissions()).isEqualTo(1);
        assertThat(s.timerDeadlinePs()).as("the resend restarts its own timer").isEqualTo(Time.us(102));
        s.onAck(ack(1, 10), Time.us(60));
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theSendTimerResendsOnlyPacketsWhoseOwnTimerExpiredOldestFirst() {
        LossRecovery s = sack(SackThreshold.RTO_FROM_SEND);
        for (int psn = 0; psn < 10; psn++) {
            s.nextPsn(Time.us(10 * psn));
            s.onSent(psn, Time.us(10 * psn));
        }
        // PSNs 0, 2 and 3 arrive; 1 and 4..9 are unacknowledged
        s.onAck(ack(0, 1), Time.us(8));
        s.onAck(ack(2, 1), Time.us(28));
        s.onAck(ack(3, 1), Time.us(38));
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(60));
        List<Integer> lost = new ArrayList<>();
        s.onTimer(Time.us(95), lost::add);
        assertThat(lost).as("sent at 10, 40 us: expired at 60, 90 us; PSN 5 (sent at 50 us) not yet").containsExactly(1, 4);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(100));
        assertThat(s.nextPsn(Time.us(95))).isEqualTo(1);
        s.onSent(1, Time.us(95));
        assertThat(s.nextPsn(Time.us(96))).isEqualTo(4);
        s.onSent(4, Time.us(96));
        assertThat(s.timerDeadlinePs()).as("PSN 5 is now the oldest").isEqualTo(Time.us(100));
        s.onAck(ack(5, 1), Time.us(97));
        s.onAck(ack(6, 1), Time.us(97));
        s.onAck(ack(7, 1), Time.us(97));
        s.onAck(ack(8, 1), Time.us(97));
        s.onAck(ack(9, 1), Time.us(97));
        assertThat(s.timerDeadlinePs()).as("the resent PSN 1, sent again at 95 us").isEqualTo(Time.us(145));
    }

    @Test
    void aPacketSentAgainIsTimedFromItsLatestSendAndItsOlderEntryNeverExpires() {
        LossRecovery s = SackThreshold.factory(new SackThreshold.Params(1, 50, SackThreshold.RTO_FROM_SEND)).create(QP);
        for (int psn = 0; psn < 4; psn++) {
            s.nextPsn(Time.us(psn));
            s.onSent(psn, Time.us(psn));
        }
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(50));
        // the ACK of 2 runs 2 > 1 past the hole at 0: PSNs 0 and 1 are resent at 5 and 6 us
        s.onAck(ack(2, 0), Time.us(4));
        assertThat(s.nextPsn(Time.us(5))).isZero();
        s.onSent(0, Time.us(5));
        assertThat(s.timerDeadlinePs()).as("PSN 1, sent at 1 us, is now the oldest").isEqualTo(Time.us(51));
        assertThat(s.nextPsn(Time.us(6))).isEqualTo(1);
        s.onSent(1, Time.us(6));
        assertThat(s.timerDeadlinePs()).as("PSN 3 (2 is acknowledged)").isEqualTo(Time.us(53));
        s.onAck(ack(3, 0), Time.us(7));
        assertThat(s.timerDeadlinePs()).as("PSN 0, sent again at 5 us").isEqualTo(Time.us(55));
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(55), lost::add)).isTrue();
        assertThat(lost).containsExactly(0);
        assertThat(s.timerDeadlinePs()).as("PSN 1, sent again at 6 us").isEqualTo(Time.us(56));
    }

    @Test
    void anUnknownRtoFromIsRefused() {
        assertThatThrownBy(() -> new SackThreshold.Params(32, 80, "ack"))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("rtoFrom").hasMessageContaining("'progress' or 'send'");
        assertThat(new SackThreshold.Params(32, 80).rtoFrom()).isEqualTo(SackThreshold.RTO_FROM_PROGRESS);
    }
}
