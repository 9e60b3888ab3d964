package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.Capability;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.Scenario;

/**
 * A scheme's counters (summary.json's {@code schemeCounters}) are those of the sequential run however
 * many threads and partitions run it: every scheme that declares {@link Capability#PARTITION_SAFE}
 * keeps its counters where its state is (per switch, per queue pair, or per partition) and sums them
 * when it reports, so no two threads ever add to one field.
 */
class SchemeCountersPartitionedTest {

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static final Map<String, Object> ECN = map("enabled", true, "kminBytes", 5_000, "kmaxBytes", 100_000, "pmax", 0.5);

    private static Scenario allToAll(Map<String, Object> loadBalancing, Map<String, Object> switches) {
        return ScenarioBinder.bind(map("name", "counters", "seed", 5, "topology", map("type", "fat-tree", "k", 4),
                "switches", switches, "loadBalancing", loadBalancing, "workload", map("type", "all-to-all", "messageBytes", 16 * 4096),
                "limits", map("maxTimeUs", 20_000)));
    }

    /** {@code s} with packet 3 of every 16th queue pair dropped in flight. */
    private static Scenario withDrops(Scenario s) {
        List<Object> drops = new java.util.ArrayList<>();
        for (int qp = 0; qp < 240; qp += 16) {
            drops.add(map("qp", qp, "psn", 3));
        }
        Map<String, Object> tree = new LinkedHashMap<>(org.lbsim.config.ScenarioTree.toTree(s));
        tree.put("failures", map("dropPackets", drops));
        return ScenarioBinder.bind(tree);
    }

    static Stream<Arguments> partitionSafeSchemes() {
        Stream<Arguments> defaults = LoadBalancers.REGISTRY.namesDeclaring(Capability.PARTITION_SAFE).stream()
                .map(name -> Arguments.of(name, allToAll(map("type", name), map("ecn", ECN)), ""));
        // counters that move with every packet, at every ToR, and at receivers whose senders are in other partitions:
        // a flowlet timeout of 50 ns (under a frame time at a queue pair's share of the line) starts a flowlet with every data packet;
        // packets dropped in flight make PRO's receivers NACK (an out-of-order window of one packet NACKs at once)
        Stream<Arguments> busyCounters = Stream.of(
                Arguments.of("letflow, a flowlet per packet", allToAll(map("type", "letflow", "flowletTimeoutUs", 0.05), map("ecn", ECN)),
                        "letflow.flowletTimeouts"),
                Arguments.of("conga, a flowlet per packet", allToAll(map("type", "conga", "flowletTimeoutUs", 0.05), map("ecn", ECN)),
                        "conga.flowletTimeouts"),
                Arguments.of("pro, packets dropped", withDrops(allToAll(map("type", "pro", "initialWindow", 1), map("ecn", ECN))), "pro.nacks"));
        return Stream.concat(defaults, busyCounters);
    }

    /** {@code busy}: a counter the scenario must move (so the comparison is not of zeros), or "". */
    @ParameterizedTest(name = "{0}")
    @MethodSource("partitionSafeSchemes")
    void schemeCountersOfAPartitionedRunAreThoseOfTheSequentialRun(String label, Scenario s, String busy) {
        RunResult sequential = Simulation.prepare(s, null).run();
        assertThat(sequential.flowsFinished()).as(label + ": every flow finished").isEqualTo(sequential.flowResults().size());
        if (!busy.isEmpty()) {
            assertThat(sequential.schemeCounters().get(busy).longValue()).as(label + ": " + busy).isPositive();
        }
        for (int[] cut : List.of(new int[] {2, 2}, new int[] {2, 9}, new int[] {3, 5})) {
            RunResult partitioned = Simulation.prepare(s, null, cut[0], cut[1]).run();
            assertThat(partitioned.schemeCounters()).as("%s: %d threads, %d partitions", label, cut[0], cut[1])
                    .containsExactlyEntriesOf(sequential.schemeCounters());
        }
    }
}
