package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A port's link failing or changing rate during the run, on {@link PortBench} (100 Gb/s: a 1000 B frame takes 80,000 ps,
 * 81,600 with its 1,600 ps gap; 1 us link).
 */
class EgressPortLinkChangesTest {
    private static final byte PROBE = 100;
    private static final long LINK_PS = PortBench.LINK_PS;

    /**
     * Frames 0, 1, 2 at 0 and a probe (control queue) at 5; the link fails at 10: frame 0 is lost on the wire, frames 1, 2 and
     * the probe in the port. Frame 0 keeps its 1000 B until its gap ends at 81,600. PFC (XOFF 2500 B, XON 1500 B) paused h0 when
     * frame 2 came in; losing frames 1 and 2 takes h0's ingress bytes to 1000 and resumes it. The link is back at 200,000.
     */
    @Test
    void aFailedLinkLosesTheQueuedFramesAndTheFrameOnTheWireKeepsItsBufferUntilItsGapEnds() {
        PortBench b = new PortBench(BufferModel.perPort(1_000_000), EcnMarker.off(), new Network.PfcConfig(2500, 1500, 0, 100_000));
        b.net.setPriorityKind(PROBE);
        PfcIngress pfc = b.net.pfc(b.topology.nodeByName("l0"));
        int link = b.topology.linkOf(b.port.port());
        b.send(0, 1000, 0).send(0, 1000, 1).send(0, 1000, 2);
        b.at(5, () -> b.port.enqueue(b.packet(PROBE, 64, 3)));
        long[] seen = new long[10];
        b.at(10, () -> {
            seen[0] = pfc.pausing(b.ingress) ? 1 : 0;
            seen[1] = b.net.failLink(link);
            seen[2] = b.port.queueBytes();
            seen[3] = b.port.priorityQueueBytes();
            seen[4] = b.port.queuePackets();
            seen[5] = pfc.bytesFrom(b.ingress);
            seen[6] = pfc.pausing(b.ingress) ? 1 : 0;
        });
        b.at(81_601, () -> {
            seen[7] = b.port.queueBytes();
            seen[8] = pfc.bytesFrom(b.ingress);
        });
        b.at(200_000, () -> b.net.restoreLink(link));
        b.send(300_000, 1000, 4);
        b.run();

        assertThat(seen).containsExactly(1, 4, 1000, 0, 0, 1000, 0, 0, 0, 0);
        assertThat(b.arrivalPsns()).containsExactly(4);
        assertThat(b.arrivalTimes()).containsExactly(300_000 + 80_000 + LINK_PS);
        assertThat(b.port.drops()).isZero();
        assertThat(b.port.link().lostPackets()).isEqualTo(1);
        assertThat(b.net.totalDropped()).isEqualTo(4);
        assertThat(b.port.maxQueueBytes()).isEqualTo(3000);
        // 3000 B for 10 ps, 1000 B to 81,600, then frame 4's 1000 B for 81,600 ps
        b.port.finishStats(2_000_000);
        assertThat(b.port.timeAverageQueueBytes(1)).isEqualTo(3000.0 * 10 + 1000.0 * 81_590 + 1000.0 * 81_600);
    }

    /**
     * Two frames at 0; at 10 the link drops to 50 Gb/s (160 ps per byte, a 3,200 ps gap): frame 1, starting at 81,600, takes
     * 160,000 ps. At 300,000 it drops to 30 Gb/s, whose time per byte is not whole: a 1000 B frame takes
     * ceil(8e9 / 30,000) = 266,667 ps and the gap ceil(160e6 / 30,000) = 5,334 ps.
     */
    @Test
    void framesStartedAfterARateChangeAreSerializedAtTheNewRate() {
        PortBench b = PortBench.lossy(1_000_000);
        int link = b.topology.linkOf(b.port.port());
        b.send(0, 1000, 0).send(0, 1000, 1);
        b.at(10, () -> b.net.setLinkRateMbps(link, 50_000));
        b.at(300_000, () -> b.net.setLinkRateMbps(link, 30_000));
        b.send(400_000, 1000, 2).send(400_000, 1000, 3);
        long[] queue = new long[2];
        b.at(244_799, () -> queue[0] = b.port.queueBytes());
        b.at(244_800, () -> queue[1] = b.port.queueBytes());
        b.run();

        assertThat(b.arrivalTimes()).containsExactly(80_000 + LINK_PS, 81_600 + 160_000 + LINK_PS, 400_000 + 266_667 + LINK_PS,
                400_000 + 266_667 + 5_334 + 266_667 + LINK_PS);
        assertThat(queue).as("frame 1 holds its buffer until its 3,200 ps gap ends at 244,800").containsExactly(1000, 0);
        assertThat(b.port.rateMbps()).isEqualTo(30_000);
    }
}
