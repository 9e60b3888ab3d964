package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * PFC accounting of one switch driven by hand, on an idle leaf-spine of two leaves and one spine
 * (100 Gb/s, 100 ns links): the spine's ingress from l0 is charged and credited directly, and the
 * PAUSE / RESUME it sends reaches l0's uplink one 64 B frame (5,120 ps) and one propagation delay
 * (100,000 ps) later. Thresholds in frames of 4,158 B: XOFF 8,316 B (two), XON 4,158 B (one),
 * headroom 8,316 B (two more).
 */
class PfcIngressTest {
    private static final int FRAME = 4158;
    private static final long XOFF = 2 * FRAME;
    private static final long XON = FRAME;
    private static final long HEADROOM = 2 * FRAME;
    /** A PAUSE frame's 64 B at 100 Gb/s plus the 100 ns link. */
    private static final long SIGNAL_PS = 5_120 + 100_000;

    /** The fabric, the spine's PFC state, its ingress from l0 and its ingress from l1, and l0's port towards the spine. */
    private record Fabric(Simulator sim, Network net, PfcIngress pfc, int fromL0, int fromL1, EgressPort l0Uplink, EgressPort l1Uplink) {
        /** Runs {@code action} at {@code atPs} inside the event loop. */
        void at(long atPs, Runnable action) {
            int h = sim.register((kind, tag) -> action.run());
            sim.schedule(h, atPs, 0, 0);
        }
    }

    private static Fabric fabric(BufferModel buffer, long xoffBytes, long xonBytes, double dynamicAlpha, long headroomBytes) {
        Topology t = Topologies.leafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        Simulator sim = new Simulator();
        Network net = new Network(sim, t, Routing.compute(t, new boolean[t.linkCount()]), new RandomStreams(1), node -> buffer,
                EcnMarker.off(), 20, new Network.PfcConfig(xoffBytes, xonBytes, dynamicAlpha, headroomBytes));
        int s0 = t.nodeByName("s0");
        int fromL0 = t.portsBetween(s0, t.nodeByName("l0"))[0];
        int fromL1 = t.portsBetween(s0, t.nodeByName("l1"))[0];
        return new Fabric(sim, net, net.pfc(s0), fromL0, fromL1, net.egress(t.peerPort(fromL0)), net.egress(t.peerPort(fromL1)));
    }

    private static Fabric staticThresholds() {
        return fabric(BufferModel.perPort(1_000_000), XOFF, XON, 0, HEADROOM);
    }

    @Test
    void crossingXoffPausesTheUpstreamPortOnceAndDroppingToXonResumesIt() {
        Fabric f = staticThresholds();
        PfcIngress pfc = f.pfc();
        long[] pausingAt = new long[4];
        f.at(0, () -> {
            pfc.onAdmit(f.fromL0(), FRAME);
            pfc.onAdmit(f.fromL0(), FRAME); // 8,316 = XOFF: not above it
            pausingAt[0] = pfc.pausing(f.fromL0()) ? 1 : 0;
            pfc.onAdmit(f.fromL0(), FRAME); // 12,474 > XOFF: PAUSE
            pausingAt[1] = pfc.pausing(f.fromL0()) ? 1 : 0;
            pfc.onAdmit(f.fromL0(), FRAME); // already pausing: no second PAUSE
        });
        f.at(1_000_000, () -> {
            pfc.onRelease(f.fromL0(), FRAME);
            pfc.onRelease(f.fromL0(), FRAME); // 8,316 left
            pfc.onRelease(f.fromL0(), 1); // 8,315: below XOFF, above XON
            pausingAt[2] = pfc.pausing(f.fromL0()) ? 1 : 0;
        });
        f.at(2_000_000, () -> {
            pfc.onRelease(f.fromL0(), FRAME - 1); // 4,158 = XON: RESUME
            pausingAt[3] = pfc.pausing(f.fromL0()) ? 1 : 0;
        });
        f.sim().run(Long.MAX_VALUE);

        assertThat(pausingAt).containsExactly(0, 1, 1, 0);
        assertThat(pfc.pausesSent()).isEqualTo(1);
        assertThat(pfc.bytesFrom(f.fromL0())).isEqualTo(FRAME);
        assertThat(pfc.maxIngressBytes()).isEqualTo(4 * FRAME);
        // l0's uplink: paused from 105,120 to 2,105,120 ps
        EgressPort up = f.l0Uplink();
        assertThat(up.pauseEvents()).isEqualTo(1);
        assertThat(up.isPaused()).isFalse();
        assertThat(f.sim().nowPs()).isEqualTo(2_000_000 + SIGNAL_PS);
        assertThat(up.pausedPs(f.sim().nowPs())).isEqualTo(2_000_000);
        // l1 sent nothing and was never paused
        assertThat(f.l1Uplink().pauseEvents()).isZero();
        assertThat(pfc.bytesFrom(f.fromL1())).isZero();
        assertThat(pfc.overflowDrops()).isZero();
    }

