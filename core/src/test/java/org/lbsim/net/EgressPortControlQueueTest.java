package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A port's control queue, PFC pause and resume, and its dequeue strategy, timed by hand on {@link PortBench}
 * (100 Gb/s: a 1000 B frame takes 80,000 ps, 81,600 with its gap; a 64 B probe 5,120 ps, 6,720 with its gap;
 * 1 us link). The probe is a packet kind the network sends from the control queue.
 */
class EgressPortControlQueueTest {
    private static final byte PROBE = 100;
    private static final long LINK_PS = PortBench.LINK_PS;
    private static final long SLOT_PS = 81_600;
    private static final long PROBE_PS = 5_120;
    private static final long PROBE_SLOT_PS = PROBE_PS + PortBench.GAP_PS;

    private static PortBench bench() {
        PortBench b = PortBench.lossy(1_000_000);
        b.net.setPriorityKind(PROBE);
        assertThat(b.port.handOnAtEnqueue()).isFalse();
        return b;
    }

    private static void probe(PortBench b, long atPs, int psn) {
        b.at(atPs, () -> b.port.enqueue(b.packet(PROBE, 64, psn)));
    }

    private static void read(PortBench b, long atPs, List<long[]> out) {
        b.at(atPs, () -> out.add(new long[] {atPs, b.port.queueBytes(), b.port.priorityQueueBytes(), b.port.queuePackets(), b.port.txPackets(),
                b.port.txBytes()}));
    }

