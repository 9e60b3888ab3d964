package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;

/**
 * Servers with several NIC ports: which switch each NIC attaches to, and where traffic between
 * NICs turns. A rail-optimized fabric puts NIC i of every server of a group on rail leaf i (CTCCL
 * 3.3 Fig. 4, 4.1); a single-rail leaf-spine or fat tree puts a server's NICs on one leaf.
 */
class MultiNicFabricTest {
    private static final LinkSpec L = new LinkSpec(400, 1000);

    /** 2 groups of 4 servers with 2 NICs: 16 NIC ports, 4 rail leaves, 3 spines with 2 parallel links each. */
    private static Topology rails() {
        return Topologies.build(new TopologySpec.RailLeafSpine(4, 2, 2, 3, 2, L, L));
    }

    private static int groupSize(Fib fib, int sw, int dst) {
        return fib.groupSize(fib.group(sw, dst));
    }

    @Test
    void nicIOfEveryServerOfAGroupAttachesToRailLeafIOfThatGroup() {
        Topology t = rails();
        assertThat(t.hostCount()).isEqualTo(16);
        assertThat(t.serverCount()).isEqualTo(8);
        assertThat(t.nicsPerServer()).isEqualTo(2);
        assertThat(t.switchCount()).isEqualTo(4 + 3);
        int leaf0 = t.nodeByName("l0");
        for (int h = 0; h < t.hostCount(); h++) {
            int server = t.serverOf(h);
            int nic = t.nicIndex(h);
            assertThat(t.endpoint(server, nic)).isEqualTo(h);
            int group = server / 4;
            assertThat(t.hostSwitch(h)).as("leaf of NIC %d of server %d", nic, server).isEqualTo(leaf0 + group * 2 + nic);
            assertThat(t.pod(h)).isEqualTo(t.pod(t.hostSwitch(h)));
        }
        // every rail leaf: 4 downlinks (one NIC of each server of its group, all of one rail), 3 x 2 uplinks
        for (int l = 0; l < 4; l++) {
            int leaf = leaf0 + l;
            assertThat(t.degree(leaf)).isEqualTo(4 + 6);
            for (int p = t.firstPort(leaf); p < t.portEnd(leaf); p++) {
                int peer = t.peerNode(p);
                if (t.isHost(peer)) {
                    assertThat(t.nicIndex(peer)).isEqualTo(l % 2);
                    assertThat(t.serverOf(peer) / 4).isEqualTo(l / 2);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}: NIC {1} -> NIC {2}")
    @CsvSource({
        // same rail, same group: turns at the shared rail leaf
        "same-rail, 0, 2, 2, 1",
        "same-rail, 3, 7, 2, 1",
        // another rail (even the other NIC of the same server): up to any of 3 spines x 2 links, 6 routes
        "cross-rail, 0, 3, 4, 6",
        "same-server, 0, 1, 4, 6",
        // the same rail in another group: its leaf is elsewhere, so through a spine too
        "other-group, 0, 8, 4, 6"})
    void sameRailTrafficStaysUnderOneLeafAndEverythingElseCrossesASpine(String what, int src, int dst, int hops, int routesAtLeaf) {
        Topology t = rails();
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int[] path = PathFacts.path(t, fib, src, dst);
        assertThat(path).as(what).hasSize(hops);
        int leaf = t.hostSwitch(src);
        assertThat(groupSize(fib, leaf, dst)).as("routes at the source leaf").isEqualTo(routesAtLeaf);
        if (hops == 4) {
            int spine = t.peerNode(path[1]);
            assertThat(t.tierName(t.tier(spine))).isEqualTo("S");
            assertThat(groupSize(fib, spine, dst)).as("a spine reaches the destination's rail leaf").isEqualTo(2);
            // every spine port toward the destination lands on its rail leaf
            int g = fib.group(spine, dst);
            for (int i = 0; i < fib.groupSize(g); i++) {
                assertThat(t.peerNode(fib.port(g, i))).isEqualTo(t.hostSwitch(dst));
            }
        } else {
            assertThat(t.peerNode(path[0])).isEqualTo(t.hostSwitch(dst));
        }
    }

    @Test
    void aSingleRailLeafSpinePutsAServersNicsOnConsecutivePortsOfOneLeaf() {
        Topology t = Topologies.build(new TopologySpec.LeafSpine(4, 2, 2, 2, 1, L, L));
        assertThat(t.hostCount()).isEqualTo(8);
        assertThat(t.serverCount()).isEqualTo(4);
        for (int h = 0; h < 8; h++) {
            assertThat(t.serverOf(h)).isEqualTo(h / 2);
            assertThat(t.nicIndex(h)).isEqualTo(h % 2);
            assertThat(t.hostSwitch(h)).isEqualTo(t.hostSwitch(t.endpoint(t.serverOf(h), 0)));
            assertThat(t.nodeName(h)).isEqualTo("h" + h); // names and numbering as with single-NIC hosts
        }
    }

    @Test
    void aFatTreeWithMoreHostsPerEdgeKeepsItsSwitchesAndGroupsServersUnderOneEdge() {
        // DLBF 4: k = 8 with 10 hosts per ToR is 320 hosts at 2.5:1
        Topology dlbf = Topologies.build(new TopologySpec.FatTree(8, 10, 1, L, L, L));
        assertThat(dlbf.hostCount()).isEqualTo(320);
        assertThat(dlbf.switchCount()).isEqualTo(32 + 32 + 16);
        assertThat(FabricCuts.of(dlbf).oversubscription()).isEqualTo(2.5);

        Topology t = Topologies.build(new TopologySpec.FatTree(4, 4, 2, L, L, L));
        assertThat(t.hostCount()).isEqualTo(32);
        assertThat(t.serverCount()).isEqualTo(16);
        for (int h = 0; h < t.hostCount(); h++) {
            assertThat(t.hostSwitch(h)).isEqualTo(t.hostSwitch(t.endpoint(t.serverOf(h), 0)));
            assertThat(t.pod(h)).isEqualTo(h / 8);
        }
    }

    @Test
    void defaultFabricsAreOneNicPerServerWithTheSameNumberingAsBefore() {
        Topology plain = Topologies.fatTree(4, L, L, L);
        Topology built = Topologies.build(new TopologySpec.FatTree(4, L, L, L));
        assertThat(built.serverCount()).isEqualTo(built.hostCount());
        for (int n = 0; n < plain.nodeCount(); n++) {
            assertThat(built.nodeName(n)).isEqualTo(plain.nodeName(n));
            assertThat(built.pod(n)).isEqualTo(plain.pod(n));
        }
        for (int p = 0; p < plain.portCount(); p++) {
            assertThat(built.peerNode(p)).isEqualTo(plain.peerNode(p));
        }
        for (int h = 0; h < built.hostCount(); h++) {
            assertThat(built.serverOf(h)).isEqualTo(h);
            assertThat(built.nicIndex(h)).isZero();
        }
        assertThat(FabricCuts.of(built).oversubscription()).isEqualTo(1.0);
        assertThat(FabricCuts.of(built).oversubscribed()).isEmpty();
    }

    @Test
    void aCustomGraphGroupsItsHostsIntoServers() {
        Topology t = Topologies.build(new TopologySpec.Custom(4, List.of("a", "b"), List.of("h0 a", "h1 b", "h2 a", "h3 b", "a b"), 100, 1000,
                List.of(), 2));
        assertThat(t.serverCount()).isEqualTo(2);
        assertThat(t.serverOf(3)).isEqualTo(1);
        assertThat(t.nicIndex(3)).isEqualTo(1);
    }

    @Test
    void serversMustSplitTheSwitchPortsEvenly() {
        assertThatThrownBy(() -> new TopologySpec.LeafSpine(6, 4, 2, 2, 1, L, L))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("nicsPerServer").hasMessageContaining("must divide hostsPerLeaf (6)");
        assertThatThrownBy(() -> new TopologySpec.FatTree(4, 0, 3, L, L, L))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("nicsPerServer");
        assertThatThrownBy(() -> new TopologySpec.Custom(3, List.of("a"), List.of("h0 a", "h1 a", "h2 a"), 100, 1000, List.of(), 2))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("nicsPerServer");
    }
}
