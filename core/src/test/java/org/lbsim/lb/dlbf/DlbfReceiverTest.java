package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lbsim.lb.dlbf.DlbfTestKinds.HIGH;
import static org.lbsim.lb.dlbf.DlbfTestKinds.NOTIFY;
import static org.lbsim.lb.dlbf.DlbfTestKinds.OK;
import static org.lbsim.lb.dlbf.DlbfTestKinds.SACK;
import static org.lbsim.lb.dlbf.DlbfTestKinds.run;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.testing.ReceivingQp;

/**
 * DLBF's receiver (nic-sr's with III-D's notification cases) on its own, driven PSN by PSN: when it
 * NACKs, how a notified old-path range holds NACKs back and when it is complete, the Case 2 SACK's
 * map, the buffer threshold and its recovery, and the time integral of the out-of-order buffer.
 */
class DlbfReceiverTest {
    private static final long THETA_PS = 10_000;

    private final PacketPool pool = new PacketPool();

    /** Every receiver a test made: nic-sr keeps out-of-order data, so none may have discarded any. */
    private final List<ReceivingQp> receivers = new ArrayList<>();

    private ReceivingQp receiver(DlbfReceiver policy) {
        ReceivingQp rx = new ReceivingQp(policy);
        receivers.add(rx);
        return rx;
    }

    @AfterEach
    void nothingWasDiscarded() {
        for (ReceivingQp rx : receivers) {
            assertEquals(0, rx.discards);
        }
    }

    /** A notification of the old path's range [expected, upTo] reaching {@code rx}, ECN-marked on the new path (Case 1) or not (Case 2). */
    private Packet notification(ReceivingQp rx, int upTo, boolean ecnMarked, long nowPs) {
        Packet n = pool.acquire();
        n.kind = NOTIFY;
        n.schemeBits = upTo;
        n.ecnMarked = ecnMarked;
        n.entropy = 4321;
        n.sentPs = nowPs - 3_000;
        n.nicRxPs = nowPs - 500;
        rx.onSchemePacket(n, nowPs);
        return n;
    }

