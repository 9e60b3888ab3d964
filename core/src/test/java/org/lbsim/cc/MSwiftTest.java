package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.QpContext;

/**
 * MSwift's window, ACK by ACK, on numbers chosen to come out round: 100 Gb/s, 1,230-byte frames
 * with a 20-byte gap (100 ns a packet), 10 us unloaded RTT and a 125,000-byte allowance (10 us), so
 * the target is 20 us and the initial window 200 packets.
 */
class MSwiftTest {
    private static final long US = Time.us(1);
    private static final int FRAME_BYTES = 1230;
    private static final double EPS = 1e-9;

    private static MSwift mswift(double minWindowPackets) {
        return mswift(new MSwift.Params(125_000, 1, 0.8, 0.5, minWindowPackets));
    }

    private static MSwift mswift(MSwift.Params p) {
        return new MSwift(p, new QpContext(0, 0, 1, 1_000_000, 1000, 1000, 230, 20, 100_000, 10 * US, 100_000));
    }

    private static Packet ack(byte kind, long echoSentPs) {
        Packet a = new PacketPool().acquire();
        a.kind = kind;
        a.echoSentPs = echoSentPs;
        return a;
    }

    /** An ACK arriving at {@code nowPs} for a packet sent {@code rttPs} earlier. */
    private static void ack(MSwift cc, long nowPs, long rttPs) {
        cc.onAck(ack(Packet.ACK, nowPs - rttPs), nowPs);
    }

    @Test
    void theTargetIsTheUnloadedRttPlusTheAllowanceAndTheWindowFillsIt() {
        MSwift cc = mswift(1);
        assertThat(cc.targetPs()).isEqualTo(20 * US);
        assertThat(cc.windowPackets()).isEqualTo(200.0);
        assertThat(cc.rateMbps()).as("200 frames per 10 us exceed the line").isEqualTo(100_000);
        assertThat(mswift(300).windowPackets()).as("never below the smallest window").isEqualTo(300.0);
    }

    @Test
    void theFactoryBuildsTheSenderOfEachQueuePairFromItsContext() {
        MSwift.Params p = new MSwift.Params(125_000, 1, 0.8, 0.5, 1);
        CongestionControl built = MSwift.factory(p).create(new QpContext(0, 0, 1, 1_000_000, 1000, 1000, 230, 20, 100_000, 10 * US, 100_000));
        assertThat(built).isInstanceOf(MSwift.class);
        assertThat(((MSwift) built).targetPs()).isEqualTo(20 * US);
        assertThat(((MSwift) built).windowPackets()).isEqualTo(200.0);
    }

