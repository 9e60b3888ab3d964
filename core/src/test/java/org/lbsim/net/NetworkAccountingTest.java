package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.PartitionedSimulator;
import org.lbsim.topology.Topology;

/**
 * What the fabric counts and tells, on {@link SmallFabric} (no gap, 80 ps per byte, 100,000 ps links,
 * 64 KB per port): losses by cause and the loss listener, named counters, control-queue kinds, the
 * ports' counters, rate changes, and the switches' and NICs' build-time choices.
 */
class NetworkAccountingTest {
    private final SmallFabric f = new SmallFabric(0);

    /** Every loss the fabric tells, as "flow:psn" for data and "flow" for any packet gone. */
    static final class Told implements Network.LossListener {
        final List<String> dataLost = new ArrayList<>();
        final List<Integer> gone = new ArrayList<>();

        @Override
        public void onDataLost(int flow, int psn) {
            dataLost.add(flow + ":" + psn);
        }

        @Override
        public void onPacketGone(int flow) {
            gone.add(flow);
        }
    }

    @Test
    void aDroppedDataPacketIsToldAsDataLostAndEveryLostPacketAsGone() {
        Told told = new Told();
        f.net.setLossListener(told);
        f.net.setInjectedDrops(new long[] {(0L << 32) | 1, (5L << 32) | 2});
        Switch l0 = f.net.switchAt(f.node("l0"));
        int reason = f.net.consumeReason("test: ACKs");
        l0.addIngressStage((p, port) -> {
            if (p.kind == Packet.ACK) {
                l0.consume(p, reason);
                return false;
            }
            return true;
        });
        for (int i = 0; i < 3; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
        }
        Packet ack = f.frame(0, 1, 7, 64, 0);
        ack.kind = Packet.ACK;
        ack.flow = 4;
        f.send(0, ack, 0);
        f.sim.run(Long.MAX_VALUE);
        assertThat(told.dataLost).containsExactly("0:1");
        assertThat(told.gone).containsExactly(0, 4);
        assertThat(f.net.injectedDrops()).isEqualTo(1);
        assertThat(f.net.totalConsumed()).isEqualTo(1);
        assertThat(f.net.consumed(reason)).isEqualTo(1);
        assertThat(f.net.totalDropped()).as("injected drops count as drops, consumed packets do not").isEqualTo(1);
        assertThat(f.net.noRouteDrops()).isZero();
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 2);
        assertThat(f.conserved()).isTrue();
    }

    /**
     * The scenario lists dropped packets by queue pair and PSN in any order: flow 2's PSN 1 and flow 0's PSN 2,
     * given largest first. h0 (flow 0) and h2 (flow 2) each send PSNs 0..2 (80,000 ps apart, no gap) to h1 and h3:
     * flow 2's PSN 1 reaches l1 at 260,000 ps, flow 0's PSN 2 reaches l0 at 340,000 ps.
     */
    @Test
    void injectedDropsMatchQueuePairAndPsnWhateverTheOrderTheyAreListedIn() {
        Told told = new Told();
        f.net.setLossListener(told);
        f.net.setInjectedDrops(new long[] {(2L << 32) | 1, (0L << 32) | 2});
        for (int i = 0; i < 3; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
            f.send(2, f.frame(2, 3, i, 1000, 0), 0);
        }
        f.sim.run(Long.MAX_VALUE);
        assertThat(told.dataLost).containsExactly("2:1", "0:2");
        assertThat(told.gone).containsExactly(2, 0);
        assertThat(f.net.injectedDrops()).isEqualTo(2);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 1);
        assertThat(f.stacks[3].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 2);
        assertThat(f.conserved()).isTrue();
    }

    /** In a partitioned run the listener is told of each loss one at a time: data lost and packet gone alike. */
    @Test
    void aPartitionedRunTellsTheListenerEveryLoss() {
        PartitionedSimulator sim = new PartitionedSimulator(2, 1, SmallFabric.LINK_PS, 1 << 20);
        sim.setNodePartitions(new int[] {0, 0, 1, 1, 0, 1, 0, 0});
        SmallFabric pf = new SmallFabric(0, null, sim);
        Told told = new Told();
        pf.net.setLossListener(told);
        pf.net.setInjectedDrops(new long[] {(0L << 32) | 1});
        for (int i = 0; i < 3; i++) {
            pf.send(0, pf.frame(0, 1, i, 1000, 0), 0);
        }
        pf.sim.run(Long.MAX_VALUE);
        assertThat(told.dataLost).containsExactly("0:1");
        assertThat(told.gone).containsExactly(0);
        assertThat(pf.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 2);
    }

    @Test
    void withoutInjectedDropsNoneAreCounted() {
        assertThat(f.net.injectedDrops()).isZero();
        assertThat(f.net.totalDropped()).isZero();
    }

    @Test
    void twoSendersIntoOneHostOverflowItsPortAndEveryDropIsCountedInThatLayerAndTold() {
        Told told = new Told();
        f.net.setLossListener(told);
        for (int i = 0; i < 150; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
            f.send(2, f.frame(2, 1, i, 1000, 0), 0);
        }
        List<Boolean> conservedWhileBusy = new ArrayList<>();
        List<Long> inFlight = new ArrayList<>();
        for (long t = 1_000_000; t <= 10_000_000; t += 3_000_000) {
            f.at(t, () -> {
                conservedWhileBusy.add(f.conserved());
                inFlight.add(f.net.inFlight());
            });
        }
        f.sim.run(Long.MAX_VALUE);
        long drops = f.net.dropsInLayer(Topology.layerCode(1, 0));
        assertThat(drops).as("200 Gb/s into 100 for 12 us overflows 64 KB").isPositive();
        assertThat(f.net.totalDropped()).isEqualTo(drops);
        assertThat(f.net.dropsInLayer(Topology.layerCode(1, 2))).isZero();
        assertThat(f.net.dropsInLayer(Topology.layerCode(2, 1))).isZero();
        assertThat(f.net.egress(f.port("l0", "h1")).drops()).isEqualTo(drops);
        assertThat(f.net.delivered() + drops).isEqualTo(300);
        assertThat(told.dataLost).hasSize((int) drops);
        assertThat(told.gone).hasSize((int) drops);
        assertThat(conservedWhileBusy).containsOnly(true).hasSize(4);
        assertThat(inFlight.get(0)).as("at 1 us the port to h1 holds a queue").isGreaterThan(5);
        assertThat(f.net.inFlight()).isZero();
        assertThat(f.net.egress(f.port("l0", "h1")).maxQueueBytes()).isLessThanOrEqualTo(SmallFabric.BUFFER_BYTES);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void namedCountersAddUpOverPorts() {
        int a = f.net.counter("test.a");
        int b = f.net.counter("test.b");
        f.net.count(a, f.port("l0", "h0"), 5);
        f.net.count(a, f.port("l1", "s1"), 7);
        f.net.count(b, f.port("l1", "s1"), 1);
        assertThat(f.net.counterNames()).containsExactly("test.a", "test.b");
        assertThat(f.net.counterTotal(a)).isEqualTo(12);
        assertThat(f.net.counterTotal(b)).isEqualTo(1);
    }

    @Test
    void aNameRegisteredAgainKeepsItsIdAndItsCount() {
        int a = f.net.counter("test.a");
        int b = f.net.counter("test.b");
        f.net.count(b, f.port("l0", "h0"), 3);
        assertThat(f.net.counter("test.b")).isEqualTo(b).isNotEqualTo(a);
        assertThat(f.net.counter("test.a")).isEqualTo(a);
        f.net.count(f.net.counter("test.b"), f.port("l1", "s1"), 4);
        assertThat(f.net.counterNames()).containsExactly("test.a", "test.b");
        assertThat(f.net.counterTotal(b)).isEqualTo(7);
        assertThat(f.net.counterTotal(a)).isZero();
    }

    @Test
    void aPriorityKindIsKnownOnlyOnceRegisteredAndKindsOutsideTheTableAreNot() {
        assertThat(f.net.hasPriorityKinds()).isFalse();
        assertThat(f.net.isPriorityKind(Packet.ACK)).isFalse();
        f.net.setPriorityKind(Packet.ACK);
        f.net.setPriorityKind(Byte.MAX_VALUE);
        assertThat(f.net.hasPriorityKinds()).isTrue();
        assertThat(f.net.isPriorityKind(Packet.ACK)).isTrue();
        assertThat(f.net.isPriorityKind(Byte.MAX_VALUE)).isTrue();
        assertThat(f.net.isPriorityKind(Packet.DATA)).isFalse();
        assertThat(f.net.isPriorityKind(-1)).isFalse();
        assertThat(f.net.isPriorityKind(Byte.MAX_VALUE + 1)).isFalse();
    }

    @Test
    void everyKindFromZeroCanGoToTheControlQueue() {
        f.net.setPriorityKind(0);
        assertThat(f.net.isPriorityKind(0)).isTrue();
        assertThat(f.net.isPriorityKind(1)).isFalse();
    }

    @Test
    void packetsConsumedForASecondReasonAreCountedUnderIt() {
        int first = f.net.consumeReason("test: first");
        int second = f.net.consumeReason("test: second");
        Switch l0 = f.net.switchAt(f.node("l0"));
        l0.addIngressStage((p, port) -> {
            l0.consume(p, p.psn < 2 ? second : first);
            return false;
        });
        for (int i = 0; i < 3; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
        }
        f.sim.run(Long.MAX_VALUE);
        assertThat(second).isNotEqualTo(first);
        assertThat(f.net.consumeReasons()).containsExactly("test: first", "test: second");
        assertThat(f.net.consumed(second)).isEqualTo(2);
        assertThat(f.net.consumed(first)).isEqualTo(1);
        assertThat(f.net.totalConsumed()).isEqualTo(3);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aFailureCountsTheFramesQueuedForTheLinkWithThoseOnIt() {
        for (int i = 0; i < 20; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
            f.send(2, f.frame(2, 1, 100 + i, 1000, 0), 0);
        }
        int down = f.port("l0", "h1");
        long[] before = new long[2];
        int[] lost = new int[1];
        f.at(1_000_000, () -> {
            before[0] = f.net.link(down).inFlight();
            before[1] = f.net.egress(down).queuePackets();
            lost[0] = f.net.failLink(f.link("l0", "h1"));
        });
        f.sim.run(Long.MAX_VALUE);
        assertThat(before[1]).as("a queue waits at l0's port to h1").isPositive();
        assertThat(lost[0]).isEqualTo(before[0] + before[1]);
        assertThat(f.net.totalDropped()).isEqualTo(40 - f.net.delivered());
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aPortsCountersAreThoseOfItsEgressPortOrItsNic() {
        f.send(0, f.frame(0, 2, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 1, 1, 500, 0), 0);
        long[] queued = new long[1];
        // the 1000 B frame is on l0's line to s0 from 180,000 to 260,000 and holds its buffer until then
        f.at(200_000, () -> queued[0] = f.net.queueBytes(f.port("l0", "s0")));
        f.sim.run(Long.MAX_VALUE);
        assertThat(queued[0]).isEqualTo(1000);
        assertThat(f.net.txBytes(f.port("l0", "s0"))).isEqualTo(1000);
        assertThat(f.net.txBytes(f.port("l0", "h1"))).isEqualTo(500);
        assertThat(f.net.txBytes(f.topo.hostPort(0))).isEqualTo(1500);
        assertThat(f.net.txBytes(f.topo.hostPort(1))).isZero();
        assertThat(f.net.bufferBytes(f.port("s1", "l1"))).isEqualTo(SmallFabric.BUFFER_BYTES);
        assertThat(f.net.egressPort(f.topo.hostPort(0))).isNull();
        assertThat(f.net.egressPort(f.port("l0", "s0"))).isSameAs(f.net.egress(f.port("l0", "s0")));
        assertThat(f.net.egress(f.port("l0", "s0")).port()).isEqualTo(f.port("l0", "s0"));
        assertThat(f.net.buffer(f.node("s1")).portLimitBytes()).isEqualTo(SmallFabric.BUFFER_BYTES);
    }

    /** The entropy that makes {@code leaf}'s selector send a frame for {@code dst} up to s0. */
    private int viaS0(String leaf, int dst) {
        return f.net.fib().port(f.net.fib().group(f.node(leaf), dst), 0) == f.port(leaf, "s0") ? 0 : 1;
    }

    @Test
    void aLinksNewRateAppliesToBothItsDirectionsAndToNoOtherLink() {
        f.net.setLinkRateMbps(f.link("l0", "s0"), 50_000);
        f.send(0, f.frame(0, 2, 0, 1000, viaS0("l0", 2)), 0);
        f.send(0, f.frame(0, 2, 1, 1000, 1 - viaS0("l0", 2)), 0);
        f.send(2, f.frame(2, 0, 2, 1000, viaS0("l1", 0)), 0);
        f.sim.run(Long.MAX_VALUE);
        // through s0: 160,000 ps instead of 80,000 on l0's port to s0, so at l1 at 620,000 and in h2 at 800,000;
        // through s1, 80,000 behind on h0's line, at l1 at 620,000 as well: behind the first on the port to h2 (to 780,000)
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(800_000L, 880_000L);
        // back through s0: 160,000 ps on s0's port to l0 as well
        assertThat(f.stacks[0].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(800_000L);
    }

    @Test
    void portsHandFramesOnAtEnqueueUnlessTheirCountersAreWatchedAndTheTimesStayTheSame() {
        SmallFabric lazy = new SmallFabric(20);
        assertThat(lazy.net.handOnAtEnqueue()).as("every switch port").isEqualTo(12);
        SmallFabric watched = new SmallFabric(20);
        watched.net.watchTxBytes();
        assertThat(watched.net.handOnAtEnqueue()).isZero();
        SmallFabric exact = new SmallFabric(20);
        for (SmallFabric g : List.of(lazy, watched, exact)) {
            for (int i = 0; i < 4; i++) {
                g.send(0, g.frame(0, 2, i, 1000, i), 0);
                g.send(1, g.frame(1, 2, i, 700, i), 0);
            }
            g.sim.run(Long.MAX_VALUE);
            assertThat(g.conserved()).isTrue();
        }
        assertThat(lazy.stacks[2].arrivals).hasSize(8).isEqualTo(exact.stacks[2].arrivals).isEqualTo(watched.stacks[2].arrivals);
        assertThat(lazy.net.ambiguousCounterReads()).isZero();
    }

    @Test
    void aReadOfALazyPortsCountersAtTheInstantAWaitingFrameStartsCountsItAsStartedAndIsCountedAsAmbiguous() {
        SmallFabric lazy = new SmallFabric(20);
        int toH1 = lazy.port("l0", "h1");
        long[] read = new long[1];
        // before every component's event at 661,600: h0's frame, in l0 at 580,000, holds the port to h1 until its gap ends at 661,600;
        // h2's, in l0 at 640,000 (540,000 after it left h2 at 100,000), waits and starts then
        lazy.first(661_600, () -> read[0] = lazy.net.txBytes(toH1));
        assertThat(lazy.net.handOnAtEnqueue()).isEqualTo(12);
        lazy.send(0, lazy.frame(0, 1, 0, 1000, 0), 400_000);
        lazy.send(2, lazy.frame(2, 1, 1, 1000, 0), 100_000);
        lazy.sim.run(Long.MAX_VALUE);
        assertThat(read[0]).isEqualTo(2000);
        assertThat(lazy.net.ambiguousCounterReads()).isEqualTo(1);
        assertThat(lazy.stacks[1].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(760_000L, 841_600L);
    }

    @Test
    void aPriorityKindRegisteredAfterThePortsChoseToHandFramesOnStillOvertakesTheQueue() {
        SmallFabric g = new SmallFabric(20);
        byte probeKind = 100;
        assertThat(g.net.handOnAtEnqueue()).isEqualTo(12);
        g.net.setPriorityKind(probeKind);
        for (int i = 0; i < 10; i++) {
            g.send(0, g.frame(0, 1, i, 1000, 0), 0);
            g.send(2, g.frame(2, 1, 100 + i, 1000, 0), 0);
        }
        Switch l0 = g.net.switchAt(g.node("l0"));
        g.at(900_000, () -> {
            Packet probe = l0.originate();
            probe.kind = probeKind;
            probe.src = 0;
            probe.dst = 1;
            probe.psn = 999;
            probe.sizeBytes = 64;
            l0.forward(probe);
        });
        g.sim.run(Long.MAX_VALUE);
        // l0's port to h1 takes 81,600 per frame: h0's from 180,000, h2's (in l0 from 540,000 every 81,600) alternate with
        // h0's from 588,000, so a queue builds; at 900,000 h0's frame 6 is on the line (832,800 to 912,800, its gap to 914,400)
        // and the probe goes next: 5,120 ps, in h1 at 914,400 + 5,120 + 100,000
        assertThat(g.stacks[1].arrivals).filteredOn(a -> a.psn() == 999).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(1_019_520L);
        assertThat(g.stacks[1].arrivals).hasSize(21);
        assertThat(g.conserved()).isTrue();
    }

    @Test
    void aHostLinkDownFromTheStartLosesWhatEitherEndSendsOntoIt() {
        f.net.setLinkDown(f.link("l0", "h1"), true);
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.send(1, f.frame(1, 0, 1, 1000, 0), 0);
        f.send(2, f.frame(2, 0, 2, 1000, 0), 0);
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.net.linkLossInLayer(Topology.layerCode(1, 0))).as("at l0's port to h1").isEqualTo(1);
        assertThat(f.net.linkLossInLayer(Topology.layerCode(0, 1))).as("at h1's NIC").isEqualTo(1);
        assertThat(f.net.link(f.topo.hostPort(1)).lostPackets()).isEqualTo(1);
        assertThat(f.net.nic(1).txPackets()).isEqualTo(1);
        assertThat(f.stacks[0].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(2);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aLinkSetDownAfterThePortsChoseToHandFramesOnLosesAWaitingFrameWhenItStartsNotWhenItIsQueued() {
        SmallFabric g = new SmallFabric(20);
        assertThat(g.net.handOnAtEnqueue()).isEqualTo(12);
        g.net.setLinkDown(g.link("l0", "h1"), true);
        List<Long> lostPs = new ArrayList<>();
        g.net.setLossListener((flow, psn) -> lostPs.add(g.sim.nowPs()));
        // h0's frame is in l0 at 580,000 and holds the port to h1 until 661,600; h2's is in l0 at 640,000 and waits for it
        g.send(0, g.frame(0, 1, 0, 1000, 0), 400_000);
        g.send(2, g.frame(2, 1, 1, 1000, 0), 100_000);
        g.sim.run(Long.MAX_VALUE);
        assertThat(lostPs).containsExactly(580_000L, 661_600L);
        assertThat(g.net.linkLossInLayer(Topology.layerCode(1, 0))).isEqualTo(2);
        assertThat(g.conserved()).isTrue();
    }

    /**
     * Marks of the frames h1 receives, in order: h0's two (in l0 at 530,000 and 611,600) and h2's two (at 540,000 and
     * 621,600) share l0's port to h1, 81,600 ps a frame: h0's first from 530,000, then h2's first from 611,600 (h0's second
     * arrives at that instant, after the port's wake-up), h0's second from 693,200 with h2's second waiting behind it,
     * h2's second from 774,800. On dequeue above 500 B only h0's second, which leaves 1,000 B behind, is marked.
     */
    private static List<Boolean> dequeueMarks(boolean handOnFirst) {
        SmallFabric g = new SmallFabric(20, null, new org.lbsim.kernel.Simulator(), new EcnMarker(true, 500, 500, 1));
        if (handOnFirst) {
            assertThat(g.net.handOnAtEnqueue()).isEqualTo(12);
        }
        g.net.setEcnMarkAtDequeue(true);
        for (int i = 0; i < 2; i++) {
            g.send(0, g.frame(0, 1, i, 1000, 0), 350_000);
            g.send(2, g.frame(2, 1, 10 + i, 1000, 0), 0);
        }
        g.sim.run(Long.MAX_VALUE);
        assertThat(g.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 10, 1, 11);
        assertThat(g.stacks[1].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(710_000L, 791_600L, 873_200L, 954_800L);
        return g.stacks[1].arrivals.stream().map(SmallFabric.Arrival::ecnMarked).toList();
    }

    @Test
    void dequeueMarkingSetAfterThePortsChoseToHandFramesOnStillMarksOnDequeue() {
        assertThat(dequeueMarks(false)).containsExactly(false, false, true, false);
        assertThat(dequeueMarks(true)).containsExactly(false, false, true, false);
    }

    @Test
    void aLossyFabricHasNoPfcAndALosslessOneDoesNotSkipNicWakeUps() {
        assertThat(f.net.lossless()).isFalse();
        assertThat(f.net.pfc(f.node("l0"))).isNull();
        SmallFabric pfc = new SmallFabric(20, new Network.PfcConfig(20_000, 10_000, 0, 30_000));
        assertThat(pfc.net.lossless()).isTrue();
        assertThat(pfc.net.pfc(pfc.node("s1"))).isNotNull();
        assertThat(pfc.net.skipIdleNicWakes()).isZero();
        assertThat(pfc.net.nic(0).idleNowPossible()).isFalse();
        assertThat(f.net.skipIdleNicWakes()).isEqualTo(4);
        assertThat(f.net.nic(3).idleNowPossible()).isTrue();
    }
}
