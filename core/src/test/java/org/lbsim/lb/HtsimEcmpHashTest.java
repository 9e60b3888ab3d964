package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * htsim's ECMP hash, generator and draw order. The expected values come from htsim itself: salts,
 * path ids and members as htsim_uec (-seed 1, 128 hosts, -paths 1, -fg_ar ecmp) printed them for
 * gen_permutation.py's matrix of seed 1 (flow 1 is 14->127: ToR 3 salted 1857819720, path id 10999,
 * uplink 3).
 */
class HtsimEcmpHashTest {
    private static final LinkSpec L = LinkSpec.defaults();

    @Test
    void the_generator_is_the_standard_mt19937() {
        // the C++ standard's check: the 10,000th output of a default-seeded std::mt19937 is 4123659995
        HtsimEcmpHash.Mt19937 mt = new HtsimEcmpHash.Mt19937(5489);
        for (int i = 1; i < 10_000; i++) {
            mt.next();
        }
        assertThat(Integer.toUnsignedLong(mt.next())).isEqualTo(4_123_659_995L);
    }

    @Test
    void the_hash_is_the_freebsd_bridge_mix_of_flow_path_and_salt() {
        assertThat(Integer.toUnsignedLong(HtsimEcmpHash.freeBsdHash(0, 0, 0))).isEqualTo(3_175_731_469L);
        assertThat(Integer.toUnsignedLong(HtsimEcmpHash.freeBsdHash(1, 10999, 1857819720))).isEqualTo(4_265_082_919L);
        assertThat(Integer.toUnsignedLong(HtsimEcmpHash.freeBsdHash(4, 1837, 0))).isEqualTo(3_173_174_180L);
        assertThat(Integer.toUnsignedLong(HtsimEcmpHash.freeBsdHash(-1, 65534, Integer.MAX_VALUE))).isEqualTo(4_005_339_570L);
        // the member is the hash as an unsigned number modulo the group: 4,265,082,919 mod 4 = 3 (a signed % would give -1)
        assertThat(HtsimEcmpHash.member(1, 10999, 1857819720, 4)).isEqualTo(3);
    }

    @Test
    void salts_and_path_ids_are_drawn_in_htsims_order() {
        Topology t = Topologies.fatTree(8, L, L, L);
        HtsimEcmpHash h = new HtsimEcmpHash(t, 1);
        // switches first (32 ToRs, 32 aggregation, 16 core), then a draw per host (128), then two per connection
        assertThat(h.salt(t, t.nodeByName("e3"))).isEqualTo(1857819720);
        assertThat(h.salt(t, t.nodeByName("a3"))).isEqualTo(1849836273);
        assertThat(h.pathId(0)).isEqualTo(10999);
        assertThat(h.pathId(3)).isEqualTo(1837);
        assertThat(h.pathId(8)).isEqualTo(589);
        // asked out of order, the draws are the same
        HtsimEcmpHash later = new HtsimEcmpHash(t, 1);
        assertThat(later.pathId(8)).isEqualTo(589);
        assertThat(later.salt(t, t.nodeByName("e3"))).isEqualTo(1857819720);
    }

    @Test
    void core_salts_follow_htsims_core_numbering() {
        Topology t = Topologies.fatTree(4, L, L, L);
        HtsimEcmpHash h = new HtsimEcmpHash(t, 7);
        HtsimEcmpHash.Mt19937 mt = new HtsimEcmpHash.Mt19937(7);
        int[] d = new int[20];
        for (int i = 0; i < d.length; i++) {
            d[i] = mt.next() & 0x7fffffff;
        }
        // k = 4: 8 ToRs, 8 aggregation, 4 cores; lbsim's core c1 (aggregation position 0, its uplink 1) is htsim's core 2
        assertThat(h.salt(t, t.nodeByName("e0"))).isEqualTo(d[0]);
        assertThat(h.salt(t, t.nodeByName("a7"))).isEqualTo(d[15]);
        assertThat(h.salt(t, t.nodeByName("c0"))).isEqualTo(d[16]);
        assertThat(h.salt(t, t.nodeByName("c1"))).isEqualTo(d[18]);
        assertThat(h.salt(t, t.nodeByName("c2"))).isEqualTo(d[17]);
        assertThat(h.salt(t, t.nodeByName("c3"))).isEqualTo(d[19]);
    }

    @Test
    void the_smallest_fat_tree_k_2_is_read_too() {
        Topology t = Topologies.fatTree(2, L, L, L);
        HtsimEcmpHash h = new HtsimEcmpHash(t, 9);
        HtsimEcmpHash.Mt19937 mt = new HtsimEcmpHash.Mt19937(9);
        int[] d = new int[8];
        for (int i = 0; i < d.length; i++) {
            d[i] = mt.next() & 0x7fffffff;
        }
        // 2 ToRs, 2 aggregation switches, 1 core, then a draw per host (2), then two per connection
        assertThat(h.salt(t, t.nodeByName("e1"))).isEqualTo(d[1]);
        assertThat(h.salt(t, t.nodeByName("c0"))).isEqualTo(d[4]);
        assertThat(h.pathId(0)).isEqualTo(d[7] % 65535);
    }

    @Test
    void a_group_of_one_next_hop_takes_it_without_hashing() {
        Topology t = Topologies.fatTree(4, L, L, L);
        org.lbsim.topology.Fib fib = org.lbsim.topology.Routing.compute(t, new boolean[t.linkCount()]);
        int a0 = t.nodeByName("a0");
        int g = fib.group(a0, 0); // down to e0
        assertThat(fib.groupSize(g)).isEqualTo(1);
        org.lbsim.net.Packet p = new org.lbsim.net.PacketPool().acquire();
        p.flow = 3;
        p.entropy = 1837;
        assertThat(new HtsimEcmpSelector(t, 1857819720).select(p, g, fib.groupPorts(), fib.groupOffset(g), 1))
                .isEqualTo(t.portsBetween(a0, t.nodeByName("e0"))[0]);
    }

    @Test
    void other_fabrics_are_refused() {
        Topology leafSpine = Topologies.leafSpine(4, 4, 4, 1, L, L);
        assertThatThrownBy(() -> new HtsimEcmpHash(leafSpine, 1)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("loadBalancing.hash").hasMessageContaining("leaf-spine");
        Topology oversubscribed = Topologies.fatTree(4, 3, L, L, L);
        assertThatThrownBy(() -> new HtsimEcmpHash(oversubscribed, 1)).isInstanceOf(ScenarioException.class);
    }
}
