package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One lossy port's FIFO ({@link PortBench}: 100 Gb/s, 80 ps per byte, 1,600 ps gap, 1 us link), timed by hand.
 * Each case runs on the exact path (a wake-up per frame) and on the lazy one (handed on at enqueue), which
 * must agree to the picosecond. A 1000 B frame takes 80,000 ps and holds the line 81,600 ps with its gap.
 */
class EgressPortFifoTest {
    private static final long FRAME_PS = 80_000;
    private static final long SLOT_PS = FRAME_PS + PortBench.GAP_PS;

    private static PortBench bench(long bufferBytes, boolean lazy) {
        PortBench b = PortBench.lossy(bufferBytes);
        if (lazy) {
            assertThat(b.port.handOnAtEnqueue()).isTrue();
        }
        assertThat(b.port.handsOnAtEnqueue()).isEqualTo(lazy);
        return b;
    }

    /** The port's counters at one instant: queue bytes, packets waiting, frames and bytes started. */
    private static void read(PortBench b, long atPs, List<long[]> out) {
        b.at(atPs, () -> out.add(new long[] {atPs, b.port.queueBytes(), b.port.queuePackets(), b.port.txPackets(), b.port.txBytes()}));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void backToBackFramesLeaveOneSlotApartAndHoldTheirBufferUntilTheirGapEnds(boolean lazy) {
        PortBench b = bench(1_000_000, lazy);
        for (int i = 0; i < 3; i++) {
            b.send(0, 1000, i);
        }
        List<long[]> seen = new ArrayList<>();
        int[] offLink = new int[1];
        b.at(1, () -> offLink[0] = b.port.waitingOffLink());
        // frame k starts at k x 81,600 and ends its gap at (k + 1) x 81,600
        for (long t : new long[] {1, SLOT_PS - 1, SLOT_PS + 1, 2 * SLOT_PS + 1, 3 * SLOT_PS - 1, 3 * SLOT_PS + 1}) {
            read(b, t, seen);
        }
        b.run();

        assertThat(b.arrivalTimes()).containsExactly(FRAME_PS + PortBench.LINK_PS, SLOT_PS + FRAME_PS + PortBench.LINK_PS,
                2 * SLOT_PS + FRAME_PS + PortBench.LINK_PS);
        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2);
        assertThat(seen).containsExactly(
                new long[] {1, 3000, 2, 1, 1000},
                new long[] {SLOT_PS - 1, 3000, 2, 1, 1000},
                new long[] {SLOT_PS + 1, 2000, 1, 2, 2000},
                new long[] {2 * SLOT_PS + 1, 1000, 0, 3, 3000},
                new long[] {3 * SLOT_PS - 1, 1000, 0, 3, 3000},
                new long[] {3 * SLOT_PS + 1, 0, 0, 3, 3000});
        assertThat(b.port.maxQueueBytes()).isEqualTo(3000);
        assertThat(b.port.drops()).isZero();
        assertThat(offLink[0]).as("a lazy port has handed every frame to its link").isEqualTo(lazy ? 0 : 2);
        // 3000, 2000 and 1000 B for one slot each: 6000 x 81,600 byte-ps
        b.port.finishStats(1_000_000);
        assertThat(b.port.timeAverageQueueBytes(1_000_000)).isEqualTo(489.6);
        assertThat(b.port.timeAverageQueueBytes(2_000_000)).isEqualTo(244.8);
        assertThat(b.port.timeAverageQueueBytes(0)).isZero();
        assertThat(b.port.timeAverageQueueBytes(-1)).isZero();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFrameThatFillsTheBufferExactlyIsAdmittedAndOneByteMoreIsDropped(boolean lazy) {
        PortBench b = bench(2500, lazy);
        b.send(0, 1000, 0).send(0, 1000, 1);
        b.send(0, 1000, 2); // 3000 > 2500: dropped
        b.send(1, 501, 3); // 2501 > 2500: dropped
        b.send(2, 500, 4); // 2500: admitted
        List<long[]> seen = new ArrayList<>();
        read(b, 3, seen);
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 1, 4);
        assertThat(b.port.drops()).isEqualTo(2);
        assertThat(b.net.totalDropped()).isEqualTo(2);
        assertThat(seen.get(0)[1]).isEqualTo(2500);
        assertThat(b.port.maxQueueBytes()).isEqualTo(2500);
        assertThat(b.port.bufferLimitBytes()).isEqualTo(2500);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFrameLeavesTheBufferAtTheVeryInstantItsGapEnds(boolean lazy) {
        PortBench b = bench(2000, lazy);
        b.send(0, 1000, 0).send(0, 1000, 1);
        b.send(SLOT_PS - 1, 1000, 2); // frame 0 still holds its 1000 B: dropped
        b.send(SLOT_PS, 1000, 3); // frame 0's gap has just ended: admitted
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 1, 3);
        assertThat(b.arrivalTimes().get(2)).isEqualTo(2 * SLOT_PS + FRAME_PS + PortBench.LINK_PS);
        assertThat(b.port.drops()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFrameIntoAnIdlePortStartsAtOnceAndOneAfterAPauseInTrafficStartsAtItsEnqueue(boolean lazy) {
        PortBench b = bench(1_000_000, lazy);
        b.send(500, 1000, 0);
        b.send(500 + SLOT_PS, 1000, 1); // the line is free again exactly
        b.send(1_000_000, 200, 2);
        List<long[]> seen = new ArrayList<>();
        read(b, 500 + SLOT_PS + 1, seen);
        b.run();

        assertThat(b.arrivalTimes()).containsExactly(500 + FRAME_PS + PortBench.LINK_PS, 500 + SLOT_PS + FRAME_PS + PortBench.LINK_PS,
                1_000_000 + 200 * PortBench.PS_PER_BYTE + PortBench.LINK_PS);
        assertThat(seen.get(0)).containsExactly(500 + SLOT_PS + 1, 1000, 0, 2, 2000);
        assertThat(b.port.maxQueueBytes()).isEqualTo(1000);
        // 1000 B for two slots, then 200 B for 17,600 ps
        b.port.finishStats(2_000_000);
        assertThat(b.port.timeAverageQueueBytes(1)).isEqualTo(1000.0 * 2 * SLOT_PS + 200.0 * (200 * 80 + 1600));
    }

    /**
     * A frame into an idle port starts in the very event that enqueues it, whether the port never sent (at 0) or its
     * last frame's gap ends at that instant (81,600): a read right after the enqueue finds it started, not waiting.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFrameIntoAnIdlePortHasStartedWhenTheEnqueueReturns(boolean lazy) {
        PortBench b = bench(1_000_000, lazy);
        List<long[]> seen = new ArrayList<>();
        for (long t : new long[] {0, SLOT_PS}) {
            b.at(t, () -> {
                b.port.enqueue(b.data(1000, (int) (t / SLOT_PS)));
                seen.add(new long[] {b.port.queuePackets(), b.port.txPackets(), b.port.queueBytes()});
            });
        }
        b.run();

        assertThat(seen.get(0)).containsExactly(0, 1, 1000);
        assertThat(seen.get(1)).containsExactly(0, 2, 1000);
        assertThat(b.arrivalTimes()).containsExactly(FRAME_PS + PortBench.LINK_PS, SLOT_PS + FRAME_PS + PortBench.LINK_PS);
        assertThat(b.port.ambiguousCounterReads()).isZero();
    }

    /**
     * Frames that wait in the lazy path's ring past its first four slots, with the ring's head moved on
     * first, so that its growth copies a wrapped ring: three frames at 0, six more at 200,000 ps (when two
     * of the first three have left the buffer); the sixth of them finds the ring full.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void nineFramesInTwoBurstsLeaveInOrderOneSlotApart(boolean lazy) {
        PortBench b = bench(1_000_000, lazy);
        for (int i = 0; i < 3; i++) {
            b.send(0, 1000, i);
        }
        for (int i = 3; i < 9; i++) {
            b.send(200_000, 1000 + i, i);
        }
        List<long[]> seen = new ArrayList<>();
        read(b, 200_001, seen);
        read(b, 250_000, seen);
        read(b, 408_561, seen);
        b.run();

        // frame 3 starts at 244,800, when frame 2's gap ends; frame i (1000 + i B) takes (1000 + i) x 80 + 1,600 ps
        List<Long> expected = new ArrayList<>();
        long start = 0;
        for (int i = 0; i < 9; i++) {
            int size = i < 3 ? 1000 : 1000 + i;
            expected.add(start + size * PortBench.PS_PER_BYTE + PortBench.LINK_PS);
            start += size * PortBench.PS_PER_BYTE + PortBench.GAP_PS;
        }
        assertThat(b.arrivalTimes()).containsExactlyElementsOf(expected);
        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        long burst = 1003 + 1004 + 1005 + 1006 + 1007 + 1008;
        assertThat(seen).containsExactly(
                new long[] {200_001, 1000 + burst, 6, 3, 3000},
                new long[] {250_000, burst, 5, 4, 3000 + 1003},
                // frames 3 and 4 (1003 B, 1004 B: 81,840 and 81,920 ps with their gaps) have ended theirs at 408,560; 5 is on the wire
                new long[] {408_561, burst - 1003 - 1004, 3, 6, 3000 + 1003 + 1004 + 1005});
        assertThat(b.port.maxQueueBytes()).isEqualTo(1000 + burst);
    }
    /**
     * Step marking above 1000 B (kmin = kmax = 1000, pmax 1) on enqueue: seven 1000 B packets at 0 find 0, 1000, ..., 6000 B queued.
     * The second is an ACK (not ECN-capable), the third arrives marked already (not counted again), the fourth is a scheme's
     * own kind (ECN-capable).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void onEnqueueAPacketIsMarkedWhenTheQueueItFindsIsAboveTheThresholdAndCountedOnce(boolean lazy) {
        PortBench b = new PortBench(BufferModel.perPort(1_000_000), new EcnMarker(true, 1000, 1000, 1.0), null);
        if (lazy) {
            assertThat(b.port.handOnAtEnqueue()).isTrue();
        }
        sendMarkingMix(b);
        b.run();

        assertThat(b.arrivals).extracting(PortBench.Arrival::ecnMarked).containsExactly(false, false, true, true, true, true, true);
        assertThat(b.port.ecnMarks()).isEqualTo(4);
    }

    /**
     * The same packets marked on dequeue, for the queue each leaves behind (its own bytes not counted): the first leaves 0 (it
     * starts at once), the ACK 5000 B (not ECN-capable), the premarked packet 4000 B (marked, not counted), the scheme's packet
     * 3000 B and the next 2000 B (marked), the last two 1000 B and 0. Nothing is marked on enqueue.
     */
    @Test
    void onDequeueAPacketIsMarkedWhenTheQueueItLeavesBehindIsAboveTheThreshold() {
        PortBench b = new PortBench(BufferModel.perPort(1_000_000), new EcnMarker(true, 1000, 1000, 1.0), null);
        b.net.setEcnMarkAtDequeue(true);
        assertThat(b.port.handOnAtEnqueue()).isFalse();
        sendMarkingMix(b);
        b.run();

        assertThat(b.arrivals).extracting(PortBench.Arrival::ecnMarked).containsExactly(false, false, true, true, true, false, false);
        assertThat(b.port.ecnMarks()).isEqualTo(2);
    }

    private static void sendMarkingMix(PortBench b) {
        b.send(0, 1000, 0);
        b.at(0, () -> b.port.enqueue(b.packet(Packet.ACK, 1000, 1)));
        b.at(0, () -> {
            Packet p = b.data(1000, 2);
            p.ecnMarked = true;
            b.port.enqueue(p);
        });
        b.at(0, () -> b.port.enqueue(b.packet(Packet.FIRST_SCHEME_KIND, 1000, 3)));
        b.send(0, 1000, 4).send(0, 1000, 5).send(0, 1000, 6);
    }
    /**
     * The time integral closed while frames still hold the buffer: three 1000 B frames at 0, closed at 100,000 ps, when frame 0
     * has left (3000 B for 81,600 ps) and frames 1 and 2 hold 2000 B since.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theTimeAverageClosedMidQueueCountsTheBytesStillHeld(boolean lazy) {
        PortBench b = bench(1_000_000, lazy);
        b.send(0, 1000, 0).send(0, 1000, 1).send(0, 1000, 2);
        double[] average = new double[1];
        b.at(100_000, () -> {
            b.port.finishStats(100_000);
            average[0] = b.port.timeAverageQueueBytes(100_000);
        });
        b.run();

        assertThat(average[0]).isEqualTo((3000.0 * SLOT_PS + 2000.0 * (100_000 - SLOT_PS)) / 100_000);
    }

    /**
     * Twenty frames at 0 (the lazy path's ring grows from 4 to 32 slots), then twenty more at 2,000,000 ps, when the first
     * twenty have long left: each train leaves one slot apart and the buffer is empty at the end.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void twoLongTrainsLeaveOneSlotApart(boolean lazy) {
        PortBench b = bench(1_000_000, lazy);
        for (int i = 0; i < 40; i++) {
            b.send(i < 20 ? 0 : 2_000_000, 1000, i);
        }
        long[] queue = new long[2];
        b.at(10 * SLOT_PS + 1, () -> queue[0] = b.port.queueBytes());
        b.at(2_000_000 + 5 * SLOT_PS + 1, () -> queue[1] = b.port.queueBytes());
        b.run();

        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            expected.add((i < 20 ? 0 : 2_000_000) + (i % 20) * SLOT_PS + FRAME_PS + PortBench.LINK_PS);
        }
        assertThat(b.arrivalTimes()).containsExactlyElementsOf(expected);
        assertThat(queue).containsExactly(10_000, 15_000);
        assertThat(b.port.queueBytes()).isZero();
        assertThat(b.port.txPackets()).isEqualTo(40);
        assertThat(b.port.maxQueueBytes()).isEqualTo(20_000);
    }
}
