package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * The deadlock watchdog on an idle fabric whose ports are paused and filled by hand: four switches
 * s0..s3, one host each, linked s0-s1, s1-s2, s2-s3, s3-s1 and s0-s2 (100 Gb/s, 1 us). A port is
 * stuck when it is paused and holds a packet; a deadlock is a cycle of stuck ports, each feeding
 * the switch that owns the next.
 */
class PfcWatchdogTest {
    /** The watchdog's check period: 1 us. */
    private static final long PERIOD_PS = 1_000_000;

    private final Topology t = Topologies.custom(new TopologySpec.Custom(4, List.of("s0", "s1", "s2", "s3"),
            List.of("h0 s0", "h1 s1", "h2 s2", "h3 s3", "s0 s1", "s1 s2", "s2 s3", "s3 s1", "s0 s2"), 100, 1000, List.of(), 1));
    private final Simulator sim = new Simulator();
    private final Network net = new Network(sim, t, Routing.compute(t, new boolean[t.linkCount()]), new RandomStreams(1),
            node -> BufferModel.perPort(1_000_000), EcnMarker.off(), 20, new Network.PfcConfig(200_000, 180_000, 0, 120_000));

    private EgressPort port(String from, String to) {
        return net.egress(t.portsBetween(t.nodeByName(from), t.nodeByName(to))[0]);
    }

    /** Pauses the port from {@code from} to {@code to} and queues {@code packets} frames behind the pause. */
    private void stick(String from, String to, int packets) {
        EgressPort e = port(from, to);
        e.setPaused(true);
        queue(e, packets);
    }

    private void queue(EgressPort e, int packets) {
        for (int i = 0; i < packets; i++) {
            Packet p = net.pool().acquire();
            p.sizeBytes = 4158;
            e.enqueue(p);
        }
    }

    /** A foreground event at {@code atPs}, so that the run lasts at least that long. */
    private void keepRunningUntil(long atPs) {
        sim.schedule(sim.register((kind, tag) -> { }), atPs, 0, 0);
    }

    /** Every host takes what arrives and sends nothing. */
    private void sinksAtEveryHost() {
        for (int h = 0; h < t.hostCount(); h++) {
            net.nic(h).attach(new PacketSource() {
                @Override
                public Packet poll(long nowPs) {
                    return null;
                }

                @Override
                public long nextReadyPs(long nowPs) {
                    return Long.MAX_VALUE;
                }

                @Override
                public void deliver(Packet packet) {
                    net.pool().release(packet);
                }
            });
        }
    }

    @Test
    void aCycleOfStuckPortsIsReportedInWaitingOrderWithItsQueues() {
        stick("s1", "s2", 1);
        stick("s2", "s3", 2);
        stick("s3", "s1", 3);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        assertThat(w.report()).isNull();
        assertThat(w.checkNow()).isTrue();
        assertThat(w.report()).isEqualTo("PFC deadlock at 0.0 us: cycle of paused ports s1->s2 (1 packets) -> s2->s3 (2 packets) -> s3->s1 (3 packets)");
    }

    @Test
    void aRingIsReportedFromItsLowestNumberedPortWhicheverSwitchTheFirstHostHangsOff() {
        // h0 hangs off s2 and h2 off s0: the report still starts at s0->s1, the lowest-numbered stuck port, so that the
        // same deadlock always reads the same
        Topology ring = Topologies.custom(new TopologySpec.Custom(3, List.of("s0", "s1", "s2"),
                List.of("h0 s2", "h1 s1", "h2 s0", "s0 s1", "s1 s2", "s2 s0"), 100, 1000, List.of(), 1));
        Simulator ringSim = new Simulator();
        Network ringNet = new Network(ringSim, ring, Routing.compute(ring, new boolean[ring.linkCount()]), new RandomStreams(1),
                node -> BufferModel.perPort(1_000_000), EcnMarker.off(), 20, new Network.PfcConfig(200_000, 180_000, 0, 120_000));
        for (String[] hop : new String[][] {{"s0", "s1"}, {"s1", "s2"}, {"s2", "s0"}}) {
            EgressPort e = ringNet.egress(ring.portsBetween(ring.nodeByName(hop[0]), ring.nodeByName(hop[1]))[0]);
            e.setPaused(true);
            Packet p = ringNet.pool().acquire();
            p.sizeBytes = 4158;
            e.enqueue(p);
        }
        PfcWatchdog w = new PfcWatchdog(ringNet, PERIOD_PS);
        assertThat(w.checkNow()).isTrue();
        assertThat(w.report()).endsWith(": cycle of paused ports s0->s1 (1 packets) -> s1->s2 (1 packets) -> s2->s0 (1 packets)");
    }

