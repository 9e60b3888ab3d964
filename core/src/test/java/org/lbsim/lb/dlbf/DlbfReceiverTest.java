package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * DLBF's receiver (nic-sr's with III-D's notification cases) on its own, driven PSN by PSN: when it
 * NACKs, how a notified old-path range holds NACKs back and when it is complete, the Case 2 SACK's
 * map, the buffer threshold and its recovery, and the time integral of the out-of-order buffer.
 */
class DlbfReceiverTest {
    private static final long THETA_PS = 10_000;
    private static final byte NOTIFY = Packet.FIRST_SCHEME_KIND;
    private static final byte SACK = Packet.FIRST_SCHEME_KIND + 1;
    private static final byte HIGH = Packet.FIRST_SCHEME_KIND + 2;
    private static final byte OK = Packet.FIRST_SCHEME_KIND + 3;

    private final PacketPool pool = new PacketPool();

    private static DlbfRun run() {
        DlbfRun run = new DlbfRun();
        run.notifyKind = NOTIFY;
        run.sackKind = SACK;
        run.bufferHighKind = HIGH;
        run.bufferOkKind = OK;
        return run;
    }

    /**
     * The receiving half of a queue pair as the transport keeps it: the expected PSN and the PSNs held
     * above it; it records what the policy answers.
     */
    private final class ScriptedReceiver implements ReceiverQp {
        final ReceiverPolicy policy;
        int expected;
        final TreeSet<Integer> held = new TreeSet<>();
        /** The expected PSN of every NACK sent. */
        final List<Integer> nacks = new ArrayList<>();
        int acks;
        final List<Packet> sent = new ArrayList<>();
        long timerPs = Long.MAX_VALUE;
        int cancels;

        ScriptedReceiver(ReceiverPolicy policy) {
            this.policy = policy;
        }

        /** Data PSN {@code psn} arrives at {@code nowPs}: in order (the expected PSN moves past it and what is held above it) or out of order. */
        void arrive(int psn, boolean ecnMarked, long nowPs) {
            Packet data = pool.acquire();
            data.kind = Packet.DATA;
            data.psn = psn;
            data.ecnMarked = ecnMarked;
            if (psn == expected) {
                expected++;
                while (held.remove(expected)) {
                    expected++;
                }
                policy.onInOrder(this, data, nowPs);
            } else {
                policy.onOutOfOrder(this, data, nowPs);
            }
        }

        void arrive(int psn, long nowPs) {
            arrive(psn, false, nowPs);
        }

        /** A notification of the old path's range [expected, upTo], ECN-marked on the new path (Case 1) or not (Case 2). */
        Packet notification(int upTo, boolean ecnMarked, long nowPs) {
            Packet n = pool.acquire();
            n.kind = NOTIFY;
            n.schemeBits = upTo;
            n.ecnMarked = ecnMarked;
            n.entropy = 4321;
            n.sentPs = nowPs - 3_000;
            n.nicRxPs = nowPs - 500;
            policy.onSchemePacket(this, n, nowPs);
            return n;
        }

        List<Byte> sentKinds() {
            return sent.stream().map(p -> p.kind).toList();
        }

        @Override
        public void keep(Packet data) {
            held.add(data.psn);
        }

        @Override
        public void discard() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void ack() {
            acks++;
        }

        @Override
        public void sack() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void nack() {
            nacks.add(expected);
        }

        @Override
        public void nackTrimmed(int psn) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Packet newControl(byte kind) {
            Packet p = pool.acquire();
            p.kind = kind;
            return p;
        }

        @Override
        public void send(Packet p) {
            sent.add(p);
        }

        @Override
        public void setTimer(long atPs) {
            timerPs = atPs;
        }

        @Override
        public void cancelTimer() {
            cancels++;
            timerPs = Long.MAX_VALUE;
        }

        @Override
        public long timerPs() {
            return timerPs;
        }

        @Override
        public boolean holds(int psn) {
            return psn < expected || held.contains(psn);
        }

        @Override
        public int qp() {
            return 0;
        }

        @Override
        public ReceiverPolicy policy() {
            return policy;
        }

        @Override
        public long completedPs() {
            return -1;
        }

        @Override
        public long receivedPackets() {
            return 0;
        }

        @Override
        public long duplicates() {
            return 0;
        }

        @Override
        public long discarded() {
            return 0;
        }

        @Override
        public long nacks() {
            return nacks.size();
        }

        @Override
        public int heldOutOfOrder() {
            return held.size();
        }

        @Override
        public long cnps() {
            return 0;
        }

        @Override
        public int expectedPsn() {
            return expected;
        }

        @Override
        public void onSchemePacket(Packet p, long nowPs) {
            policy.onSchemePacket(this, p, nowPs);
        }
    }

