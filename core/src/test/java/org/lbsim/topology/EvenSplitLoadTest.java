package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.workload.Flow;
import org.lbsim.workload.Workloads;

/** OFAN App. A: link loads when every flow splits evenly over its paths, and rho_max = rate / heaviest load. */
class EvenSplitLoadTest {
    private static final long LINE_MBPS = 800_000;
    private static final LinkSpec L = LinkSpec.defaults();

    private static Topology fatTree(int k) {
        return Topologies.fatTree(k, L, L, L);
    }

    private static boolean[] failing(Topology t, String... pairs) {
        boolean[] down = new boolean[t.linkCount()];
        for (String pair : pairs) {
            String[] ab = pair.split("-");
            down[t.linkOf(t.portsBetween(t.nodeByName(ab[0]), t.nodeByName(ab[1]))[0])] = true;
        }
        return down;
    }

    private static int port(Topology t, String from, String to) {
        return t.portsBetween(t.nodeByName(from), t.nodeByName(to))[0];
    }

    @ParameterizedTest(name = "k = {0}, seed {1}")
    @CsvSource({"4, 1", "4, 2", "6, 1", "8, 1", "8, 2"})
    void aPermutationOnAHealthyFatTreeRunsAtLineRateBecauseNoLinkCarriesMoreThanOneFlow(int k, long seed) {
        Topology t = fatTree(k);
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int[] hosts = java.util.stream.IntStream.range(0, t.hostCount()).toArray();
        List<Flow> flows = Workloads.permutation(hosts, 1, new SplittableRandom(seed));
        int[] src = flows.stream().mapToInt(Flow::src).toArray();
        int[] dst = flows.stream().mapToInt(Flow::dst).toArray();

        double[] load = EvenSplitLoad.portLoads(t, fib, src, dst);
        for (int h = 0; h < t.hostCount(); h++) {
            assertThat(load[t.hostPort(h)]).isEqualTo(1.0); // each host sends one flow ...
            assertThat(load[t.peerPort(t.hostPort(h))]).isEqualTo(1.0); // ... and receives one
        }
        for (int p = 0; p < t.portCount(); p++) {
            assertThat(load[p]).isLessThanOrEqualTo(1.0 + 1e-9);
        }
        assertThat(EvenSplitLoad.rhoMaxMbps(t, fib, src, dst)).isEqualTo(LINE_MBPS);
    }

    @Test
    void loadsAfterAFailedEdgeUplinkMatchAHandCount() {
        // k = 4, e0-a0 down; pod 0 sends to pod 1: h0 -> h4, h1 -> h5 (under e0), h2 -> h6, h3 -> h7 (under e1).
        // e0's flows have 2 paths each, all through a1 -> {c2, c3} -> a3 -> e2.
        // e1's flows have 4 paths each: half via a0 -> {c0, c1} -> a2, half via a1 -> {c2, c3} -> a3, to e3.
        Topology t = fatTree(4);
        Fib fib = Routing.compute(t, failing(t, "e0-a0"));
        int[] src = {0, 1, 2, 3};
        int[] dst = {4, 5, 6, 7};

        double[] load = EvenSplitLoad.portLoads(t, fib, src, dst);

        assertThat(load[port(t, "e0", "a0")]).isZero();
        assertThat(load[port(t, "e0", "a1")]).isEqualTo(2.0); // both of e0's flows
        assertThat(load[port(t, "e1", "a0")]).isEqualTo(1.0); // half of each of e1's flows
        assertThat(load[port(t, "e1", "a1")]).isEqualTo(1.0);
        assertThat(load[port(t, "a1", "c2")]).isEqualTo(1.5); // 2 x 1/2 + 2 x 1/4
        assertThat(load[port(t, "a1", "c3")]).isEqualTo(1.5);
        assertThat(load[port(t, "a0", "c0")]).isEqualTo(0.5); // 2 x 1/4
        assertThat(load[port(t, "c2", "a3")]).isEqualTo(1.5);
        assertThat(load[port(t, "a3", "e2")]).isEqualTo(2.0); // both of e0's flows land on a3
        assertThat(load[port(t, "a2", "e2")]).isZero();
        assertThat(load[port(t, "a3", "e3")]).isEqualTo(1.0);
        assertThat(load[port(t, "a2", "e3")]).isEqualTo(1.0);
        // the heaviest links carry 2 flows: each flow may send at half the line rate
        assertThat(EvenSplitLoad.rhoMaxMbps(t, fib, src, dst)).isEqualTo(LINE_MBPS / 2);

        // the same flows on the healthy fabric run at line rate
        Fib healthy = Routing.compute(t, new boolean[t.linkCount()]);
        assertThat(EvenSplitLoad.rhoMaxMbps(t, healthy, src, dst)).isEqualTo(LINE_MBPS);
    }