    @Test
    void thePauseReachesTheUpstreamPortOneControlFrameAndOneLinkDelayLater() {
        Fabric f = staticThresholds();
        boolean[] seen = new boolean[2];
        f.at(50_000, () -> f.pfc().onAdmit(f.fromL0(), 3 * FRAME));
        f.at(50_000 + SIGNAL_PS - 1, () -> seen[0] = f.l0Uplink().isPaused());
        f.at(50_000 + SIGNAL_PS, () -> seen[1] = f.l0Uplink().isPaused());
        f.sim().run(Long.MAX_VALUE);
        assertThat(seen).containsExactly(false, true);
        assertThat(f.pfc().pausing(f.fromL0())).isTrue();
    }

    @Test
    void eachIngressIsCountedAndPausedOnItsOwn() {
        Fabric f = staticThresholds();
        PfcIngress pfc = f.pfc();
        f.at(0, () -> {
            pfc.onAdmit(f.fromL0(), FRAME);
            pfc.onAdmit(f.fromL1(), FRAME);
            pfc.onAdmit(f.fromL1(), FRAME);
            pfc.onAdmit(f.fromL0(), FRAME); // 8,316 each: 16,632 held, but neither ingress above XOFF
        });
        f.sim().run(Long.MAX_VALUE);
        assertThat(pfc.bytesFrom(f.fromL0())).isEqualTo(XOFF);
        assertThat(pfc.bytesFrom(f.fromL1())).isEqualTo(XOFF);
        assertThat(pfc.pausing(f.fromL0())).isFalse();
        assertThat(pfc.pausing(f.fromL1())).isFalse();
        assertThat(pfc.pausesSent()).isZero();
        assertThat(pfc.maxIngressBytes()).as("the most of one ingress, not of the switch").isEqualTo(XOFF);
        f.at(f.sim().nowPs(), () -> pfc.onAdmit(f.fromL1(), 1));
        f.sim().run(Long.MAX_VALUE);
        assertThat(pfc.pausing(f.fromL1())).isTrue();
        assertThat(pfc.pausing(f.fromL0())).isFalse();
        assertThat(f.l1Uplink().isPaused()).isTrue();
        assertThat(f.l0Uplink().isPaused()).isFalse();
        assertThat(pfc.maxIngressBytes()).isEqualTo(XOFF + 1);
    }

