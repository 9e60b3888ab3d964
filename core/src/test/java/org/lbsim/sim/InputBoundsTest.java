package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lbsim.registry.Component;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.GoBackN;

/** Time inputs within the longest simulated time, timers no shorter than the fabric resolves, and workload sizes, checked from the spec. */
class InputBoundsTest {
    /** Every timer name the check knows is a number field of some registered component, so a renamed field cannot slip out of it. */
    @Test
    void everyTimerFieldNamesAFieldOfARegisteredComponent() {
        Set<String> fields = new HashSet<>();
        for (Registry<?> r : List.of(LoadBalancers.REGISTRY, CongestionControls.REGISTRY, LossRecoveries.REGISTRY)) {
            for (Component<?> c : r.all()) {
                for (RecordComponent f : c.paramsType().getRecordComponents()) {
                    if (f.getType() == double.class) {
                        fields.add(f.getName());
                    }
                }
            }
        }
        List<String> known = new ArrayList<>();
        InputBounds.timerFields().values().forEach(known::addAll);
        assertThat(fields).containsAll(known);
    }

    @Test
    void theFrameAndHopBoundsFollowTheFabric() {
        InputBounds.Fabric f = InputBounds.Fabric.of(TestScenarios.fatTree(4), PacketSpec.defaults());
        assertThat(f.framePs()).isEqualTo(41_780); // (4096 + 62 + 20) bytes at 800 Gb/s
        assertThat(f.hopPs()).isEqualTo(500_000);
        TopologySpec mixed = new TopologySpec.FatTree(4, new LinkSpec(100, 50), new LinkSpec(400, 700), new LinkSpec(200, 300));
        InputBounds.Fabric g = InputBounds.Fabric.of(mixed, new PacketSpec(1000, 0, 64, 0));
        assertThat(g.fastestMbps()).isEqualTo(400_000);
        assertThat(g.framePs()).isEqualTo(20_000); // 1000 bytes at the fastest link
        assertThat(g.hopPs()).isEqualTo(50_000); // the shortest link
    }

    private static Scenario withRecovery(double rtoUs) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(65536, 0), 1);
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                new ComponentSpec("go-back-n", new GoBackN.Params(rtoUs)), s.workload(), s.failures(), s.limits());
    }

    @Test
    void aTimeoutNeedsAFrameAndAHopAndTheBoundsAreInclusive() {
        assertThatThrownBy(() -> Simulation.checkBeforeBuilding(withRecovery(0.04)))
                .hasMessageStartingWith("lossRecovery.rtoUs: must be at least 0.04178 us, the time of one 4178-byte frame at 800 Gb/s");
        assertThatThrownBy(() -> Simulation.checkBeforeBuilding(withRecovery(0.499999)))
                .hasMessageStartingWith("lossRecovery.rtoUs: must be at least 0.5 us, the propagation delay of the shortest link");
        Simulation.checkBeforeBuilding(withRecovery(0.5));
    }

    @Test
    void aTimeBeyondTheLongestSimulatedTimeIsRefusedWhereverItIs() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray",
                new WorkloadSpec.Jobs(List.of(new WorkloadSpec.JobSpec("", "all-reduce", "ring", 65536, 0, "packed", 1, 1e16, 1, 2e9, 0)),
                        List.of()), 1);
        assertThatThrownBy(() -> Simulation.checkBeforeBuilding(s)).isInstanceOfSatisfying(ScenarioException.class, e ->
                assertThat(e.all()).extracting(ScenarioException::getMessage).containsExactly(
                        "workload.jobs[0].gapNs: must be at most 1000000000000 ns (1000 s, the longest simulated time), got 1.0E16",
                        "workload.jobs[0].startUs: must be at most 1000000000 us (1000 s, the longest simulated time), got 2000000000"));
        Scenario failures = new Scenario("t", 1, TestScenarios.fatTree(4), PacketSpec.defaults(), SwitchSpec.defaults(),
                TestScenarios.lb("ecmp"), TestScenarios.lineRate(), TestScenarios.erasure(), new WorkloadSpec.Permutation(65536, 0),
                FailureSpec.defaults().withEvents(List.of(FailureSpec.Event.link(1e300, "e0", "a0", 0, "down", 0))), LimitsSpec.defaults());
        assertThatThrownBy(() -> Simulation.checkBeforeBuilding(failures))
                .hasMessage("failures.events[0].atUs: must be at most 1000000000 us (1000 s, the longest simulated time), got 1.0E300");
    }

    @Test
    void flowsPerIterationCountsEveryStep() {
        assertThat(Feasibility.flowsPerIteration("all-reduce", "ring", 16, 1)).isEqualTo(480);
        assertThat(Feasibility.flowsPerIteration("all-to-all", "staggered", 8, 1)).isEqualTo(56);
        assertThat(Feasibility.flowsPerIteration("incast", "ring", 8, 2)).isEqualTo(6);
        assertThat(Feasibility.flowsPerIteration("permutation", "ring", 8, 1)).isEqualTo(8);
    }

    /** The estimate bounds what the generator makes: every operation, on a few rank counts. */
    @Test
    void theFlowEstimateIsAtLeastWhatIsGenerated() {
        for (String[] opAlg : new String[][] {{"all-reduce", "ring"}, {"all-reduce", "tree"}, {"reduce-scatter", "ring"}, {"all-gather", "ring"},
                {"broadcast", "ring"}, {"broadcast", "tree"}, {"reduce", "ring"}, {"reduce", "tree"}, {"all-to-all", "parallel"},
                {"all-to-all", "staggered"}, {"permutation", "ring"}, {"incast", "ring"}, {"many-to-few", "ring"}}) {
            for (int hosts : new int[] {2, 5, 16}) {
                WorkloadSpec.Collective c = new WorkloadSpec.Collective(opAlg[0], opAlg[1], 65536, hosts, "packed", 1, 0, 3, 0);
                Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", c, 1);
                int built = Simulation.prepare(s, null).flows().size();
                assertThat(3 * Feasibility.flowsPerIteration(opAlg[0], opAlg[1], hosts, 1)).as(opAlg[0] + "/" + opAlg[1] + " on " + hosts)
                        .isGreaterThanOrEqualTo(built);
            }
        }
    }
}
