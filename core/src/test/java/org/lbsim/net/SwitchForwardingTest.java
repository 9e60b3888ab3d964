package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;

/**
 * A switch's forwarding decision on {@link SmallFabric} (no gap): policy table, else the FIB group and
 * the selector of the packet's traffic class; ingress stages, held packets and dropped ones. A 1000 B
 * frame takes 80,000 ps per hop on the line and 100,000 ps on each link: h0 to h2 (three switches)
 * arrives at 4 * 180,000 = 720,000.
 */
class SwitchForwardingTest {
    private final SmallFabric f = new SmallFabric(0);
    private final Switch l0 = f.net.switchAt(f.node("l0"));
    private final int toS0 = f.port("l0", "s0");
    private final int toS1 = f.port("l0", "s1");

    /** Picks the group's member {@code entropy mod count} and remembers every decision it was asked for. */
    static final class Recording implements PortSelector {
        final List<Integer> counts = new ArrayList<>();
        final List<Fib> fibs = new ArrayList<>();

        @Override
        public int select(Packet p, int group, int[] ports, int offset, int count) {
            counts.add(count);
            return ports[offset + Math.floorMod(p.entropy, count)];
        }

        @Override
        public void onRoutingChange(Fib fib) {
            fibs.add(fib);
        }
    }

    /** Which uplink of l0 each of h0's frames took: the port at l1 it came in on. */
    private List<Integer> spinesOfArrivals() {
        return f.stacks[2].arrivals.stream().map(a -> a.ingressPort() == f.port("l1", "s0") ? 0 : 1).toList();
    }