    @Test
    void beforeThePauseEveryFrameIsAdmittedAfterItOnlyTheHeadroom() {
        Fabric f = staticThresholds();
        PfcIngress pfc = f.pfc();
        int in = f.fromL0();
        // not pausing: admitted whatever the ingress holds (the per-port buffer does not enter a lossless fabric)
        assertThat(pfc.admit(in, 0, 2_000_000)).isTrue();
        pfc.onAdmit(in, FRAME);
        pfc.onAdmit(in, FRAME);
        assertThat(pfc.admit(in, 0, 100 * FRAME)).isTrue();
        pfc.onAdmit(in, FRAME); // 12,474 > XOFF: paused at 12,474, headroom up to 12,474 + 8,316 = 20,790
        assertThat(pfc.pausing(in)).isTrue();
        assertThat(pfc.admit(in, 0, 2 * FRAME)).as("12,474 + 8,316 = 20,790: exactly the headroom").isTrue();
        assertThat(pfc.admit(in, 0, 2 * FRAME + 1)).isFalse();
        assertThat(pfc.overflowDrops()).isEqualTo(1);
        pfc.onAdmit(in, FRAME); // 16,632
        assertThat(pfc.admit(in, 0, FRAME)).isTrue();
        assertThat(pfc.admit(in, 0, FRAME + 1)).isFalse();
        assertThat(pfc.overflowDrops()).isEqualTo(2);
        // the other ingress is not pausing: it admits anything
        assertThat(pfc.admit(f.fromL1(), 0, 1_000_000)).isTrue();
        assertThat(pfc.overflowDrops()).isEqualTo(2);
        // the baseline stays where the pause began: draining a frame makes room for exactly one more
        pfc.onRelease(in, FRAME); // 12,474, still above XON
        assertThat(pfc.admit(in, 0, 2 * FRAME)).isTrue();
        assertThat(pfc.admit(in, 0, 2 * FRAME + 1)).isFalse();
        assertThat(pfc.overflowDrops()).isEqualTo(3);
    }

    @Test
    void aReleasedBurstIsLimitedOnlyBySharedMemoryAndMovesTheHeadroomBaseline() {
        Fabric f = staticThresholds();
        PfcIngress pfc = f.pfc();
        int in = f.fromL0();
        pfc.onAdmit(in, 3 * FRAME); // paused at 12,474: headroom up to 20,790
        assertThat(pfc.admit(in, 0, 2 * FRAME + 1)).isFalse();
        assertThat(pfc.admitReleased(in, 0, 5 * FRAME)).as("beyond the headroom, still admitted").isTrue();
        pfc.onAdmit(in, 5 * FRAME); // 33,264
        // the baseline moved by 20,790: 12,474 + 20,790 = 33,264; headroom up to 33,264 + 8,316 = 41,580
        assertThat(pfc.admit(in, 0, 2 * FRAME)).isTrue();
        assertThat(pfc.admit(in, 0, 2 * FRAME + 1)).isFalse();
        assertThat(pfc.overflowDrops()).isEqualTo(2);
        assertThat(pfc.pausesSent()).isEqualTo(1);
        // a switch-made packet (no ingress) is admitted and charges no ingress
        assertThat(pfc.admitReleased(-1, 0, FRAME)).isTrue();
        assertThat(pfc.bytesFrom(in)).isEqualTo(8 * FRAME);
    }

    @Test
    void aReleasedBurstOnAnIngressNotPausingLeavesTheNextPausesBaselineAlone() {
        Fabric f = staticThresholds();
        PfcIngress pfc = f.pfc();
        int in = f.fromL0();
        assertThat(pfc.admitReleased(in, 0, FRAME)).isTrue();
        pfc.onAdmit(in, FRAME);
        pfc.onAdmit(in, 2 * FRAME); // 12,474: the pause begins here, headroom up to 20,790
        assertThat(pfc.admit(in, 0, 2 * FRAME)).isTrue();
        assertThat(pfc.admit(in, 0, 2 * FRAME + 1)).isFalse();
    }

