package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/**
 * The three layers are independent (DESIGN.md): every congestion control runs with every loss
 * recovery under every load-balancing scheme, on a lossy and on a lossless fabric. The names come
 * from the registries, so a scheme added tomorrow is covered without touching this test. Each run is
 * a k = 4 permutation of 64 packets with default ECN and default parameters.
 */
class TransportMatrixTest {
    private static final PfcSpec PFC = new PfcSpec(true, 200_000, 180_000, 0, 120_000, 100);

    static Stream<Arguments> combinations() {
        List<Arguments> all = new ArrayList<>();
        for (String cc : CongestionControls.REGISTRY.names()) {
            for (String recovery : LossRecoveries.REGISTRY.names()) {
                for (String lb : LoadBalancers.REGISTRY.names()) {
                    for (boolean pfc : new boolean[] {false, true}) {
                        all.add(Arguments.of(cc, recovery, lb, pfc));
                    }
                }
            }
        }
        return all.stream();
    }

    private static <T> ComponentSpec defaults(Registry<T> registry, String name) {
        return new ComponentSpec(name, registry.find(name).orElseThrow().defaults());
    }

    @ParameterizedTest(name = "{0} + {1} + {2}, pfc {3}")
    @MethodSource("combinations")
    void everyCombinationDeliversEveryFlowSoundly(String cc, String recovery, String lb, boolean pfc) {
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), EcnSpec.defaults(), pfc ? PFC : PfcSpec.defaults());
        Scenario s = new Scenario("matrix", 1, TestScenarios.fatTree(4), PacketSpec.defaults(), switches,
                defaults(LoadBalancers.REGISTRY, lb), defaults(CongestionControls.REGISTRY, cc), defaults(LossRecoveries.REGISTRY, recovery),
                new WorkloadSpec.Permutation(64 * 4096, 0), FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0),
                NicSpec.defaults());
        RunResult r = CheckedRun.of(s).result(); // invariants: conservation, no negative queue, no pool leak, lossless means lossless
        String measured = "CCT " + r.cctPs() + " ps (bound " + r.lowerBoundPs() + "), retransmissions " + r.counters().retransmissions()
                + " (spurious " + r.counters().spuriousRetransmissions() + "), timeouts " + r.counters().timeouts() + ", drops "
                + r.counters().dropped() + ", PAUSEs " + r.counters().pfcPauses();

        assertThat(r.flowsFinished()).as(measured).isEqualTo(16);
        assertThat(r.flowResults()).as(measured).allSatisfy(f -> assertThat(f.finished()).isTrue());
        assertThat(r.cctPs()).as(measured).isGreaterThanOrEqualTo(r.lowerBoundPs());
        assertThat(r.counters().pfcDeadlock()).as(measured).isEmpty();
        assertThat(r.counters().spuriousRetransmissions()).as(measured).isBetween(0L, r.counters().retransmissions());
        for (FlowResult f : r.flowResults()) {
            assertThat(f.packetsSent()).as("flow %d: %s", f.flow(), measured).isEqualTo(64 + f.retransmissions());
        }
        if (pfc) {
            assertThat(r.counters().dropped()).as(measured).isZero();
        } else {
            assertThat(r.counters().pfcPauses()).as(measured).isZero();
        }
    }
}
