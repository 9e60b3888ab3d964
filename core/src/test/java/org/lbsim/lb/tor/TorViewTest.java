package org.lbsim.lb.tor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/** The fabric as the ToR-driven schemes see it: each host's ToR, dense leaf indices, and the base RTT between two ToRs. */
class TorViewTest {
    @Test
    void leavesAreNumberedInTheOrderOfTheirFirstHost() {
        // rail-optimized: 2 servers of 2 NICs, NIC i on rail leaf i, so leaf l0 has hosts 0 and 2, l1 has 1 and 3
        Topology t = Topologies.railLeafSpine(2, 1, 2, 2, 1, LinkSpec.defaults(), LinkSpec.defaults());
        TorView v = new TorView(t);
        int l0 = t.nodeByName("l0");
        int l1 = t.nodeByName("l1");
        assertThat(v.leafCount()).isEqualTo(2);
        assertThat(new int[] {v.torOf(0), v.torOf(1), v.torOf(2), v.torOf(3)}).containsExactly(l0, l1, l0, l1);
        assertThat(new int[] {v.leafOfHost(0), v.leafOfHost(1), v.leafOfHost(2), v.leafOfHost(3)}).containsExactly(0, 1, 0, 1);
        assertThat(v.leafIndex(l0)).isZero();
        assertThat(v.leafIndex(l1)).isEqualTo(1);
        assertThat(v.leafIndex(t.nodeByName("s0"))).as("no host under a spine").isEqualTo(-1);
        assertThat(v.someHostOf(0)).isZero();
        assertThat(v.someHostOf(1)).isEqualTo(1);
    }

    @Test
    void everyEdgeOfAFatTreeIsALeafWithItsOwnHosts() {
        Topology t = Topologies.fatTree(4, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
        TorView v = new TorView(t);
        assertThat(v.leafCount()).isEqualTo(8);
        for (int h = 0; h < t.hostCount(); h++) {
            assertThat(v.leafOfHost(h)).isEqualTo(h / 2);
            assertThat(v.torOf(h)).isEqualTo(t.nodeByName("e" + h / 2));
        }
        for (int leaf = 0; leaf < 8; leaf++) {
            assertThat(v.someHostOf(leaf)).isEqualTo(2 * leaf);
        }
    }

    /** Edge-agg-core-agg-edge on a k = 4 fat tree with 500 ns links: 4 hops each way. */
    @Test
    void theBaseRttBetweenTwoToRsIsTwiceTheLinkDelaysAlongTheirPath() {
        Topology t = Topologies.fatTree(4, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        TorView v = new TorView(t);
        int e0 = t.nodeByName("e0");
        assertThat(v.baseRttPs(t, fib, e0, v.leafOfHost(t.hostCount() - 1))).as("another pod").isEqualTo(2 * 4 * Time.ns(500));
        assertThat(v.baseRttPs(t, fib, e0, 1)).as("the other edge of the pod").isEqualTo(2 * 2 * Time.ns(500));
        assertThat(v.baseRttPs(t, fib, e0, 0)).as("its own leaf").isZero();
    }

    /** Static routes that send h1's traffic back and forth between s0 and s1: the walk stops after 64 hops. */
    @Test
    void aRoutingLoopEndsTheWalkAfterSixtyFourHops() {
        Topology t = Topologies.custom(new TopologySpec.Custom(2, List.of("s0", "s1", "s2"), List.of("h0 s0", "h1 s2", "s0 s1", "s1 s2"), 100, 1000,
                List.of("s0 h1 s1", "s1 h1 s0"), 1));
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        TorView v = new TorView(t);
        assertThat(v.baseRttPs(t, fib, t.nodeByName("s0"), v.leafOfHost(1))).isEqualTo(2 * 64 * Time.ns(1000));
    }
}
