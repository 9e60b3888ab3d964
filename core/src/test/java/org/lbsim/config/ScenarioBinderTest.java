package org.lbsim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.cc.FixedRate;
import org.lbsim.lb.HostPacketSpray;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.IdealErasure;
import org.lbsim.transport.SackThreshold;

class ScenarioBinderTest {

    /** A tree from alternating keys and values; values may be nested trees. */
    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static List<Object> list(Object... items) {
        return new ArrayList<>(List.of(items));
    }

    private static String error(Object tree) {
        try {
            ScenarioBinder.bind(tree);
        } catch (ScenarioException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a ScenarioException for " + tree);
    }

    @Test
    void an_empty_map_is_the_default_scenario() {
        Scenario s = ScenarioBinder.bind(map());
        assertThat(s).isEqualTo(ScenarioDefaults.scenario());
        assertThat(s.name()).isEqualTo("unnamed");
        assertThat(s.seed()).isEqualTo(1);
        assertThat(s.loadBalancing().type()).isEqualTo("ecmp");
        assertThat(s.congestionControl().type()).isEqualTo("fixed-rate");
        assertThat(s.congestionControl().params()).isEqualTo(new FixedRate.Params(false, 0));
        assertThat(s.lossRecovery().type()).isEqualTo("erasure");
        assertThat(s.lossRecovery().params()).isEqualTo(IdealErasure.Params.defaults());
        assertThat(s.topology()).isEqualTo(TopologySpec.FatTree.defaults());
    }

    @Test
    void missing_keys_take_the_enclosing_default_and_given_keys_override_it() {
        Scenario s = ScenarioBinder.bind(map(
                "name", "small",
                "seed", 7,
                "topology", map("k", 4, "hostLink", map("rateGbps", 400)),
                "packets", map("mtuBytes", 1024),
                "loadBalancing", map("type", "host-spray"),
                "lossRecovery", map("type", "sack", "threshold", 8)));
        assertThat(s.name()).isEqualTo("small");
        assertThat(s.seed()).isEqualTo(7);
        assertThat(s.topology()).isEqualTo(new TopologySpec.FatTree(4, new LinkSpec(400, 500), LinkSpec.defaults(), LinkSpec.defaults()));
        assertThat(s.packets()).isEqualTo(new PacketSpec(1024, 62, 64, 20));
        assertThat(s.loadBalancing().params()).isEqualTo(new HostPacketSpray.Params());
        assertThat(s.lossRecovery().params()).isEqualTo(new SackThreshold.Params(8, 80));
    }

    @Test
    void a_nested_record_of_another_variant_takes_that_variants_defaults() {
        // LeafSpine.defaults() has 400 Gb/s, 1000 ns links: a partial hostLink keeps its delay
        Scenario s = ScenarioBinder.bind(map("topology", map("type", "leaf-spine", "leaves", 4, "hostLink", map("rateGbps", 100))));
        TopologySpec.LeafSpine d = TopologySpec.LeafSpine.defaults();
        assertThat(s.topology()).isEqualTo(new TopologySpec.LeafSpine(d.hostsPerLeaf(), 4, d.spines(), d.linksPerLeafSpine(),
                new LinkSpec(100, 1000), d.leafSpineLink()));
    }

    @Test
    void a_variant_without_defaults_requires_its_fields() {
        assertThat(error(map("topology", map("type", "custom", "switches", java.util.List.of("s0")))))
                .isEqualTo("topology.hosts: is required for type 'custom' (number of hosts, named h0 .. h<N-1>)");
        // a variant with defaults() fills in what is missing
        assertThat(ScenarioBinder.bind(map("switches", map("buffer", map("type", "shared-dynamic", "totalBytes", 1_000_000))))
                .switches().buffer()).isEqualTo(new BufferSpec.SharedDynamic(1_000_000, 1.0));
        assertThat(error(map("workload", map("type", "trace"))))
                .isEqualTo("workload.file: is required for type 'trace' (path of the CSV file)");
        Scenario s = ScenarioBinder.bind(map("switches", map("buffer", map("type", "shared-dynamic", "totalBytes", 1_000_000, "alpha", 2))));
        assertThat(s.switches().buffer()).isEqualTo(new BufferSpec.SharedDynamic(1_000_000, 2.0));
        assertThat(s.switches().ecn()).isEqualTo(EcnSpec.defaults());
    }

    @Test
    void a_key_without_a_value_means_the_defaults_of_a_map_or_an_empty_list() {
        Scenario s = ScenarioBinder.bind(map("topology", null, "failures", map("links", null)));
        assertThat(s).isEqualTo(ScenarioDefaults.scenario());
        assertThat(error(map("seed", null))).isEqualTo("seed: expected an integer, got nothing (an empty value)");
    }

    @Test
    void failed_links_bind_as_a_list_of_maps() {
        Scenario s = ScenarioBinder.bind(map("failures", map("links", list(map("a", "e0", "b", "a1"), map("a", "a0", "b", "c1", "index", 0)),
                "convergenceDelayNs", -1)));
        assertThat(s.failures().links()).containsExactly(new FailureSpec.FailedLink("e0", "a1", 0), new FailureSpec.FailedLink("a0", "c1", 0));
        assertThat(s.failures().convergenceDelayNs()).isEqualTo(-1.0);
    }

    @Test
    void unknown_keys_are_rejected_with_the_allowed_keys_and_a_suggestion() {
        assertThat(error(map("topolgy", map())))
                .isEqualTo("topolgy: unknown key, did you mean 'topology'? (allowed keys: name, seed, topology, packets, switches,"
                        + " loadBalancing, congestionControl, lossRecovery, workload, failures, limits, metrics, nic, trafficClasses)");
        assertThat(error(map("topology", map("kk", 4))))
                .isEqualTo("topology.kk: unknown key, did you mean 'k'? (allowed keys for fat-tree: type, k, hostsPerEdge, nicsPerServer, hostLink, edgeAggLink, aggCoreLink)");
        assertThat(error(map("packets", map("frobnicate", 1))))
                .isEqualTo("packets.frobnicate: unknown key (allowed keys: mtuBytes, headerBytes, ackBytes, interFrameGapBytes)");
        assertThat(error(map("lossRecovery", map("type", "sack", "treshold", 3))))
                .isEqualTo("lossRecovery.treshold: unknown key, did you mean 'threshold'? (allowed keys for sack: type, threshold, rtoUs, rtoFrom)");
        assertThat(error(map("failures", map("links", list(map("a", "e0", "b", "a0"), map("a", "e0", "bb", "a1"))))))
                .isEqualTo("failures.links[1].bb: unknown key, did you mean 'b'? (allowed keys: a, b, index)");
    }

    @Test
    void a_key_of_another_variant_points_at_the_type_that_has_it() {
        assertThat(error(map("topology", map("leaves", 4))))
                .isEqualTo("topology.leaves: unknown key for fat-tree, it belongs to leaf-spine: add 'type: leaf-spine'"
                        + " (allowed keys for fat-tree: type, k, hostsPerEdge, nicsPerServer, hostLink, edgeAggLink, aggCoreLink)");
    }

    @Test
    void unknown_type_names_are_rejected_with_the_allowed_names_and_a_suggestion() {
        assertThat(error(map("topology", map("type", "fat-tre"))))
                .isEqualTo("topology.type: unknown topology type 'fat-tre', did you mean 'fat-tree'? (allowed: "
                        + String.join(", ", Schema.variantNames(TopologySpec.class)) + ")");
        assertThat(Schema.variantNames(TopologySpec.class)).startsWith("fat-tree", "leaf-spine");
        assertThat(error(map("switches", map("buffer", map("type", "qqq")))))
                .isEqualTo("switches.buffer.type: unknown buffer type 'qqq' (allowed: " + String.join(", ", Schema.variantNames(BufferSpec.class)) + ")");
        assertThat(error(map("loadBalancing", map("type", "host-spary"))))
                .isEqualTo("loadBalancing.type: unknown load-balancing scheme 'host-spary', did you mean 'host-spray'? (allowed: "
                        + String.join(", ", LoadBalancers.REGISTRY.names()) + ")");
        assertThat(error(map("congestionControl", map("type", "fixed-rat"))))
                .isEqualTo("congestionControl.type: unknown congestion control 'fixed-rat', did you mean 'fixed-rate'? (allowed: "
                        + String.join(", ", CongestionControls.REGISTRY.names()) + ")");
        assertThat(error(map("lossRecovery", map("type", 3))))
                .isEqualTo("lossRecovery.type: expected a type name (one of " + String.join(", ", LossRecoveries.REGISTRY.names())
                        + "), got the integer 3");
    }

    @Test
    void wrong_value_types_name_the_expected_type() {
        assertThat(error(map("topology", map("k", "eight")))).isEqualTo("topology.k: expected an integer, got the string \"eight\"");
        assertThat(error(map("topology", map("k", 4.5)))).isEqualTo("topology.k: expected an integer, got the fractional number 4.5");
        assertThat(error(map("topology", map("k", 3_000_000_000L))))
                .isEqualTo("topology.k: expected an integer between -2147483648 and 2147483647, got 3000000000");
        assertThat(error(map("seed", new BigInteger("12345678901234567890"))))
                .isEqualTo("seed: expected an integer between -9223372036854775808 and 9223372036854775807, got 12345678901234567890");
        assertThat(error(map("topology", list(1, 2)))).isEqualTo("topology: expected a map, got a list");
        assertThat(error(map("topology", "fat-tree"))).isEqualTo("topology: expected a map, got the string \"fat-tree\" (to choose the type, write topology.type: fat-tree, or topology: {type: fat-tree})");
        assertThat(error(map("loadBalancing", "ofan")))
                .isEqualTo("loadBalancing: expected a map, got the string \"ofan\" (to choose the type, write loadBalancing.type: ofan, or loadBalancing: {type: ofan})");
        assertThat(error(map("failures", map("links", map("a", "e0"))))).isEqualTo("failures.links: expected a list, got a map");
        assertThat(error(map("failures", map("links", list("e0-a0"))))).isEqualTo("failures.links[0]: expected a map, got the string \"e0-a0\"");
        assertThat(error(map("switches", map("ecn", map("enabled", "yes"))))).isEqualTo("switches.ecn.enabled: expected true or false, got the string \"yes\""
                + " (write true or false; YAML 1.1's yes, no, on and off are text to lbsim)");
        assertThat(error(map("name", 42))).isEqualTo("name: expected a string, got the integer 42 (put it in quotes to use it as text)");
        assertThat(error(map("topology", map("hostLink", map("rateGbps", "fast")))))
                .isEqualTo("topology.hostLink.rateGbps: expected a number or a rate with a unit (bps, Kbps, Mbps, Gbps, Tbps), got the string \"fast\"");
        assertThat(error(map("failures", map("links", list(map("a", "e0", "b", "a0", "index", true))))))
                .isEqualTo("failures.links[0].index: expected an integer, got the boolean true");
    }

    @Test
    void fields_named_after_their_unit_take_values_with_units_converted_exactly() {
        Scenario s = ScenarioBinder.bind(map("topology", map("type", "leaf-spine", "hostLink", map("rateGbps", "400Gbps", "delayNs", "0.5us")),
                "workload", map("messageBytes", "1MiB"), "limits", map("maxTimeUs", "2ms")));
        TopologySpec.LeafSpine t = (TopologySpec.LeafSpine) s.topology();
        assertThat(t.hostLink().rateGbps()).isEqualTo(400.0);
        assertThat(t.hostLink().delayNs()).isEqualTo(500.0);
        assertThat(((WorkloadSpec.Permutation) s.workload()).messageBytes()).isEqualTo(1_048_576);
        assertThat(s.limits().maxTimeUs()).isEqualTo(2000.0);
        assertThat(((WorkloadSpec.Permutation) ScenarioBinder.bind(map("workload", map("messageBytes", "1.5KiB"))).workload()).messageBytes())
                .isEqualTo(1536);
        assertThat(ScenarioBinder.bind(map("topology", map("type", "leaf-spine", "hostLink", map("rateGbps", "100 Mbps")))).topology())
                .extracting(x -> ((TopologySpec.LeafSpine) x).hostLink().rateGbps()).isEqualTo(0.1);
    }

    @Test
    void a_unit_of_another_dimension_an_unknown_unit_or_a_fraction_of_an_integer_unit_is_one_line_naming_what_is_allowed() {
        assertThat(error(map("workload", map("messageBytes", "5us"))))
                .isEqualTo("workload.messageBytes: '5us' is a time; this field takes a size with a unit (B, KB, KiB, MB, MiB, GB, GiB, TB, TiB)");
        assertThat(error(map("workload", map("messageBytes", "1MiBs"))))
                .startsWith("workload.messageBytes: unknown unit 'MiBs'").endsWith("; this field takes a size with a unit (B, KB, KiB, MB, MiB, GB, GiB, TB, TiB)");
        assertThat(error(map("workload", map("messageBytes", "0.5B")))).isEqualTo("workload.messageBytes: '0.5B' is not a whole number of B (0.5 B)");
        assertThat(error(map("workload", map("messageBytes", "big"))))
                .isEqualTo("workload.messageBytes: expected an integer or a size with a unit (B, KB, KiB, MB, MiB, GB, GiB, TB, TiB), got the string \"big\"");
        assertThat(error(map("topology", map("k", "8KiB")))).isEqualTo("topology.k: expected an integer, got the string \"8KiB\"");
    }

    @Test
    void integral_floating_point_values_are_accepted_for_integers() {
        Scenario s = ScenarioBinder.bind(map("topology", map("k", 4.0), "workload", map("messageBytes", 1e6)));
        assertThat(((TopologySpec.FatTree) s.topology()).k()).isEqualTo(4);
        assertThat(((WorkloadSpec.Permutation) s.workload()).messageBytes()).isEqualTo(1_000_000);
    }

    @Test
    void errors_from_record_constructors_carry_the_full_path() {
        assertThat(error(map("topology", map("k", 5)))).isEqualTo("topology.k: must be an even integer between 2 and 128, got 5");
        assertThat(error(map("workload", map("messageBytes", -4)))).isEqualTo("workload.messageBytes: must be >= 1 byte, got -4");
        assertThat(error(map("topology", map("type", "leaf-spine", "hostLink", map("rateGbps", 0)))))
                .isEqualTo("topology.hostLink.rateGbps: must be a number of Gb/s between 0.001 and 1000000, got 0");
        assertThat(error(map("failures", map("links", list(map("a", "e0", "b", "a0"), map("a", "e0", "b", "a0", "index", -1))))))
                .isEqualTo("failures.links[1].index: must be >= 0, got -1");
        assertThat(error(map("congestionControl", map("rhoMax", true, "rateGbps", 100))))
                .isEqualTo("congestionControl.rateGbps: cannot be set together with rhoMax: true");
        assertThat(error(map("topology", map("k", 4), "workload", map("hosts", 20))))
                .isEqualTo("workload.hosts: must be <= the 16 hosts of the topology, got 20");
    }

    @Test
    void the_top_level_must_be_a_map() {
        assertThat(error(null)).isEqualTo(": the scenario is empty; expected a map with keys such as name, seed, topology, packets,"
                + " switches, loadBalancing, congestionControl, lossRecovery, workload, failures, limits, metrics, nic, trafficClasses");
        assertThat(error(list(1))).startsWith(": expected a map of scenario keys (name, seed, ").endsWith(") at the top level, got a list");
    }

    @Test
    void changing_the_component_type_resets_its_parameters_to_that_components_defaults() {
        Scenario s = ScenarioBinder.bind(map("lossRecovery", map("type", "sack")));
        assertThat(s.lossRecovery().params()).isEqualTo(new SackThreshold.Params(32, 80));
    }
}
