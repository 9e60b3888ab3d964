package org.lbsim.lb.dnlb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/** What DNLB reads off a fabric: leaves, their uplinks in port order, NIC indices, the spines VRFs may split. */
class LeafPlanTest {
    private static final LinkSpec LINK = new LinkSpec(100, 100);

    /** 3 leaves of 2 hosts, 2 spines, 2 parallel links from every leaf to every spine. */
    @Test
    void onALeafSpineEachLeafsUplinksAreItsLinksToEverySpineInPortOrder() {
        Topology t = Topologies.leafSpine(2, 3, 2, 2, LINK, LINK);
        LeafPlan plan = new LeafPlan(t);
        assertThat(plan.topology()).isSameAs(t);
        assertThat(plan.leafCount()).isEqualTo(3);
        int s0 = t.nodeByName("s0");
        int s1 = t.nodeByName("s1");
        for (int l = 0; l < 3; l++) {
            int node = t.nodeByName("l" + l);
            assertThat(plan.leafNode(l)).isEqualTo(node);
            assertThat(plan.leafOfNode(node)).isEqualTo(l);
            int[] expected = IntStream.concat(IntStream.of(t.portsBetween(node, s0)), IntStream.of(t.portsBetween(node, s1))).sorted().toArray();
            assertThat(plan.uplinks(l)).containsExactly(expected);
            assertThat(plan.uplinkCount(l)).isEqualTo(4);
            for (int n = 0; n < 4; n++) {
                assertThat(plan.uplink(l, n)).isEqualTo(expected[n]);
            }
            assertThat(plan.localHosts(l)).containsExactly(2 * l, 2 * l + 1);
        }
        for (int h = 0; h < 6; h++) {
            assertThat(plan.leafOfHost(h)).isEqualTo(h / 2);
            assertThat(plan.nicIndex(h)).as("the host's number in its leaf's subnet").isEqualTo(h % 2);
        }
        assertThat(plan.leafOfNode(s0)).isEqualTo(-1);
        assertThat(plan.parallelLinks()).isEqualTo(2);
        assertThat(plan.isSpine(s0)).isTrue();
        assertThat(plan.isSpine(t.nodeByName("l0"))).isFalse();
        assertThat(plan.isSpine(0)).as("a host").isFalse();
        assertThat(plan.uplinkIsVirtualSpine(true)).as("VRFs split the parallel links").isTrue();
        assertThat(plan.uplinkIsVirtualSpine(false)).as("without VRFs uplink n reaches any parallel link down").isFalse();
    }

    @Test
    void withOneLinkPerLeafAndSpineUplinkNIsOneSpineWithoutVrfs() {
        LeafPlan plan = new LeafPlan(Topologies.leafSpine(2, 2, 4, 1, LINK, LINK));
        assertThat(plan.parallelLinks()).isEqualTo(1);
        assertThat(plan.uplinkIsVirtualSpine(false)).isTrue();
        assertThat(plan.uplinkIsVirtualSpine(true)).isTrue();
    }

    /** On a k = 4 fat tree the leaves are the edge switches, each with 2 uplinks; no switch is a spine (aggregation switches face cores). */
    @Test
    void onAFatTreeTheEdgesAreTheLeavesAndNoSwitchIsASpine() {
        Topology t = Topologies.fatTree(4, LINK, LINK, LINK);
        LeafPlan plan = new LeafPlan(t);
        assertThat(plan.leafCount()).isEqualTo(8);
        for (int l = 0; l < 8; l++) {
            assertThat(t.nodeName(plan.leafNode(l))).isEqualTo("e" + l);
            assertThat(plan.uplinkCount(l)).isEqualTo(2);
            for (int p : plan.uplinks(l)) {
                assertThat(t.portOwner(p)).isEqualTo(plan.leafNode(l));
                assertThat(t.nodeName(t.peerNode(p))).startsWith("a");
            }
        }
        for (int node = 0; node < t.nodeCount(); node++) {
            assertThat(plan.isSpine(node)).as(t.nodeName(node)).isFalse();
        }
    }

    /** A custom fabric puts every switch in one tier: no leaf has a link to a higher tier, so none has uplinks. */
    @Test
    void onACustomFabricWhoseSwitchesShareATierNoLeafHasUplinks() {
        Topology t = Topologies.custom(new TopologySpec.Custom(2, List.of("l0", "l1", "s0"), List.of("h0 l0", "h1 l1", "l0 s0", "l1 s0"), 100, 100,
                List.of(), 1));
        LeafPlan plan = new LeafPlan(t);
        assertThat(plan.leafCount()).isEqualTo(2);
        assertThat(plan.uplinkCount(0)).isZero();
        assertThat(plan.uplinkCount(1)).isZero();
        assertThat(plan.isSpine(t.nodeByName("s0"))).as("every port faces a leaf").isTrue();
    }
}
