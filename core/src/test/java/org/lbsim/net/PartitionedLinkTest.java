package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.PartitionedSimulator;
import org.lbsim.kernel.Simulator;

/**
 * A link whose ends are in different partitions: h0, h1, l0 and the spines in one, h2, h3 and l1 in the
 * other (windows of 100,000 ps, the links' delay, on one thread), against the same fabric run
 * sequentially. h0 sends four 1000 B frames to h2 through the spine its entropy picks (20 B gap:
 * 1,600 ps): the spine sends them to l1 from 360,000, 441,600, 523,200 and 604,800 and they reach h2
 * at 720,000, 801,600, 883,200 and 964,800.
 */
class PartitionedLinkTest {
    private static final long WINDOW_PS = 100_000;

    private static SmallFabric fabric(boolean partitioned) {
        Simulator sim = new Simulator();
        if (partitioned) {
            PartitionedSimulator p = new PartitionedSimulator(2, 1, WINDOW_PS, 1 << 20);
            p.setNodePartitions(new int[] {0, 0, 1, 1, 0, 1, 0, 0});
            sim = p;
        } else {
            sim.setWindowPs(WINDOW_PS);
        }
        SmallFabric f = new SmallFabric(20, null, sim);
        assertThat(f.topo.nodeByName("l1")).isEqualTo(5);
        for (int i = 0; i < 4; i++) {
            f.send(0, f.frame(0, 2, i, 1000, 0), 0);
        }
        return f;
    }

    /** The spine h0's frames go through, and its link down to l1. */
    private static int spineLink(SmallFabric f) {
        int up = f.net.fib().port(f.net.fib().group(f.node("l0"), 2), 0);
        return f.topo.linkOf(f.topo.portsBetween(f.topo.peerNode(up), f.node("l1"))[0]);
    }

    private static List<Long> arrivalsAtH2(SmallFabric f) {
        return f.stacks[2].arrivals.stream().map(SmallFabric.Arrival::nicRxPs).toList();
    }

    @Test
    void framesCrossingPartitionsArriveWhenTheyDoInASequentialRun() {
        for (boolean partitioned : new boolean[] {false, true}) {
            SmallFabric f = fabric(partitioned);
            assertThat(f.sim.partitioned()).isEqualTo(partitioned);
            f.sim.run(Long.MAX_VALUE);
            assertThat(arrivalsAtH2(f)).as("partitioned: " + partitioned).containsExactly(720_000L, 801_600L, 883_200L, 964_800L);
            assertThat(f.conserved()).isTrue();
        }
    }

    @Test
    void aFailureBetweenWindowsLosesTheFramesOnTheWireAndThoseStillOnTheirWayToItAsInASequentialRun() {
        for (boolean partitioned : new boolean[] {false, true}) {
            SmallFabric f = fabric(partitioned);
            int link = spineLink(f);
            int down = f.topo.portsBetween(f.topo.peerNode(f.net.fib().port(f.net.fib().group(f.node("l0"), 2), 0)), f.node("l1"))[0];
            int[] lost = new int[1];
            List<Integer> told = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            f.net.setLossListener((flow, psn) -> told.add(psn));
            // at 500,000 frame 0 (sent at 360,000) and frame 1 (sent at 441,600, in the window just ended) are on the wire
            f.between(500_000, () -> lost[0] = f.net.failLink(link));
            f.between(600_000, () -> {
                assertThat(f.net.link(down).lostPackets()).as("frame 2 was sent onto the dead link at 523,200").isEqualTo(3);
                f.net.restoreLink(link);
            });
            f.sim.run(Long.MAX_VALUE);
            String run = "partitioned: " + partitioned;
            assertThat(lost[0]).as(run).isEqualTo(2);
            assertThat(arrivalsAtH2(f)).as(run).containsExactly(964_800L);
            assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::psn).as(run).containsExactly(3);
            assertThat(f.net.link(down).lostPackets()).as(run).isEqualTo(3);
            assertThat(f.net.totalDropped()).as(run).isEqualTo(3);
            assertThat(told).as(run).containsExactlyInAnyOrder(0, 1, 2);
            assertThat(f.conserved()).as(run).isTrue();
        }
    }
}
