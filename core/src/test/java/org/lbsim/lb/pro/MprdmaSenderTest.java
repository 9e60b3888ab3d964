package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.Packets;

/** The MPRDMA-style baseline of PRO Fig. 13 at the sender: the bitmap bound L, loss at Delta behind snd_ooh, slow paths, the RTO. */
class MprdmaSenderTest {
    private static final int PATHS = 8;
    private static final QpContext QP = new QpContext(0, 0, 1, 200 * 1000L, 200, 1000, 62, 20, 200_000, Time.us(8), 200_000);
    private final PacketPool pool = new PacketPool();
    private final ProCounters counters = new ProCounters();
    private final int[] pathIdOfIndex = new int[PATHS];
    private final int[] indexOfPathId = new int[1 << 12];
    private final List<Integer> pathIdsSent = new ArrayList<>();

    MprdmaSenderTest() {
        java.util.Arrays.fill(indexOfPathId, -1);
        for (int i = 0; i < PATHS; i++) {
            pathIdOfIndex[i] = PathIds.ofIndex(i, PATHS);
            indexOfPathId[pathIdOfIndex[i]] = i;
        }
    }

    private MprdmaEntropy entropy() {
        return new MprdmaEntropy(new PathSet(PATHS, 1, true), pathIdOfIndex, indexOfPathId, new SplittableRandom(1), counters, true);
    }

    private Packet ack(int psn, int cumAck, int pathId) {
        Packet p = Packets.ack(pool, psn, cumAck);
        p.entropy = pathId;
        return p;
    }

    /** Sends while the sender has something to send; returns the PSNs sent. */
    private List<Integer> drain(MprdmaSender s, MprdmaEntropy e, long nowPs) {
        return drain(s, e, nowPs, Integer.MAX_VALUE);
    }

    /** Sends at most {@code max} packets; returns the PSNs sent. */
    private List<Integer> drain(MprdmaSender s, MprdmaEntropy e, long nowPs, int max) {
        List<Integer> sent = new ArrayList<>();
        int psn;
        while (sent.size() < max && (psn = s.nextPsn(nowPs)) >= 0) {
            pathIdsSent.add(e.entropyFor(psn, s.isRetransmission(psn)));
            s.onSent(psn, nowPs);
            sent.add(psn);
        }
        return sent;
    }

