package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who hears of a port's bytes and when, on {@link PortBench} (100 Gb/s: a 1000 B frame takes 80,000 ps, 81,600 with its gap;
 * 1 us link): a shared buffer and PFC's ingress accounting get a frame's memory back at the very end of its gap (the port
 * wakes for it even with nothing waiting), a packet a switch releases is admitted against the shared memory only, and an
 * egress stage sees every packet join and leave with the queue bytes of that moment.
 */
class EgressPortBufferTest {
    private static final byte PROBE = 100;

    /** Frames 0 and 1 at 0 and one more at 300,000; a failed link at 400,000 takes the frame waiting behind frame 2. */
    @Test
    void aSharedBufferGetsEachFrameBackWhenItsGapEndsWithoutAnyRead() {
        BufferModel shared = BufferModel.sharedDynamic(100_000, 8);
        PortBench b = new PortBench(shared, EcnMarker.off(), null);
        assertThat(b.port.handOnAtEnqueue()).isFalse();
        b.send(0, 1000, 0).send(0, 1000, 1);
        List<Long> used = new ArrayList<>();
        for (long t : new long[] {1, 81_599, 81_601, 163_199, 163_201}) {
            b.at(t, () -> used.add(shared.sharedUsedBytes()));
        }
        b.send(300_000, 1000, 2).send(300_000, 1000, 3);
        b.at(300_001, () -> used.add(shared.sharedUsedBytes()));
        b.at(300_002, () -> b.net.failLink(b.topology.linkOf(b.port.port())));
        b.at(300_003, () -> used.add(shared.sharedUsedBytes()));
        b.at(381_601, () -> used.add(shared.sharedUsedBytes()));
        b.run();

        assertThat(used).containsExactly(2000L, 2000L, 1000L, 1000L, 0L, 2000L, 1000L, 0L);
        assertThat(shared.maxSharedUsedBytes()).isEqualTo(2000);
    }

    /**
     * PFC with XOFF 1500 B and XON 500 B: frames 0 and 1 from h0 at 0 take its ingress to 2000 B and pause it; the end of
     * frame 0's gap (81,600) leaves 1000 B, the end of frame 1's (163,200) 0 and resumes h0 then.
     */
    @Test
    void pfcIngressBytesFallAtTheEndOfEachGapAndTheLastOneResumesTheSender() {
        PortBench b = new PortBench(BufferModel.perPort(1_000_000), EcnMarker.off(), new Network.PfcConfig(1500, 500, 0, 100_000));
        PfcIngress pfc = b.net.pfc(b.topology.nodeByName("l0"));
        b.send(0, 1000, 0).send(0, 1000, 1);
        List<Long> bytes = new ArrayList<>();
        for (long t : new long[] {1, 81_599, 81_601, 163_199, 163_201}) {
            b.at(t, () -> bytes.add(pfc.bytesFrom(b.ingress) * 10 + (pfc.pausing(b.ingress) ? 1 : 0)));
        }
        b.run();

        assertThat(bytes).containsExactly(20_001L, 20_001L, 10_001L, 10_001L, 0L);
        assertThat(b.arrivalTimes()).containsExactly(80_000 + PortBench.LINK_PS, 81_600 + 80_000 + PortBench.LINK_PS);
    }

    /**
     * PFC with XOFF 1500 B and 1000 B of headroom: frame 1 pauses h0 at 2000 B; frame 2 fits the headroom, frame 3 does not and
     * is dropped. A packet the switch holds and releases (frame 4) is refused only by shared memory: admitted. A lossy port
     * admits a released packet as any other.
     */
    @Test
    void aReleasedPacketIsAdmittedPastThePfcHeadroomButNotPastALossyBuffer() {
        PortBench lossless = new PortBench(BufferModel.perPort(1_000_000), EcnMarker.off(), new Network.PfcConfig(1500, 500, 0, 1000));
        PortBench lossy = PortBench.lossy(3000);
        for (PortBench b : new PortBench[] {lossless, lossy}) {
            for (int i = 0; i < 4; i++) {
                b.send(0, 1000, i);
            }
            b.at(0, () -> b.port.enqueueReleased(b.data(1000, 4)));
            b.run();
        }

        assertThat(lossless.arrivalPsns()).containsExactly(0, 1, 2, 4);
        assertThat(lossless.port.drops()).isEqualTo(1);
        assertThat(lossless.net.pfc(lossless.topology.nodeByName("l0")).overflowDrops()).isEqualTo(1);
        assertThat(lossy.arrivalPsns()).containsExactly(0, 1, 2);
        assertThat(lossy.port.drops()).isEqualTo(2);
    }

    /**
     * A stage sees data frames 0 and 1 (at 0) and a probe (at 10) join with the queue bytes including a data frame's own (the
     * probe's are not queue bytes), and leave while their bytes still count: frame 0 at 0, the probe when frame 0's gap ends,
     * frame 1 when the probe's does.
     */
    @Test
    void anEgressStageSeesEachPacketJoinAndLeaveWithTheQueueBytesOfThatMoment() {
        PortBench b = PortBench.lossy(1_000_000);
        b.net.setPriorityKind(PROBE);
        List<String> seen = new ArrayList<>();
        b.port.setStage(new EgressStage() {
            @Override
            public void onEnqueue(Packet p, int port, long queueBytes) {
                seen.add("+" + p.psn + "@" + b.sim.nowPs() + " port " + port + " " + queueBytes);
            }

            @Override
            public void onDequeue(Packet p, int port, long queueBytes) {
                seen.add("-" + p.psn + "@" + b.sim.nowPs() + " port " + port + " " + queueBytes);
            }
        });
        b.send(0, 1000, 0).send(0, 1000, 1);
        b.at(10, () -> b.port.enqueue(b.packet(PROBE, 64, 2)));
        b.run();

        int port = b.port.port();
        assertThat(seen).containsExactly("+0@0 port " + port + " 1000", "-0@0 port " + port + " 1000", "+1@0 port " + port + " 2000",
                "+2@10 port " + port + " 2000", "-2@81600 port " + port + " 1000", "-1@88320 port " + port + " 1000");
    }

    /** A header queued ahead of the data by hand, on a port idle since frame 0's gap ended (nothing settled it since), starts at once. */
    @Test
    void aHeaderQueuedAheadOfTheDataOnAnIdlePortStartsAtOnce() {
        PortBench b = PortBench.lossy(1_000_000);
        b.send(0, 1000, 0);
        b.at(200_000, () -> {
            Packet header = b.data(62, 1);
            header.headerOnly = true;
            b.port.enqueuePriority(header);
        });
        long[] waiting = new long[2];
        b.send(300_000, 1000, 2).send(300_000, 1000, 3);
        b.at(300_001, () -> {
            Packet header = b.data(62, 4);
            header.headerOnly = true;
            b.port.enqueuePriority(header);
            waiting[0] = b.port.waitingOffLink();
            waiting[1] = b.port.priorityQueueBytes();
        });
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2, 4, 3);
        assertThat(b.arrivalTimes()).containsExactly(80_000 + PortBench.LINK_PS, 200_000 + 4_960 + PortBench.LINK_PS,
                300_000 + 80_000 + PortBench.LINK_PS, 381_600 + 4_960 + PortBench.LINK_PS, 381_600 + 6_560 + 80_000 + PortBench.LINK_PS);
        assertThat(waiting).as("frame 3 and the header wait").containsExactly(2, 62);
    }
}
