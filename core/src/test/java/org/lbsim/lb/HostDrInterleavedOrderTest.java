package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.net.Packet;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * HOST DR's `order: interleaved` (OFAN App. E: each flow visits each uplink of its edge switch once
 * every k/2 packets; the default) against the switch-number order (k/2 cores behind
 * one aggregation switch in a row), on fat trees, for every pair of hosts in different pods.
 */
class HostDrInterleavedOrderTest {

    private static int uplink(Topology t, int src, int core) {
        int edge = t.hostSwitch(src);
        for (int p = t.firstPort(edge); p < t.portEnd(edge); p++) {
            int agg = t.peerNode(p);
            if (t.tier(agg) <= t.tier(edge)) {
                continue;
            }
            for (int q = t.firstPort(agg); q < t.portEnd(agg); q++) {
                if (t.peerNode(q) == core) {
                    return p;
                }
            }
        }
        throw new AssertionError("no uplink of " + t.nodeName(edge) + " leads to " + t.nodeName(core));
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 8})
    void everyWindowOfHalfKWaypointsCrossesEveryUplinkOnce(int k) {
        Topology t = Topologies.build(TestScenarios.fatTree(k));
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int half = k / 2;
        int interPodPairs = 0;
        for (int src = 0; src < t.hostCount(); src++) {
            for (int dst = 0; dst < t.hostCount(); dst++) {
                int[] byIndex = HostDestinationRotation.waypoints(t, fib, src, dst);
                if (byIndex.length != half * half) {
                    continue; // same pod: the waypoints are the pod's aggregation switches, one per uplink either way
                }
                interPodPairs++;
                int[] inter = HostDestinationRotation.interleave(t, byIndex, src);
                assertThat(Arrays.stream(inter).sorted().toArray()).as("a reordering of the same cores").isEqualTo(byIndex);
                // cyclic windows: wherever the random start puts the pointer, k/2 consecutive packets cross k/2 uplinks
                for (int start = 0; start < inter.length; start++) {
                    Set<Integer> ups = new HashSet<>();
                    Set<Integer> upsByIndex = new HashSet<>();
                    for (int i = 0; i < half; i++) {
                        ups.add(uplink(t, src, inter[(start + i) % inter.length]));
                        upsByIndex.add(uplink(t, src, byIndex[(start + i) % byIndex.length]));
                    }
                    assertThat(ups).as("interleaved, %d -> %d from %d", src, dst, start).hasSize(half);
                    if (start % half == 0) {
                        assertThat(upsByIndex).as("switch-number order, %d -> %d from %d", src, dst, start).hasSize(1);
                    }
                }
            }
        }
        assertThat(interPodPairs).isEqualTo(t.hostCount() * (t.hostCount() - half * half));
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 8})
    void withinAPodTheOrderIsUnchanged(int k) {
        Topology t = Topologies.build(TestScenarios.fatTree(k));
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int half = k / 2;
        int src = 0;
        int dst = half; // first host of the pod's second edge switch
        int[] byIndex = HostDestinationRotation.waypoints(t, fib, src, dst);
        assertThat(byIndex).hasSize(half);
        assertThat(HostDestinationRotation.interleave(t, byIndex, src)).isEqualTo(byIndex);
    }

    /** Per inter-pod flow, the edge uplinks its data packets took at the source edge switch, in order. */
    private static Map<String, List<Integer>> uplinkSequences(ComponentSpec lb, int k) {
        Scenario base = TestScenarios.scenario(TestScenarios.fatTree(k), "host-dr", new WorkloadSpec.Permutation(64 * 4096, 0), 7);
        Scenario s = new Scenario(base.name(), base.seed(), base.topology(), base.packets(), base.switches(), lb,
                base.congestionControl(), base.lossRecovery(), base.workload(), base.failures(), base.limits());
        Map<String, List<Integer>> seq = new HashMap<>();
        CheckedRun run = CheckedRun.of(s, null, ChoiceRecorder.on(prepared -> {
            Topology t = prepared.topology();
            int podHosts = k * k / 4;
            return (node, p, port) -> {
                if (p.kind == Packet.DATA && p.hops == 1 && node == t.hostSwitch(p.src) && p.src / podHosts != p.dst / podHosts) {
                    seq.computeIfAbsent(p.src + "->" + p.dst, x -> new ArrayList<>()).add(port);
                }
            };
        }));
        assertThat(run.result().flowsFinished()).isEqualTo(run.result().flows());
        return seq;
    }

    /** How many times a flow's data packet took the same edge uplink as the one before it. */
    private static long repeats(Map<String, List<Integer>> seq) {
        long r = 0;
        for (List<Integer> ups : seq.values()) {
            for (int i = 1; i < ups.size(); i++) {
                if (ups.get(i).equals(ups.get(i - 1))) {
                    r++;
                }
            }
        }
        return r;
    }

    @Test
    void theDefaultOrderIsInterleavedAsAppendixEAndTheAuthorsHtsimHaveIt() {
        int k = 4;
        ComponentSpec byDefault = TestScenarios.lb("host-dr");
        assertThat(((HostDestinationRotation.Params) byDefault.params()).order()).isEqualTo(HostDestinationRotation.ORDER_INTERLEAVED);
        Map<String, List<Integer>> dflt = uplinkSequences(byDefault, k);
        Map<String, List<Integer>> inter = uplinkSequences(new ComponentSpec("host-dr", new HostDestinationRotation.Params("interleaved")), k);
        Map<String, List<Integer>> index = uplinkSequences(new ComponentSpec("host-dr", new HostDestinationRotation.Params("index")), k);
        assertThat(dflt).isNotEmpty().isEqualTo(inter);
        // k = 4: two uplinks; interleaved alternates them on every flow, by switch number every other packet repeats one
        assertThat(repeats(dflt)).isZero();
        long packets = index.values().stream().mapToLong(l -> l.size() - 1).sum();
        assertThat(repeats(index)).isGreaterThanOrEqualTo(packets / 2 - index.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Interleaved", "random"})
    void anUnknownOrderIsRefusedNamingTheField(String order) {
        assertThatThrownBy(() -> new HostDestinationRotation.Params(order)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("order").hasMessageContaining("'index' or 'interleaved'");
    }
}
