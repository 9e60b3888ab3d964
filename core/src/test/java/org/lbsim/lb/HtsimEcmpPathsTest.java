package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.net.Packet;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/**
 * {@code ecmp} with {@code hash: htsim} on a k = 8 fat tree takes the uplinks htsim_uec takes for the
 * same connection matrix and seed. The expected uplinks are the ones htsim (-seed 1, -paths 1,
 * -fg_ar ecmp, its uplink shuffle off) chose for the first nine connections of gen_permutation.py's
 * 128-host matrix of seed 1; htsim's aggregation switch at pod position p reaches core l x 4 + p by its
 * uplink l, which is lbsim's core p x 4 + l.
 */
class HtsimEcmpPathsTest {
    private static final String MATRIX = """
            Nodes 128
            Connections 9
            14->127 id 1 start 0 size 65536
            46->43 id 2 start 0 size 65536
            71->66 id 3 start 0 size 65536
            36->85 id 4 start 0 size 65536
            95->15 id 5 start 0 size 65536
            113->55 id 6 start 0 size 65536
            84->99 id 7 start 0 size 65536
            17->125 id 8 start 0 size 65536
            4->118 id 9 start 0 size 65536
            """;

    @Test
    void every_switch_takes_the_uplink_htsim_takes(@TempDir Path dir) throws IOException {
        Path cm = dir.resolve("traffic.cm");
        Files.writeString(cm, MATRIX);
        Scenario base = TestScenarios.scenario(TestScenarios.fatTree(8), "ecmp", new WorkloadSpec.HtsimCm(cm.toString()), 1);
        Scenario s = new Scenario(base.name(), base.seed(), base.topology(), base.packets(), base.switches(),
                new ComponentSpec("ecmp", new FlowEcmp.Params(FlowEcmp.Params.HTSIM, 1)), base.congestionControl(), base.lossRecovery(),
                base.workload(), base.failures(), base.limits());
        Map<String, Set<String>> chosen = new TreeMap<>();
        CheckedRun run = CheckedRun.of(s, null, ChoiceRecorder.on(prepared -> {
            Topology t = prepared.topology();
            return (node, p, port) -> chosen.computeIfAbsent((p.kind == Packet.DATA ? "data " : p.kind == Packet.ACK ? "ack " : "other ")
                    + p.flow + " at " + t.nodeName(node), x -> new TreeSet<>()).add(t.nodeName(t.peerNode(port)));
        }));
        assertThat(run.result().flowsFinished()).isEqualTo(9);
        // htsim's ToR 3 took uplink 3 and its aggregation switch 3 (position 3) uplink 3 for flow 1 (lbsim's queue pair 0)
        assertThat(chosen.get("data 0 at e3")).containsExactly("a3");
        assertThat(chosen.get("data 0 at a3")).containsExactly("c15");
        // flow 2 stays in pod 2: ToR 11 took uplink 2 for the data, ToR 10 uplink 0 for its ACKs
        assertThat(chosen.get("data 1 at e11")).containsExactly("a10");
        assertThat(chosen.get("ack 1 at e10")).containsExactly("a8");
        // flow 4: ToR 9 uplink 1, aggregation 9 (position 1) uplink 0
        assertThat(chosen.get("data 3 at e9")).containsExactly("a9");
        assertThat(chosen.get("data 3 at a9")).containsExactly("c4");
        // flow 5: ToR 23 uplink 0, aggregation 20 (position 0) uplink 1
        assertThat(chosen.get("data 4 at e23")).containsExactly("a20");
        assertThat(chosen.get("data 4 at a20")).containsExactly("c1");
        // flow 6: ToR 28 uplink 0, aggregation 28 (position 0) uplink 1
        assertThat(chosen.get("data 5 at e28")).containsExactly("a28");
        assertThat(chosen.get("data 5 at a28")).containsExactly("c1");
        // flow 9: ToR 1 uplink 1, aggregation 1 (position 1) uplink 1
        assertThat(chosen.get("data 8 at e1")).containsExactly("a1");
        assertThat(chosen.get("data 8 at a1")).containsExactly("c5");
        // one fixed choice per flow, switch and direction
        assertThat(chosen.values()).allSatisfy(peers -> assertThat(peers).hasSize(1));
    }
}
