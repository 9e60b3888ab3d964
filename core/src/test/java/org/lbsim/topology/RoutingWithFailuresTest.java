package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.LinkSpec;

/** Routing computes shortest valley-free groups, leaves failed links out, and empties groups of unreachable hosts. */
class RoutingWithFailuresTest {
    private static final LinkSpec L = LinkSpec.defaults();

    private static Topology fatTree(int k) {
        return Topologies.fatTree(k, L, L, L);
    }

    private static boolean[] failing(Topology t, String... pairs) {
        boolean[] down = new boolean[t.linkCount()];
        for (String pair : pairs) {
            String[] ab = pair.split("-");
            int[] ports = t.portsBetween(t.nodeByName(ab[0]), t.nodeByName(ab[1]));
            assertThat(ports).as(pair).isNotEmpty();
            down[t.linkOf(ports[0])] = true;
        }
        return down;
    }

    /** Every path the FIB allows from src's NIC to dst, as node sequences. */
    private static List<int[]> allPaths(Topology t, Fib fib, int src, int dst) {
        List<int[]> out = new ArrayList<>();
        List<Integer> path = new ArrayList<>(List.of(src));
        walk(t, fib, t.hostSwitch(src), dst, path, out);
        return out;
    }

    private static void walk(Topology t, Fib fib, int node, int dst, List<Integer> path, List<int[]> out) {
        path.add(node);
        if (node == dst) {
            out.add(path.stream().mapToInt(Integer::intValue).toArray());
        } else if (!t.isHost(node) && path.size() <= 2 * t.maxTier() + 1) {
            int g = fib.group(node, dst);
            for (int i = 0; i < fib.groupSize(g); i++) {
                walk(t, fib, t.peerNode(fib.port(g, i)), dst, path, out);
            }
        }
        path.remove(path.size() - 1);
    }

    /** Tiers strictly rise, then strictly fall: no valley. */
    private static boolean valleyFree(Topology t, int[] path) {
        int i = 1;
        while (i < path.length && t.tier(path[i]) > t.tier(path[i - 1])) {
            i++;
        }
        while (i < path.length && t.tier(path[i]) < t.tier(path[i - 1])) {
            i++;
        }
        return i == path.length;
    }

