package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.metrics.LayerStats;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/**
 * OFAN (OFAN 7, App. F): pointers consolidated per destination edge switch at edges and per
 * destination pod at aggregation switches; each pointer rotates exactly, which balances both the
 * uplinks and the downlinks into every destination; under failures, W-ECMP weights.
 */
class OfanPropertiesTest {
    @TempDir
    Path dir;

    // ---------------------------------------------------------------- (a) pointer state

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 6})
    void edgeSwitchesKeepAPointerPerDestinationEdgeAndAggregationSwitchesPerDestinationPod(int k) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(k), "ofan", new WorkloadSpec.AllToAll(4 * 4096, 0), 1);
        CheckedRun run = CheckedRun.of(s);
        assertThat(run.result().flowsFinished()).isEqualTo(run.result().flows());
        Topology t = run.prepared().topology();
        Network net = run.prepared().network();
        int edges = k * k / 2;
        int pods = k;
        int edgeMax = 0;
        int aggMax = 0;
        for (int node = t.hostCount(); node < t.nodeCount(); node++) {
            int pointers = ((Ofan.Selector) net.switchAt(node).selector()).pointersInUse();
            String what = String.format("k=%d %s: %d pointers (bounds: edge 2 x (%d edges - 1) = %d, aggregation 2 x (%d pods - 1) = %d)",
                    k, t.nodeName(node), pointers, edges, 2 * (edges - 1), pods, 2 * (pods - 1));
            switch (t.tier(node)) {
                case 1 -> {
                    // data and ACKs to every other edge switch; every one of them is used by an all-to-all
                    assertThat(pointers).as(what).isPositive().isLessThanOrEqualTo(2 * (edges - 1)).isEqualTo(2 * (edges - 1));
                    edgeMax = Math.max(edgeMax, pointers);
                }
                case 2 -> {
                    assertThat(pointers).as(what).isPositive().isLessThanOrEqualTo(2 * (pods - 1)).isEqualTo(2 * (pods - 1));
                    aggMax = Math.max(aggMax, pointers);
                }
                default -> assertThat(pointers).as(what + "; a core has one port towards any host").isZero();
            }
        }
        System.out.printf("[ofan] k=%d all-to-all: at most %d pointers per edge switch, %d per aggregation switch%n", k, edgeMax, aggMax);
    }

    // ---------------------------------------------------------------- (b) uplinks and downlinks

    /** A random permutation of all hosts in which nobody sends within its own pod (repaired by swaps). */
    static List<long[]> interPodPermutation(Topology t, long bytes, long seed) {
        int n = t.hostCount();
        SplittableRandom rng = new SplittableRandom(seed);
        int[] dst = new int[n];
        for (int i = 0; i < n; i++) {
            dst[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int x = dst[i];
            dst[i] = dst[j];
            dst[j] = x;
        }
        for (boolean bad = true; bad; ) {
            bad = false;
            for (int i = 0; i < n; i++) {
                if (t.pod(i) == t.pod(dst[i])) {
                    bad = true;
                    int j = rng.nextInt(n);
                    if (t.pod(i) != t.pod(dst[j]) && t.pod(j) != t.pod(dst[i])) {
                        int x = dst[i];
                        dst[i] = dst[j];
                        dst[j] = x;
                    }
                }
            }
        }
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(flow(i, dst[i], bytes));
        }
        return rows;
    }

    /** Per pointer (switch, destination edge or pod, class): packets sent on each upward port. */
    private static final class PointerSpread {
        private final Topology t;
        private final java.util.Map<Long, long[]> counts = new java.util.HashMap<>();

        PointerSpread(Topology t) {
            this.t = t;
        }

        void record(int node, Packet p, int port) {
            if (t.tier(t.peerNode(port)) <= t.tier(node)) {
                return; // only upward choices; downward groups hold one port in a fat tree
            }
            int dstEdge = t.hostSwitch(p.dst);
            long target = t.tier(node) == 1 ? dstEdge : t.pod(dstEdge);
            long key = ((long) node << 32) | (target << 1) | (p.kind == Packet.DATA ? 0 : 1);
            counts.computeIfAbsent(key, x -> new long[t.degree(node)])[port - t.firstPort(node)]++;
        }

        private String name(long key) {
            int node = (int) (key >>> 32);
            int target = (int) ((key & 0xFFFFFFFFL) >>> 1);
            return t.nodeName(node) + (t.tier(node) == 1 ? " to edge " + t.nodeName(target) : " to pod " + target)
                    + ((key & 1) == 0 ? " data" : " ack");
        }

        /** Largest (max - min) over the upward ports of any pointer, and the pointer where it occurs. */
        String worst() {
            long worst = -1;
            String where = "";
            for (var e : counts.entrySet()) {
                long d = spread(e.getKey(), e.getValue());
                if (d > worst) {
                    worst = d;
                    where = name(e.getKey()) + " " + java.util.Arrays.toString(e.getValue());
                }
            }
            return worst + " at " + where + " (" + counts.size() + " pointers)";
        }

        long worstSpread() {
            long worst = 0;
            for (var e : counts.entrySet()) {
                worst = Math.max(worst, spread(e.getKey(), e.getValue()));
            }
            return worst;
        }

        private long spread(long key, long[] c) {
            int node = (int) (key >>> 32);
            long max = Long.MIN_VALUE;
            long min = Long.MAX_VALUE;
            for (int port = t.firstPort(node); port < t.portEnd(node); port++) {
                if (t.tier(t.peerNode(port)) > t.tier(node)) {
                    max = Math.max(max, c[port - t.firstPort(node)]);
                    min = Math.min(min, c[port - t.firstPort(node)]);
                }
            }
            return max - min;
        }
    }

    private record Balance(long worstPointerSpread, String worstPointer, double[] maxOverMean, List<String> layers, int finished, int flows) {
        String describe(String scheme, int k) {
            StringBuilder b = new StringBuilder(String.format("%s k=%d: worst per-pointer spread %s; max/mean port tx bytes", scheme, k,
                    worstPointer));
            for (int i = 0; i < layers.size(); i++) {
                b.append(String.format(" %s %.4f", layers.get(i), maxOverMean[i]));
            }
            return b.toString();
        }

        double layer(String name) {
            return maxOverMean[layers.indexOf(name)];
        }
    }

    private Balance permutation(String scheme, int k, int packets, long seed) {
        Topology shape = ChoiceRecorder.Fabric.fatTree(k).topology();
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(k), scheme,
                trace(dir, "perm.csv", interPodPermutation(shape, packets * 4096L, seed)), seed);
        PointerSpread[] spread = new PointerSpread[1];
        CheckedRun run = CheckedRun.of(s, dir, ChoiceRecorder.on(prepared -> {
            spread[0] = new PointerSpread(prepared.topology());
            return spread[0]::record;
        }));
        List<String> names = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (LayerStats l : run.result().layers()) {
            if (List.of("E->A", "A->C", "C->A", "A->E").contains(l.layer())) {
                names.add(l.layer());
                ratios.add(l.maxPortTxBytes() / l.meanPortTxBytes());
            }
        }
        return new Balance(spread[0].worstSpread(), spread[0].worst(), ratios.stream().mapToDouble(Double::doubleValue).toArray(), names,
                run.result().flowsFinished(), run.result().flows());
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 8})
    void everyPointerRotatesExactlySoUplinksAndDownlinksIntoEachDestinationCarryEqualShares(int k) {
        int packets = 250; // not a multiple of the port counts, so rotations end mid-round
        for (long seed = 1; seed <= 2; seed++) {
            Balance ofan = permutation("ofan", k, packets, seed);
            Balance spray = permutation("host-spray", k, packets, seed);
            Balance rr = permutation("simple-rr", k, packets, seed);
            String msg = "seed " + seed + ": " + ofan.describe("ofan", k) + " | " + spray.describe("host-spray", k) + " | "
                    + rr.describe("simple-rr", k);
            System.out.println("[ofan] " + msg);
            assertThat(ofan.finished()).isEqualTo(ofan.flows());
            // the packets of each (switch, destination edge or pod, class) are dealt over the upward ports in turn
            assertThat(ofan.worstPointerSpread()).as(msg).isLessThanOrEqualTo(1);
            assertThat(spray.worstPointerSpread()).as(msg).isGreaterThan(1);
            assertThat(rr.worstPointerSpread()).as(msg).isGreaterThan(1);
            // hence every port of a layer carries the same bytes, up to a few frames out of about 250 per port and flow
            for (String layer : ofan.layers()) {
                assertThat(ofan.layer(layer)).as(msg + " [" + layer + "]").isLessThan(1.02);
            }
            assertThat(spray.layer("A->E")).as(msg).isGreaterThan(ofan.layer("A->E"));
            assertThat(spray.layer("C->A")).as(msg).isGreaterThan(ofan.layer("C->A"));
        }
    }

    // ---------------------------------------------------------------- (c) W-ECMP under failures

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 8})
    void underAConvergedFailureEachUplinkGetsPacketsInProportionToThePathsBehindIt(int k) {
        int packets = 600;
        int half = k / 2;
        // a0 - c0 fails: from e0, a0 leads to half - 1 cores that reach another pod, a1 .. to half each
        long[] weighted = uplinkCounts(k, packets, true);
        long[] fibOnly = uplinkCounts(k, packets, false);
        int total = (half - 1) + (half - 1) * half;
        String msg = String.format("k=%d, %d packets from e0 to another pod, a0-c0 failed: W-ECMP %s, FIB-only %s", k, packets,
                java.util.Arrays.toString(weighted), java.util.Arrays.toString(fibOnly));
        System.out.println("[ofan] " + msg);
        assertThat(weighted[0]).as(msg + "; a0 gets " + (half - 1) + "/" + total).isCloseTo((long) packets * (half - 1) / total,
                org.assertj.core.api.Assertions.within(1L));
        for (int a = 1; a < half; a++) {
            assertThat(weighted[a]).as(msg).isCloseTo((long) packets * half / total, org.assertj.core.api.Assertions.within(1L));
        }
        for (int a = 0; a < half; a++) {
            assertThat(fibOnly[a]).as(msg + "; every reachable port once per round").isCloseTo(packets / half,
                    org.assertj.core.api.Assertions.within(1L));
        }
    }

    /** Data packets e0 sends up to each of a0 .. a(k/2 - 1) for one flow from host 0 to the first host of pod 1, a0 - c0 failed. */
    private long[] uplinkCounts(int k, int packets, boolean weighted) {
        int dst = k * k / 4; // first host of pod 1
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(k), "ofan", trace(dir, "one.csv", List.of(flow(0, dst, packets * 4096L))), 1);
        s = ScenarioTweaks.withLoadBalancing(s, new ComponentSpec("ofan", new Ofan.Params(weighted)));
        s = TestScenarios.withFailures(s, TestScenarios.failLinks(List.of(new FailureSpec.FailedLink("a0", "c0", 0)), 0));
        List<Integer> sequence = new ArrayList<>();
        CheckedRun run = CheckedRun.of(s, dir, ChoiceRecorder.on(prepared -> (node, p, port) -> {
            if (node == prepared.topology().hostSwitch(0) && p.kind == Packet.DATA) {
                sequence.add(prepared.topology().peerNode(port));
            }
        }));
        assertThat(run.result().flowsFinished()).isEqualTo(1);
        assertThat(run.result().counters().linkLoss()).isZero();
        Topology t = run.prepared().topology();
        int e0 = t.hostSwitch(0);
        long[] counts = new long[k / 2];
        for (int a = 0; a < k / 2; a++) {
            counts[a] = run.prepared().network().egress(t.portsBetween(e0, t.nodeByName("a" + a))[0]).txPackets();
        }
        assertThat(java.util.Arrays.stream(counts).sum()).isEqualTo(packets);
        // interleaved: over every prefix of the sequence, each aggregation switch is within one packet of its share
        long[] seen = new long[k / 2];
        long[] share = counts.clone();
        for (int i = 0; i < sequence.size(); i++) {
            seen[sequence.get(i) - t.nodeByName("a0")]++;
            for (int a = 0; a < k / 2; a++) {
                double expected = (i + 1) * share[a] / (double) packets;
                assertThat(Math.abs(seen[a] - expected)).as("k=%d weighted=%s: a%d after %d packets has %d, share %.2f", k, weighted, a,
                        i + 1, seen[a], expected).isLessThan(1.5);
            }
        }
        return counts;
    }
}
