package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * HOST DR's `order: interleaved` (OFAN App. E: each flow visits each uplink of its edge switch once
 * every k/2 packets) against the default switch-number order (k/2 cores behind one aggregation
 * switch in a row), on fat trees, for every pair of hosts in different pods.
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

    @ParameterizedTest
    @ValueSource(strings = {"", "Interleaved", "random"})
    void anUnknownOrderIsRefusedNamingTheField(String order) {
        assertThatThrownBy(() -> new HostDestinationRotation.Params(order)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("order").hasMessageContaining("'index' or 'interleaved'");
    }
}
