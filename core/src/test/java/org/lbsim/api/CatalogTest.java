package org.lbsim.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Catalog.Entry;
import org.lbsim.api.Catalog.Field;
import org.lbsim.api.Catalog.Kind;
import org.lbsim.config.ScenarioDefaults;
import org.lbsim.config.ScenarioTree;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.TypeName;
import org.lbsim.scenario.WorkloadSpec;

class CatalogTest {

    static List<String> typeNames(Class<?> sealed) {
        return Arrays.stream(sealed.getPermittedSubclasses()).map(c -> c.getAnnotation(TypeName.class).value()).toList();
    }

    static String explainError(String name) {
        try {
            Catalog.explain(name);
        } catch (ScenarioException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a ScenarioException for " + name);
    }

    @Test
    void every_kind_lists_exactly_what_its_registry_or_sealed_interface_holds() {
        assertThat(names(Kind.SCHEMES)).isEqualTo(LoadBalancers.REGISTRY.names());
        assertThat(names(Kind.CC)).isEqualTo(CongestionControls.REGISTRY.names());
        assertThat(names(Kind.RECOVERY)).isEqualTo(LossRecoveries.REGISTRY.names());
        assertThat(names(Kind.TOPOLOGIES)).isEqualTo(typeNames(TopologySpec.class));
        assertThat(names(Kind.WORKLOADS)).isEqualTo(typeNames(WorkloadSpec.class));
        assertThat(names(Kind.BUFFERS)).isEqualTo(typeNames(BufferSpec.class));
        Entry ofan = Catalog.find("ofan").get(0);
        assertThat(ofan.summary()).isEqualTo("OFAN: " + LoadBalancers.REGISTRY.find("ofan").orElseThrow().summary());
        assertThat(ofan.displayName()).isEqualTo("OFAN");
        assertThat(Catalog.displayName("loadBalancing.type", "host-spray")).contains("HOST PKT");
        assertThat(Catalog.displayName("trafficClasses[1].loadBalancing.type", "ecmp")).contains("ECMP");
        assertThat(Catalog.displayName("lossRecovery.type", "nic-sr")).contains("NIC selective repeat");
        assertThat(Catalog.displayName("topology.type", "fat-tree")).isEmpty();
        assertThat(Catalog.displayName("loadBalancing.type", "no-such-scheme")).isEmpty();
        assertThat(ofan.source()).isEqualTo(LoadBalancers.REGISTRY.find("ofan").orElseThrow().source());
        assertThat(ofan.path()).isEqualTo("loadBalancing");
    }

    private static List<String> names(Kind k) {
        return k.entries().stream().map(Entry::name).toList();
    }

    @Test
    void every_component_field_of_a_scenario_has_its_registry_and_every_kind_path_exists() {
        for (RecordComponent c : Scenario.class.getRecordComponents()) {
            if (c.getType() == ComponentSpec.class) {
                assertThat(Catalog.registry(c.getName())).as(c.getName()).isNotNull();
            }
        }
        for (Kind k : Kind.values()) {
            assertThat(Catalog.choices(k.path())).as(k.word()).isNotEmpty();
            assertThat(Kind.byWord(k.word())).contains(k);
        }
    }

    @Test
    void every_parameter_of_every_type_is_documented_and_has_a_type() {
        List<String> undocumented = new ArrayList<>();
        for (Kind k : Kind.values()) {
            for (Entry e : k.entries()) {
                assertThat(e.summary()).as(e.name()).isNotBlank();
                for (Field f : e.params()) {
                    assertThat(f.type()).as(e.name() + "." + f.name()).isNotBlank();
                    if (f.doc().isBlank()) {
                        undocumented.add(e.name() + "." + f.name());
                    }
                }
            }
        }
        assertThat(undocumented).as("parameters without @Doc").isEmpty();
    }

    @Test
    void a_component_is_explained_with_summary_source_and_every_parameter() {
        String text = Catalog.explain("dcqcn");
        assertThat(text).startsWith("dcqcn: congestion control\n  DCQCN: rate cut on CNP or NACK");
        assertThat(text).contains("  source: DCQCN (SIGCOMM 2015); Themis 2.2; PRO 5\n");
        assertThat(text).contains("  use:    congestionControl: {type: dcqcn}\n");
        for (RecordComponent c : org.lbsim.cc.Dcqcn.Params.class.getRecordComponents()) {
            assertThat(text).contains("\n  " + c.getName() + " ");
        }
        assertThat(text).containsPattern("\n  rateIncreaseTimerUs +number +900 +rate increase timer T_I in microseconds");
        assertThat(Catalog.explain("host-spray")).contains("\n  no parameters\n");
    }

    @Test
    void a_variant_is_explained_with_nested_records_flattened() {
        String text = Catalog.explain("fat-tree");
        assertThat(text).startsWith("fat-tree: topology\n  3-tier k-ary fat tree");
        assertThat(text).containsPattern("\n  k +integer +8 +switch radix");
        assertThat(text).containsPattern("\n  hostLink.rateGbps +number +800 +host to edge links: link rate in Gb/s");
        assertThat(Catalog.explain("all-to-all")).containsPattern("\n  messageBytes +integer +1048576 +bytes per host pair");
        assertThat(Catalog.explain("custom")).containsPattern("\n  hosts +integer +required");
        assertThat(Catalog.explain("shared-dynamic")).contains("use:    switches: {buffer: {type: shared-dynamic}}");
    }

    @Test
    void the_scenario_and_dotted_paths_are_explained() {
        String top = Catalog.explain("scenario");
        for (String key : Catalog.fieldNames(Scenario.class)) {
            assertThat(top).contains("\n  " + key + " ");
        }
        assertThat(Catalog.explain("switches.pfc")).startsWith("switches.pfc: priority flow control (lossless)\n")
                .containsPattern("\n  xoffBytes +integer +200000 +static XOFF threshold");
        assertThat(Catalog.explain("switches.ecn.kminBytes")).isEqualTo("switches.ecn.kminBytes: integer, default 100000\n  queue bytes where marking starts\n");
        String topologies = String.join(" | ", typeNames(TopologySpec.class));
        assertThat(Catalog.explain("topology")).contains("  type: " + (typeNames(TopologySpec.class).size() <= 4 ? topologies : "one topology of")
                + (typeNames(TopologySpec.class).size() <= 4 ? " (default fat-tree)\n" : "")).contains("keys of fat-tree");
        assertThat(Catalog.explain("failures.links")).contains("keys of each element").containsPattern("\n  a +string +required");
        assertThat(Catalog.explain("failures.links[0].index")).startsWith("failures.links[0].index: integer, default 0\n");
        // a key of a type that is not the default one, and a key under a type name
        assertThat(Catalog.explain("topology.leaves")).startsWith("topology.leaves: integer, default 16\n");
        assertThat(Catalog.explain("leaf-spine.hostLink")).containsPattern("\n  rateGbps +number +400 ");
        assertThat(Catalog.explain("schemes")).isEqualTo(Catalog.list(Kind.SCHEMES));
    }

    @Test
    void every_key_of_the_default_scenario_can_be_explained() {
        walk(ScenarioTree.toTree(ScenarioDefaults.scenario()), "");
    }

    private static void walk(Map<?, ?> tree, String path) {
        for (Map.Entry<?, ?> e : tree.entrySet()) {
            String p = path.isEmpty() ? (String) e.getKey() : path + "." + e.getKey();
            assertThat(Catalog.explain(p)).as(p).startsWith(p + ":");
            if (e.getValue() instanceof Map<?, ?> m) {
                walk(m, p);
            }
        }
    }

    @Test
    void misspelt_names_and_keys_suggest_the_closest_valid_one() {
        assertThat(explainError("ofna")).startsWith(": unknown name 'ofna', did you mean 'ofan'? (names: 'lbsim list schemes|");
        assertThat(explainError("fattree")).contains("did you mean 'fat-tree'?");
        assertThat(explainError("topolgy")).contains("did you mean 'topology'?");
        assertThat(explainError("switches.pfcc")).isEqualTo("switches.pfcc: unknown key, did you mean 'pfc'? (allowed keys: buffer, ecn, pfc, controlPriority, overflow)");
        assertThat(explainError("ofan.weigthed")).startsWith("ofan.weigthed: unknown key, did you mean 'weighted'?");
        assertThat(explainError("switches.ecn.kminBytes.x")).isEqualTo("switches.ecn.kminBytes: is an integer, it has no key 'x'");
        assertThat(explainError("a..b")).startsWith("a..b: is not a valid path");
    }

    @Test
    void inline_shows_tree_values_as_short_yaml_flow_text() {
        assertThat(Catalog.inline(800.0)).isEqualTo("800");
        assertThat(Catalog.inline(0.2)).isEqualTo("0.2");
        assertThat(Catalog.inline(List.of(0.05, 0.1))).isEqualTo("[0.05, 0.1]");
        assertThat(Catalog.inline(Map.of("a", "e0"))).isEqualTo("{a: e0}");
        assertThat(Catalog.inline("")).isEqualTo("\"\"");
    }
}
