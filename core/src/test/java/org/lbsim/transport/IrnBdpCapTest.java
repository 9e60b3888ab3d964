package org.lbsim.transport;

import static org.lbsim.testing.LossRecoveryDrive.sendAll;
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
import org.lbsim.testing.Packets;

/**
 * IRN's BDP-FC at the sender alone: new packets wait while the bytes in flight plus the next packet's
 * would exceed {@code bdpCap} bandwidth-delay products of the path (never less than one frame);
 * retransmissions go whatever is in flight. The path here: 100 Gb/s and a base RTT of 280 ns, one BDP
 * of 100,000 x 280,000 / 8,000,000 = 3,500 bytes; packets carry 1,000 B with 62 B of header and a
 * 20 B gap (a frame of 1,082 B).
 */
class IrnBdpCapTest {
    private static final long LINE_MBPS = 100_000;
    private static final long BASE_RTT_PS = 280_000;
    private static final QpContext TEN_PACKETS = new QpContext(0, 0, 1, 10_000L, 10, 1000, 62, 20, LINE_MBPS, BASE_RTT_PS, LINE_MBPS);
    private final PacketPool pool = new PacketPool();

    private static LossRecovery irn(QpContext qp, double bdpCap) {
        return Irn.factory(new Irn.Params(50, bdpCap)).create(qp);
    }

    private Packet ack(int psn, int cumAck) {
        return Packets.ack(pool, psn, cumAck);
    }

    @Test
    void twoBdpsOfNewDataFillTheCapExactlyAndATimeoutsResendsGoThroughTheFullCap() {
        LossRecovery s = irn(TEN_PACKETS, 2);
        // the cap is 2 x 3,500 = 7,000 B: the seventh packet fills it exactly, the eighth would exceed it
        assertThat(sendAll(s, Time.us(1))).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(s.inflightBytes()).isEqualTo(7_000);
        assertThat(s.isRetransmission(6)).isTrue();
        assertThat(s.isRetransmission(7)).isFalse();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(51));

        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(51), lost::add)).isTrue();
        assertThat(lost).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(sendAll(s, Time.us(51))).as("resends are not held by the cap").containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(s.retransmissions()).isEqualTo(7);
        assertThat(s.inflightBytes()).as("resends add nothing in flight").isEqualTo(7_000);

        assertThat(s.onAck(ack(0, 1), Time.us(52))).isTrue();
        assertThat(sendAll(s, Time.us(52))).as("one packet acknowledged, one new packet").containsExactly(7);
        assertThat(s.onAck(ack(7, 8), Time.us(53))).as("the cumulative ack covers 1..7").isTrue();
        assertThat(s.onAck(ack(7, 8), Time.us(53))).as("a repeated ACK is no progress").isFalse();
        assertThat(s.inflightBytes()).isZero();
        assertThat(s.complete()).isFalse();
        assertThat(sendAll(s, Time.us(53))).containsExactly(8, 9);
        s.onAck(ack(9, 10), Time.us(54));
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.onTimer(Time.us(104), lost::add)).as("a stale timer after completion").isFalse();
    }

    @Test
    void aCapBelowOneFrameIsRaisedToOneFrame() {
        // 0.1 x 3,500 = 350 B is less than a frame, 1,000 + 62 + 20 = 1,082 B; the message's two packets carry
        // 1,000 and 60 B, together 1,060 B: both fit in one frame's bytes and leave at once
        QpContext twoPackets = new QpContext(0, 0, 1, 1_060L, 2, 1000, 62, 20, LINE_MBPS, BASE_RTT_PS, LINE_MBPS);
        assertThat(sendAll(irn(twoPackets, 0.1), Time.us(1))).containsExactly(0, 1);
        // a third of a BDP, 1,166 B, is above one frame and is the cap: a second full packet does not fit
        assertThat(sendAll(irn(TEN_PACKETS, 1.0 / 3), Time.us(1))).containsExactly(0);
    }

    @Test
    void aCapOfZeroLetsTheWholeMessageOut() {
        assertThat(sendAll(irn(TEN_PACKETS, 0), Time.us(1))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void theCapIsZeroOrAFinitePositiveNumberOfBdps() {
        for (double bad : new double[] {-0.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new Irn.Params(80, bad)).isInstanceOf(ScenarioException.class).hasMessageContaining("bdpCap");
        }
        assertThat(new Irn.Params(80, 0).bdpCap()).isZero();
    }
}