    @Test
    void aProbeOvertakesQueuedDataAfterTheFrameOnTheWireAndTakesNoBuffer() {
        PortBench b = bench();
        b.send(0, 1000, 0).send(0, 1000, 1).send(0, 1000, 2);
        probe(b, 10, 9);
        List<long[]> seen = new ArrayList<>();
        read(b, 11, seen);
        read(b, SLOT_PS + 1, seen);
        read(b, SLOT_PS + PROBE_SLOT_PS + 1, seen);
        b.run();

        // the probe starts when frame 0's gap ends, frame 1 when the probe's does
        assertThat(b.arrivalPsns()).containsExactly(0, 9, 1, 2);
        assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, SLOT_PS + PROBE_PS + LINK_PS, SLOT_PS + PROBE_SLOT_PS + 80_000 + LINK_PS,
                2 * SLOT_PS + PROBE_SLOT_PS + 80_000 + LINK_PS);
        assertThat(seen).containsExactly(
                new long[] {11, 3000, 64, 3, 1, 1000},
                new long[] {SLOT_PS + 1, 2000, 0, 2, 2, 1064},
                // the probe's end frees nothing: frame 1 is on the wire, frame 2 waits
                new long[] {SLOT_PS + PROBE_SLOT_PS + 1, 2000, 0, 1, 3, 2064});
        assertThat(b.port.maxQueueBytes()).isEqualTo(3000);
    }

    @Test
    void aProbeIntoAnIdlePortStartsAtOnceAndOneBehindALoneFrameStartsWhenItsGapEnds() {
        PortBench b = bench();
        probe(b, 1_000, 0);
        b.send(2_000_000, 1000, 1);
        probe(b, 2_000_010, 2); // nothing else waits: the port sets a wake-up for the end of frame 1's gap
        b.send(3_000_000, 1000, 3);
        long[] started = new long[2];
        b.at(3_000_000 + SLOT_PS, () -> { // exactly when frame 3's gap ends: the probe starts in this very event
            int events = b.sim.pendingEvents();
            b.port.enqueue(b.packet(PROBE, 64, 4));
            started[0] = b.port.txPackets();
            started[1] = b.sim.pendingEvents() - events;
        });
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2, 3, 4);
        assertThat(b.arrivalTimes()).containsExactly(1_000 + PROBE_PS + LINK_PS, 2_000_000 + 80_000 + LINK_PS, 2_000_000 + SLOT_PS + PROBE_PS + LINK_PS,
                3_000_000 + 80_000 + LINK_PS, 3_000_000 + SLOT_PS + PROBE_PS + LINK_PS);
        assertThat(started).as("frames started, and events added: none (the probe joins its link behind frame 3, no wake-up)").containsExactly(5, 0);
        assertThat(b.port.queueBytes()).isZero();
        assertThat(b.port.priorityQueueBytes()).isZero();
    }

    /** Paused at 0: data waits, probes pass; the resume at 100,000 starts the data at once. */
    @Test
    void pfcPausesTheDataQueueOnlyAndTheResumeStartsItAtOnce() {
        PortBench b = bench();
        b.at(0, () -> b.port.setPaused(true));
        b.send(1, 1000, 0);
        probe(b, 2, 1);
        probe(b, 3, 2); // behind probe 1, which is on the wire until 2 + 6,720
        b.at(4, () -> b.port.setPaused(true)); // already paused: not a new pause
        long[] during = new long[3];
        b.at(50_000, () -> {
            during[0] = b.port.isPaused() ? 1 : 0;
            during[1] = b.port.pausedPs(50_000);
            during[2] = b.port.queuePackets();
        });
        b.sim.schedule(b.port.handlerId(), 100_000, EgressPort.RESUME, 0);
        b.at(100_001, () -> b.port.setPaused(false)); // not paused: nothing happens
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(1, 2, 0);
        assertThat(b.arrivalTimes()).containsExactly(2 + PROBE_PS + LINK_PS, 2 + PROBE_SLOT_PS + PROBE_PS + LINK_PS, 100_000 + 80_000 + LINK_PS);
        assertThat(during).containsExactly(1, 50_000, 1);
        assertThat(b.port.isPaused()).isFalse();
        assertThat(b.port.pauseEvents()).isEqualTo(1);
        assertThat(b.port.pausedPs(5_000_000)).isEqualTo(100_000);
    }

    /**
     * Frame 0 alone on the wire (no wake-up set, nothing waits), paused at 10, frame 1 queued at 20, resumed at 30 while frame 0
     * is still on the wire: the resume sets the wake-up that starts frame 1 when frame 0's gap ends. Paused again at 200,000
     * for 50,000 ps by PAUSE and RESUME frames: frame 2, queued meanwhile, starts at the resume.
     */
    @Test
    void aResumeWhileAFrameIsOnTheWireStartsTheNextWhenItsGapEnds() {
        PortBench b = bench();
        b.send(0, 1000, 0);
        b.at(10, () -> b.port.setPaused(true));
        b.send(20, 1000, 1);
        b.at(30, () -> b.port.setPaused(false));
        b.sim.schedule(b.port.handlerId(), 200_000, EgressPort.PAUSE, 0);
        b.send(210_000, 1000, 2);
        long[] pausedPs = new long[1];
        b.at(230_000, () -> pausedPs[0] = b.port.pausedPs(230_000));
        b.sim.schedule(b.port.handlerId(), 250_000, EgressPort.RESUME, 0);
        b.run();

        assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, SLOT_PS + 80_000 + LINK_PS, 250_000 + 80_000 + LINK_PS);
        assertThat(pausedPs[0]).as("20 ps, and 30,000 so far").isEqualTo(30_020);
        assertThat(b.port.pauseEvents()).isEqualTo(2);
        assertThat(b.port.pausedPs(1)).as("20 ps, then 50,000 ps").isEqualTo(50_020);
    }

    /** A data frame is on the wire when the port is paused and a probe waits: the probe goes when the gap ends, the data after the resume. */
    @Test
    void aProbeQueuedBehindAFrameStillLeavesWhileThePortIsPaused() {
        PortBench b = bench();
        b.send(0, 1000, 0).send(0, 1000, 1);
        b.at(10, () -> b.port.setPaused(true));
        probe(b, 20, 2);
        b.at(500_000, () -> b.port.setPaused(false));
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 2, 1);
        assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, SLOT_PS + PROBE_PS + LINK_PS, 500_000 + 80_000 + LINK_PS);
    }

    /** A strategy that prefers the data FIFO: the probe waits until the data queue is empty, unless PFC pauses the data. */
    @Test
    void aDequeueStrategyThatPrefersDataSendsTheProbeAfterTheDataUnlessTheDataIsPaused() {
        PortBench b = bench();
        List<Integer> asked = new ArrayList<>();
        b.net.setDequeueStrategy(port -> p -> {
            asked.add(p);
            return false;
        });
        b.send(0, 1000, 0).send(0, 1000, 1).send(0, 1000, 2);
        probe(b, 10, 3);
        b.send(1_000_000, 1000, 4).send(1_000_000, 1000, 5);
        probe(b, 1_000_010, 6);
        b.at(1_000_020, () -> b.port.setPaused(true));
        b.at(2_000_000, () -> b.port.setPaused(false));
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2, 3, 4, 6, 5);
        assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, SLOT_PS + 80_000 + LINK_PS, 2 * SLOT_PS + 80_000 + LINK_PS,
                3 * SLOT_PS + PROBE_PS + LINK_PS, 1_000_000 + 80_000 + LINK_PS, 1_000_000 + SLOT_PS + PROBE_PS + LINK_PS,
                2_000_000 + 80_000 + LINK_PS);
        // asked when frames 1 and 2 could start with the probe waiting; not while the data is paused
        assertThat(asked).containsExactly(b.port.port(), b.port.port());
    }

    /**
     * Trimming with a 2000 B buffer: the third 1000 B frame becomes its 62 B header (4,960 ps) and overtakes frame 1; a header
     * trimmed upstream is queued ahead of the data too, whatever the buffer holds. Drop-tail drops both.
     */
    @Test
    void aRefusedFrameIsTrimmedToItsHeaderAndOvertakesTheDataOrIsDroppedUnderDropTail() {
        for (boolean trim : new boolean[] {true, false}) {
            PortBench b = PortBench.lossy(2000);
            int trimmed = b.net.counter("switch.trimmed");
            if (trim) {
                b.net.setOverflowPolicy(new PacketTrimming(b.net, 62));
            }
            b.send(0, 1000, 0).send(0, 1000, 1).send(0, 1000, 2);
            long[] held = new long[2];
            b.at(10, () -> {
                Packet header = b.data(62, 3);
                header.headerOnly = true;
                b.port.enqueue(header);
                held[0] = b.port.queueBytes();
                held[1] = b.port.priorityQueueBytes();
            });
            b.run();

            if (trim) {
                assertThat(b.arrivalPsns()).containsExactly(0, 2, 3, 1);
                assertThat(b.arrivals).extracting(PortBench.Arrival::headerOnly).containsExactly(false, true, true, false);
                assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, SLOT_PS + 4_960 + LINK_PS, SLOT_PS + 6_560 + 4_960 + LINK_PS,
                        SLOT_PS + 2 * 6_560 + 80_000 + LINK_PS);
                assertThat(held).containsExactly(2000, 124);
                assertThat(b.port.drops()).isZero();
                assertThat(b.net.counterTotal(trimmed)).isEqualTo(1);
            } else {
                assertThat(b.arrivalPsns()).containsExactly(0, 1);
                assertThat(held).containsExactly(2000, 0);
                assertThat(b.port.drops()).isEqualTo(2);
                assertThat(b.net.totalDropped()).isEqualTo(2);
            }
        }
    }
    /**
     * Frame 0 alone at 0 (nothing waits: no wake-up for its end), paused at 10, frame 1 queued at 20. The resume at 200,000 finds
     * frame 0's gap over long ago, unsettled: frame 1 starts at once. A resume while a frame is on the wire and nothing waits
     * sets no wake-up.
     */
    @Test
    void aResumeAfterTheLastGapEndedStartsTheWaitingFrameAtOnceAndOneWithNothingWaitingSetsNoWakeUp() {
        PortBench b = bench();
        b.send(0, 1000, 0);
        b.at(10, () -> b.port.setPaused(true));
        b.send(20, 1000, 1);
        b.at(200_000, () -> b.port.setPaused(false));
        b.at(200_010, () -> b.port.setPaused(true));
        long[] added = new long[1];
        b.at(200_020, () -> {
            int events = b.sim.pendingEvents();
            b.port.setPaused(false);
            added[0] = b.sim.pendingEvents() - events;
        });
        b.run();

        assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, 200_000 + 80_000 + LINK_PS);
        assertThat(added[0]).isZero();
        assertThat(b.port.pausedPs(1)).isEqualTo(200_000 - 10 + 10);
    }
}
