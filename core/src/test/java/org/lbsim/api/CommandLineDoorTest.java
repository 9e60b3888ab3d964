package org.lbsim.api;

import org.lbsim.scenario.SetException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;

/** What the command line asks of org.lbsim.api: bind with --set and a seed, check, prepare and run, read inputs as the binder does. */
class CommandLineDoorTest {

    private static Map<String, Object> tree(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    @Test
    void bindAppliesTheAssignmentsInOrderThenTheSeedAndLeavesTheTreeAlone() {
        Map<String, Object> tree = tree("name", "t", "seed", 3);
        Scenario s = Lbsim.bind(tree, List.of("topology.k=4", "topology.k=6", "name=u"), 9L);
        assertThat(((TopologySpec.FatTree) s.topology()).k()).isEqualTo(6);
        assertThat(s.name()).isEqualTo("u");
        assertThat(s.seed()).isEqualTo(9);
        assertThat(tree).isEqualTo(tree("name", "t", "seed", 3));
        assertThat(Lbsim.bind(tree, List.of(), null).seed()).isEqualTo(3);
    }

    @Test
    void aMalformedAssignmentIsASetExceptionNamingItAndABadValueAScenarioExceptionBlamedOnIt() {
        assertThatThrownBy(() -> Lbsim.bind(tree(), List.of("topology.k"), null)).isInstanceOfSatisfying(SetException.class, e -> {
            assertThat(e.argument()).isEqualTo("topology.k");
            assertThat(e.field()).isEmpty();
            assertThat(e.problem()).isEqualTo("expected PATH=VALUE, such as topology.k=4");
        });
        List<String> sets = List.of("name=x", "topology.k=5");
        assertThatThrownBy(() -> Lbsim.bind(tree(), sets, null)).isInstanceOfSatisfying(ScenarioException.class, e -> {
            assertThat(e.field()).isEqualTo("topology.k");
            assertThat(Lbsim.blame(sets, e)).contains("topology.k=5");
        });
    }

    @Test
    void aDocumentThatIsNotAMapIsRefusedBeforeAnyAssignment() {
        assertThatThrownBy(() -> Lbsim.bind(List.of(1), List.of("topology.k"), null)).isInstanceOfSatisfying(ScenarioException.class,
                e -> assertThat(e.problem()).startsWith("expected a map of scenario keys").endsWith("got a list"));
        assertThatThrownBy(() -> Lbsim.bind(null, List.of(), null)).isInstanceOfSatisfying(ScenarioException.class,
                e -> assertThat(e.problem()).startsWith("the scenario is empty"));
    }

    @Test
    void theTreeOfAScenarioBindsToTheSameScenario() {
        Scenario s = Lbsim.bind(tree(), List.of("topology.k=4", "workload.messageBytes=65536"), 2L);
        assertThat(Lbsim.bind(Lbsim.tree(s))).isEqualTo(s);
        assertThat(Lbsim.treeValue(s.topology())).isEqualTo(Lbsim.tree(s).get("topology"));
    }

    @Test
    void checkAndPrepareRefuseWhatAPartitionedRunDoesNotSupportOnlyWithThreads() {
        Scenario pfc = Lbsim.bind(tree(), List.of("topology.k=4", "workload.messageBytes=4096", "switches.pfc.enabled=true"), null);
        Lbsim.check(pfc, RunOptions.sequential(null));
        assertThatThrownBy(() -> Lbsim.check(pfc, new RunOptions(null, 2))).isInstanceOfSatisfying(ScenarioException.class,
                e -> assertThat(e.field()).isEqualTo("switches.pfc.enabled"));
        assertThatThrownBy(() -> new RunOptions(null, -2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RunOptions.of(null, null).threads()).isZero();
    }

    @Test
    void aPreparedRunReportsItsSizeAndRunsOnce() {
        Scenario s = Lbsim.bind(tree(), List.of("topology.k=4", "workload.messageBytes=4096"), 1L);
        Run run = Lbsim.prepare(s, RunOptions.sequential(Path.of("")));
        assertThat(run.scenario()).isEqualTo(s);
        assertThat(run.hostCount()).isEqualTo(16);
        assertThat(run.flowCount()).isEqualTo(16);
        assertThat(run.queuePairCount()).isEqualTo(16);
        assertThat(run.partitioned()).isFalse();
        assertThat(run.threadCount()).isEqualTo(1);
        assertThat(run.lowerBoundPs()).isPositive();
        RunResult r = run.run(0);
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(run.queuePairsDone()).isEqualTo(16);
        assertThat(run.simulatedPs()).isGreaterThanOrEqualTo(r.cctPs());
        assertThatThrownBy(() -> run.run(0)).isInstanceOf(IllegalStateException.class);
        assertThat(Run.formatPs(52_786_980)).isEqualTo("52.78698 us");
        assertThat(Run.formatPs(-1)).isEqualTo("unfinished");
    }

    @Test
    void scalarsAreReadAsInScenarioFilesAndAmbiguousNumbersRefused() {
        assertThat(ScenarioText.plain("10")).isEqualTo(10);
        assertThat(ScenarioText.plain("1.5e-3")).isEqualTo(1.5e-3);
        assertThat(ScenarioText.plain("TRUE")).isEqualTo(true);
        assertThat(ScenarioText.plain("~")).isNull();
        assertThat(ScenarioText.setValue("'010'")).isEqualTo("010");
        assertThat(ScenarioText.setValue("")).isEqualTo("");
        assertThatThrownBy(() -> ScenarioText.plain("010")).isInstanceOf(ScenarioText.Refused.class).hasMessageEndingWith(ScenarioText.ALLOWED);
        assertThatThrownBy(() -> ScenarioText.setValue("0x10")).isInstanceOf(ScenarioText.Refused.class);
        assertThat(ScenarioText.describe("x")).isEqualTo("the string \"x\"");
        assertThat(ScenarioText.describe(8)).isEqualTo("the integer 8");
        assertThat(ScenarioText.closest("ofna", List.of("ofan", "ecmp"))).contains("ofan");
        assertThat(ScenarioText.closest("zzzzzz", List.of("ofan", "ecmp"))).isEmpty();
    }

    @Test
    void fieldPathsCoverTheFieldsInsideThem() {
        FieldPath topology = FieldPath.of("topology");
        FieldPath k = FieldPath.of("topology.k");
        FieldPath link = FieldPath.of("failures.links[0].a");
        assertThat(link.segments()).containsExactly("failures", "links", 0, "a");
        assertThat(topology.covers(k)).isTrue();
        assertThat(k.covers(topology)).isFalse();
        assertThat(k.overlaps(topology)).isTrue();
        assertThat(k.overlaps(FieldPath.of("topology.hostsPerEdge"))).isFalse();
        assertThat(FieldPath.of("failures.links").covers(link)).isTrue();
        assertThat(FieldPath.parse("topology..k")).isEmpty();
        assertThat(FieldPath.parse("a[x]")).isEmpty();
        assertThatThrownBy(() -> FieldPath.of("1x")).isInstanceOf(IllegalArgumentException.class);
    }
}
