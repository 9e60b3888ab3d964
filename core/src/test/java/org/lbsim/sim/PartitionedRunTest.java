package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.Capability;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.Registries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * {@code --threads N}: a partitioned run gives the same result however many partitions it
 * has (1, 2 or 3), for every supported scheme, congestion control and loss recovery, on fat trees and
 * leaf-spines, over several seeds, with failures of every kind too; and it refuses what it does not
 * support, naming the field.
 */
class PartitionedRunTest {

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static Map<String, Object> fatTree(int k) {
        return map("type", "fat-tree", "k", k);
    }

    private static Map<String, Object> leafSpine() {
        return map("type", "leaf-spine", "hostsPerLeaf", 4, "leaves", 6, "spines", 3);
    }

    private static Scenario scenario(Map<String, Object> topology, String lb, String cc, String lr, Map<String, Object> workload, long seed) {
        return ScenarioBinder.bind(map("name", "par", "seed", seed, "topology", topology,
                // a low marking threshold, so ECN coin flips happen on every layer
                "switches", map("ecn", map("enabled", true, "kminBytes", 5_000, "kmaxBytes", 100_000, "pmax", 0.5)),
                "loadBalancing", map("type", lb), "congestionControl", map("type", cc), "lossRecovery", map("type", lr),
                "workload", workload, "limits", map("maxTimeUs", 20_000)));
    }

    private static Map<String, Object> permutation(long bytes) {
        return map("type", "permutation", "messageBytes", bytes);
    }

    private static RunResult run(Scenario s, int threads) {
        return run(s, threads, threads);
    }

    private static RunResult run(Scenario s, int threads, int partitions) {
        PreparedRun prepared = Simulation.prepare(s, null, threads, partitions);
        RunResult r = prepared.run();
        assertThat(Invariants.violations(prepared)).as("invariants with %d threads, %d partitions", threads, partitions).isEmpty();
        return r;
    }

    /**
     * The same results on one thread and one partition, two and three threads, and more partitions than
     * threads (finer than the pods); and the sequential kernel's flows to the picosecond and its events
     * (its fabric statistics are frozen at the last completion itself, a partitioned run's at the end of
     * that window).
     */
    private static RunResult assertSameForOneTwoThreeThreads(Scenario s) {
        RunResult one = run(s, 1);
        assertThat(one.flowsFinished()).as("every flow finished").isEqualTo(one.flowResults().size());
        PreparedRun sequential = Simulation.prepare(s, null);
        RunResult seq = sequential.run();
        assertThat(Invariants.violations(sequential)).as("invariants of the sequential run").isEmpty();
        assertThat(seq.flowResults()).as("the sequential kernel's flows").isEqualTo(one.flowResults());
        if (s.failures().duringRun()) {
            // a failing link's wake-ups go stale: one per packet it lost in a partitioned run, one in all in a sequential run
            assertThat(seq.counters().events()).as("the sequential kernel's events").isLessThanOrEqualTo(one.counters().events());
        } else {
            assertThat(seq.counters().events()).as("the sequential kernel's events").isEqualTo(one.counters().events());
        }
        for (int[] cut : new int[][] {{2, 2}, {3, 3}, {1, 5}, {2, 9}}) {
            RunResult many = run(s, cut[0], cut[1]);
            assertThat(many).as("%d threads, %d partitions against 1", cut[0], cut[1]).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(one);
        }
        return one;
    }