    private static boolean usesDownLink(Topology t, int[] path, boolean[] down) {
        for (int i = 0; i + 1 < path.length; i++) {
            for (int p : t.portsBetween(path[i], path[i + 1])) {
                if (down[t.linkOf(p)]) {
                    return true;
                }
            }
        }
        return false;
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 6})
    void aHealthyFatTreeRoutesEveryPairOverAllItsShortestValleyFreePaths(int k) {
        Topology t = fatTree(k);
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int half = k / 2;
        for (int src = 0; src < t.hostCount(); src++) {
            for (int dst = 0; dst < t.hostCount(); dst++) {
                if (src == dst) {
                    continue;
                }
                List<int[]> paths = allPaths(t, fib, src, dst);
                boolean sameEdge = t.hostSwitch(src) == t.hostSwitch(dst);
                boolean samePod = t.pod(src) == t.pod(dst);
                int hops = sameEdge ? 2 : samePod ? 4 : 6;
                int count = sameEdge ? 1 : samePod ? half : half * half;
                assertThat(paths).as("h%d -> h%d", src, dst).hasSize(count)
                        .allSatisfy(p -> assertThat(p).hasSize(hops + 1))
                        .allSatisfy(p -> assertThat(valleyFree(t, p)).isTrue());
            }
        }
    }

    @Test
    void aFailedEdgeToAggregationLinkIsLeftOutAndNoDetourGoesThroughAValley() {
        Topology t = fatTree(4);
        boolean[] down = failing(t, "e0-a0");
        Fib fib = Routing.compute(t, down);

        int e0 = t.nodeByName("e0");
        int a0 = t.nodeByName("a0");
        int a1 = t.nodeByName("a1");
        // e0 leaves its pod through a1 only
        int g = fib.group(e0, 15);
        assertThat(fib.groupSize(g)).isEqualTo(1);
        assertThat(t.peerNode(fib.port(g, 0))).isEqualTo(a1);
        // a0 cannot reach e0's hosts: going down to e1 and up again would be a valley
        assertThat(fib.groupSize(fib.group(a0, 0))).isZero();
        assertThat(fib.groupSize(fib.group(a0, 1))).isZero();
        // and neither can the cores above a0, nor index-0 aggregation switches of other pods
        assertThat(fib.groupSize(fib.group(t.nodeByName("c0"), 0))).isZero();
        assertThat(fib.groupSize(fib.group(t.nodeByName("a2"), 0))).isZero();
        // a0 still serves e1's hosts
        assertThat(fib.groupSize(fib.group(a0, 2))).isEqualTo(1);

        int paths = 0;
        for (int src = 0; src < t.hostCount(); src++) {
            for (int dst = 0; dst < t.hostCount(); dst++) {
                if (src == dst) {
                    continue;
                }
                List<int[]> all = allPaths(t, fib, src, dst);
                assertThat(all).as("h%d -> h%d still reachable", src, dst).isNotEmpty();
                for (int[] p : all) {
                    assertThat(valleyFree(t, p)).isTrue();
                    assertThat(usesDownLink(t, p, down)).isFalse();
                    assertThat(p[p.length - 1]).isEqualTo(dst);
                }
                paths += all.size();
            }
        }
        // pod 0 <-> other pods lose the core paths through a0 where e0 is involved
        assertThat(paths).isLessThan(totalPaths(t, Routing.compute(t, new boolean[t.linkCount()])));
        // h0 -> h15 now has 2 paths (via a1 and its 2 cores) instead of 4
        assertThat(allPaths(t, fib, 0, 15)).hasSize(2);
        // h2 (under e1) -> h0 must go through a1
        assertThat(allPaths(t, fib, 2, 0)).hasSize(1).allSatisfy(p -> assertThat(p[2]).isEqualTo(a1));
    }

    @Test
    void aFailedAggregationToCoreLinkIsAvoidedFromEveryPod() {
        Topology t = fatTree(4);
        boolean[] down = failing(t, "a0-c0");
        Fib fib = Routing.compute(t, down);
        int c0 = t.nodeByName("c0");
        // h4 (pod 1) -> h0 (pod 0): 4 paths minus the one through c0
        List<int[]> paths = allPaths(t, fib, 4, 0);
        assertThat(paths).hasSize(3).noneSatisfy(p -> assertThat(p[3]).isEqualTo(c0));
        // h0 -> h4 leaves pod 0 without c0 as well
        assertThat(allPaths(t, fib, 0, 4)).hasSize(3).allSatisfy(p -> assertThat(usesDownLink(t, p, down)).isFalse());
    }

    @Test
    void aDestinationCutOffFromTheFabricGetsAnEmptyGroupEverywhereButAtItsOwnEdge() {
        Topology t = fatTree(4);
        Fib fib = Routing.compute(t, failing(t, "e0-a0", "e0-a1"));
        int e0 = t.nodeByName("e0");
        for (int s = t.hostCount(); s < t.nodeCount(); s++) {
            for (int dst : new int[] {0, 1}) {
                int size = fib.groupSize(fib.group(s, dst));
                assertThat(size).as("%s -> h%d", t.nodeName(s), dst).isEqualTo(s == e0 ? 1 : 0);
            }
        }
        // e0's own hosts are also cut off from the rest
        assertThat(fib.groupSize(fib.group(e0, 15))).isZero();
        assertThat(allPaths(t, fib, 0, 1)).hasSize(1);
        // the rest of the fabric is untouched: h2 -> h15 keeps all 4 paths
        assertThat(allPaths(t, fib, 2, 15)).hasSize(4);
    }

    // ---------------------------------------------------------------- W-ECMP weights (OFAN 5.2, App. F.4)

    /** Paths the FIB allows from switch {@code node} to host {@code dst}. */
    private static long pathsFrom(Topology t, Fib fib, int node, int dst) {
        if (t.isHost(node)) {
            return node == dst ? 1 : 0;
        }
        int g = fib.group(node, dst);
        long n = 0;
        for (int i = 0; i < fib.groupSize(g); i++) {
            n += pathsFrom(t, fib, t.peerNode(fib.port(g, i)), dst);
        }
        return n;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Every group's weights are the paths behind its ports reduced by their gcd, and its member table repeats each port by its weight. */
    private static void assertWeightsArePathCounts(Topology t, Fib fib, String what) {
        for (int s = t.hostCount(); s < t.nodeCount(); s++) {
            for (int dst = 0; dst < t.hostCount(); dst++) {
                int g = fib.group(s, dst);
                int size = fib.groupSize(g);
                long common = 0;
                long[] paths = new long[size];
                for (int i = 0; i < size; i++) {
                    paths[i] = pathsFrom(t, fib, t.peerNode(fib.port(g, i)), dst);
                    assertThat(paths[i]).isPositive();
                    common = gcd(common, paths[i]);
                }
                int[] seen = new int[size];
                for (int j = 0; j < fib.totalWeight(g); j++) {
                    seen[fib.member(g, j)]++;
                }
                for (int i = 0; i < size; i++) {
                    assertThat(fib.weight(g, i)).as("%s: %s -> h%d, port to %s", what, t.nodeName(s), dst, t.nodeName(t.peerNode(fib.port(g, i))))
                            .isEqualTo(paths[i] / common);
                    assertThat(seen[i]).isEqualTo(fib.weight(g, i));
                }
            }
        }
    }

    @Test
    void aHealthyFatTreeWeighsEveryNextHopEqually() {
        for (int k : new int[] {4, 6}) {
            Topology t = fatTree(k);
            Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
            for (int g = 0; g < fib.groupCount(); g++) {
                assertThat(fib.uniform(g)).isTrue();
                for (int j = 0; j < fib.totalWeight(g); j++) {
                    assertThat(fib.member(g, j)).isEqualTo(j);
                }
            }
            assertWeightsArePathCounts(t, fib, "healthy k=" + k);
        }
    }

    @Test
    void afterAnAggregationToCoreFailureEdgesWeighTheirUplinksByTheCoresBehindThem() {
        Topology t = fatTree(4);
        Fib fib = Routing.compute(t, failing(t, "a0-c0"));
        int e0 = t.nodeByName("e0");
        int a0 = t.nodeByName("a0");
        // from e0 to pod 1: a0 leads to one core (c1), a1 to two (c2, c3)
        int g = fib.group(e0, 4);
        assertThat(fib.groupSize(g)).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            assertThat(fib.weight(g, i)).isEqualTo(t.peerNode(fib.port(g, i)) == a0 ? 1 : 2);
        }
        assertThat(fib.totalWeight(g)).isEqualTo(3);
        // within pod 0 nothing changes
        assertThat(fib.uniform(fib.group(e0, 2))).isTrue();
        // from pod 1 towards pod 0 the index-0 aggregation switch a2 lost c0's path too
        int e2 = t.nodeByName("e2");
        int back = fib.group(e2, 0);
        for (int i = 0; i < 2; i++) {
            assertThat(fib.weight(back, i)).isEqualTo(t.peerNode(fib.port(back, i)) == t.nodeByName("a2") ? 1 : 2);
        }
        assertWeightsArePathCounts(t, fib, "a0-c0 down");
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 6, 8})
    void underRandomFailuresEveryWeightIsThePathsBehindItsPort(int k) {
        Topology t = fatTree(k);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(k);
        for (int trial = 0; trial < 5; trial++) {
            boolean[] down = new boolean[t.linkCount()];
            for (int p = 0; p < t.portCount(); p++) {
                if (!t.isHost(t.portOwner(p)) && !t.isHost(t.peerNode(p)) && rng.nextDouble() < 0.08) {
                    down[t.linkOf(p)] = true;
                }
            }
            assertWeightsArePathCounts(t, Routing.compute(t, down), "k=" + k + " trial " + trial);
        }
    }

    private static int totalPaths(Topology t, Fib fib) {
        int n = 0;
        for (int src = 0; src < t.hostCount(); src++) {
            for (int dst = 0; dst < t.hostCount(); dst++) {
                if (src != dst) {
                    n += allPaths(t, fib, src, dst).size();
                }
            }
        }
        return n;
    }
}
