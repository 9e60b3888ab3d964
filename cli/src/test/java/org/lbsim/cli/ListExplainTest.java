package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Catalog;
import org.lbsim.registry.Component;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.TypeName;
import org.lbsim.scenario.WorkloadSpec;

/** lbsim list / lbsim explain: generated from the registries and scenario types, so they cannot drift. */
class ListExplainTest {

    /** The first word of every line. */
    static List<String> firstWords(String out) {
        return out.lines().map(l -> l.split(" ", 2)[0]).toList();
    }

    static List<String> typeNames(Class<?> sealed) {
        return Arrays.stream(sealed.getPermittedSubclasses()).map(c -> c.getAnnotation(TypeName.class).value()).toList();
    }

    @Test
    void list_schemes_prints_exactly_the_names_of_the_load_balancer_registry() {
        MainTest.Result r = lbsim("list", "schemes");
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(firstWords(r.out())).isEqualTo(LoadBalancers.REGISTRY.names());
        for (Component<?> c : LoadBalancers.REGISTRY.all()) {
            assertThat(r.out()).containsPattern("(?m)^" + c.name() + " +\\Q" + c.displayName() + ": " + c.summary() + "  [" + c.source() + "]\\E$");
        }
        // one name per scheme: the paper's, from the registry
        assertThat(r.out()).containsPattern("(?m)^host-spray +HOST PKT: ").doesNotContain("HOST_PKT", "OPS");
    }

    @Test
    void every_kind_lists_its_registry_or_its_sealed_variants() {
        assertThat(firstWords(lbsim("list", "cc").out())).isEqualTo(CongestionControls.REGISTRY.names());
        assertThat(firstWords(lbsim("list", "recovery").out())).isEqualTo(LossRecoveries.REGISTRY.names());
        assertThat(firstWords(lbsim("list", "topologies").out())).isEqualTo(typeNames(TopologySpec.class));
        assertThat(firstWords(lbsim("list", "workloads").out())).isEqualTo(typeNames(WorkloadSpec.class));
        assertThat(firstWords(lbsim("list", "buffers").out())).isEqualTo(typeNames(BufferSpec.class));
        assertThat(lbsim("list", "buffers").out()).contains("a fixed drop-tail buffer per egress port");
        String all = lbsim("list").out();
        for (Catalog.Kind k : Catalog.Kind.values()) {
            assertThat(all).contains(k.word() + " (" + k.path() + ".type):\n");
        }
    }

    @Test
    void a_misspelt_kind_suggests_the_closest() {
        assertThat(lbsim("list", "sheme").errorLine())
                .isEqualTo("lbsim: list: unknown kind 'sheme', did you mean 'schemes'? (kinds: schemes, topologies, workloads, cc, recovery, buffers, hooks)");
    }

    @Test
    void list_hooks_names_every_extension_point_and_explain_shows_where_it_runs() {
        MainTest.Result list = lbsim("list", "hooks");
        assertThat(list.code()).isZero();
        for (org.lbsim.api.ExtensionPoints.Hook h : org.lbsim.api.ExtensionPoints.all()) {
            assertThat(list.out()).containsPattern("(?m)^" + h.name() + " +" + h.type().getSimpleName() + ": ");
        }
        assertThat(list.out()).contains("ingress-stage").contains("policy-table").contains("egress-stage");
        assertThat(lbsim("list").out()).contains("hooks (extension points, docs/extending.md):\n  entropy-policy");
        MainTest.Result ingress = lbsim("explain", "ingress-stage");
        assertThat(ingress.code()).isZero();
        assertThat(ingress.out()).startsWith("ingress-stage: extension point org.lbsim.net.IngressStage\n")
                .contains("consume with a named reason").contains("Switch.addIngressStage").contains("docs/extending.md");
        assertThat(lbsim("explain", "hooks").out()).isEqualTo(list.out());
        assertThat(lbsim("explain", "trafficClasses").out()).contains("trafficClass").contains("loadBalancing");
    }

    @Test
    void explain_a_scheme_shows_summary_source_and_parameters_with_defaults() {
        MainTest.Result r = lbsim("explain", "host-pkt-ar");
        assertThat(r.code()).isZero();
        Component<?> c = LoadBalancers.REGISTRY.find("host-pkt-ar").orElseThrow();
        assertThat(r.out()).startsWith("host-pkt-ar: load-balancing scheme\n  HOST PKT AR: " + c.summary() + "\n  source: " + c.source() + "\n");
        assertThat(r.out()).containsPattern("\n  cacheSize +integer +8 +entries of the entropy buffer \\(REPS: 8\\)\n");
        assertThat(r.out()).containsPattern("\n  freezeUs +number +10000 +microseconds of freezing after a timeout");
        assertThat(r.out()).containsPattern("\n  exploreRtts +number +1 +base RTTs a queue pair explores after its first packet and after a freeze");
        assertThat(r.out()).containsPattern("\n  timeoutFrom +string +reuse +what counts as a timeout");
    }

    @Test
    void explain_types_the_scenario_and_dotted_paths() {
        assertThat(lbsim("explain", "fat-tree").out()).containsPattern("\n  hostLink.rateGbps +number +800 +host to edge links: link rate in Gb/s\n");
        assertThat(lbsim("explain", "per-port").out()).contains("use:    switches: {buffer: {type: per-port}}");
        assertThat(lbsim("explain", "scenario").out()).contains("\n  loadBalancing ").contains("\n  switches ");
        assertThat(lbsim("explain", "switches.pfc").out()).startsWith("switches.pfc: priority flow control (lossless)\n")
                .containsPattern("\n  xonBytes +integer +180000 +XON threshold");
        assertThat(lbsim("explain", "switches.ecn.kminBytes").out()).isEqualTo("switches.ecn.kminBytes: integer, default 100000\n  queue bytes where marking starts\n");
    }

    @Test
    void a_misspelt_name_or_key_is_one_line_with_the_closest_valid_one_and_exit_2() {
        assertThat(lbsim("explain", "ofna").errorLine())
                .startsWith("lbsim: explain: unknown name 'ofna', did you mean 'ofan'? (names: 'lbsim list schemes|");
        assertThat(lbsim("explain", "dcqnc").errorLine()).contains("did you mean 'dcqcn'?");
        assertThat(lbsim("explain", "switches.pfcc").errorLine())
                .isEqualTo("lbsim: explain: switches.pfcc: unknown key, did you mean 'pfc'? (allowed keys: buffer, ecn, pfc, controlPriority, overflow)");
        assertThat(lbsim("explain", "topology.kk").errorLine()).startsWith("lbsim: explain: topology.kk: unknown key, did you mean 'k'?");
    }
}