    @Test
    void aFullWindowStopsTheSender() {
        MSwift cc = mswift(1);
        assertThat(cc.earliestSendPs(7, 199L * FRAME_BYTES)).isEqualTo(7);
        assertThat(cc.earliestSendPs(7, 199L * FRAME_BYTES + 1)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anAckBelowTargetAddsTheIncreaseOverTheWindow() {
        MSwift cc = mswift(1);
        ack(cc, 15 * US, 15 * US);
        assertThat(cc.windowPackets()).isCloseTo(200 + 1 / 200.0, within(EPS));
        assertThat(cc.rateMbps()).as("rate from the window and the last RTT, capped at the line").isEqualTo(100_000);
    }

    @Test
    void anAckAtTheTargetCountsAsAboveAndCutsNothing() {
        MSwift cc = mswift(1);
        ack(cc, 20 * US, 20 * US);
        assertThat(cc.windowPackets()).isEqualTo(200.0);
    }

    @Test
    void nacksAndCnpsLeaveTheWindowAlone() {
        MSwift cc = mswift(1);
        cc.onAck(ack(Packet.NACK, 0), 100 * US);
        cc.onAck(ack(Packet.CNP, 0), 100 * US);
        assertThat(cc.windowPackets()).isEqualTo(200.0);
        assertThat(cc.rateMbps()).isEqualTo(100_000);
    }

    @Test
    void aRoundWhoseAcksAreMostlyAboveTargetCutsInProportionToTheExcess() {
        MSwift cc = mswift(1);
        ack(cc, 40 * US, 40 * US); // ends round 0 at once: one ACK, above target
        // cut = min(0.5, 0.8 (40 - 20) / 40) = 0.4
        assertThat(cc.windowPackets()).isCloseTo(120, within(EPS));
        // 120 frames of 1,230 bytes per 40 us
        assertThat(cc.rateMbps()).isEqualTo((long) (120 * FRAME_BYTES * 8.0 * 1e6 / (40 * US)));
    }

    @Test
    void theCutIsCappedAtTheLargestDecrease() {
        MSwift cc = mswift(1);
        ack(cc, 400 * US, 400 * US); // 0.8 (400 - 20) / 400 = 0.76, capped at 0.5
        assertThat(cc.windowPackets()).isCloseTo(100, within(EPS));
    }

    @Test
    void aRoundWithHalfItsAcksAboveTargetDoesNotCut() {
        MSwift cc = mswift(1);
        ack(cc, 15 * US, 15 * US); // round 0 ends; the next ends at 30 us
        double w = cc.windowPackets();
        ack(cc, 20 * US, 15 * US); // below
        w += 1 / w;
        ack(cc, 30 * US, 25 * US); // above, ends the round: 1 of 2
        assertThat(cc.windowPackets()).isCloseTo(w, within(EPS));
    }

    @Test
    void aRoundWithMostAcksAboveTargetCutsOnceAtItsEnd() {
        MSwift cc = mswift(1);
        ack(cc, 15 * US, 15 * US); // round 0 ends; the next ends at 30 us
        double w = cc.windowPackets();
        ack(cc, 29 * US, 29 * US); // above, the round goes on
        assertThat(cc.windowPackets()).isCloseTo(w, within(EPS));
        ack(cc, 30 * US, 25 * US); // above, ends the round: 2 of 2, cut 0.8 * 5 / 25
        assertThat(cc.windowPackets()).isCloseTo(w * (1 - 0.16), within(EPS));
    }

    @Test
    void theWindowIsCutAtMostOncePerRoundTrip() {
        MSwift cc = mswift(1);
        ack(cc, 30 * US, 25 * US); // cut 0.16 at 30 us; the next round ends at 55 us
        double w = 200 * (1 - 0.16);
        assertThat(cc.windowPackets()).isCloseTo(w, within(EPS));
        ack(cc, 55 * US, 40 * US); // 25 us since the cut, less than this RTT
        assertThat(cc.windowPackets()).isCloseTo(w, within(EPS));
    }

    @Test
    void oneRoundTripAfterACutTheNextMayCut() {
        MSwift cc = mswift(1);
        ack(cc, 30 * US, 25 * US); // cut at 30 us; the next round ends at 55 us
        double w = 200 * (1 - 0.16);
        ack(cc, 55 * US, 25 * US); // exactly one RTT since the cut
        assertThat(cc.windowPackets()).isCloseTo(w * (1 - 0.16), within(EPS));
    }

    @Test
    void theWindowNeverGrowsPastFourTimesTheTargetWindow() {
        MSwift cc = mswift(new MSwift.Params(125_000, 1000, 0.8, 0.5, 1));
        for (int i = 1; i <= 400; i++) {
            ack(cc, i * US, US);
        }
        assertThat(cc.windowPackets()).isEqualTo(800.0);
    }

    @Test
    void aTimeoutCutsByTheLargestDecreaseDownToTheSmallestWindow() {
        MSwift cc = mswift(60);
        cc.onTimeout(0);
        assertThat(cc.windowPackets()).isEqualTo(100.0);
        cc.onTimeout(0);
        assertThat(cc.windowPackets()).isEqualTo(60.0);
    }

    @Test
    void belowOnePacketTheSenderPacesOnePacketPerRttOverTheWindow() {
        MSwift cc = mswift(0.25);
        for (int i = 0; i < 8; i++) {
            cc.onTimeout(0); // 200 / 2^8
        }
        double w = 200 / 256.0;
        assertThat(cc.windowPackets()).isEqualTo(w);
        assertThat(cc.earliestSendPs(5, 0)).as("nothing sent yet").isEqualTo(5);
        assertThat(cc.earliestSendPs(5, 1)).as("one packet in flight").isEqualTo(Long.MAX_VALUE);
        cc.onSent(FRAME_BYTES + 20, 1000);
        long gapPs = (long) (10 * US / w); // the last RTT is the unloaded one
        assertThat(cc.earliestSendPs(1000, 0)).isEqualTo(1000 + gapPs);
        assertThat(cc.earliestSendPs(1000 + gapPs + 3, 0)).isEqualTo(1000 + gapPs + 3);
        assertThat(cc.rateMbps()).isEqualTo((long) (w * FRAME_BYTES * 8.0 * 1e6 / (10 * US)));
    }

    @Test
    void atOnePacketTheWindowStillGovernsAndSendingDoesNotPace() {
        MSwift cc = mswift(1);
        for (int i = 0; i < 10; i++) {
            cc.onTimeout(0);
        }
        assertThat(cc.windowPackets()).isEqualTo(1.0);
        cc.onSent(FRAME_BYTES + 20, 1000);
        assertThat(cc.earliestSendPs(1000, 0)).isEqualTo(1000);
        assertThat(cc.earliestSendPs(1000, 1)).isEqualTo(Long.MAX_VALUE);
    }
}