    @Test
    void packetsTheSwitchMadeItselfChargeNoIngress() {
        Fabric f = staticThresholds();
        PfcIngress pfc = f.pfc();
        pfc.onAdmit(f.fromL0(), 3 * FRAME); // l0's ingress is pausing
        assertThat(pfc.admit(-1, 0, 1_000_000)).isTrue();
        pfc.onAdmit(-1, 1_000_000);
        pfc.onRelease(-1, 1_000_000);
        assertThat(pfc.bytesFrom(f.fromL0())).isEqualTo(3 * FRAME);
        assertThat(pfc.bytesFrom(f.fromL1())).isZero();
        assertThat(pfc.maxIngressBytes()).isEqualTo(3 * FRAME);
        assertThat(pfc.pausesSent()).isEqualTo(1);
        assertThat(pfc.overflowDrops()).isZero();
    }

    @Test
    void sharedMemoryIsAHardLimitEvenForLosslessTraffic() {
        BufferModel shared = BufferModel.sharedDynamic(20_000, 1.0);
        Fabric f = fabric(shared, 1_000_000, 1_000_000, 0, HEADROOM);
        PfcIngress pfc = f.pfc();
        shared.add(16_000); // 4,000 B free
        assertThat(pfc.admit(f.fromL0(), 0, 4_000)).isTrue();
        assertThat(pfc.admit(f.fromL0(), 0, 4_001)).isFalse();
        assertThat(pfc.admit(-1, 0, 4_001)).isFalse();
        assertThat(pfc.admitReleased(f.fromL0(), 0, 4_001)).isFalse();
        assertThat(pfc.admitReleased(-1, 0, 4_000)).isTrue();
        assertThat(pfc.overflowDrops()).isEqualTo(3);
    }

    @Test
    void aDynamicXoffIsAlphaTimesTheFreeSharedMemory() {
        // 100,000 B shared, alpha 0.5: with 60,000 B in use elsewhere XOFF = 0.5 x 40,000 = 20,000 B; the static 8,316 B
        // does not enter
        BufferModel shared = BufferModel.sharedDynamic(100_000, 8.0);
        Fabric f = fabric(shared, XOFF, XON, 0.5, HEADROOM);
        PfcIngress pfc = f.pfc();
        int in = f.fromL0();
        shared.add(60_000);
        pfc.onAdmit(in, 20_000);
        assertThat(pfc.pausing(in)).as("20,000 = XOFF").isFalse();
        pfc.onAdmit(in, 1);
        assertThat(pfc.pausing(in)).isTrue();
        assertThat(pfc.pausesSent()).isEqualTo(1);
        // more memory in use: XOFF 0.5 x 4,000 = 2,000 B, below XON: the ingress resumes at or below 2,000 B
        shared.add(36_000);
        pfc.onRelease(in, 18_000); // 2,001
        assertThat(pfc.pausing(in)).isTrue();
        pfc.onRelease(in, 1); // 2,000
        assertThat(pfc.pausing(in)).isFalse();
    }

    @Test
    void aDynamicXoffFallsAsTheSharedMemoryFills() {
        // XOFF = 0.5 x (100,000 - used): 50,000 B empty, 10,000 B with 80,000 B in use
        BufferModel shared = BufferModel.sharedDynamic(100_000, 8.0);
        Fabric f = fabric(shared, XOFF, XON, 0.5, HEADROOM);
        PfcIngress pfc = f.pfc();
        pfc.onAdmit(f.fromL0(), 50_000);
        assertThat(pfc.pausing(f.fromL0())).isFalse();
        shared.add(80_000);
        pfc.onAdmit(f.fromL1(), 10_000);
        assertThat(pfc.pausing(f.fromL1())).isFalse();
        pfc.onAdmit(f.fromL1(), 1);
        assertThat(pfc.pausing(f.fromL1())).isTrue();
        // XON 4,158 below the dynamic XOFF: the static XON decides the resume
        shared.remove(80_000);
        pfc.onRelease(f.fromL1(), 10_001 - FRAME - 1); // 4,159
        assertThat(pfc.pausing(f.fromL1())).isTrue();
        pfc.onRelease(f.fromL1(), 1);
        assertThat(pfc.pausing(f.fromL1())).isFalse();
    }
}
