package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.FailedLink;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;

class LinkFailuresTest {
    private static final LinkSpec L = LinkSpec.defaults();

    private static Topology fatTree(int k) {
        return Topologies.fatTree(k, L, L, L);
    }

    private static boolean[] resolve(Topology t, List<FailedLink> links) {
        return LinkFailures.resolve(t, new FailureSpec(links, 0, 0), new SplittableRandom(1));
    }

    private static int count(boolean[] down) {
        int n = 0;
        for (boolean d : down) {
            n += d ? 1 : 0;
        }
        return n;
    }

    @Test
    void aNamedLinkFailsAndNothingElse() {
        Topology t = fatTree(4);
        boolean[] down = resolve(t, List.of(new FailedLink("e0", "a1", 0), new FailedLink("c3", "a7", 0)));

        assertThat(count(down)).isEqualTo(2);
        assertThat(down[t.linkOf(t.portsBetween(t.nodeByName("e0"), t.nodeByName("a1"))[0])]).isTrue();
        assertThat(down[t.linkOf(t.portsBetween(t.nodeByName("a7"), t.nodeByName("c3"))[0])]).isTrue();
    }

    @Test
    void theIndexPicksOneOfTheParallelLinksOfALeafSpine() {
        Topology t = Topologies.leafSpine(2, 2, 2, 3, L, L);
        boolean[] down = resolve(t, List.of(new FailedLink("s1", "l0", 2)));
        int[] between = t.portsBetween(t.nodeByName("l0"), t.nodeByName("s1"));
        assertThat(between).hasSize(3);
        assertThat(count(down)).isEqualTo(1);
        assertThat(down[t.linkOf(between[2])]).isTrue();
        assertThat(down[t.linkOf(between[0])]).isFalse();
    }

    @ParameterizedTest(name = "{0}-{1}[{2}] -> {3}")
    @CsvSource({
            "e0, x9, 0, links[0].b",
            "zz, a0, 0, links[0].a",
            "h0, e0, 0, links[0].a",
            "e0, h1, 0, links[0].b",
            "e0, c0, 0, links[0]",
            "e0, e1, 0, links[0]",
            "e0, a0, 1, links[0].index"})
    void aBadFailedLinkIsRejectedWithTheFieldAtFault(String a, String b, int index, String field) {
        Topology t = fatTree(4);
        ScenarioException e = catchThrowableOfType(() -> resolve(t, List.of(new FailedLink(a, b, index))), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo(field);
    }

    @Test
    void theFieldPathNamesTheFailingEntryOfTheList() {
        Topology t = fatTree(4);
        assertThatThrownBy(() -> resolve(t, List.of(new FailedLink("e0", "a0", 0), new FailedLink("e0", "a9", 0))))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.field()).isEqualTo("links[1].b"));
    }

    @Test
    void aBadFailedLinkInAScenarioIsReportedUnderFailuresBeforeAnythingRuns() {
        Scenario s = TestScenarios.withFailures(
                TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", new WorkloadSpec.Permutation(4096, 0), 1),
                new FailureSpec(List.of(new FailedLink("e0", "a9", 0)), 0, 0));
        assertThatThrownBy(() -> Simulation.prepare(s, null))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.field()).isEqualTo("failures.links[0].b"))
                .hasMessageContaining("a9");
    }

    @ParameterizedTest(name = "p = {0}")
    @ValueSource(doubles = {0.02, 0.1, 0.3})
    void eachSwitchLinkFailsWithTheGivenProbabilityAndHostLinksNever(double p) {
        Topology t = fatTree(8);
        int switchLinks = t.linkCount() - t.hostCount();
        int seeds = 200;
        long failed = 0;
        for (int seed = 0; seed < seeds; seed++) {
            boolean[] down = LinkFailures.resolve(t, new FailureSpec(List.of(), p, 0), new SplittableRandom(seed));
            for (int h = 0; h < t.hostCount(); h++) {
                assertThat(down[t.linkOf(t.hostPort(h))]).isFalse();
            }
            failed += count(down);
        }
        long trials = (long) seeds * switchLinks;
        double fraction = failed / (double) trials;
        double sigma = Math.sqrt(p * (1 - p) / trials);
        assertThat(fraction).isBetween(p - 4 * sigma, p + 4 * sigma);
    }

    @Test
    void randomFailuresDependOnTheStreamAndAreReproducible() {
        Topology t = fatTree(8);
        FailureSpec spec = new FailureSpec(List.of(), 0.1, 0);
        boolean[] a = LinkFailures.resolve(t, spec, new SplittableRandom(5));
        assertThat(LinkFailures.resolve(t, spec, new SplittableRandom(5))).isEqualTo(a);
        assertThat(LinkFailures.resolve(t, spec, new SplittableRandom(6))).isNotEqualTo(a);
        assertThat(count(LinkFailures.resolve(t, new FailureSpec(List.of(), 0, 0), new SplittableRandom(5)))).isZero();
    }
}
