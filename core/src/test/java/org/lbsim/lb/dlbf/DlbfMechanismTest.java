package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverQp;

/**
 * DLBF III-C and III-D on one flow over two paths the test controls (TwoPathLab): the Fig. 3
 * example, the receiver's Case 1 and Case 2, and the buffer threshold with its recovery.
 */
class DlbfMechanismTest {
    @TempDir
    Path dir;

    private static long counter(Dlbf d, String name) {
        return d.counters().get(name).longValue();
    }

    /**
     * Fig. 3: the flow leaves its first (fast) path on an ECN mark for the second, which is 2 us
     * slower; an ECN mark there sends it back. Every packet then in flight on the slow path for less
     * than Delta is duplicated on the fast path before new data (P2 before P3), so the receiver sees
     * P1 P2 P3 ... and later the slow P2, which it discards and ACKs: no reordering, no NACK.
     */
    @Test
    void fig3SelectiveDuplicatesArriveBeforeNewDataAndTheLateCopyIsDiscardedAndAcked() throws Exception {
        TwoPathLab lab = new TwoPathLab();
        // paced at 50 Gb/s (one packet per 173 ns) so nothing but DLBF reacts to the ECN marks; the
        // copies go out on that pacing grid, so each reaches the receiver (12 slots) 2.077 us after its
        // original left: the slow path's 2.1 us extra leaves them a margin (Eq. 3 does not count the
        // wait for the next slot: with exactly 2 us the oldest copy, and all behind it, lose by 77 ns)
        lab.fixedRateGbps = 50;
        lab.slowRole = TwoPathLab.SECOND;
        lab.slowDelayPs = 2_100_000;
        lab.ecnPsnOnRole[TwoPathLab.FIRST] = 20;
        lab.ecnPsnOnRole[TwoPathLab.SECOND] = 150;
        lab.prepare(dir, 300_000, Map.of("notifications", false, "unavailUs", 1.0));
        lab.runAndCheck();
        Dlbf d = lab.dlbf;
        ReceiverQp rx = lab.run.transport().receiverOf(0);
        long dups = counter(d, "dlbf.selectiveDuplicates");
        assertEquals(2, counter(d, "dlbf.pathSwitches"));
        assertTrue(dups >= 2, "Delta = 2 us covers several packets in flight on the slow path, got " + dups);
        assertEquals(0, lab.run.transport().outOfOrder().arrivals(), "the duplicates hide the switch's reordering");
        assertEquals(0, rx.nacks());
        assertEquals(dups, rx.duplicates(), "each slow original arrives after its copy and is discarded");
        assertEquals(rx.receivedPackets(), lab.acks, "every arrival, the discarded duplicates included, is ACKed");
        assertEquals(2, counter(d, "dlbf.congestionEchoes"), "one CE mark on each path");
        assertEquals(2, counter(d, "dlbf.congestionEchoesOnCurrentPath"), "each about the path the data was on");
        assertEquals(dups, counter(d, "dlbf.duplicatesSent"), "every copy went out before the data behind it");
        assertEquals(0, counter(d, "dlbf.controlPacketsSent"));
        assertTrue(lab.run.transport().senderOf(0).completedPs() > 0);
        // the order at the receiver: each duplicated PSN k arrives on the fast path before k + 1, and its
        // slow original after some later PSN (without the copy, an out-of-order arrival)
        List<int[]> order = lab.dataOrder();
        Map<Integer, Integer> firstIndex = new HashMap<>();
        Map<Integer, Integer> secondIndex = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            int psn = order.get(i)[0];
            if (firstIndex.putIfAbsent(psn, i) != null) {
                secondIndex.put(psn, i);
            }
        }
        assertEquals(dups, secondIndex.size());
        int firstDup = Integer.MAX_VALUE;
        int lastDup = -1;
        for (Map.Entry<Integer, Integer> e : secondIndex.entrySet()) {
            int psn = e.getKey();
            int first = firstIndex.get(psn);
            // P2's copy on the new path, then P3; the old path's P2 is the one discarded
            assertEquals(TwoPathLab.FIRST, order.get(first)[1], "the copy of P" + psn + " arrives first, on the new path");
            assertEquals(TwoPathLab.SECOND, order.get(e.getValue())[1], "the original of P" + psn + " arrives second, on the old path");
            assertTrue(first < firstIndex.get(psn + 1), "P" + psn + " before P" + (psn + 1));
            firstDup = Math.min(firstDup, first);
            lastDup = Math.max(lastDup, e.getValue());
        }
        // the copies were needed: the old path still carried originals when the first copy arrived, so
        // new data sent in the copies' place would have overtaken them (P1 P3 P2 without duplicates)
        assertTrue(lastDup > firstDup);
    }

    /** Without the slow path there is no gap: the switches duplicate nothing. */
    @Test
    void equalPathsGiveNoDuplicates() throws Exception {
        TwoPathLab lab = new TwoPathLab();
        lab.ecnPsnOnRole[TwoPathLab.FIRST] = 20;
        lab.ecnPsnOnRole[TwoPathLab.SECOND] = 150;
        lab.prepare(dir, 300_000, Map.of("notifications", false, "unavailUs", 1.0));
        lab.runAndCheck();
        assertEquals(2, counter(lab.dlbf, "dlbf.pathSwitches"));
        assertEquals(0, counter(lab.dlbf, "dlbf.selectiveDuplicates"));
        assertEquals(0, lab.run.transport().outOfOrder().arrivals());
    }

    /**
     * Case 2: the flow leaves a slow path for an unprobed one; the notification arrives unmarked, so
     * the receiver SACKs the old range's holes at once, the sender resends only those, and no NACK
     * (DCQCN's rate cut) follows although new data overtakes the old path.
     */
    @Test
    void case2UnmarkedNotificationSacksTheHolesAndOnlyThoseAreResent() throws Exception {
        TwoPathLab lab = new TwoPathLab();
        lab.slowRole = TwoPathLab.FIRST;
        lab.slowDelayPs = 3_000_000;
        lab.ecnPsnOnRole[TwoPathLab.FIRST] = 40;
        lab.prepare(dir, 300_000, Map.of());
        lab.runAndCheck();
        Dlbf d = lab.dlbf;
        ReceiverQp rx = lab.run.transport().receiverOf(0);
        assertEquals(1, counter(d, "dlbf.pathSwitches"));
        assertEquals(1, counter(d, "dlbf.notifications"));
        assertEquals(1, counter(d, "dlbf.case2Sacks"));
        assertEquals(0, counter(d, "dlbf.case1Waits"));
        assertEquals(0, counter(d, "dlbf.selectiveDuplicates"));
        long resends = counter(d, "dlbf.case2Resends");
        assertTrue(resends > 0, "packets of the slow path were still missing");
        assertEquals(resends, rx.duplicates(), "every resent PSN arrives twice: only holes were resent");
        assertEquals(resends, counter(d, "dlbf.duplicatesSent"));
        assertEquals(1, counter(d, "dlbf.controlPacketsSent"), "the notification");
        assertEquals(1, counter(d, "dlbf.congestionEchoes"));
        assertEquals(0, rx.nacks(), "the SACK, not a NACK, asked for the holes");
        assertEquals(0, lab.run.transport().senderOf(0).recovery().retransmissions());
    }

    /**
     * Case 1: the notification arrives ECN-marked; the receiver records the range and holds the new
     * path's data without a NACK until the old path's packets are in; nothing is resent.
     */
    @Test
    void case1MarkedNotificationWaitsForTheOldPathWithoutNacks() throws Exception {
        TwoPathLab lab = new TwoPathLab();
        lab.slowRole = TwoPathLab.FIRST;
        lab.slowDelayPs = 3_000_000;
        lab.ecnPsnOnRole[TwoPathLab.FIRST] = 40;
        lab.markNotifications = true;
        lab.prepare(dir, 300_000, Map.of());
        lab.runAndCheck();
        Dlbf d = lab.dlbf;
        ReceiverQp rx = lab.run.transport().receiverOf(0);
        assertEquals(1, counter(d, "dlbf.case1Waits"));
        assertEquals(0, counter(d, "dlbf.case2Sacks"));
        assertEquals(0, counter(d, "dlbf.case1Losses"));
        assertTrue(lab.run.transport().outOfOrder().arrivals() > 0, "the new path's data overtook the old path's");
        assertEquals(0, rx.nacks(), "reordering inside the notified range is not a loss");
        assertEquals(0, rx.duplicates());
        assertEquals(0, lab.run.transport().senderOf(0).recovery().retransmissions());
        // the held data's time average lies strictly between nothing held and the most held at once
        double avg = d.counters().get("dlbf.rxBufferAvgPackets").doubleValue();
        long max = counter(d, "dlbf.rxBufferMaxPackets");
        assertTrue(avg > 0 && avg < max, "average " + avg + ", maximum " + max);
    }

    /** Case 1 with the old path's tail held past theta: the receiver calls it a loss theta after the notification, with selective repeat's NACK. */
    @Test
    void case1HoleStillOpenAtThetaIsALoss() throws Exception {
        TwoPathLab lab = new TwoPathLab();
        lab.slowRole = TwoPathLab.FIRST;
        lab.slowDelayPs = 3_000_000;
        lab.ecnPsnOnRole[TwoPathLab.FIRST] = 40;
        lab.markNotifications = true;
        lab.holdFromPsnOnFirst = 41;
        lab.holdExtraPs = 40_000_000;
        lab.prepare(dir, 300_000, Map.of("thetaUs", 10.0));
        lab.runAndCheck();
        Dlbf d = lab.dlbf;
        assertEquals(1, counter(d, "dlbf.case1Waits"));
        assertEquals(1, counter(d, "dlbf.case1Losses"));
        assertTrue(lab.nackTimesPs.size() >= 1);
        long after = lab.nackTimesPs.get(0) - lab.notifyArrivalPs;
        assertTrue(after >= 10_000_000 && after < 10_000_000 + 1_000_000, "first NACK " + after + " ps after the notification, theta = 10 us");
        assertTrue(lab.run.transport().senderOf(0).completedPs() > 0);
    }

    /**
     * III-D threshold: in a Case 1 wait the held data passes the threshold (4 packets), the receiver
     * tells the sender, which then sends selective duplicates instead of a notification on its next
     * switch to an unprobed path; once the old path's packets are in, the buffer drains and the
     * recovery notice turns notifications back on.
     */
    @Test
    void bufferThresholdSwitchesToDuplicatesAndRecovers() throws Exception {
        TwoPathLab lab = new TwoPathLab();
        lab.slowRole = TwoPathLab.FIRST;
        lab.slowDelayPs = 1_000_000;
        lab.ecnPsnOnRole[TwoPathLab.FIRST] = 40;
        lab.markNotifications = true;
        lab.holdFromPsnOnFirst = 41;
        lab.holdExtraPs = 20_000_000;
        lab.ecnNthOnSecond = 15;
        lab.prepare(dir, 300_000, Map.of("thetaUs", 50.0, "bufferThresholdPackets", 4, "unavailUs", 1.0));
        lab.runAndCheck();
        Dlbf d = lab.dlbf;
        assertEquals(1, counter(d, "dlbf.thresholdSwitches"));
        assertEquals(1, counter(d, "dlbf.thresholdRecoveries"));
        assertEquals(1, counter(d, "dlbf.notifications"), "the second switch went to an unprobed path without a notification");
        assertEquals(1, counter(d, "dlbf.notificationsSuppressed"));
        assertEquals(2, counter(d, "dlbf.pathSwitches"));
        assertEquals(0, counter(d, "dlbf.case1Losses"));
        assertTrue(lab.run.transport().receiverOf(0).nacks() == 0);
    }

    /** The clock offset between the hosts changes nothing: OWD differences cancel it (III-C). */
    @Test
    void clockOffsetChangesNothing() throws Exception {
        long[] fct = new long[2];
        long[] dups = new long[2];
        for (int k = 0; k < 2; k++) {
            TwoPathLab lab = new TwoPathLab();
            lab.slowRole = TwoPathLab.SECOND;
            lab.slowDelayPs = 2_000_000;
            lab.ecnPsnOnRole[TwoPathLab.FIRST] = 20;
            lab.ecnPsnOnRole[TwoPathLab.SECOND] = 150;
            lab.prepare(dir, 300_000, Map.of("notifications", false, "unavailUs", 1.0, "clockOffsetNs", k == 0 ? 0.0 : 1e8));
            lab.runAndCheck();
            fct[k] = lab.run.transport().senderOf(0).completedPs();
            dups[k] = counter(lab.dlbf, "dlbf.selectiveDuplicates");
            if (k == 1) {
                assertTrue(lab.dlbf.clockOffsetPs(0) != lab.dlbf.clockOffsetPs(1));
            }
        }
        assertEquals(fct[0], fct[1]);
        assertEquals(dups[0], dups[1]);
        assertTrue(dups[0] > 0);
    }

    static boolean isScheme(int kind) {
        return kind >= Packet.FIRST_SCHEME_KIND;
    }
}
