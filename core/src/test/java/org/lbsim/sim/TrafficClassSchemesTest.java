package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.net.EgressStage;
import org.lbsim.net.Packet;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.TrafficClassSpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.topology.Topology;

/**
 * DLBF IV's setting in miniature: one run, two traffic classes on two schemes. h0 -> h2 is class 0
 * on the run's per-flow ECMP, h1 -> h3 is class 1 on host packet spraying; leaf l0 has 4 uplinks.
 * The ECMP flow keeps to one uplink, the sprayed flow uses all four, and each class's packets
 * (ACKs included) carry their class.
 */
class TrafficClassSchemesTest {
    @TempDir
    Path dir;

    private Scenario twoClasses() throws Exception {
        Files.write(dir.resolve("classes.csv"), List.of("src,dst,bytes,start_ns,class", "0,2,1048576,0,0", "1,3,1048576,0,1"));
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 4, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        return new Scenario("classes", 3, topo, PacketSpec.defaults(), SwitchSpec.defaults(), TestScenarios.lb("ecmp"),
                TestScenarios.lineRate(), TestScenarios.erasure(), new WorkloadSpec.Trace("classes.csv"), FailureSpec.defaults(),
                LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults(), List.of(new TrafficClassSpec(1, TestScenarios.lb("host-spray"))));
    }

    /** Per class, the data packets that left l0 on each of its uplinks; counts packets whose class is not their flow's. */
    static final class PerClassUplinks implements EgressStage {
        final Topology t;
        final int l0;
        final long[][] byClassAndPort;
        long wrongClass;

        PerClassUplinks(Topology t) {
            this.t = t;
            this.l0 = t.nodeByName("l0");
            this.byClassAndPort = new long[2][t.portCount()];
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
            int expectedClass = (p.kind == Packet.DATA ? p.src : p.dst) == 1 ? 1 : 0;
            wrongClass += p.trafficClass == expectedClass ? 0 : 1;
            if (p.kind == Packet.DATA && !t.isHost(t.peerNode(port))) {
                byClassAndPort[p.trafficClass][port]++;
            }
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }
    }

    @Test
    void eachClassIsBalancedByItsOwnScheme() throws Exception {
        PerClassUplinks[] tally = new PerClassUplinks[1];
        CheckedRun run = CheckedRun.of(twoClasses(), dir, r -> {
            tally[0] = new PerClassUplinks(r.topology());
            r.network().switchAt(tally[0].l0).setEgressStage(tally[0]);
        });
        assertThat(run.result().flowsFinished()).isEqualTo(2);
        assertThat(tally[0].wrongClass).as("packets (data and ACKs) not in their flow's class").isZero();
        long[] ecmp = tally[0].byClassAndPort[0];
        long[] spray = tally[0].byClassAndPort[1];
        assertThat(java.util.Arrays.stream(ecmp).filter(n -> n > 0).count()).as("class 0 (ECMP): uplinks used").isEqualTo(1);
        assertThat(java.util.Arrays.stream(spray).filter(n -> n > 0).count()).as("class 1 (spraying): uplinks used").isEqualTo(4);
        assertThat(java.util.Arrays.stream(ecmp).sum()).isEqualTo(256);
        var sw = run.prepared().network().switchAt(tally[0].l0);
        assertThat(sw.selector(1)).as("class 1 has its own selector instance").isNotSameAs(sw.selector(0));
    }

    @Test
    void aClassListedTwiceIsRefusedNamingTheEntry() {
        Map<String, Object> ecmp = Map.of("type", "ecmp");
        Object tree = Map.of("trafficClasses", List.of(Map.of("trafficClass", 2, "loadBalancing", ecmp),
                Map.of("trafficClass", 2, "loadBalancing", Map.of("type", "host-spray"))));
        assertThatThrownBy(() -> ScenarioBinder.bind(tree)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("trafficClasses[1].trafficClass").hasMessageContaining("listed twice");
        Object zero = Map.of("trafficClasses", List.of(Map.of("trafficClass", 0, "loadBalancing", ecmp)));
        assertThatThrownBy(() -> ScenarioBinder.bind(zero)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("trafficClasses[0].trafficClass").hasMessageContaining("between 1 and 63");
        Object unknown = Map.of("trafficClasses", List.of(Map.of("trafficClass", 4, "loadBalancing", Map.of("type", "ecmpp"))));
        assertThatThrownBy(() -> ScenarioBinder.bind(unknown)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("trafficClasses[0].loadBalancing.type");
    }

    @Test
    void aYamlScenarioBindsClassesWithTheirSchemeParameters() {
        Object tree = Map.of("trafficClasses", List.of(Map.of("trafficClass", 5, "loadBalancing", Map.of("type", "subflow", "subflows", 8))));
        Scenario s = ScenarioBinder.bind(tree);
        assertThat(s.trafficClasses()).hasSize(1);
        assertThat(s.trafficClasses().get(0).loadBalancing().type()).isEqualTo("subflow");
        assertThat(s.trafficClasses().get(0).loadBalancing().params().toString()).contains("8");
    }
}