    @Test
    void aFrameCrossingTheFabricCountsItsHopsAndTakesTheUplinkItsSelectorPicks() {
        Fib fib = f.net.fib();
        int group = fib.group(l0.node(), 2);
        assertThat(fib.groupSize(group)).isEqualTo(2);
        int first = fib.port(group, 0);
        f.send(0, f.frame(0, 2, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 2, 1, 1000, 1), 200_000);
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::hops).containsExactly(3, 3);
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(720_000L, 920_000L);
        assertThat(spinesOfArrivals()).containsExactly(first == toS0 ? 0 : 1, first == toS0 ? 1 : 0);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void theSelectorIsAskedOnlyWhereTheGroupOffersAChoice() {
        Recording sel = new Recording();
        for (int node = f.topo.hostCount(); node < f.topo.nodeCount(); node++) {
            f.net.setSelector(node, sel);
        }
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0); // l0 to h1: one port
        f.send(0, f.frame(0, 2, 1, 1000, 0), 0); // l0 up (two), the spine down to l1 (one), l1 to h2 (one)
        f.sim.run(Long.MAX_VALUE);
        assertThat(sel.counts).containsExactly(2);
        assertThat(f.net.nic(1).rxPackets()).isEqualTo(1);
        assertThat(f.net.nic(2).rxPackets()).isEqualTo(1);
    }

    @Test
    void aTrafficClassWithASelectorOfItsOwnUsesItAndTheOthersKeepTheRunsOne() {
        Recording run = new Recording();
        Recording class5 = new Recording();
        f.net.setSelector(l0.node(), run);
        l0.setClassSelector(5, class5);
        assertThat(l0.selector()).isSameAs(run);
        assertThat(l0.selector(0)).isSameAs(run);
        assertThat(l0.selector(5)).isSameAs(class5);
        assertThat(l0.selector(63)).isSameAs(run);
        Packet five = f.frame(0, 2, 0, 1000, 0);
        five.trafficClass = 5;
        Packet sixtyNine = f.frame(0, 2, 1, 1000, 0);
        sixtyNine.trafficClass = 69; // the DSCP field has 6 bits: class 5
        Packet zero = f.frame(0, 2, 2, 1000, 0);
        f.send(0, five, 0);
        f.send(0, sixtyNine, 0);
        f.send(0, zero, 0);
        f.sim.run(Long.MAX_VALUE);
        assertThat(class5.counts).hasSize(2);
        assertThat(run.counts).hasSize(1);
    }

    @Test
    void aNewFibIsToldOnceToEachDistinctSelectorOfEverySwitchThenToTheListeners() {
        Recording run = new Recording();
        Recording other = new Recording();
        Recording l1Sel = new Recording();
        f.net.setSelector(l0.node(), run);
        f.net.setSelector(f.node("l1"), l1Sel);
        l0.setClassSelector(7, other);
        l0.setClassSelector(9, other);
        l0.setClassSelector(63, run);
        List<Fib> heard = new ArrayList<>();
        f.net.addRoutingListener(fib -> {
            assertThat(run.fibs).as("switches first").hasSize(1);
            heard.add(fib);
        });
        Fib next = Routing.compute(f.topo, new boolean[f.topo.linkCount()]);
        f.net.installFib(next);
        assertThat(f.net.fib()).isSameAs(next);
        assertThat(run.fibs).containsExactly(next);
        assertThat(other.fibs).containsExactly(next);
        assertThat(l1Sel.fibs).containsExactly(next);
        assertThat(heard).containsExactly(next);
    }

    @Test
    void aPolicyTablePortOverridesTheSelector() {
        l0.setPolicyTable(new PolicyTable(List.of(PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toS1))));
        assertThat(l0.policyTable().size()).isEqualTo(1);
        for (int i = 0; i < 4; i++) {
            f.send(0, f.frame(0, 2, i, 1000, i), 0);
        }
        f.sim.run(Long.MAX_VALUE);
        assertThat(spinesOfArrivals()).containsExactly(1, 1, 1, 1);
        assertThat(l0.policyTable().hits()).isEqualTo(4);
    }

    @Test
    void aFrameWithoutARouteIsDroppedAtTheFirstSwitchThatHasNone() {
        boolean[] down = new boolean[f.topo.linkCount()];
        down[f.link("l1", "h2")] = true;
        f.net.installFib(Routing.compute(f.topo, down));
        List<Integer> told = new ArrayList<>();
        f.net.setLossListener((flow, psn) -> told.add(psn));
        f.send(0, f.frame(0, 2, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 3, 1, 1000, 0), 0);
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.net.noRouteDrops()).isEqualTo(1);
        assertThat(told).containsExactly(0);
        assertThat(f.net.totalDropped()).isEqualTo(1);
        assertThat(f.stacks[2].arrivals).isEmpty();
        assertThat(f.stacks[3].arrivals).hasSize(1);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void anIngressStageSeesTheIngressPortAndWhatItRefusesGoesNoFurther() {
        List<Integer> seen = new ArrayList<>();
        int reason = f.net.consumeReason("test: odd sequence numbers");
        l0.addIngressStage((p, port) -> {
            seen.add(port);
            return true;
        });
        l0.addIngressStage((p, port) -> {
            if (p.psn % 2 == 1) {
                l0.consume(p, reason);
                return false;
            }
            return true;
        });
        for (int i = 0; i < 4; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
        }
        f.sim.run(Long.MAX_VALUE);
        assertThat(seen).containsOnly(f.port("l0", "h0")).hasSize(4);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 2);
        assertThat(f.net.consumed(reason)).isEqualTo(2);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aHeldFrameCountsAsHeldUntilReleasedThenFollowsTheForwardingDecision() {
        Packet[] kept = new Packet[1];
        l0.addIngressStage((p, port) -> {
            if (p.psn == 0) {
                kept[0] = p;
                l0.hold(p);
                return false;
            }
            return true;
        });
        long[] heldAt = new long[1];
        f.send(0, f.frame(0, 2, 0, 1000, 1), 0);
        f.at(500_000, () -> {
            heldAt[0] = f.net.held();
            assertThat(f.conserved()).isTrue();
            l0.release(kept[0]);
        });
        f.sim.run(Long.MAX_VALUE);
        assertThat(heldAt[0]).isEqualTo(1);
        assertThat(f.net.held()).isZero();
        // released at 500,000: l0's uplink 500,000 to 580,000, the spine at 680,000 and out at 760,000, l1 at 860,000, h2 at 1,040,000
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(1_040_000L);
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::hops).containsExactly(3);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aSwitchCanSendOnANamedPortAndOriginateFrames() {
        f.at(0, () -> {
            Packet p = l0.originate();
            p.kind = Packet.DATA;
            p.src = 0;
            p.dst = 2;
            p.sizeBytes = 1000;
            l0.sendOn(toS1, p); // the spine forwards by its FIB
            Packet q = l0.originate();
            q.kind = Packet.DATA;
            q.src = 0;
            q.dst = 3;
            q.sizeBytes = 1000;
            l0.forward(q);
        });
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.net.originated()).isEqualTo(2);
        // from l0 at 0: the line to 80,000, the spine at 180,000 and out at 260,000, l1 at 360,000, h2 at 540,000
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(540_000L);
        assertThat(f.stacks[2].arrivals).extracting(SmallFabric.Arrival::ingressPort).containsExactly(f.port("l1", "s1"));
        assertThat(f.stacks[3].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(540_000L);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void anEgressStageSeesEveryPortOfItsSwitchAndNoOther() {
        List<Integer> enqueuedAt = new ArrayList<>();
        List<Integer> dequeuedAt = new ArrayList<>();
        EgressStage stage = new EgressStage() {
            @Override
            public void onEnqueue(Packet p, int port, long queueBytes) {
                enqueuedAt.add(port);
            }

            @Override
            public void onDequeue(Packet p, int port, long queueBytes) {
                dequeuedAt.add(port);
            }
        };
        l0.setEgressStage(stage);
        assertThat(l0.egressStage()).isSameAs(stage);
        assertThat(l0.network()).isSameAs(f.net);
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 2, 1, 1000, 0), 0);
        f.send(0, f.frame(0, 2, 2, 1000, 1), 0);
        f.send(3, f.frame(3, 2, 3, 1000, 0), 0); // l1's port to h2 is the next port after l0's
        f.sim.run(Long.MAX_VALUE);
        assertThat(enqueuedAt).containsExactlyInAnyOrder(f.port("l0", "h1"), toS0, toS1);
        assertThat(dequeuedAt).containsExactlyInAnyOrder(f.port("l0", "h1"), toS0, toS1);
    }
}
