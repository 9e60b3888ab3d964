package org.lbsim.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.cc.FixedRate;
import org.lbsim.registry.Component;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.SackThreshold;

class ScenarioTreeTest {

    private static Scenario unusual() {
        return new Scenario("round trip", -42,
                new TopologySpec.LeafSpine(4, 6, 3, 2, new LinkSpec(100, 250.5), new LinkSpec(400, 1e-3)),
                new PacketSpec(1500, 40, 60, 0),
                new SwitchSpec(new BufferSpec.SharedDynamic(12_000_000_000L, 0.125), new EcnSpec(false, 0, 10, 1)),
                new ComponentSpec("host-spray", LoadBalancers.REGISTRY.find("host-spray").orElseThrow().defaults()),
                new ComponentSpec("fixed-rate", new FixedRate.Params(true, 0)),
                new ComponentSpec("sack", new SackThreshold.Params(3, 12.75)),
                new WorkloadSpec.Trace("traces/a b.csv"),
                new FailureSpec(List.of(new FailureSpec.FailedLink("l0", "s1", 1), new FailureSpec.FailedLink("l2", "s0", 0)), 0.01, -1),
                new LimitsSpec(0.1 + 0.2));
    }

    @Test
    void a_scenario_survives_tree_and_back() {
        for (Scenario s : List.of(ScenarioDefaults.scenario(), unusual(),
                ScenarioDefaults.scenario().withSeed(Long.MIN_VALUE))) {
            Map<String, Object> tree = ScenarioTree.toTree(s);
            assertThat(ScenarioBinder.bind(tree)).isEqualTo(s);
        }
    }

    @Test
    void the_tree_spells_out_every_field_with_type_keys_first() {
        Map<String, Object> tree = ScenarioTree.toTree(unusual());
        assertThat(tree.keySet()).containsExactly("name", "seed", "topology", "packets", "switches", "loadBalancing",
                "congestionControl", "lossRecovery", "workload", "failures", "limits", "metrics", "nic", "trafficClasses");
        assertThat(tree.get("topology")).isEqualTo(Map.of("type", "leaf-spine", "hostsPerLeaf", 4, "nicsPerServer", 1, "leaves", 6, "spines", 3,
                "linksPerLeafSpine", 2, "hostLink", Map.of("rateGbps", 100.0, "delayNs", 250.5),
                "leafSpineLink", Map.of("rateGbps", 400.0, "delayNs", 1e-3)));
        assertThat(((Map<?, ?>) tree.get("topology")).keySet().iterator().next()).isEqualTo("type");
        assertThat(tree.get("loadBalancing")).isEqualTo(Map.of("type", "host-spray"));
        assertThat(tree.get("lossRecovery")).isEqualTo(Map.of("type", "sack", "threshold", 3, "rtoUs", 12.75, "rtoFrom", "progress"));
        assertThat(tree.get("workload")).isEqualTo(Map.of("type", "trace", "file", "traces/a b.csv"));
        assertThat(tree.get("failures")).isEqualTo(Map.of("links", List.of(Map.of("a", "l0", "b", "s1", "index", 1),
                Map.of("a", "l2", "b", "s0", "index", 0)), "linkProbability", 0.01, "convergenceDelayNs", -1.0, "dropPackets", List.of(), "convergenceDelayRtts", -1.0,
                "events", List.of(), "detectionDelayNs", 0.0, "mtbfUs", 0.0, "mttrUs", 0.0));
        assertThat(((Map<?, ?>) tree.get("switches")).get("buffer"))
                .isEqualTo(Map.of("type", "shared-dynamic", "totalBytes", 12_000_000_000L, "alpha", 0.125));
    }

    @Test
    void every_registered_component_binds_from_its_own_defaults_tree() {
        checkRegistry("loadBalancing", LoadBalancers.REGISTRY);
        checkRegistry("congestionControl", CongestionControls.REGISTRY);
        checkRegistry("lossRecovery", LossRecoveries.REGISTRY);
    }

    private static <T> void checkRegistry(String field, Registry<T> registry) {
        for (Component<T> c : registry.all()) {
            Map<String, Object> tree = ScenarioTree.toTree(ScenarioDefaults.scenario());
            Map<String, Object> componentTree = ScenarioBinderTest.map("type", c.name());
            componentTree.putAll(castMap(ScenarioTree.toTreeValue(c.defaults())));
            tree.put(field, componentTree);
            Scenario s = ScenarioBinder.bind(tree);
            ComponentSpec spec = switch (field) {
                case "loadBalancing" -> s.loadBalancing();
                case "congestionControl" -> s.congestionControl();
                default -> s.lossRecovery();
            };
            assertThat(spec).isEqualTo(new ComponentSpec(c.name(), c.defaults()));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void every_variant_of_every_sealed_spec_round_trips_from_a_valid_instance() {
        for (Object variant : List.of(TopologySpec.FatTree.defaults(), TopologySpec.LeafSpine.defaults(), BufferSpec.defaults(),
                new BufferSpec.SharedDynamic(1000, 1), WorkloadSpec.defaults(), new WorkloadSpec.AllToAll(10, 0), new WorkloadSpec.Trace("t.csv"))) {
            Object tree = ScenarioTree.toTreeValue(variant);
            Class<?> iface = variant.getClass().getInterfaces()[0];
            assertThat(ScenarioBinder.bind(iface, tree, "x")).isEqualTo(variant);
        }
    }
}
