package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.lb.themis.Themis;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec.FailedLink;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/** Whatever the scheme, a small permutation is delivered, soundly, and never faster than its bound. */
class EverySchemeDeliversTest {

    static List<String> schemes() {
        return LoadBalancers.REGISTRY.names();
    }

    private static Scenario permutation(String scheme) {
        return TestScenarios.scenario(TestScenarios.fatTree(4), scheme, new WorkloadSpec.Permutation(64 * 4096, 0), 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void everySchemeDeliversAPermutationOnAHealthyFabricNoSoonerThanTheBound(String scheme) {
        RunResult r = CheckedRun.of(permutation(scheme)).result();

        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(r.cctPs()).isGreaterThanOrEqualTo(r.lowerBoundPs());
        assertThat(r.lowerBoundPs()).isPositive();
        assertThat(r.counters().dropped()).isZero();
        assertThat(r.counters().retransmissions()).isZero();
    }

    /**
     * The permutation; Themis with its ToR-uplink spraying, since its PathMap (3.2) needs the healthy
     * fabric's hash stages and is refused, naming switchHash, around failed links.
     */
    private static Scenario aroundFailures(String scheme) {
        Scenario s = permutation(scheme);
        if (!scheme.equals("themis")) {
            return s;
        }
        Themis.Params d = Themis.Params.defaults();
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(),
                new ComponentSpec("themis", d.with(Themis.Params.MIX64, d.observeDataAt())), s.congestionControl(), s.lossRecovery(),
                s.workload(), s.failures(), s.limits());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void everySchemeDeliversAroundFailedLinksOnceRoutingHasConverged(String scheme) {
        List<FailedLink> failed = List.of(new FailedLink("a0", "c0", 0), new FailedLink("e2", "a2", 0));
        RunResult converged = CheckedRun.of(TestScenarios.withFailures(aroundFailures(scheme), TestScenarios.failLinks(failed, 0))).result();
        RunResult after5us = CheckedRun.of(TestScenarios.withFailures(aroundFailures(scheme), TestScenarios.failLinks(failed, 5_000))).result();

        assertThat(converged.flowsFinished()).isEqualTo(16);
        assertThat(converged.counters().linkLoss()).isZero();
        assertThat(converged.counters().noRouteDrops()).isZero();
        assertThat(after5us.flowsFinished()).isEqualTo(16);
        assertThat(after5us.cctPs()).isGreaterThanOrEqualTo(after5us.lowerBoundPs());
    }
    /** A custom fabric's switches are all of one tier: one switch, or a chain of three, is a single path every scheme runs. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void everySchemeDeliversOnACustomFabricOfOneSwitchAndOfAChain(String scheme) {
        TopologySpec one = new TopologySpec.Custom(2, List.of("s0"), List.of("h0 s0", "h1 s0"), 400, 500, List.of());
        TopologySpec chain = new TopologySpec.Custom(2, List.of("a", "b", "c"), List.of("h0 a", "a b", "b c", "c h1"), 400, 500, List.of());
        for (TopologySpec topo : List.of(one, chain)) {
            RunResult r = CheckedRun.of(TestScenarios.scenario(topo, scheme, new WorkloadSpec.Permutation(16 * 4096, 0), 1)).result();
            assertThat(r.flowsFinished()).isEqualTo(2);
            assertThat(r.cctPs()).isGreaterThanOrEqualTo(r.lowerBoundPs());
            assertThat(r.counters().dropped()).isZero();
        }
    }
}
