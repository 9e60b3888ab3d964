package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.topology.Topology;

/**
 * Link failure and recovery on the l0-h1 cable of {@link SmallFabric} (20 B gap: 1,600 ps). h0 sends
 * four 1000 B frames (80,000 ps each) to h1 at time 0: h0's line sends them from 0, 81,600, 163,200 and
 * 244,800; they reach l0 100,000 ps after their last bit, at 180,000, 261,600, 343,200 and 424,800, and
 * each finds l0's port to h1 free then (the previous frame's gap ends at that very instant), so it
 * leaves l0 at 260,000, 341,600, 423,200 and 504,800 and reaches h1 at 360,000, 441,600, 523,200 and
 * 604,800. At 400,000 frame 0 has arrived, frames 1 and 2 are on the wire, frame 3 is still on h0's
 * cable.
 */
class LinkFailureTest {
    private static final long FAIL_PS = 400_000;
    private static final int LAYER_DOWN_TO_HOSTS = Topology.layerCode(1, 0);

    private final SmallFabric f = new SmallFabric(20);
    private final int down = f.port("l0", "h1");
    private final int cable = f.link("l0", "h1");

    private void fourFrames() {
        for (int i = 0; i < 4; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
        }
    }

    private List<Long> arrivalsAtH1() {
        return f.stacks[1].arrivals.stream().map(SmallFabric.Arrival::nicRxPs).toList();
    }

    @Test
    void withoutAFailureEveryFrameArrivesOneLinkDelayAfterItsLastBitLeavesTheLeaf() {
        fourFrames();
        f.sim.run(Long.MAX_VALUE);
        assertThat(arrivalsAtH1()).containsExactly(360_000L, 441_600L, 523_200L, 604_800L);
        assertThat(f.net.link(down).lostPackets()).isZero();
        assertThat(f.net.link(down).delayPs()).isEqualTo(SmallFabric.LINK_PS);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aSequentialLinkKeepsOneWakeUpForItsHeadHoweverManyFramesAreOnTheWire() {
        fourFrames();
        int[] onWire = new int[1];
        int[] pending = new int[1];
        // at 170,000 frames 0, 1 and 2 are on h0's cable (sent at 0, 81,600 and 163,200), frame 3 waits for 244,800
        f.at(170_000, () -> {
            onWire[0] = f.net.link(f.topo.hostPort(0)).inFlight();
            pending[0] = f.sim.pendingEvents();
        });
        f.sim.run(Long.MAX_VALUE);
        assertThat(onWire[0]).isEqualTo(3);
        assertThat(pending[0]).as("the arrival of frame 0 and h0's wake-up at 244,800").isEqualTo(2);
        assertThat(arrivalsAtH1()).containsExactly(360_000L, 441_600L, 523_200L, 604_800L);
    }

    @Test
    void aFailureLosesTheFramesOnTheWireAndALinkRestoredAtOnceDeliversTheNextOneOnTime() {
        fourFrames();
        int[] lost = new int[1];
        int[] onWire = new int[1];
        f.at(FAIL_PS, () -> {
            onWire[0] = f.net.link(down).inFlight();
            lost[0] = f.net.failLink(cable);
            assertThat(f.net.link(down).isDown()).isTrue();
            assertThat(f.net.link(down).inFlight()).isZero();
            assertThat(f.conserved()).isTrue();
            f.net.restoreLink(cable);
        });
        f.sim.run(Long.MAX_VALUE);
        assertThat(onWire[0]).isEqualTo(2);
        assertThat(lost[0]).as("frames 1 and 2").isEqualTo(2);
        // the arrival due at 441,600 belonged to frame 1: frame 3, on the wire by then, still takes its own 100,000 ps
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 3);
        assertThat(arrivalsAtH1()).containsExactly(360_000L, 604_800L);
        assertThat(f.net.link(down).lostPackets()).isEqualTo(2);
        assertThat(f.net.link(down).isDown()).isFalse();
        assertThat(f.net.link(f.port("h1", "l0")).lostPackets()).as("nothing was on the way up").isZero();
        assertThat(f.net.linkLossInLayer(LAYER_DOWN_TO_HOSTS)).isEqualTo(2);
        assertThat(f.net.linkLossInLayer(Topology.layerCode(0, 1))).isZero();
        assertThat(f.net.totalDropped()).isEqualTo(2);
        assertThat(f.net.delivered()).isEqualTo(2);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aFrameSentOntoADownLinkIsLostAndTheRestoredLinkCarriesTheNext() {
        List<Integer> told = new java.util.ArrayList<>();
        f.net.setLossListener((flow, psn) -> told.add(psn));
        fourFrames();
        f.at(FAIL_PS, () -> f.net.failLink(cable));
        f.at(700_000, () -> {
            assertThat(f.net.link(down).lostPackets()).as("frames 1 and 2 on the wire, frame 3 sent at 424,800").isEqualTo(3);
            f.net.restoreLink(cable);
            f.send(0, f.frame(0, 1, 4, 1000, 0), 700_000);
        });
        f.sim.run(Long.MAX_VALUE);
        // frame 4: h0's line 700,000 to 780,000, l0 at 880,000, out at 960,000, h1 at 1,060,000
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 4);
        assertThat(told).as("the loss of each is told").containsExactly(1, 2, 3);
        assertThat(arrivalsAtH1()).containsExactly(360_000L, 1_060_000L);
        assertThat(f.net.link(down).lostPackets()).isEqualTo(3);
        assertThat(f.net.linkLossInLayer(LAYER_DOWN_TO_HOSTS)).isEqualTo(3);
        assertThat(f.net.totalDropped()).isEqualTo(3);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void failingAnIdleLinkLosesNothingAndLeavesLaterFramesUntouched() {
        int[] lost = {-1};
        f.at(50_000, () -> {
            lost[0] = f.net.failLink(cable);
            f.net.restoreLink(cable);
        });
        fourFrames();
        f.sim.run(Long.MAX_VALUE);
        assertThat(lost[0]).isZero();
        assertThat(arrivalsAtH1()).containsExactly(360_000L, 441_600L, 523_200L, 604_800L);
        assertThat(f.net.linkLossInLayer(LAYER_DOWN_TO_HOSTS)).isZero();
        assertThat(f.net.totalDropped()).isZero();
    }
}