    @Test
    void aFailedCoreLinkShiftsLoadInProportionToThePathsLeft() {
        // k = 4, a1-c2 down: from e1 to pod 1 there are 3 paths left, 2 via a0 and 1 via a1.
        Topology t = fatTree(4);
        Fib fib = Routing.compute(t, failing(t, "a1-c2"));
        int[] src = {2, 3};
        int[] dst = {6, 7};

        double[] load = EvenSplitLoad.portLoads(t, fib, src, dst);

        assertThat(load[port(t, "e1", "a0")]).isCloseTo(4.0 / 3, within(1e-12));
        assertThat(load[port(t, "e1", "a1")]).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(load[port(t, "a1", "c3")]).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(load[port(t, "a1", "c2")]).isZero();
        assertThat(load[port(t, "a2", "e3")]).isCloseTo(4.0 / 3, within(1e-12));
        // 800 Gb/s over 4/3 flows = 600 Gb/s per flow
        assertThat(EvenSplitLoad.rhoMaxMbps(t, fib, src, dst)).isBetween(LINE_MBPS * 3 / 4 - 1, LINE_MBPS * 3 / 4);
    }

    @Test
    void withoutFlowsNothingLimitsTheRate() {
        Topology t = fatTree(4);
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        assertThat(EvenSplitLoad.rhoMaxMbps(t, fib, new int[0], new int[0])).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * With its ACK streams, rho_max is the line rate over the heaviest data + ackPerData x ACK load,
     * whether the ACKs' walk runs on the calling thread (few flows) or alongside it (many): k = 8 with
     * two failed links, 100 and 3,000 random flows.
     */
    @ParameterizedTest(name = "{0} flows")
    @org.junit.jupiter.params.provider.ValueSource(ints = {100, 3_000})
    void theAckStreamsAddTheirShareWhereverTheirWalkRuns(int flowCount) {
        Topology t = fatTree(8);
        Fib fib = Routing.compute(t, failing(t, "e0-a0", "e9-a10"));
        SplittableRandom r = new SplittableRandom(flowCount);
        int[] src = new int[flowCount];
        int[] dst = new int[flowCount];
        for (int i = 0; i < flowCount; i++) {
            src[i] = r.nextInt(t.hostCount());
            dst[i] = (src[i] + 1 + r.nextInt(t.hostCount() - 1)) % t.hostCount();
        }
        double ackPerData = 84.0 / 4178;
        double[] data = EvenSplitLoad.portLoads(t, fib, src, dst);
        double[] acks = EvenSplitLoad.portLoads(t, fib, dst, src);
        double best = Double.MAX_VALUE;
        for (int p = 0; p < data.length; p++) {
            double load = data[p] + ackPerData * acks[p];
            if (load > 1e-12) {
                best = Math.min(best, t.rateMbps(p) / load);
            }
        }
        assertThat(EvenSplitLoad.rhoMaxMbps(t, fib, src, dst, ackPerData)).isEqualTo((long) Math.floor(best * (1 + 1e-12)))
                .isLessThanOrEqualTo(EvenSplitLoad.rhoMaxMbps(t, fib, src, dst));
    }

    /**
     * The walk over the nodes that can carry flow gives the walk over every node's loads bit for bit
     * (the reference below is the whole-fabric walk): fat trees k = 2-8 with up to three failed links,
     * random flows (hosts sending to several destinations, and to themselves).
     */
    @ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void walkingOnlyTheNodesThatCarryFlowChangesNoLoad(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Topology t = fatTree(2 + 2 * r.nextInt(4));
        boolean[] down = new boolean[t.linkCount()];
        int failures = r.nextInt(4);
        for (int f = 0; f < failures; f++) {
            down[r.nextInt(t.linkCount())] = true;
        }
        Fib fib = Routing.compute(t, down);
        int flows = 1 + r.nextInt(3 * t.hostCount());
        int[] src = new int[flows];
        int[] dst = new int[flows];
        for (int i = 0; i < flows; i++) {
            src[i] = r.nextInt(t.hostCount());
            dst[i] = r.nextInt(t.hostCount());
        }
        assertThat(EvenSplitLoad.portLoads(t, fib, src, dst)).isEqualTo(wholeFabricWalk(t, fib, src, dst));
        assertThat(EvenSplitLoad.portLoads(t, fib, dst, src)).isEqualTo(wholeFabricWalk(t, fib, dst, src));
    }

    /** The reference walk: every node sorted and walked for every destination. */
    private static double[] wholeFabricWalk(Topology t, Fib fib, int[] src, int[] dst) {
        int nodes = t.nodeCount();
        double[] load = new double[t.portCount()];
        Integer[] flows = new Integer[src.length];
        for (int i = 0; i < flows.length; i++) {
            flows[i] = i;
        }
        java.util.Arrays.sort(flows, java.util.Comparator.comparingInt(i -> dst[i]));
        int i = 0;
        while (i < flows.length) {
            int d = dst[flows[i]];
            double[] inflow = new double[nodes];
            for (; i < flows.length && dst[flows[i]] == d; i++) {
                inflow[src[flows[i]]] += 1;
            }
            int[] dist = new int[nodes];
            double[] paths = new double[nodes];
            java.util.Arrays.fill(dist, -1);
            dist[d] = 0;
            paths[d] = 1;
            for (int n = 0; n < nodes; n++) {
                resolve(t, fib, d, n, dist, paths);
            }
            Integer[] topo = new Integer[nodes];
            for (int n = 0; n < nodes; n++) {
                topo[n] = n;
            }
            java.util.Arrays.sort(topo, (a, b) -> Integer.compare(dist[b], dist[a]));
            for (int node : topo) {
                double f = inflow[node];
                if (f == 0 || node == d) {
                    continue;
                }
                if (t.isHost(node)) {
                    int p = t.hostPort(node);
                    load[p] += f;
                    inflow[t.peerNode(p)] += f;
                    continue;
                }
                int g = fib.group(node, d);
                if (fib.groupSize(g) == 0 || paths[node] == 0) {
                    continue;
                }
                for (int k = 0; k < fib.groupSize(g); k++) {
                    int p = fib.port(g, k);
                    int next = t.peerNode(p);
                    double share = f * paths[next] / paths[node];
                    load[p] += share;
                    inflow[next] += share;
                }
            }
        }
        return load;
    }

    private static void resolve(Topology t, Fib fib, int dst, int start, int[] dist, double[] paths) {
        if (dist[start] >= 0) {
            return;
        }
        if (t.isHost(start)) {
            int sw = t.hostSwitch(start);
            resolve(t, fib, dst, sw, dist, paths);
            dist[start] = dist[sw] >= 0 && paths[sw] > 0 ? dist[sw] + 1 : Integer.MAX_VALUE / 2;
            paths[start] = paths[sw];
            return;
        }
        int g = fib.group(start, dst);
        double count = 0;
        int d = Integer.MAX_VALUE / 2;
        dist[start] = Integer.MAX_VALUE / 2;
        for (int k = 0; k < fib.groupSize(g); k++) {
            int next = t.peerNode(fib.port(g, k));
            resolve(t, fib, dst, next, dist, paths);
            count += paths[next];
            d = Math.min(d, dist[next] + 1);
        }
        dist[start] = d;
        paths[start] = count;
    }
}
