package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.LinkSpec;

/** Node, link and next-hop-group counts of the fabrics, against their textbook formulas. */
class FabricStructureTest {
    private static final LinkSpec L = LinkSpec.defaults();

    private static Topology fatTree(int k) {
        return Topologies.fatTree(k, L, L, L);
    }

    private static int groupSize(Fib fib, int sw, int dst) {
        return fib.groupSize(fib.group(sw, dst));
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 6, 8})
    void aFatTreeHasKCubedOverFourHostsFiveKSquaredOverFourSwitchesAndThreeTimesAsManyLinksAsHosts(int k) {
        Topology t = fatTree(k);
        int hosts = k * k * k / 4;
        assertThat(t.hostCount()).isEqualTo(hosts);
        assertThat(t.switchCount()).isEqualTo(5 * k * k / 4);
        // host-edge, edge-agg and agg-core links: k^3/4 each
        assertThat(t.linkCount()).isEqualTo(3 * hosts);
        assertThat(t.portCount()).isEqualTo(2 * t.linkCount());
        for (int n = t.hostCount(); n < t.nodeCount(); n++) {
            assertThat(t.degree(n)).as("radix of %s", t.nodeName(n)).isEqualTo(k);
        }
        for (int h = 0; h < hosts; h++) {
            assertThat(t.degree(h)).isEqualTo(1);
            assertThat(t.tier(t.hostSwitch(h))).isEqualTo(1);
        }
        long cores = java.util.stream.IntStream.range(0, t.nodeCount()).filter(n -> t.tier(n) == 3).count();
        assertThat(cores).isEqualTo((long) k * k / 4);
        for (int p = 0; p < t.portCount(); p++) {
            assertThat(t.peerPort(t.peerPort(p))).isEqualTo(p);
            assertThat(t.peerNode(t.peerPort(p))).isEqualTo(t.portOwner(p));
            assertThat(t.linkOf(t.peerPort(p))).isEqualTo(t.linkOf(p));
            assertThat(Math.abs(t.tier(t.portOwner(p)) - t.tier(t.peerNode(p)))).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 6, 8})
    void anEdgeSwitchOffersKOverTwoUplinksToOtherPodsAndToOtherEdgesOfItsPodAndOnePortToItsOwnHosts(int k) {
        Topology t = fatTree(k);
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int half = k / 2;
        int hostsPerPod = half * half;
        for (int src = 0; src < t.hostCount(); src += half) { // one host per edge switch
            int edge = t.hostSwitch(src);
            for (int dst = 0; dst < t.hostCount(); dst++) {
                // same pod (up to its own aggregation layer and down) or another pod: k/2 uplinks
                int expected = t.hostSwitch(dst) == edge ? 1 : half;
                assertThat(groupSize(fib, edge, dst)).as("e%d -> h%d", edge - t.hostCount(), dst).isEqualTo(expected);
                if (t.hostSwitch(dst) != edge) {
                    for (int i = 0; i < half; i++) {
                        assertThat(t.tier(t.peerNode(fib.port(fib.group(edge, dst), i)))).isEqualTo(2);
                    }
                } else {
                    assertThat(t.peerNode(fib.port(fib.group(edge, dst), 0))).isEqualTo(dst);
                }
            }
        }
        // an aggregation switch goes up to k/2 cores for other pods and down one port inside its pod
        int agg = t.hostCount() + k * half;
        for (int dst = 0; dst < t.hostCount(); dst++) {
            boolean samePod = dst / hostsPerPod == 0;
            assertThat(groupSize(fib, agg, dst)).isEqualTo(samePod ? 1 : half);
        }
        // a core switch has exactly one way down to any host
        int core = t.nodeCount() - 1;
        for (int dst = 0; dst < t.hostCount(); dst++) {
            assertThat(groupSize(fib, core, dst)).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "{0} spines x {1} parallel links")
    @CsvSource({"4, 1", "4, 2", "3, 3", "8, 2"})
    void aLeafOffersSpinesTimesParallelLinksToOtherLeavesAndASpineOffersItsParallelLinksDown(int spines, int parallel) {
        int hostsPerLeaf = 4;
        int leaves = 5;
        Topology t = Topologies.leafSpine(hostsPerLeaf, leaves, spines, parallel, L, L);
        assertThat(t.hostCount()).isEqualTo(hostsPerLeaf * leaves);
        assertThat(t.switchCount()).isEqualTo(leaves + spines);
        assertThat(t.linkCount()).isEqualTo(hostsPerLeaf * leaves + leaves * spines * parallel);
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        for (int src = 0; src < t.hostCount(); src += hostsPerLeaf) {
            int leaf = t.hostSwitch(src);
            for (int dst = 0; dst < t.hostCount(); dst++) {
                int expected = t.hostSwitch(dst) == leaf ? 1 : spines * parallel;
                assertThat(groupSize(fib, leaf, dst)).isEqualTo(expected);
            }
        }
        int firstSpine = t.hostCount() + leaves;
        for (int s = firstSpine; s < t.nodeCount(); s++) {
            assertThat(t.degree(s)).isEqualTo(leaves * parallel);
            for (int dst = 0; dst < t.hostCount(); dst++) {
                int g = fib.group(s, dst);
                assertThat(fib.groupSize(g)).isEqualTo(parallel);
                for (int i = 0; i < parallel; i++) {
                    assertThat(t.peerNode(fib.port(g, i))).isEqualTo(t.hostSwitch(dst));
                }
            }
        }
        assertThat(t.portsBetween(t.hostCount(), firstSpine)).hasSize(parallel);
    }

    @Test
    void switchesAreNamedByTierAndIndex() {
        Topology t = fatTree(4);
        assertThat(t.nodeByName("h0")).isZero();
        assertThat(t.nodeByName("e0")).isEqualTo(16);
        assertThat(t.nodeByName("a0")).isEqualTo(24);
        assertThat(t.nodeByName("c3")).isEqualTo(35);
        assertThat(t.nodeByName("c4")).isEqualTo(-1);
        Topology ls = Topologies.leafSpine(2, 3, 2, 1, L, L);
        assertThat(ls.nodeByName("l2")).isEqualTo(8);
        assertThat(ls.nodeByName("s1")).isEqualTo(10);
    }
}
