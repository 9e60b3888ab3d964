package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.FlowResult;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;

/**
 * Traffic files written by htsim's and ConWeave's own generators (src/test/resources/traffic/README.md) run on small
 * fabrics: every flow of the file, with its endpoints, size and start time, and triggered connections starting when
 * the connection that fires their trigger completes.
 */
class TrafficFilesRunTest {
    @TempDir
    Path dir;

    private String copy(String name) throws IOException {
        try (InputStream in = TrafficFilesRunTest.class.getResourceAsStream("/traffic/" + name)) {
            Files.copy(in, dir.resolve(name));
        }
        return Files.readString(dir.resolve(name));
    }

    @Test
    void htsimsOwnPermutationRunsOnA128HostFatTreeAsTheMatrixSays() throws IOException {
        String text = copy("perm_128.cm");
        CheckedRun run = CheckedRun.of(TestScenarios.scenario(TestScenarios.fatTree(8), "ecmp", new WorkloadSpec.HtsimCm("perm_128.cm"), 1), dir);
        List<FlowResult> flows = run.result().flowResults();
        String[] lines = text.split("\n");
        assertThat(flows).hasSize(128);
        for (int i = 0; i < flows.size(); i++) {
            // "35->25 id 1 start 2500000 size 100000"
            String[] t = lines[i + 2].split(" ");
            String[] pair = t[0].split("->");
            FlowResult f = flows.get(i);
            assertThat(f.finished()).isTrue();
            assertThat(new long[] {f.src(), f.dst(), f.bytes(), f.startPs()})
                    .containsExactly(Long.parseLong(pair[0]), Long.parseLong(pair[1]), Long.parseLong(t[6]), Long.parseLong(t[4]));
        }
        assertThat(run.violations()).isEmpty();
    }

    @Test
    void htsimsAllReduceRunsEachTriggeredStepWhenTheStepFiringItCompletes() throws IOException {
        String text = copy("allreduce_8.cm");
        CheckedRun run = CheckedRun.of(TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", new WorkloadSpec.HtsimCm("allreduce_8.cm"), 1), dir);
        List<FlowResult> flows = run.result().flowResults();
        assertThat(flows).hasSize(120).allMatch(FlowResult::finished);
        Map<String, Integer> firedBy = new HashMap<>();
        String[] conns = text.lines().filter(l -> l.contains("->")).toArray(String[]::new);
        for (int i = 0; i < conns.length; i++) {
            String[] t = conns[i].split(" ");
            if (t[t.length - 2].equals("send_done_trigger")) {
                firedBy.put(t[t.length - 1], i);
            }
        }
        int triggered = 0;
        for (int i = 0; i < conns.length; i++) {
            String[] t = conns[i].split(" ");
            FlowResult f = flows.get(i);
            assertThat(f.bytes()).isEqualTo(50_000);
            if (t[3].equals("trigger")) {
                FlowResult before = flows.get(firedBy.get(t[4]));
                assertThat(f.startPs()).as(conns[i]).isEqualTo(before.startPs() + before.fctPs());
                triggered++;
            } else {
                assertThat(f.startPs()).isZero();
            }
        }
        assertThat(triggered).isEqualTo(112);
        assertThat(run.result().jobs()).hasSize(1);
        assertThat(run.violations()).isEmpty();
    }

    @Test
    void conWeavesOwnFlowFileRunsOnA16HostFatTreeAsTheFileSays() throws IOException {
        String text = copy("flow_conweave.txt");
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", new WorkloadSpec.Ns3Flow("flow_conweave.txt"), 1);
        // the generator's flows start at 2 s (traffic_gen.py base_t): a limit beyond
        s = new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(), s.lossRecovery(),
                s.workload(), s.failures(), new LimitsSpec(3_000_000));
        CheckedRun run = CheckedRun.of(s, dir);
        List<FlowResult> flows = run.result().flowResults();
        String[] lines = text.split("\n");
        assertThat(flows).hasSize(Integer.parseInt(lines[0].strip()));
        for (int i = 0; i < flows.size(); i++) {
            String[] t = lines[i + 1].split(" ");
            FlowResult f = flows.get(i);
            assertThat(f.finished()).isTrue();
            assertThat(new long[] {f.src(), f.dst(), f.bytes(), f.startPs()}).containsExactly(Long.parseLong(t[0]), Long.parseLong(t[1]),
                    Long.parseLong(t[3]), new BigDecimal(t[4]).movePointRight(12).longValueExact());
        }
        assertThat(run.violations()).isEmpty();
    }
}
