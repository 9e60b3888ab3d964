package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.LossRecoveryDrive;
import org.lbsim.testing.Packets;

/**
 * The timer go-back-N and NIC-SR share, at the sender alone: it runs from the last cumulative progress
 * while something sent is unacknowledged, a timeout reports every unacknowledged PSN sent as lost and
 * resends them in order, and ACK / NACK handling says whether the cumulative ack moved.
 */
class CumulativeAckTimerTest {
    private static final QpContext QP = LossRecoveryDrive.qp(10_000);
    private final PacketPool pool = new PacketPool();

    static List<Arguments> schemes() {
        Function<QpContext, LossRecovery> gbn = qp -> new GoBackN(qp, Time.us(80), false, false);
        Function<QpContext, LossRecovery> sr = qp -> new NicSelectiveRepeat(qp, Time.us(80));
        return List.of(Arguments.of("go-back-n", gbn), Arguments.of("nic-sr", sr));
    }

    private Packet answer(byte kind, int psn, int cumAck) {
        Packet p = Packets.ack(pool, psn, cumAck);
        p.kind = kind;
        return p;
    }

    private static List<Integer> send(LossRecovery s, int max, long nowPs) {
        List<Integer> sent = new ArrayList<>();
        for (int psn = s.nextPsn(nowPs); psn >= 0 && sent.size() < max; psn = s.nextPsn(nowPs)) {
            s.onSent(psn, nowPs);
            sent.add(psn);
        }
        return sent;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void aTimeoutReportsAndResendsExactlyTheUnacknowledgedPsnsSentAndRestartsTheTimer(String name, Function<QpContext, LossRecovery> make) {
        LossRecovery s = make.apply(QP);
        assertThat(s.timerDeadlinePs()).as("nothing sent: no timer").isEqualTo(Long.MAX_VALUE);
        assertThat(send(s, 10, 0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(s.inflightBytes()).isEqualTo(10_000);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(80));
        assertThat(s.onAck(answer(Packet.ACK, 3, 4), Time.us(8))).as("the cumulative ack moved").isTrue();
        assertThat(s.inflightBytes()).isEqualTo(6_000);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(88));
        assertThat(s.onAck(answer(Packet.ACK, 3, 4), Time.us(9))).as("a repeated cumulative ack is no progress").isFalse();
        assertThat(s.onAck(answer(Packet.ACK, 2, 3), Time.us(9))).as("an older one neither").isFalse();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(88));

        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(88), lost::add)).isTrue();
        assertThat(lost).containsExactly(4, 5, 6, 7, 8, 9);
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(168));
        assertThat(send(s, 20, Time.us(88))).containsExactly(4, 5, 6, 7, 8, 9);
        assertThat(s.retransmissions()).isEqualTo(6);
        assertThat(s.isRetransmission(9)).isTrue();

        assertThat(s.onAck(answer(Packet.ACK, 9, 10), Time.us(96))).isTrue();
        assertThat(s.complete()).isTrue();
        assertThat(s.inflightBytes()).isZero();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        lost.clear();
        assertThat(s.onTimer(Time.us(168), lost::add)).as("a stale timer after completion does nothing").isFalse();
        assertThat(lost).isEmpty();
        assertThat(s.timeouts()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void withEverythingSentAcknowledgedNoTimerRunsEvenBeforeTheMessageEnds(String name, Function<QpContext, LossRecovery> make) {
        LossRecovery s = make.apply(QP);
        assertThat(send(s, 5, 0)).containsExactly(0, 1, 2, 3, 4);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(80));
        assertThat(s.onAck(answer(Packet.ACK, 4, 5), Time.us(8))).isTrue();
        assertThat(s.complete()).isFalse();
        assertThat(s.inflightBytes()).isZero();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
        assertThat(send(s, 1, Time.us(10))).containsExactly(5);
        assertThat(s.timerDeadlinePs()).as("the timer starts with the first packet outstanding").isEqualTo(Time.us(90));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void aNackReportsProgressOnlyWhenItsCumulativeAckMoves(String name, Function<QpContext, LossRecovery> make) {
        LossRecovery s = make.apply(QP);
        send(s, 10, 0);
        assertThat(s.onNack(answer(Packet.NACK, 4, 4), Time.us(8))).as("the NACK acknowledges 0..3").isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(88));
        assertThat(s.onNack(answer(Packet.NACK, 4, 4), Time.us(9))).isFalse();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(88));
        assertThat(s.nextPsn(Time.us(9))).as("the NACKed PSN goes next").isEqualTo(4);
    }

    @org.junit.jupiter.api.Test
    void goBackNAsNs3RunsItStartsTheTimerOverOnEveryPacketSentAndEveryAckOrNack() {
        LossRecovery ns3 = new GoBackN(QP, Time.us(80), true, false);
        LossRecovery progress = new GoBackN(QP, Time.us(80), false, false);
        for (LossRecovery s : List.of(ns3, progress)) {
            assertThat(send(s, 1, 0)).containsExactly(0);
            assertThat(send(s, 1, Time.us(2))).containsExactly(1);
            assertThat(s.timerDeadlinePs()).isEqualTo(s == ns3 ? Time.us(82) : Time.us(80));
            // a repeated ACK and a NACK for the PSN already expected: no progress, yet ns-3 starts over
            assertThat(s.onAck(answer(Packet.ACK, 0, 1), Time.us(5))).isTrue();
            assertThat(s.onAck(answer(Packet.ACK, 0, 1), Time.us(7))).isFalse();
            assertThat(s.timerDeadlinePs()).isEqualTo(s == ns3 ? Time.us(87) : Time.us(85));
            assertThat(s.onNack(answer(Packet.NACK, 1, 1), Time.us(9))).isFalse();
            assertThat(s.timerDeadlinePs()).isEqualTo(s == ns3 ? Time.us(89) : Time.us(85));
            assertThat(send(s, 1, Time.us(10))).as("the NACK rewound to PSN 1").containsExactly(1);
            assertThat(s.timerDeadlinePs()).as("the resend of the oldest outstanding PSN starts both over").isEqualTo(Time.us(90));
            assertThat(send(s, 1, Time.us(11))).containsExactly(2);
            assertThat(s.timerDeadlinePs()).isEqualTo(s == ns3 ? Time.us(91) : Time.us(90));
            assertThat(s.onAck(answer(Packet.ACK, 2, 3), Time.us(20))).isTrue();
            assertThat(s.timerDeadlinePs()).as("nothing outstanding: no timer").isEqualTo(Long.MAX_VALUE);
        }
    }

    @org.junit.jupiter.api.Test
    void theTimerRestartIsAParameterOfGoBackN() {
        LossRecovery s = GoBackN.factory(new GoBackN.Params(80, "once-per-epsn", 4, "on-every-packet", "nack-epsn")).create(QP);
        send(s, 1, 0);
        send(s, 1, Time.us(3));
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(83));
        LossRecovery d = GoBackN.factory(new GoBackN.Params(80)).create(QP);
        send(d, 1, 0);
        send(d, 1, Time.us(3));
        assertThat(d.timerDeadlinePs()).as("the default runs from the oldest outstanding packet").isEqualTo(Time.us(80));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new GoBackN.Params(80, "once-per-epsn", 4, "on-send", "nack-epsn"))
                .isInstanceOf(org.lbsim.scenario.ScenarioException.class)
                .hasMessageContaining("timerRestart").hasMessageContaining("'on-progress' or 'on-every-packet', got 'on-send'");
    }

    @org.junit.jupiter.api.Test
    void aStaleNackSendsGoBackNToItsPsnOrAsNs3ToTheOldestUnacknowledgedOne() {
        for (boolean toOldest : new boolean[] {false, true}) {
            LossRecovery s = new GoBackN(QP, Time.us(80), false, toOldest);
            assertThat(send(s, 8, 0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            assertThat(s.onAck(answer(Packet.ACK, 5, 6), Time.us(5))).isTrue();
            // a NACK for PSN 2 that a later ACK overtook on another path
            assertThat(s.onNack(answer(Packet.NACK, 2, 2), Time.us(6))).isFalse();
            assertThat(send(s, 20, Time.us(7))).as(toOldest ? "from the oldest unacknowledged, 6" : "from the NACK's PSN, 2")
                    .containsExactlyElementsOf(toOldest ? List.of(6, 7, 8, 9) : List.of(2, 3, 4, 5, 6, 7, 8, 9));
        }
        LossRecovery viaParams = GoBackN.factory(new GoBackN.Params(80, "once-per-epsn", 4, "on-progress", "oldest-unacked")).create(QP);
        send(viaParams, 8, 0);
        viaParams.onAck(answer(Packet.ACK, 5, 6), Time.us(5));
        viaParams.onNack(answer(Packet.NACK, 2, 2), Time.us(6));
        assertThat(send(viaParams, 20, Time.us(7))).containsExactly(6, 7, 8, 9);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new GoBackN.Params(80, "once-per-epsn", 4, "on-progress", "snd-una"))
                .isInstanceOf(org.lbsim.scenario.ScenarioException.class)
                .hasMessageContaining("rewindTo").hasMessageContaining("'nack-epsn' or 'oldest-unacked', got 'snd-una'");
    }
}