    @Test
    void aStuckPortThatFeedsTheCycleFromOutsideIsNotPartOfIt() {
        // s0->s1 waits on s1, whose stuck port belongs to the cycle s1 -> s2 -> s3 -> s1; the search starts at s0->s1
        stick("s0", "s1", 4);
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        stick("s3", "s1", 1);
        assertThat(t.portsBetween(t.nodeByName("s0"), t.nodeByName("s1"))[0])
                .isLessThan(t.portsBetween(t.nodeByName("s1"), t.nodeByName("s2"))[0]);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        assertThat(w.checkNow()).isTrue();
        assertThat(w.report()).endsWith(": cycle of paused ports s1->s2 (1 packets) -> s2->s3 (1 packets) -> s3->s1 (1 packets)");
    }

    @Test
    void aDeadEndBranchIsLeftAndTheSearchGoesOnToTheCycle() {
        // at s1 the first stuck port leads to host h1 (a dead end); the second, s1->s2, leads round the cycle. s0->s2, stuck
        // too, is the port numbered just before s1's and is not one of them
        stick("s0", "s2", 1);
        stick("s1", "h1", 1);
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        stick("s3", "s1", 1);
        stick("s0", "s1", 1);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        assertThat(w.checkNow()).isTrue();
        assertThat(w.report()).endsWith(": cycle of paused ports s1->s2 (1 packets) -> s2->s3 (1 packets) -> s3->s1 (1 packets)");
    }

    @Test
    void pathsThatMeetWithoutClosingACycleAreNoDeadlock() {
        // s0->s1->s2->s3 and s0->s2->s3 both end at s3->h3, which waits on a host: a tree of waits, no cycle
        stick("s0", "s1", 1);
        stick("s0", "s2", 1);
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        stick("s3", "h3", 1);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        assertThat(w.findCycle()).isNull();
        assertThat(w.checkNow()).isFalse();
        assertThat(w.report()).isNull();
    }

    @Test
    void aPausedPortWithAnEmptyQueueBreaksTheCycle() {
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        port("s3", "s1").setPaused(true);
        assertThat(new PfcWatchdog(net, PERIOD_PS).findCycle()).isNull();
    }

    @Test
    void aPortHoldingPacketsButNotPausedBreaksTheCycle() {
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        EgressPort s3s1 = port("s3", "s1");
        s3s1.setPaused(true);
        queue(s3s1, 2);
        s3s1.setPaused(false); // one frame goes on the wire, one waits
        assertThat(s3s1.queuePackets()).isEqualTo(1);
        assertThat(new PfcWatchdog(net, PERIOD_PS).findCycle()).isNull();
    }

    @Test
    void aDeadlockStopsTheRunAtTheSecondCheckWhenNothingArrivesInBetween() {
        // the first check (1 us) only notes the deliveries so far; the second (2 us) finds none since and the cycle
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        stick("s3", "s1", 1);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        keepRunningUntil(10 * PERIOD_PS);
        sim.run(Long.MAX_VALUE);
        assertThat(sim.nowPs()).isEqualTo(2 * PERIOD_PS);
        assertThat(w.report()).startsWith("PFC deadlock at 2.0 us: cycle of paused ports s1->s2");
    }

    @Test
    void aDeliveryBetweenChecksPostponesTheVerdictByOnePeriod() {
        // a frame leaves s0 for h0 at 0.1 us and arrives 4,158 B at 100 Gb/s (332,640 ps) and 1 us later, at 1.43264 us:
        // between the checks at 1 and 2 us, so the check at 2 us sees progress and the one at 3 us ends the run
        sinksAtEveryHost();
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        stick("s3", "s1", 1);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        sim.schedule(sim.register((kind, tag) -> queue(port("s0", "h0"), 1)), 100_000, 0, 0);
        keepRunningUntil(10 * PERIOD_PS);
        sim.run(Long.MAX_VALUE);
        assertThat(net.delivered()).isEqualTo(1);
        assertThat(sim.nowPs()).isEqualTo(3 * PERIOD_PS);
        assertThat(w.report()).startsWith("PFC deadlock at 3.0 us: ");
    }

    @Test
    void withoutACycleTheWatchdogKeepsCheckingAndNeverStopsTheRun() {
        stick("s1", "s2", 1);
        stick("s2", "s3", 1);
        PfcWatchdog w = new PfcWatchdog(net, PERIOD_PS);
        keepRunningUntil(10 * PERIOD_PS + 1);
        sim.run(Long.MAX_VALUE);
        assertThat(sim.nowPs()).isEqualTo(10 * PERIOD_PS + 1);
        assertThat(w.report()).isNull();
        // a cycle that forms later is caught at the next check where nothing arrived: 11 us
        stick("s3", "s1", 1);
        keepRunningUntil(20 * PERIOD_PS);
        sim.run(Long.MAX_VALUE);
        assertThat(sim.nowPs()).isEqualTo(11 * PERIOD_PS);
        assertThat(w.report()).startsWith("PFC deadlock at 11.0 us: ");
    }
}
