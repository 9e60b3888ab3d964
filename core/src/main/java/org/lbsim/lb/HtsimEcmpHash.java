package org.lbsim.lb;

import java.util.Arrays;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topology;

/**
 * htsim's per-flow ECMP decision (csg-htsim fork of the OFAN authors, htsim_uec with
 * {@code -fg_ar ecmp}): a switch takes member {@code freeBSDHash(flow id, path id, salt) mod n} of
 * the next-hop group (datacenter/fat_tree_switch.cpp:370-374), its FIB listing a ToR's uplinks by
 * aggregation switch and an aggregation switch's by core, both in ascending order (440-449, 484-501).
 * The hash is Bob Jenkins' 96-bit mix of the FreeBSD bridge (fat_tree_switch.h:50-71).
 *
 * <p>Everything random comes from one Mersenne Twister (MT19937) seeded with {@code -seed}, each draw
 * its output with the top bit cleared (rng.cpp:9-26, main_uec.cpp:917-918), drawn in this order while
 * htsim builds the run: one salt per switch, ToRs, then aggregation, then core switches, each by index
 * (fat_tree_switch.cpp:18, fat_tree_topology.cpp:825-836); one draw per host for its NIC
 * (uec.cpp:270, main_uec.cpp:1250-1263); two per connection in the matrix's order for its oblivious
 * multipath state (uec_mp.cpp:14-15), of which the first modulo 65535 is the flow's path id: with
 * {@code -paths 1} every packet of the flow, and every ACK (its data packet's path id, uecpacket.h:213),
 * carries it (uec_mp.cpp:49-63). The flow id is the connection's {@code id}, which htsim's generators
 * number 1, 2, ... in the matrix's order (gen_permutation.py:60-62), and which htsim gives a connection
 * without one too (main_uec.cpp:1312-1316): lbsim's queue pair q is connection q + 1.
 *
 * <p>Not reproduced: htsim shuffles a ToR's uplinks at the first packet it sends up, and an aggregation
 * switch's uplinks to each destination at the first packet there (fat_tree_switch.cpp:308-315, 457-458,
 * 504), with draws from the same generator that every sender also draws from once per packet sent
 * (uec_mp.cpp:55-58), so the shuffled order depends on how many packets htsim has sent by then, that is
 * on its own event order. This reading is htsim's decision without that shuffle.
 */
public final class HtsimEcmpHash {
    /** Switches of a k-ary fat tree: k^2/2 ToRs, k^2/2 aggregation and k^2/4 core switches. */
    private final int tors;
    private final int aggs;
    private final int cores;
    private final int half;
    private final int hosts;
    private final Mt19937 rng;
    private int[] draws = new int[0];

    /** htsim's draws for a run with {@code -seed seed} on the k-ary fat tree {@code topology}. */
    public HtsimEcmpHash(Topology topology, int seed) {
        int[] perTier = new int[4];
        for (int node = topology.hostCount(); node < topology.nodeCount(); node++) {
            perTier[Math.min(3, topology.tier(node))]++;
        }
        this.tors = perTier[1];
        this.aggs = perTier[2];
        this.cores = perTier[3];
        this.half = tors == 0 ? 0 : (int) Math.round(Math.sqrt(tors / 2.0));
        this.hosts = topology.hostCount();
        boolean fatTree = "fat-tree".equals(topology.kind()) && topology.maxTier() == 3 && half >= 1 && 2 * half * half == tors
                && aggs == tors && cores == half * half && hosts == tors * half;
        ScenarioException.require(fatTree, "loadBalancing.hash", "'htsim' reads htsim's switch hash on its 3-tier k-ary fat tree"
                + " (k/2 hosts per ToR, the fabric htsim's FatTreeTopology builds); this fabric is a " + topology.kind());
        this.rng = new Mt19937(seed);
    }

    /** htsim's hash of a packet of flow {@code flowId} with path id {@code pathId} at a switch salted {@code salt}. */
    public static int freeBsdHash(int flowId, int pathId, int salt) {
        int a = 0x9e3779b9 + flowId;
        int b = 0x9e3779b9 + salt;
        int c = pathId;
        a -= b; a -= c; a ^= c >>> 13;
        b -= c; b -= a; b ^= a << 8;
        c -= a; c -= b; c ^= b >>> 13;
        a -= b; a -= c; a ^= c >>> 12;
        b -= c; b -= a; b ^= a << 16;
        c -= a; c -= b; c ^= b >>> 5;
        a -= b; a -= c; a ^= c >>> 3;
        b -= c; b -= a; b ^= a << 10;
        c -= a; c -= b; c ^= b >>> 15;
        return c;
    }

    /** The member htsim picks among {@code members} next hops: the hash as an unsigned 32-bit number, modulo. */
    public static int member(int flowId, int pathId, int salt, int members) {
        return Integer.remainderUnsigned(freeBsdHash(flowId, pathId, salt), members);
    }

    /** The salt of lbsim switch {@code node}: htsim's switch of the same tier and place. */
    public synchronized int salt(Topology topology, int node) {
        int index = node - hosts;
        if (index >= tors + aggs) {
            // lbsim's core p * k/2 + l (l-th uplink of aggregation position p) is htsim's core l * k/2 + p
            int core = index - tors - aggs;
            index = tors + aggs + (core % half) * half + core / half;
        }
        return draw(index);
    }

    /** The path id of lbsim's queue pair {@code qp}: htsim's connection qp + 1. */
    public synchronized int pathId(int qp) {
        return Integer.remainderUnsigned(draw(tors + aggs + cores + hosts + 2 * qp), 65535);
    }

    private int draw(int index) {
        if (index >= draws.length) {
            int[] more = Arrays.copyOf(draws, Math.max(index + 1, 2 * draws.length));
            for (int i = draws.length; i < more.length; i++) {
                more[i] = rng.next() & 0x7fffffff;
            }
            draws = more;
        }
        return draws[index];
    }

    /** The 32-bit Mersenne Twister (Matsumoto and Nishimura, 1998) with its standard seeding and tempering. */
    static final class Mt19937 {
        private static final int N = 624;
        private static final int M = 397;
        private final int[] mt = new int[N];
        private int next = N;

        Mt19937(int seed) {
            mt[0] = seed;
            for (int i = 1; i < N; i++) {
                mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
            }
        }

        int next() {
            if (next >= N) {
                for (int k = 0; k < N; k++) {
                    int y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
                    mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
                }
                next = 0;
            }
            int y = mt[next++];
            y ^= y >>> 11;
            y ^= (y << 7) & 0x9d2c5680;
            y ^= (y << 15) & 0xefc60000;
            return y ^ (y >>> 18);
        }
    }
}
