package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topology;

/**
 * HOST DR's switch side on a k = 4 fat tree, driven by hand: a packet whose path id names a switch
 * above goes up the port that leads to it when that port is among the group's candidates; without a
 * waypoint, or when routing has taken that port out of the group, the switch hashes as ECMP does
 * with its salt (the switch stream's first draw) over the routes it was last given.
 */
class HostDrWaypointSelectorTest {
    private static final long SEED = 17;
    private final ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(4);
    private final Topology t = fabric.topology();
    private final PacketPool pool = new PacketPool();
    private final int dst = t.hostCount() - 1; // h15, pod 3

    private PortSelector selector(int node) {
        return new HostDestinationRotation().newPortSelector(new SwitchContext(node, t, fabric.fib(), new SplittableRandom(SEED), null, null));
    }

    private int select(PortSelector sel, Fib fib, int node, int pathId, int entropy) {
        Packet p = ChoiceRecorder.packet(pool, 0, dst, Packet.DATA);
        p.pathId = pathId;
        p.entropy = entropy;
        int g = fib.group(node, dst);
        int port = sel.select(p, g, fib.groupPorts(), fib.groupOffset(g), fib.groupSize(g));
        pool.release(p);
        return port;
    }

    private int node(String name) {
        return t.nodeByName(name);
    }

    private int port(String from, String to) {
        return t.portsBetween(node(from), node(to))[0];
    }

    @Test
    void aWaypointAboveIsReachedThroughTheUplinkThatLeadsToIt() {
        PortSelector atE0 = selector(node("e0"));
        PortSelector atA0 = selector(node("a0"));
        PortSelector atA1 = selector(node("a1"));
        for (int e = 0; e < 8; e++) {
            assertThat(select(atE0, fabric.fib(), node("e0"), node("c0"), e)).isEqualTo(port("e0", "a0"));
            assertThat(select(atE0, fabric.fib(), node("e0"), node("c1"), e)).isEqualTo(port("e0", "a0"));
            assertThat(select(atE0, fabric.fib(), node("e0"), node("c2"), e)).isEqualTo(port("e0", "a1"));
            assertThat(select(atE0, fabric.fib(), node("e0"), node("c3"), e)).isEqualTo(port("e0", "a1"));
            assertThat(select(atA0, fabric.fib(), node("a0"), node("c1"), e)).isEqualTo(port("a0", "c1"));
            assertThat(select(atA1, fabric.fib(), node("a1"), node("c2"), e)).isEqualTo(port("a1", "c2"));
        }
    }

    @Test
    void withoutAWaypointOrWithItsPortOutOfTheGroupTheSwitchHashesOverItsCurrentRoutes() {
        int e0 = node("e0");
        int a0 = node("a0");
        PortSelector atE0 = selector(e0);
        PortSelector atA0 = selector(a0);
        EcmpHashSelector ecmp = new EcmpHashSelector(fabric.fib(), new SplittableRandom(SEED).nextLong());
        for (int e = 0; e < 64; e++) {
            Packet p = ChoiceRecorder.packet(pool, 0, dst, Packet.DATA);
            p.entropy = e;
            int g = fabric.fib().group(e0, dst);
            int want = ecmp.select(p, g, fabric.fib().groupPorts(), fabric.fib().groupOffset(g), fabric.fib().groupSize(g));
            pool.release(p);
            assertThat(select(atE0, fabric.fib(), e0, -1, e)).as("entropy %d, no waypoint", e).isEqualTo(want);
            assertThat(select(atE0, fabric.fib(), e0, node("e5"), e)).as("entropy %d, a switch not above e0", e).isEqualTo(want);
        }

        // a0 - c0 fails and routes converge: a0 reaches the other pods through c1 only, e0 weighs a0 once and a1 twice
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(port("a0", "c0"))] = true;
        Fib failed = Routing.compute(t, down);
        atE0.onRoutingChange(failed);
        atA0.onRoutingChange(failed);
        EcmpHashSelector converged = new EcmpHashSelector(failed, new SplittableRandom(SEED).nextLong());
        int g = failed.group(e0, dst);
        assertThat(failed.totalWeight(g)).isEqualTo(3);
        for (int e = 0; e < 64; e++) {
            assertThat(select(atA0, failed, a0, node("c0"), e)).as("entropy %d: c0's port is out of a0's group", e).isEqualTo(port("a0", "c1"));
            Packet p = ChoiceRecorder.packet(pool, 0, dst, Packet.DATA);
            p.entropy = e;
            int want = converged.select(p, g, failed.groupPorts(), failed.groupOffset(g), failed.groupSize(g));
            pool.release(p);
            assertThat(select(atE0, failed, e0, -1, e)).as("entropy %d at e0 after convergence", e).isEqualTo(want);
        }
    }

    @Test
    void aWaypointsUplinkJustPastTheGroupIsNotACandidate() {
        int a0 = node("a0");
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(port("a0", "c0"))] = true;
        Fib failed = Routing.compute(t, down);
        PortSelector atA0 = selector(a0);
        atA0.onRoutingChange(failed);
        int g = failed.group(a0, dst);
        assertThat(failed.groupSize(g)).isEqualTo(1);
        // the group (c1's port only) followed in the array by c0's port, as the next group of a port array may start
        int[] ports = {failed.groupPorts()[failed.groupOffset(g)], port("a0", "c0")};
        Packet p = ChoiceRecorder.packet(pool, 0, dst, Packet.DATA);
        p.pathId = node("c0");
        assertThat(atA0.select(p, g, ports, 0, 1)).isEqualTo(port("a0", "c1"));
        pool.release(p);
    }
}