    @Test
    void outOfOrderDataWithNoRangePendingIsNackedOncePerExpectedPsn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        rx.arrive(0, 0);
        rx.arrive(2, 1_000);
        rx.arrive(3, true, 2_000); // a second hole-side arrival: no second NACK, but its CE mark is echoed
        assertEquals(List.of(1), rx.expectedNacks);
        assertEquals(2, rx.acks);
        rx.arrive(1, 3_000);
        assertEquals(4, rx.expected);
        rx.arrive(5, 4_000);
        assertEquals(List.of(1, 4), rx.expectedNacks);
        assertFalse(policy.waiting());
    }

    /**
     * Case 1: the range [1, 5] is pending from the marked notification; later PSNs are held without a
     * NACK, and the wait ends (timer cancelled) only once PSN 5, the range's last, is in.
     */
    @Test
    void aMarkedNotificationHoldsNacksBackUntilTheRangesLastPsnIsIn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        rx.arrive(0, 0);
        notification(rx, 5, true, 1_000);
        assertEquals(1, policy.case1Waits);
        assertEquals(1_000 + THETA_PS, rx.timer);
        assertTrue(policy.waiting());
        rx.arrive(7, 2_000);
        rx.arrive(8, 2_100);
        for (int psn = 1; psn <= 4; psn++) {
            rx.arrive(psn, 3_000 + psn);
        }
        assertEquals(5, rx.expected);
        assertTrue(policy.waiting(), "PSN 5 of the range is still on the old path");
        assertEquals(0, rx.cancels);
        rx.arrive(5, 4_000);
        assertFalse(policy.waiting());
        assertEquals(1, rx.cancels);
        assertEquals(List.of(), rx.expectedNacks, "reordering inside the notified range is no loss");
        rx.arrive(9, 5_000); // PSN 6 missing, no range pending: a loss
        assertEquals(List.of(6), rx.expectedNacks);
    }

    @Test
    void aRangeStillIncompleteAtThetaIsALossNackedOnce() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        rx.arrive(0, 0);
        notification(rx, 3, true, 1_000);
        rx.arrive(5, 2_000);
        policy.onTimer(rx, 1_000 + THETA_PS);
        assertEquals(1, policy.case1Losses);
        assertEquals(List.of(1), rx.expectedNacks);
        assertFalse(policy.waiting());
        rx.arrive(6, 12_000); // the same hole: nic-sr asks once per expected PSN
        assertEquals(List.of(1), rx.expectedNacks);
    }

    /** A range of PSN 0 alone (a switch right after the first packet) pends like any other until PSN 0 is in. */
    @Test
    void aRangeOfPsnZeroAlonePendsUntilPsnZeroIsIn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        notification(rx, 0, true, 1_000);
        assertTrue(policy.waiting());
        rx.arrive(1, 2_000);
        assertEquals(List.of(), rx.expectedNacks);
        rx.arrive(0, 3_000);
        assertFalse(policy.waiting());
        assertEquals(1, rx.cancels);
    }

    /** At theta the range's last PSN is the one still missing: that is a loss too. */
    @Test
    void theRangesLastPsnStillMissingAtThetaIsALoss() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        rx.arrive(0, 0);
        notification(rx, 3, true, 1_000);
        rx.arrive(1, 2_000);
        rx.arrive(2, 3_000);
        rx.arrive(5, 4_000);
        assertEquals(3, rx.expected);
        policy.onTimer(rx, 1_000 + THETA_PS);
        assertEquals(1, policy.case1Losses);
        assertEquals(List.of(3), rx.expectedNacks);
    }

    @Test
    void aPacketKindTheReceiverDoesNotKnowIsRefused() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        Packet p = pool.acquire();
        p.kind = (byte) (Packet.FIRST_SCHEME_KIND + 9);
        assertThrows(IllegalStateException.class, () -> policy.onSchemePacket(rx, p, 0));
    }

    /**
     * Case 2: the SACK names the range's PSNs held above the expected one (bit j for PSN expected + j),
     * up to and including the range's last PSN, and echoes the notification's port and timestamps.
     */
    @Test
    void anUnmarkedNotificationIsAnsweredWithASackOfTheHeldPsnsOfItsRange() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        for (int psn = 0; psn < 10; psn++) {
            rx.arrive(psn, psn);
        }
        rx.arrive(11, 100);
        rx.arrive(13, 101);
        rx.arrive(14, 102); // beyond the range
        Packet n = notification(rx, 13, false, 5_000);
        assertEquals(1, policy.case2Sacks);
        assertEquals(List.of(SACK), rx.sentKinds());
        Packet sack = rx.sent.get(0);
        assertEquals(10, sack.cumAck);
        assertEquals((1L << 1) | (1L << 3), sack.sackBits);
        assertEquals(13, sack.schemeBits);
        assertEquals(4321, sack.entropy);
        assertEquals(n.sentPs, sack.echoSentPs);
        assertEquals(n.nicRxPs, sack.echoNicRxPs);
        assertFalse(sack.ecnEcho);
        assertTrue(policy.waiting());
        assertEquals(5_000 + THETA_PS, rx.timer);
    }

    /** The SACK's map covers the 63 PSNs above the expected one: a PSN held 64 above it has no bit. */
    @Test
    void theSackMapEndsSixtyThreePsnsAboveTheExpectedOne() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        rx.arrive(63, 0);
        rx.arrive(64, 1);
        notification(rx, 100, false, 5_000);
        assertEquals(1L << 63, rx.sent.get(0).sackBits);
    }

    /** A notification whose last PSN is the expected one still pends; one whose range is all in is late. */
    @Test
    void aNotificationIsLateOnlyWhenTheWholeRangeIsIn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        for (int psn = 0; psn < 10; psn++) {
            rx.arrive(psn, psn);
        }
        notification(rx, 9, false, 1_000);
        assertEquals(1, policy.notificationsLate);
        assertEquals(0, policy.case2Sacks);
        assertFalse(policy.waiting());
        notification(rx, 10, false, 2_000);
        assertEquals(1, policy.notificationsLate);
        assertEquals(1, policy.case2Sacks);
        assertEquals(2, policy.notificationsReceived);
        assertTrue(policy.waiting());
    }

    /**
     * Threshold 4: the fifth held packet (not the fourth) sends the buffer-high notice, once; the notice
     * that notifications may resume comes when the buffer is back at half the threshold (2), not at 4.
     */
    @Test
    void theBufferNoticesComeAboveTheThresholdAndAtHalfOfIt() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 4);
        ReceivingQp rx = receiver(policy);
        rx.arrive(0, 0);
        for (int psn : new int[] {2, 4, 5, 7}) {
            rx.arrive(psn, psn);
        }
        assertEquals(4, rx.heldOutOfOrder());
        assertEquals(List.of(), rx.sentKinds());
        assertFalse(policy.bufferHigh());
        rx.arrive(8, 10);
        assertEquals(List.of(HIGH), rx.sentKinds());
        assertTrue(policy.bufferHigh());
        rx.arrive(1, 11); // 2 released; 4, 5, 7, 8 held
        assertEquals(4, rx.heldOutOfOrder());
        assertEquals(List.of(HIGH), rx.sentKinds());
        assertTrue(policy.bufferHigh());
        rx.arrive(3, 12); // 4, 5 released; 7, 8 held
        assertEquals(2, rx.heldOutOfOrder());
        assertEquals(List.of(HIGH, OK), rx.sentKinds());
        assertFalse(policy.bufferHigh());
        rx.arrive(6, 13); // everything released
        assertEquals(List.of(HIGH, OK), rx.sentKinds());
        assertFalse(policy.bufferHigh());
    }

    /**
     * The out-of-order buffer's time integral runs from the first data packet (here at time 0) to the
     * last: 1 packet held for 4000 ps, then 2 for 1000 ps, then none for 3000 ps.
     */
    @Test
    void theBufferIsIntegratedOverTimeFromTheFirstDataPacket() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx = receiver(policy);
        assertEquals(0, policy.activePs());
        rx.arrive(0, 0);
        rx.arrive(2, 2_000);
        rx.arrive(3, 6_000);
        rx.arrive(1, 7_000);
        rx.arrive(4, 10_000);
        assertEquals(1 * 4_000 + 2 * 1_000, policy.heldPacketPs);
        assertEquals(10_000, policy.activePs());
        assertEquals(2, policy.maxHeld);
        DlbfReceiver later = new DlbfReceiver(run(), THETA_PS, 16);
        ReceivingQp rx2 = receiver(later);
        rx2.arrive(0, 5_000);
        rx2.arrive(1, 8_000);
        assertEquals(3_000, later.activePs(), "from the first data packet, not from time 0");
    }
}