    @Test
    void theBitmapBoundsNewDataToLPacketsBeyondTheOldestHole() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 8, 4, false, e, counters);
        assertThat(drain(s, e, 0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(counters.mprdmaBitmapStalls).isEqualTo(1);
        // PSN 0 is lost: 1..7 are acknowledged, the cumulative ack stays at 0
        for (int psn = 1; psn <= 7; psn++) {
            s.onAck(ack(psn, 0, pathIdOfIndex[psn]), Time.us(9));
        }
        assertThat(s.sndUna()).isZero();
        assertThat(s.sndOoh()).isEqualTo(7);
        assertThat(s.inRecovery()).as("0 < 7 - Delta: lost").isTrue();
        assertThat(drain(s, e, Time.us(9))).as("only the lost PSN; new data would overflow the bitmap").containsExactly(0);
        assertThat(s.retransmissions()).isEqualTo(1);
        s.onAck(ack(0, 8, pathIdOfIndex[0]), Time.us(18));
        assertThat(s.inRecovery()).isFalse();
        assertThat(drain(s, e, Time.us(18))).containsExactly(8, 9, 10, 11, 12, 13, 14, 15);
    }

    @Test
    void reorderingWithinDeltaIsNotLossAndAHoleBeyondItIsResentOnce() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 64, 8, false, e, counters);
        assertThat(drain(s, e, 0)).hasSize(64);
        for (int psn = 0; psn <= 13; psn++) {
            if (psn != 5) {
                s.onAck(ack(psn, Math.min(psn + 1, 5), pathIdOfIndex[psn % PATHS]), Time.us(9));
            }
        }
        // snd_ooh = 13: PSN 5 is 8 behind, inside Delta = 8
        assertThat(s.inRecovery()).isFalse();
        assertThat(s.nextPsn(Time.us(9))).as("no resend, only new data: 64 < snd_una + L = 69").isEqualTo(64);
        s.onAck(ack(14, 5, pathIdOfIndex[14 % PATHS]), Time.us(9));
        assertThat(s.inRecovery()).as("5 < 14 - 8: lost").isTrue();
        assertThat(s.nextPsn(Time.us(9))).isEqualTo(5);
        s.onSent(5, Time.us(9));
        assertThat(s.nextPsn(Time.us(9))).as("5 is resent once; then new data").isEqualTo(64);
        assertThat(counters.mprdmaRecoveries).isEqualTo(1);
        assertThat(s.retransmissions()).isEqualTo(1);
    }

    @Test
    void aLateAckMarksItsPathSlowAndTheNextPacketForThatPathTakesADrawnOne() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 64, 8, false, e, counters);
        drain(s, e, 0);
        for (int psn = 3; psn <= 20; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        int late = pathIdsSent.get(2);
        assertThat(e.isSlow(late)).isFalse();
        s.onAck(ack(2, 0, late), Time.us(10)); // 2 < 20 - 8
        assertThat(e.isSlow(late)).isTrue();
        assertThat(counters.mprdmaSlowMarks).isEqualTo(1);
        s.onAck(ack(1, 0, pathIdsSent.get(1)), Time.us(10));
        assertThat(counters.mprdmaSlowMarks).as("a second late path").isEqualTo(2);
        // the round robin comes back to the slow path within M packets: that packet goes elsewhere, once
        PathSet alone = new PathSet(PATHS, 1, true);
        MprdmaEntropy f = new MprdmaEntropy(alone, pathIdOfIndex, indexOfPathId, new SplittableRandom(3), counters, true);
        f.slow(pathIdOfIndex[0]);
        assertThat(f.isSlow(pathIdOfIndex[0])).isTrue();
        long repathsBefore = counters.mprdmaRepaths;
        for (int i = 0; i < 2 * PATHS; i++) {
            f.entropyFor(i, false);
        }
        assertThat(counters.mprdmaRepaths - repathsBefore).as("the mark is spent on the first packet for that path").isEqualTo(1);
        assertThat(f.isSlow(pathIdOfIndex[0])).isFalse();
    }

    /** PSN 0 and PSN 5: the first bit of the sender's bitmap word and one inside it. */
    @ParameterizedTest
    @ValueSource(ints = {0, 5})
    void aLateAckOfARetransmissionDoesNotMarkItsPath(int lostPsn) {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 64, 8, false, e, counters);
        drain(s, e, 0);
        for (int psn = 0; psn <= 20; psn++) {
            if (psn != lostPsn) {
                s.onAck(ack(psn, Math.min(psn + 1, lostPsn), pathIdsSent.get(psn)), Time.us(9));
            }
        }
        assertThat(s.nextPsn(Time.us(9))).isEqualTo(lostPsn);
        s.onSent(lostPsn, Time.us(9));
        long marks = counters.mprdmaSlowMarks;
        s.onAck(ack(lostPsn, 21, pathIdOfIndex[5]), Time.us(18)); // more than Delta below snd_ooh = 20, but resent
        assertThat(counters.mprdmaSlowMarks).isEqualTo(marks);
        assertThat(e.isSlow(pathIdOfIndex[5])).isFalse();
        assertThat(s.sndUna()).isEqualTo(21);
    }

    @Test
    void anAckExactlyDeltaBelowTheHighestAcknowledgedPsnIsNotLate() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 64, 8, false, e, counters);
        drain(s, e, 0);
        s.onAck(ack(20, 0, pathIdsSent.get(20)), Time.us(9));
        s.onAck(ack(12, 0, pathIdsSent.get(12)), Time.us(9)); // 12 = 20 - Delta
        assertThat(counters.mprdmaSlowMarks).isZero();
        s.onAck(ack(11, 0, pathIdsSent.get(11)), Time.us(9)); // 11 < 20 - Delta
        assertThat(counters.mprdmaSlowMarks).isEqualTo(1);
        assertThat(e.isSlow(pathIdsSent.get(11))).isTrue();
    }

    /** onAck and onNack return whether the answer acknowledged a PSN not acknowledged before, by its own PSN or by its cumulative ack. */
    @Test
    void anAckOrNackReportsProgressExactlyWhenItAcknowledgesSomethingNew() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 64, 8, false, e, counters);
        drain(s, e, 0);
        assertThat(s.onAck(ack(3, 0, pathIdsSent.get(3)), Time.us(9))).isTrue();
        assertThat(s.onAck(ack(3, 0, pathIdsSent.get(3)), Time.us(9))).as("the same ACK again").isFalse();
        assertThat(s.onAck(ack(3, 2, pathIdsSent.get(3)), Time.us(9))).as("its cumulative ack covers 0 and 1").isTrue();
        assertThat(s.sndUna()).isEqualTo(2);
        assertThat(s.onAck(ack(2, 2, pathIdsSent.get(2)), Time.us(9))).isTrue();
        assertThat(s.sndUna()).as("2 fills the hole below the selectively acknowledged 3").isEqualTo(4);
        assertThat(s.onNack(nack(6), Time.us(10))).as("a NACK whose cumulative ack covers 4 and 5").isTrue();
        assertThat(s.sndUna()).isEqualTo(6);
        assertThat(s.onNack(nack(6), Time.us(12))).isFalse();
        assertThat(s.timerDeadlinePs()).as("any-ack: the RTO restarted at the last answer that acknowledged something").isEqualTo(Time.us(90));
        assertThat(s.inflightBytes()).as("64 sent, 0..5 acknowledged").isEqualTo(58 * 1000L);
    }

    @Test
    void aMessageOfWholeBitmapWordsCompletesWhenItsLastAckArrives() {
        QpContext qp = new QpContext(0, 0, 1, 64 * 1000L, 64, 1000, 62, 20, 200_000, Time.us(8), 200_000);
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(qp, Time.us(80), true, false, 64, 8, false, e, counters);
        assertThat(drain(s, e, 0)).hasSize(64);
        for (int psn = 1; psn < 64; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        assertThat(s.onAck(ack(0, 1, pathIdsSent.get(0)), Time.us(10))).isTrue();
        assertThat(s.sndUna()).isEqualTo(64);
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theRtoResendsEveryUnacknowledgedPsnFromSndUna() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), false, false, 16, 8, false, e, counters);
        drain(s, e, 0);
        s.onAck(ack(0, 1, pathIdsSent.get(0)), Time.us(9));
        s.onAck(ack(3, 1, pathIdsSent.get(3)), Time.us(9));
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(89));
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(89), lost::add)).isTrue();
        assertThat(lost).hasSize(14).doesNotContain(0, 3);
        List<Integer> resent = drain(s, e, Time.us(89));
        assertThat(resent.subList(0, 14)).containsExactlyElementsOf(lost);
        assertThat(s.timeouts()).isEqualTo(1);
    }
    @Test
    void goBackNRewindsToSndUnaAndResendsAcknowledgedPsnsToo() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, true, 64, 8, false, e, counters);
        assertThat(drain(s, e, 0)).hasSize(64);
        // PSN 0 is lost; 1..20 are acknowledged: 0 < 20 - 8 is a loss
        for (int psn = 1; psn <= 20; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        assertThat(s.inRecovery()).isTrue();
        List<Integer> resent = drain(s, e, Time.us(9));
        assertThat(resent).as("snd_nxt = snd_una: all 64 again, the acknowledged 1..20 included; the bitmap stops new data")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 64).boxed().toList());
        assertThat(s.retransmissions()).isEqualTo(64);
        // the resent PSN 0 arrives: the cumulative ack jumps and the rewind skips what it covers
        s.onAck(ack(0, 21, pathIdOfIndex[0]), Time.us(18));
        assertThat(s.sndUna()).isEqualTo(21);
    }

    @Test
    void goBackNSkipsWhatTheCumulativeAckCoveredWhileRewinding() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, true, 64, 8, false, e, counters);
        drain(s, e, 0);
        for (int psn = 1; psn <= 20; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        assertThat(s.nextPsn(Time.us(9))).isZero();
        s.onSent(0, Time.us(9));
        s.onAck(ack(0, 21, pathIdOfIndex[0]), Time.us(18));
        assertThat(s.nextPsn(Time.us(18))).as("1..20 are below snd_una now").isEqualTo(21);
    }

    @Test
    void goBackNStartsItsRewindAtTheCumulativeAckOfTheMomentItResends() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, true, 64, 8, false, e, counters);
        drain(s, e, 0);
        for (int psn = 1; psn <= 20; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        assertThat(s.inRecovery()).as("the rewind starts at snd_una = 0").isTrue();
        // PSN 0 was late, not lost: its ACK arrives before the rewind has sent anything
        s.onAck(ack(0, 21, pathIdsSent.get(0)), Time.us(9));
        assertThat(drain(s, e, Time.us(9))).as("0..20 are acknowledged: go back to 21, not to 0, then new data below snd_una + L = 85")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(21, 85).boxed().toList());
    }

    /** mprdmaBeyondBitmap 'drop': a NACK during a recovery Delta started widens it to the snd_nxt of the NACK's moment. */
    @Test
    void aNackDuringADeltaRecoveryWidensItToWhatWasSentSince() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, false, 8, 4, true, e, counters);
        assertThat(drain(s, e, 0, 10)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        for (int psn = 1; psn <= 6; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        assertThat(s.inRecovery()).as("0 < 6 - Delta").isTrue();
        assertThat(drain(s, e, Time.us(9), 4)).as("the resend of 0 (below snd_ooh - Delta = 2), then new data").containsExactly(0, 10, 11, 12);
        s.onNack(nack(0), Time.us(10));
        assertThat(drain(s, e, Time.us(10), 7)).as("every unacknowledged PSN up to snd_nxt = 13, then new data")
                .containsExactly(7, 8, 9, 10, 11, 12, 13);
        assertThat(counters.mprdmaRecoveries).as("one recovery, widened").isEqualTo(1);
    }

    @Test
    void withoutSlowPathsALateAckMarksNothingAndTheRoundRobinIsKept() {
        MprdmaEntropy e = new MprdmaEntropy(new PathSet(PATHS, 1, true), pathIdOfIndex, indexOfPathId, new SplittableRandom(1), counters, false);
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, false, 64, 8, false, e, counters);
        drain(s, e, 0);
        for (int psn = 3; psn <= 20; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        int late = pathIdsSent.get(2);
        s.onAck(ack(2, 0, late), Time.us(10)); // 2 < 20 - 8: late, but nothing is marked
        assertThat(e.isSlow(late)).isFalse();
        assertThat(counters.mprdmaSlowMarks).isZero();
        PathSet alone = new PathSet(PATHS, 1, true);
        MprdmaEntropy f = new MprdmaEntropy(alone, pathIdOfIndex, indexOfPathId, new SplittableRandom(3), counters, false);
        f.slow(pathIdOfIndex[0]);
        for (int i = 0; i < 2 * PATHS; i++) {
            assertThat(f.entropyFor(i, false)).isEqualTo(pathIdOfIndex[i % PATHS]);
        }
        assertThat(counters.mprdmaRepaths).isZero();
    }

    @Test
    void aCumulativeRtoIsNotPostponedByAcksAboveTheHoleAndAnAnyAckRtoIs() {
        for (boolean cumulative : new boolean[] {true, false}) {
            MprdmaEntropy e = entropy();
            MprdmaSender s = new MprdmaSender(QP, Time.us(80), cumulative, false, 16, 8, false, e, counters);
            drain(s, e, 0);
            s.onAck(ack(0, 1, pathIdsSent.get(0)), Time.us(9));
            s.onAck(ack(3, 1, pathIdsSent.get(3)), Time.us(30));
            s.onAck(ack(4, 1, pathIdsSent.get(4)), Time.us(50));
            assertThat(s.timerDeadlinePs()).as("cumulative = %s", cumulative).isEqualTo(cumulative ? Time.us(89) : Time.us(130));
        }
    }
    @Test
    void aTimeoutEndsTheRecoveryItInterruptsSoTheHoleStillBeyondDeltaStartsANewOne() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, false, 64, 8, false, e, counters);
        assertThat(drain(s, e, 0)).hasSize(64);
        // PSNs 0 and 5 are lost; 1..4 and 6..20 arrive: 0 < 20 - 8 starts a recovery, which resends 0 and 5
        for (int psn = 1; psn <= 20; psn++) {
            if (psn != 5) {
                s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
            }
        }
        assertThat(s.inRecovery()).isTrue();
        assertThat(drain(s, e, Time.us(9))).containsExactly(0, 5);
        assertThat(counters.mprdmaRecoveries).isEqualTo(1);
        // both resends are lost too: the cumulative ack never moved, the RTO runs from the first send
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(80));
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(80), lost::add)).isTrue();
        assertThat(s.inRecovery()).as("the timeout ends the recovery").isFalse();
        assertThat(lost).hasSize(45).startsWith(0, 5, 21).endsWith(63);
        assertThat(drain(s, e, Time.us(80))).containsExactlyElementsOf(lost);
        // the resent 0 arrives: snd_una = 5, still more than Delta behind snd_ooh = 20, so this is a new recovery
        s.onAck(ack(0, 5, pathIdsSent.get(0)), Time.us(90));
        assertThat(s.sndUna()).isEqualTo(5);
        assertThat(s.inRecovery()).isTrue();
        assertThat(counters.mprdmaRecoveries).isEqualTo(2);
        assertThat(s.timeouts()).isEqualTo(1);
    }

    /** mprdmaBeyondBitmap 'drop': L is the receiver's, not a gate; a NACK (a PSN dropped beyond rcv_nxt + L) resends every unacknowledged PSN from snd_una to the snd_nxt of that moment, once. */
    @Test
    void withDropTheSenderIsNotGatedAndANackResendsEveryUnacknowledgedPsnUpToTheRecoveryPointOnce() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, false, 8, 4, true, e, counters);
        int packets = QP.packets();
        assertThat(drain(s, e, 0)).as("no bitmap stall: the whole message goes out").hasSize(packets);
        assertThat(counters.mprdmaBitmapStalls).isZero();
        // PSN 0 is lost; 1..3 arrive (ACKed, within Delta of snd_ooh: no loss inferred yet), 8.. were dropped by the receiver
        for (int psn = 1; psn <= 3; psn++) {
            s.onAck(ack(psn, 0, pathIdsSent.get(psn)), Time.us(9));
        }
        assertThat(s.inRecovery()).isFalse();
        s.onNack(nack(0), Time.us(9));
        assertThat(s.inRecovery()).isTrue();
        assertThat(counters.mprdmaRecoveries).isEqualTo(1);
        List<Integer> resent = drain(s, e, Time.us(9));
        assertThat(resent).as("0 and 4..packets-1: every PSN not acknowledged, in order").hasSize(packets - 3).startsWith(0, 4, 5).endsWith(packets - 1)
                .doesNotContain(1, 2, 3);
        s.onNack(nack(0), Time.us(10));
        assertThat(drain(s, e, Time.us(10))).as("a second NACK for the same hole resends nothing again (a second loss waits for the RTO)").isEmpty();
        assertThat(counters.mprdmaRecoveries).isEqualTo(1);
        s.onAck(ack(0, packets, pathIdsSent.get(0)), Time.us(18));
        assertThat(s.inRecovery()).isFalse();
        assertThat(s.complete()).isTrue();
        assertThat(s.retransmissions()).isEqualTo(packets - 3);
    }

    /** mprdmaBeyondBitmap 'hold' (the default) ignores nothing it did before: the sender stops at snd_una + L. */
    @Test
    void withHoldTheBitmapStillGatesTheSender() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, false, 8, 4, false, e, counters);
        assertThat(drain(s, e, 0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    private Packet nack(int expected) {
        Packet p = pool.acquire();
        p.kind = Packet.NACK;
        p.psn = expected;
        p.cumAck = expected;
        return p;
    }
}