    static Stream<Arguments> schemesAndSeeds() {
        List<Arguments> cases = new ArrayList<>();
        Random seeds = new Random(21);
        for (String lb : LoadBalancers.REGISTRY.namesDeclaring(Capability.PARTITION_SAFE)) {
            for (int i = 0; i < 2; i++) {
                cases.add(Arguments.of(lb, 1 + seeds.nextInt(1_000)));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("schemesAndSeeds")
    void everySupportedSchemeGivesTheSameResultOnOneTwoAndThreeThreads(String lb, long seed) {
        assertSameForOneTwoThreeThreads(scenario(fatTree(4), lb, "fixed-rate", "erasure", permutation(200 * 4096), seed));
    }

    static Stream<Arguments> transports() {
        List<Arguments> cases = new ArrayList<>();
        for (String cc : CongestionControls.REGISTRY.namesDeclaring(Capability.PARTITION_SAFE)) {
            for (String lr : LossRecoveries.REGISTRY.namesDeclaring(Capability.PARTITION_SAFE)) {
                cases.add(Arguments.of(cc, lr));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} + {1}")
    @MethodSource("transports")
    void everySupportedTransportGivesTheSameResultOnOneTwoAndThreeThreads(String cc, String lr) {
        // an all-to-all with small buffers: drops, retransmissions, CNPs and timers in every partition
        Scenario s = ScenarioBinder.bind(map("name", "par", "seed", 7, "topology", fatTree(4),
                "switches", map("buffer", map("type", "per-port", "bytesPerPort", 40_000),
                        "ecn", map("enabled", true, "kminBytes", 5_000, "kmaxBytes", 30_000, "pmax", 0.5)),
                "loadBalancing", map("type", "host-spray"), "congestionControl", map("type", cc), "lossRecovery", map("type", lr),
                "workload", map("type", "all-to-all", "messageBytes", 24 * 4096), "limits", map("maxTimeUs", 50_000)));
        RunResult one = run(s, 1);
        assertThat(one.counters().drops()).as("the small buffers drop packets").isPositive();
        for (int[] cut : new int[][] {{2, 2}, {3, 3}, {1, 6}, {2, 11}}) {
            assertThat(run(s, cut[0], cut[1])).as("%d threads, %d partitions", cut[0], cut[1]).usingRecursiveComparison()
                    .ignoringFields("wallTimeMs").isEqualTo(one);
        }
    }

    @Test
    void goBackNWithAReorderWindowGivesTheSameResultOnOneTwoAndThreeThreads() {
        // the receiver's window is per-queue-pair state: sprayed packets arrive out of order in every partition
        Function<Map<String, Object>, Scenario> allToAll = lr -> ScenarioBinder.bind(map("name", "par", "seed", 7,
                "topology", fatTree(4), "switches", map("buffer", map("type", "per-port", "bytesPerPort", 40_000),
                        "ecn", map("enabled", true, "kminBytes", 5_000, "kmaxBytes", 30_000, "pmax", 0.5)),
                "loadBalancing", map("type", "host-spray"), "congestionControl", map("type", "dcqcn"), "lossRecovery", lr,
                "workload", map("type", "all-to-all", "messageBytes", 24 * 4096), "limits", map("maxTimeUs", 50_000)));
        Scenario s = allToAll.apply(map("type", "go-back-n", "reorderWindowPackets", 16));
        RunResult one = run(s, 1);
        assertThat(one.flowsFinished()).isEqualTo(one.flowResults().size());
        assertThat(one.flowResults()).as("the window changes the run").isNotEqualTo(run(allToAll.apply(map("type", "go-back-n")), 1).flowResults());
        for (int[] cut : new int[][] {{2, 2}, {3, 3}, {1, 6}, {2, 11}}) {
            assertThat(run(s, cut[0], cut[1])).as("%d threads, %d partitions", cut[0], cut[1]).usingRecursiveComparison()
                    .ignoringFields("wallTimeMs").isEqualTo(one);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void leafSpineAndLargerFatTreesGiveTheSameResultOnOneTwoAndThreeThreads(long seed) {
        assertSameForOneTwoThreeThreads(scenario(leafSpine(), "drill", "dcqcn", "nic-sr", permutation(100 * 4096), seed));
        // samplers observe the fabric between windows: the time series, the balance series and the port-load window too
        Map<String, Object> tree = new LinkedHashMap<>(Map.of("name", "par", "seed", seed, "topology", leafSpine(),
                "loadBalancing", map("type", "ar"), "workload", permutation(60 * 4096),
                "metrics", map("sampleIntervalUs", 0.5, "balanceWindowUs", 2, "portLoadsFromUs", 1, "portLoadsToUs", 0)));
        Scenario sampled = ScenarioBinder.bind(tree);
        assertSameForOneTwoThreeThreads(sampled);
        assertThat(run(sampled, 2).series()).as("time series were sampled").isNotEmpty();
        assertSameForOneTwoThreeThreads(scenario(fatTree(6), "host-spray", "fixed-rate", "erasure",
                map("type", "all-to-all", "messageBytes", 8 * 4096), seed));
    }

    /** Every kind of failure a scenario can declare, as {@code failures} for a fat tree (k = 4 or 8) or the leaf-spine. */
    private static Map<String, Object> failures(String kind, boolean fatTree, boolean k8) {
        // fat tree: a0-c0 and e0-a1 exist for every k; the leaf-spine has one link between every leaf and spine
        Map<String, Object> upper = fatTree ? link("a0", "c0") : link("l0", "s0");
        Map<String, Object> lower = fatTree ? link("e0", "a1") : link("l3", "s1");
        String aSwitch = fatTree ? "a2" : "s2";
        return switch (kind) {
            case "static links" -> map("links", List.of(upper, lower), "convergenceDelayNs", 0);
            case "static links, converging later" -> map("links", List.of(upper, lower), "convergenceDelayNs", 3_000);
            case "random static links, converging later" -> map("linkProbability", 0.1, "convergenceDelayRtts", 0.5);
            case "events" -> map("events", List.of(
                    map("atUs", 3, "link", upper, "action", "down"),
                    map("atUs", 4, "link", lower, "action", "degrade", "rateGbps", 100),
                    map("atUs", 5, "node", aSwitch, "action", "down"),
                    map("atUs", 9, "link", upper, "action", "up"),
                    map("atUs", 11, "node", aSwitch, "action", "up"),
                    map("atUs", 12, "link", lower, "action", "up")),
                    "convergenceDelayNs", 1_500, "detectionDelayNs", 400);
            // a top-of-rack switch too: its hosts' NICs send onto failed links
            case "events, routes never converging" -> map("events", List.of(
                    map("atUs", 3, "link", upper, "action", "down"),
                    map("atUs", 3.5, "node", fatTree ? "e3" : "l4", "action", "down"),
                    map("atUs", 6, "link", upper, "action", "up"),
                    map("atUs", 7, "node", fatTree ? "e3" : "l4", "action", "up")), "convergenceDelayNs", -1);
            // a failure every 2-3 us at k = 4 (32 links) and on the leaf-spine (18), one per us at k = 8 (256)
            case "random failures" -> map("mtbfUs", !fatTree ? 50 : k8 ? 256 : 64, "mttrUs", 3, "convergenceDelayNs", 1_000, "detectionDelayNs", 200);
            case "dropped packets" -> map("dropPackets", List.of(map("qp", 0, "psn", 0), map("qp", 0, "psn", 7), map("qp", 3, "psn", 20),
                    map("qp", 9, "psn", 1), map("qp", 14, "psn", 50)));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static Map<String, Object> link(String a, String b) {
        return map("a", a, "b", b);
    }

    static final List<String> FAILURE_KINDS = List.of("static links", "static links, converging later", "random static links, converging later",
            "events", "events, routes never converging", "random failures", "dropped packets");

    /** Each kind of failure on a fat tree k = 4 and the leaf-spine, most on k = 8 too, with a few schemes, loss recoveries and seeds. */
    static Stream<Arguments> failureCases() {
        List<Arguments> cases = new ArrayList<>();
        List<String> schemes = List.of("ecmp", "host-spray", "ofan", "simple-rr", "drill");
        List<String> recoveries = List.of("nic-sr", "sack", "go-back-n", "erasure");
        // a rho_max sender follows the fabric: each convergence tells every queue pair its new rate
        List<String> congestionControls = List.of("fixed-rate", "rho-max", "dcqcn");
        Random r = new Random(2024);
        int i = 0;
        for (String kind : FAILURE_KINDS) {
            boolean onK8 = !kind.equals("static links, converging later") && !kind.equals("events, routes never converging");
            for (String fabric : onK8 ? List.of("fat tree k = 4", "leaf-spine", "fat tree k = 8") : List.of("fat tree k = 4", "leaf-spine")) {
                cases.add(Arguments.of(kind, fabric, schemes.get(i % schemes.size()), congestionControls.get(i % congestionControls.size()),
                        recoveries.get(i % recoveries.size()), 1 + r.nextInt(1_000)));
                i++;
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} on a {1}, {2} + {3} + {4}, seed {5}")
    @MethodSource("failureCases")
    void failuresGiveTheSameResultOnOneTwoAndThreeThreads(String kind, String fabric, String lb, String cc, String lr, long seed) {
        boolean fatTree = fabric.startsWith("fat tree");
        Map<String, Object> topology = fabric.endsWith("8") ? fatTree(8) : fatTree ? fatTree(4) : leafSpine();
        Map<String, Object> tree = map("name", "par", "seed", seed, "topology", topology,
                "switches", map("ecn", map("enabled", true, "kminBytes", 5_000, "kmaxBytes", 100_000, "pmax", 0.5)),
                "loadBalancing", map("type", lb), "lossRecovery", map("type", lr),
                "congestionControl", cc.equals("rho-max") ? map("type", "fixed-rate", "rhoMax", true) : map("type", cc),
                "workload", permutation((fabric.endsWith("8") ? 60 : 150) * 4096), "failures", failures(kind, fatTree, fabric.endsWith("8")),
                "limits", map("maxTimeUs", 20_000));
        if (kind.equals("events")) {
            // samplers at the instants of the events: both run between windows, in one order
            tree.put("metrics", map("sampleIntervalUs", 1, "balanceWindowUs", 2, "portLoadsFromUs", 2, "portLoadsToUs", 0));
        }
        RunResult one = assertSameForOneTwoThreeThreads(ScenarioBinder.bind(tree));
        long lostAtEvents = one.failureEvents().stream().mapToLong(e -> e.lostAtEvent()).sum();
        String what = one.counters() + " " + one.failureEvents();
        switch (kind) {
            case "static links" -> assertThat(one.counters().failedLinks()).as(what).isEqualTo(2);
            case "static links, converging later" -> assertThat(one.counters().linkLoss()).as(what + ": frames sent onto the failed links before G").isPositive();
            case "random static links, converging later" -> assertThat(one.counters().failedLinks()).as(what).isPositive();
            case "events", "events, routes never converging", "random failures" -> {
                assertThat(one.failureEvents()).as(what).isNotEmpty();
                assertThat(lostAtEvents).as(what + ": frames on the wires and in the queues when the links failed").isPositive();
            }
            case "dropped packets" -> {
                RunResult.Counters c = one.counters();
                assertThat(c.dropped() - c.drops() - c.linkLoss() - c.noRouteDrops()).as(what + ": the five packets dropped on purpose").isEqualTo(5);
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    static Stream<Long> seeds() {
        Random r = new Random(2021);
        return Stream.generate(() -> 1 + (long) r.nextInt(10_000)).limit(3);
    }

    @ParameterizedTest(name = "{0} partitions")
    @MethodSource("partitionCounts")
    void everyPartitionGetsPartOfTheFabricAndHostsStayWithTheirSwitch(int partitions) {
        Topology t = Topologies.build(scenario(fatTree(8), "ecmp", "fixed-rate", "erasure", permutation(4096), 1).topology());
        int[] part = Partitioning.partitionOfNodes(t, partitions);
        assertThat(Arrays.stream(part).distinct().count()).isEqualTo(partitions);
        for (int h = 0; h < t.hostCount(); h++) {
            assertThat(part[h]).isEqualTo(part[t.hostSwitch(h)]);
        }
        for (int n = t.hostCount(); n < t.nodeCount(); n++) {
            if (t.pod(n) >= 0) {
                assertThat(part[n]).as("a pod stays in one partition").isEqualTo(part[t.hostSwitch(firstHostOfPod(t, t.pod(n)))]);
            }
        }
        assertThat(Partitioning.lookaheadPs(t)).isEqualTo(500_000); // the smallest link delay: 0.5 us everywhere
    }

    @ParameterizedTest(name = "{0} partitions")
    @MethodSource("finerCounts")
    void moreThanOnePartitionPerPodSplitsTheSwitchesInOrderWithTheirHosts(int partitions) {
        Topology t = Topologies.build(scenario(fatTree(8), "ecmp", "fixed-rate", "erasure", permutation(4096), 1).topology());
        int[] part = Partitioning.partitionOfNodes(t, partitions);
        assertThat(Arrays.stream(part).distinct().count()).as("every partition gets part of the fabric").isEqualTo(partitions);
        for (int h = 0; h < t.hostCount(); h++) {
            assertThat(part[h]).isEqualTo(part[t.hostSwitch(h)]);
        }
        for (int n = t.hostCount() + 1; n < t.nodeCount(); n++) {
            assertThat(part[n]).as("switches in node order, contiguous blocks").isBetween(part[n - 1], part[n - 1] + 1);
        }
        int[] ports = new int[partitions];
        int total = 0;
        for (int n = 0; n < t.nodeCount(); n++) {
            ports[part[n]] += t.portEnd(n) - t.firstPort(n);
            total += t.portEnd(n) - t.firstPort(n);
        }
        // weighed by ports (events happen where packets arrive): none above an even share by more than one
        // unit (a ToR with its hosts: k + k/2 ports)
        assertThat(Arrays.stream(ports).max().orElseThrow()).as("the heaviest partition").isLessThanOrEqualTo(total / partitions + 8 + 4);
    }

    static Stream<Integer> finerCounts() {
        return Stream.of(9, 16, 33, 80);
    }

    @org.junit.jupiter.api.Test
    void theDefaultCutHasAboutSixteenHostsPerPartitionAndAtLeastOnePerThread() {
        assertThat(Partitioning.defaultPartitions(Topologies.build(scenario(fatTree(4), "ecmp", "fixed-rate", "erasure", permutation(4096), 1)
                .topology()), 3)).isEqualTo(3);
        Topology k8 = Topologies.build(scenario(fatTree(8), "ecmp", "fixed-rate", "erasure", permutation(4096), 1).topology());
        assertThat(Partitioning.defaultPartitions(k8, 1)).isEqualTo(128 / 16);
        assertThat(Partitioning.defaultPartitions(k8, 12)).isEqualTo(12);
    }

    private static int firstHostOfPod(Topology t, int pod) {
        for (int h = 0; h < t.hostCount(); h++) {
            if (t.pod(h) == pod) {
                return h;
            }
        }
        throw new AssertionError("no host in pod " + pod);
    }

    static Stream<Integer> partitionCounts() {
        return Stream.of(1, 2, 3, 4, 8);
    }

    static Stream<Arguments> unsupported() {
        return Stream.of(
                Arguments.of(map("switches", map("pfc", map("enabled", true))), "switches.pfc.enabled"),
                Arguments.of(map("nic", map("queuePairs", "persistent")), "nic.queuePairs"),
                Arguments.of(map("workload", map("type", "collective", "op", "all-reduce", "algorithm", "ring", "bytes", 1 << 20)), "workload"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("unsupported")
    void whatIsNotSupportedIsRefusedNamingTheField(Map<String, Object> change, String field) {
        Map<String, Object> tree = map("name", "par", "seed", 1, "topology", fatTree(4), "loadBalancing", map("type", "host-spray"),
                "workload", permutation(4096));
        tree.putAll(change);
        Scenario s = ScenarioBinder.bind(tree);
        assertThatThrownBy(() -> Simulation.prepare(s, null, 2)).isInstanceOf(ScenarioException.class)
                .satisfies(e -> assertThat(((ScenarioException) e).field()).isEqualTo(field))
                .hasMessageContaining("--threads");
        assertThat(Simulation.prepare(s, null).run().flowResults()).as("the sequential run takes it").isNotEmpty();
    }

    /** Every registered component that does not declare {@link Capability#PARTITION_SAFE}, with the scenario field that names it. */
    static Stream<Arguments> notPartitionSafe() {
        List<Arguments> cases = new ArrayList<>();
        for (String field : Registries.fields()) {
            Registry<?> r = Registries.forField(field).orElseThrow();
            for (String name : r.names()) {
                if (!r.declares(name, Capability.PARTITION_SAFE)) {
                    cases.add(Arguments.of(field, name));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("notPartitionSafe")
    void aComponentNotDeclaredPartitionSafeIsRefusedInOneLineListingThoseThatAre(String field, String name) {
        Map<String, Object> tree = map("name", "par", "seed", 1, "topology", fatTree(4), "workload", permutation(4096));
        tree.put(field, map("type", name));
        Scenario s = ScenarioBinder.bind(tree);
        Registry<?> r = Registries.forField(field).orElseThrow();
        assertThatThrownBy(() -> Simulation.prepare(s, null, 2)).isInstanceOf(ScenarioException.class)
                .satisfies(e -> assertThat(((ScenarioException) e).field()).isEqualTo(field + ".type"))
                .hasMessage(field + ".type: '" + name + "' is not supported with --threads; allowed: "
                        + String.join(", ", r.namesDeclaring(Capability.PARTITION_SAFE)));
    }
}
