package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.net.Packet;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topology;

/**
 * HOST DR (OFAN 6.1, after DRB): the source keeps one pointer per (destination, class) over the
 * switches of the lowest common layer, so each (source, destination) pair's packets are dealt
 * evenly over its waypoints; under failures only waypoints both ends can reach are used.
 */
class HostDestinationRotationTest {
    @TempDir
    Path dir;

    /** Packets of each queue pair and class, by the waypoint (pathId) they carried, seen at the first switch. */
    private record Observed(CheckedRun run, Map<String, Map<Integer, Long>> byPair, List<String> misrouted) {
    }

    private static Observed observe(Scenario s, Path dir) {
        Map<String, Map<Integer, Long>> byPair = new HashMap<>();
        List<String> misrouted = new ArrayList<>();
        CheckedRun run = CheckedRun.of(s, dir, ChoiceRecorder.on(prepared -> {
            Topology t = prepared.topology();
            return (node, p, port) -> {
                if (p.kind != Packet.DATA && p.kind != Packet.ACK) {
                    return;
                }
                if (node == t.hostSwitch(p.src) && p.hops == 1) {
                    String key = p.src + "->" + p.dst + (p.kind == Packet.DATA ? " data" : " ack");
                    byPair.computeIfAbsent(key, x -> new HashMap<>()).merge(p.pathId, 1L, Long::sum);
                }
                int next = t.peerNode(port);
                if (p.pathId >= 0 && t.tier(next) == t.tier(p.pathId) && next != p.pathId) {
                    misrouted.add(t.nodeName(node) + " sent a packet for waypoint " + t.nodeName(p.pathId) + " to " + t.nodeName(next));
                }
            };
        }));
        return new Observed(run, byPair, misrouted);
    }

    /** Checks that each pair's packets are spread floor / ceil over exactly its waypoints; returns a summary. */
    private static String assertDealtEvenly(Observed o, Fib routes, String label) {
        Topology t = o.run().prepared().topology();
        int pairs = 0;
        long worstSpread = 0;
        for (var e : o.byPair().entrySet()) {
            String[] parts = e.getKey().split("->| ");
            int src = Integer.parseInt(parts[0]);
            int dst = Integer.parseInt(parts[1]);
            int[] waypoints = HostDestinationRotation.waypoints(t, routes, src, dst);
            Map<Integer, Long> counts = e.getValue();
            long m = counts.values().stream().mapToLong(Long::longValue).sum();
            String what = label + " " + e.getKey() + ": " + m + " packets over waypoints "
                    + Arrays.toString(Arrays.stream(waypoints).mapToObj(t::nodeName).toArray()) + ", counts " + named(t, counts);
            if (waypoints.length == 0) {
                assertThat(counts.keySet()).as(what).containsOnly(-1); // same edge switch: nothing to choose
                continue;
            }
            pairs++;
            assertThat(Arrays.stream(waypoints).boxed().toList()).as(what).containsAll(counts.keySet());
            long lo = m / waypoints.length;
            long hi = (m + waypoints.length - 1) / waypoints.length;
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int w : waypoints) {
                long c = counts.getOrDefault(w, 0L);
                assertThat(c).as(what).isBetween(lo, hi);
                min = Math.min(min, c);
                max = Math.max(max, c);
            }
            worstSpread = Math.max(worstSpread, max - min);
        }
        assertThat(o.misrouted()).as(label + ": packets that did not go through their waypoint").isEmpty();
        return label + ": " + pairs + " (pair, class) rotations, worst max - min " + worstSpread;
    }

    private static String named(Topology t, Map<Integer, Long> counts) {
        StringBuilder b = new StringBuilder("{");
        counts.forEach((w, c) -> b.append(w < 0 ? "none" : t.nodeName(w)).append('=').append(c).append(' '));
        return b.append('}').toString();
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 8})
    void eachPairsPacketsAreDealtEvenlyOverItsWaypoints(int k) {
        // a random permutation (inter-pod pairs rotate over the cores, intra-pod ones over their pod's aggregation switches)
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(k), "host-dr", new WorkloadSpec.Permutation(103 * 4096, 0), 3);
        Observed o = observe(s, null);
        assertThat(o.run().result().flowsFinished()).isEqualTo(o.run().result().flows());
        Topology t = o.run().prepared().topology();
        String summary = assertDealtEvenly(o, Routing.compute(t, new boolean[t.linkCount()]), "k=" + k);
        System.out.println("[host-dr] " + summary);
    }

    @ParameterizedTest(name = "convergence {0} ns")
    @ValueSource(doubles = {0, -1})
    void underAFailureOnlyWaypointsBothEndsReachAreUsed(double convergenceNs) {
        int k = 4;
        List<FailureSpec.FailedLink> failed = List.of(new FailureSpec.FailedLink("a0", "c0", 0));
        // one flow from pod 0 to pod 1, then a whole permutation
        Scenario single = TestScenarios.scenario(TestScenarios.fatTree(k), "host-dr", trace(dir, "one.csv", List.of(flow(0, 4, 100 * 4096L))), 1);
        single = TestScenarios.withFailures(single, TestScenarios.failLinks(failed, convergenceNs));
        Observed one = observe(single, dir);
        Topology t = one.run().prepared().topology();
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(t.portsBetween(t.nodeByName("a0"), t.nodeByName("c0"))[0])] = true;
        Fib converged = Routing.compute(t, down);
        int c0 = t.nodeByName("c0");
        long[] coreTx = new long[4];
        for (int c = 0; c < 4; c++) {
            int core = t.nodeByName("c" + c);
            for (int port = t.firstPort(core); port < t.portEnd(core); port++) {
                coreTx[c] += one.run().prepared().network().egress(port).txPackets();
            }
        }
        String msg = "convergence " + convergenceNs + " ns, h0 -> h4 with a0-c0 failed: frames sent by c0..c3 " + Arrays.toString(coreTx)
                + ", by waypoint " + one.byPair().entrySet().stream().map(e -> e.getKey() + " " + named(t, e.getValue())).toList();
        System.out.println("[host-dr] " + msg);
        assertThat(one.run().result().flowsFinished()).isEqualTo(1);
        assertThat(one.run().result().counters().linkLoss()).as(msg).isZero();
        assertThat(coreTx[0]).as(msg + "; c0 cannot reach pod 0").isZero();
        for (int c = 1; c < 4; c++) {
            // 100 data packets one way and 100 ACKs back, each dealt over c1, c2, c3
            assertThat(coreTx[c]).as(msg).isBetween(2L * 33, 2L * 34);
        }
        assertDealtEvenly(one, converged, "single flow");

        Scenario perm = TestScenarios.scenario(TestScenarios.fatTree(k), "host-dr", new WorkloadSpec.Permutation(60 * 4096, 0), 5);
        perm = TestScenarios.withFailures(perm, TestScenarios.failLinks(failed, convergenceNs));
        Observed all = observe(perm, null);
        assertThat(all.run().result().flowsFinished()).isEqualTo(16);
        assertThat(all.run().result().counters().linkLoss()).isZero();
        for (var e : all.byPair().entrySet()) {
            String[] parts = e.getKey().split("->| ");
            int src = Integer.parseInt(parts[0]);
            int dst = Integer.parseInt(parts[1]);
            if (t.pod(src) == 0 || t.pod(dst) == 0) {
                assertThat(e.getValue()).as("%s touches pod 0, which c0 cannot reach", e.getKey()).doesNotContainKey(c0);
            }
        }
        System.out.println("[host-dr] " + assertDealtEvenly(all, converged, "permutation, convergence " + convergenceNs));
    }
}
