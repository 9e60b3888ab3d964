package org.lbsim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What each variant of the sealed scenario types answers about itself. */
class VariantQuestionsTest {

    @Test
    void onlyWorkloadsReadFromAFileNameOne() {
        assertThat(new WorkloadSpec.Trace("t.csv").sourceFile()).contains("t.csv");
        assertThat(new WorkloadSpec.DagTrace("d.csv").sourceFile()).contains("d.csv");
        assertThat(new WorkloadSpec.HtsimCm("p.cm").sourceFile()).contains("p.cm");
        assertThat(new WorkloadSpec.Ns3Flow("flow.txt").sourceFile()).contains("flow.txt");
        assertThat(WorkloadSpec.Permutation.defaults().sourceFile()).isEmpty();
        assertThat(WorkloadSpec.AllToAll.defaults().sourceFile()).isEmpty();
        assertThat(WorkloadSpec.Collective.defaults().sourceFile()).isEmpty();
        assertThat(WorkloadSpec.Jobs.defaults().sourceFile()).isEmpty();
        assertThat(WorkloadSpec.Fsdp.defaults().sourceFile()).isEmpty();
    }

    @Test
    void generatedWorkloadsNeedTwoHostsAndNoMoreThanTheFabricHas() {
        assertThatThrownBy(() -> new WorkloadSpec.Permutation(1000, 0).checkHosts(1)).isInstanceOfSatisfying(ScenarioException.class, e -> {
            assertThat(e.field()).isEqualTo("workload");
            assertThat(e.problem()).isEqualTo("a permutation needs at least 2 hosts, the topology has 1");
        });
        assertThatThrownBy(() -> new WorkloadSpec.AllToAll(1000, 0).checkHosts(0))
                .hasMessageContaining("an all-to-all needs at least 2 hosts, the topology has 0");
        assertThatThrownBy(() -> new WorkloadSpec.AllToAll(1000, 17).checkHosts(16)).isInstanceOfSatisfying(ScenarioException.class, e -> {
            assertThat(e.field()).isEqualTo("workload.hosts");
            assertThat(e.problem()).isEqualTo("must be <= the 16 hosts of the topology, got 17");
        });
        new WorkloadSpec.Permutation(1000, 16).checkHosts(16);
        new WorkloadSpec.Trace("t.csv").checkHosts(1);
        assertThatThrownBy(() -> WorkloadSpec.Collective.defaults().checkHosts(1)).isInstanceOf(ScenarioException.class);
    }

    @Test
    void everyTopologyNamesItsHostLinkAndItsLinkTiers() {
        LinkSpec host = new LinkSpec(400, 100);
        LinkSpec up = new LinkSpec(800, 200);
        TopologySpec.FatTree ft = new TopologySpec.FatTree(4, host, up, up);
        assertThat(ft.hostLink()).isEqualTo(host);
        assertThat(ft.linkTiers()).containsExactly(host, up, up);
        TopologySpec.LeafSpine ls = new TopologySpec.LeafSpine(4, 2, 2, 1, host, up);
        assertThat(ls.linkTiers()).containsExactly(host, up);
        TopologySpec.Custom c = new TopologySpec.Custom(2, List.of("s"), List.of("h0 s", "h1 s"), 100, 250, List.of());
        assertThat(c.hostLink()).isEqualTo(new LinkSpec(100, 250));
        assertThat(c.hostLink().rateMbps()).isEqualTo(100_000);
        assertThat(c.linkTiers()).containsExactly(new LinkSpec(100, 250));
        assertThat(c.staticRoutes()).isFalse();
        assertThat(new TopologySpec.Custom(2, List.of("s"), List.of("h0 s", "h1 s"), 100, 250, List.of("s h1 h1")).staticRoutes()).isTrue();
        assertThat(ft.staticRoutes()).isFalse();
    }

    @Test
    void onlyTheSharedBufferIsShared() {
        assertThat(BufferSpec.defaults().shared()).isFalse();
        assertThat(BufferSpec.SharedDynamic.defaults().shared()).isTrue();
        assertThatThrownBy(() -> new SwitchSpec(BufferSpec.defaults(), EcnSpec.defaults(), new PfcSpec(true, 200_000, 180_000, 1, 120_000, 100)))
                .hasMessageContaining("needs buffer type shared-dynamic");
    }
}