    @Test
    void outOfOrderDataWithNoRangePendingIsNackedOncePerExpectedPsn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.arrive(0, 0);
        rx.arrive(2, 1_000);
        rx.arrive(3, true, 2_000); // a second hole-side arrival: no second NACK, but its CE mark is echoed
        assertEquals(List.of(1), rx.nacks);
        assertEquals(2, rx.acks);
        rx.arrive(1, 3_000);
        assertEquals(4, rx.expected);
        rx.arrive(5, 4_000);
        assertEquals(List.of(1, 4), rx.nacks);
        assertFalse(policy.waiting());
    }

    /**
     * Case 1: the range [1, 5] is pending from the marked notification; later PSNs are held without a
     * NACK, and the wait ends (timer cancelled) only once PSN 5, the range's last, is in.
     */
    @Test
    void aMarkedNotificationHoldsNacksBackUntilTheRangesLastPsnIsIn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.arrive(0, 0);
        rx.notification(5, true, 1_000);
        assertEquals(1, policy.case1Waits);
        assertEquals(1_000 + THETA_PS, rx.timerPs);
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
        assertEquals(List.of(), rx.nacks, "reordering inside the notified range is no loss");
        rx.arrive(9, 5_000); // PSN 6 missing, no range pending: a loss
        assertEquals(List.of(6), rx.nacks);
    }

    @Test
    void aRangeStillIncompleteAtThetaIsALossNackedOnce() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.arrive(0, 0);
        rx.notification(3, true, 1_000);
        rx.arrive(5, 2_000);
        policy.onTimer(rx, 1_000 + THETA_PS);
        assertEquals(1, policy.case1Losses);
        assertEquals(List.of(1), rx.nacks);
        assertFalse(policy.waiting());
        rx.arrive(6, 12_000); // the same hole: nic-sr asks once per expected PSN
        assertEquals(List.of(1), rx.nacks);
    }

    /** A range of PSN 0 alone (a switch right after the first packet) pends like any other until PSN 0 is in. */
    @Test
    void aRangeOfPsnZeroAlonePendsUntilPsnZeroIsIn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.notification(0, true, 1_000);
        assertTrue(policy.waiting());
        rx.arrive(1, 2_000);
        assertEquals(List.of(), rx.nacks);
        rx.arrive(0, 3_000);
        assertFalse(policy.waiting());
        assertEquals(1, rx.cancels);
    }

    /** At theta the range's last PSN is the one still missing: that is a loss too. */
    @Test
    void theRangesLastPsnStillMissingAtThetaIsALoss() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.arrive(0, 0);
        rx.notification(3, true, 1_000);
        rx.arrive(1, 2_000);
        rx.arrive(2, 3_000);
        rx.arrive(5, 4_000);
        assertEquals(3, rx.expected);
        policy.onTimer(rx, 1_000 + THETA_PS);
        assertEquals(1, policy.case1Losses);
        assertEquals(List.of(3), rx.nacks);
    }

    @Test
    void aPacketKindTheReceiverDoesNotKnowIsRefused() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
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
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        for (int psn = 0; psn < 10; psn++) {
            rx.arrive(psn, psn);
        }
        rx.arrive(11, 100);
        rx.arrive(13, 101);
        rx.arrive(14, 102); // beyond the range
        Packet n = rx.notification(13, false, 5_000);
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
        assertEquals(5_000 + THETA_PS, rx.timerPs);
    }

    /** The SACK's map covers the 63 PSNs above the expected one: a PSN held 64 above it has no bit. */
    @Test
    void theSackMapEndsSixtyThreePsnsAboveTheExpectedOne() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.arrive(63, 0);
        rx.arrive(64, 1);
        rx.notification(100, false, 5_000);
        assertEquals(1L << 63, rx.sent.get(0).sackBits);
    }

    /** A notification whose last PSN is the expected one still pends; one whose range is all in is late. */
    @Test
    void aNotificationIsLateOnlyWhenTheWholeRangeIsIn() {
        DlbfReceiver policy = new DlbfReceiver(run(), THETA_PS, 16);
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        for (int psn = 0; psn < 10; psn++) {
            rx.arrive(psn, psn);
        }
        rx.notification(9, false, 1_000);
        assertEquals(1, policy.notificationsLate);
        assertEquals(0, policy.case2Sacks);
        assertFalse(policy.waiting());
        rx.notification(10, false, 2_000);
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
        ScriptedReceiver rx = new ScriptedReceiver(policy);
        rx.arrive(0, 0);
        for (int psn : new int[] {2, 4, 5, 7}) {
            rx.arrive(psn, psn);
        }
        assertEquals(4, rx.held.size());
        assertEquals(List.of(), rx.sentKinds());
        assertFalse(policy.bufferHigh());
        rx.arrive(8, 10);
        assertEquals(List.of(HIGH), rx.sentKinds());
        assertTrue(policy.bufferHigh());
        rx.arrive(1, 11); // 2 released; 4, 5, 7, 8 held
        assertEquals(4, rx.held.size());
        assertEquals(List.of(HIGH), rx.sentKinds());
        assertTrue(policy.bufferHigh());
        rx.arrive(3, 12); // 4, 5 released; 7, 8 held
        assertEquals(2, rx.held.size());
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
        ScriptedReceiver rx = new ScriptedReceiver(policy);
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
        ScriptedReceiver rx2 = new ScriptedReceiver(later);
        rx2.arrive(0, 5_000);
        rx2.arrive(1, 8_000);
        assertEquals(3_000, later.activePs(), "from the first data packet, not from time 0");
    }
}
