package org.lbsim.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.config.Overrides;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioDefaults;
import org.lbsim.lb.Subflows;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;

class ScenarioBuilderTest {

    /** The scenario the command line would make from these --set arguments on an empty file. */
    static Scenario cli(String... sets) {
        return ScenarioBinder.bind(Overrides.apply(new LinkedHashMap<>(), List.of(sets)));
    }

    static ScenarioException error(Runnable r) {
        try {
            r.run();
        } catch (ScenarioException e) {
            return e;
        }
        throw new AssertionError("expected a ScenarioException");
    }

    @Test
    void an_untouched_builder_is_the_default_scenario() {
        assertThat(Lbsim.scenario().build()).isEqualTo(ScenarioDefaults.scenario());
    }

    @Test
    void the_fluent_calls_mean_what_the_same_settings_mean_on_the_command_line() {
        Scenario s = Lbsim.scenario().name("demo").fatTree(8).linkRateGbps(400).permutation(4 << 20).scheme("ofan").seed(7).build();
        assertThat(s).isEqualTo(cli("name=demo", "topology.k=8",
                "topology.hostLink.rateGbps=400", "topology.edgeAggLink.rateGbps=400", "topology.aggCoreLink.rateGbps=400",
                "workload.messageBytes=4194304", "loadBalancing.type=ofan", "seed=7"));
        assertThat(s.topology()).isEqualTo(new TopologySpec.FatTree(8, new LinkSpec(400, 500), new LinkSpec(400, 500), new LinkSpec(400, 500)));
    }

    @Test
    void set_reaches_any_field_as_set_on_the_command_line_does() {
        Scenario s = Lbsim.scenario().set("switches.ecn.kminBytes", 50_000).set("switches.pfc.enabled", true)
                .set("limits.maxTimeUs", 2.5).override("topology.k=4").build();
        assertThat(s).isEqualTo(cli("switches.ecn.kminBytes=50000", "switches.pfc.enabled=true", "limits.maxTimeUs=2.5", "topology.k=4"));
        assertThat(s.switches().ecn().kminBytes()).isEqualTo(50_000);
    }

    @Test
    void values_are_taken_as_java_values_records_lists_and_maps_included() {
        Scenario s = Lbsim.scenario()
                .set("name", "2024") // a string stays a string (no YAML reading of the value)
                .set("switches.buffer", new BufferSpec.SharedDynamic(4_000_000, 1.0))
                .set("topology.hostLink", new LinkSpec(200, 100))
                .scheme("switch-pkt-ar").set("loadBalancing.quanta", List.of(0.1, 0.3f))
                .set("failures", Map.of("linkProbability", 0.0))
                .build();
        assertThat(s.name()).isEqualTo("2024");
        assertThat(s.switches().buffer()).isEqualTo(new BufferSpec.SharedDynamic(4_000_000, 1.0));
        assertThat(((TopologySpec.FatTree) s.topology()).hostLink()).isEqualTo(new LinkSpec(200, 100));
        assertThat(s.loadBalancing().params().toString()).contains("[0.1, 0.3]");
    }

    @Test
    void link_settings_survive_a_change_of_topology_in_any_order() {
        Scenario s = Lbsim.scenario().linkRateGbps(200).linkDelayNs(100).leafSpine(4, 4, 2).build();
        TopologySpec.LeafSpine ls = (TopologySpec.LeafSpine) s.topology();
        assertThat(ls.hostLink()).isEqualTo(new LinkSpec(200, 100));
        assertThat(ls.leafSpineLink()).isEqualTo(new LinkSpec(200, 100));
        assertThat(ls.hostsPerLeaf() * ls.leaves()).isEqualTo(16);
        Scenario back = Lbsim.scenario().leafSpine(4, 4, 2).linkRateGbps(200).fatTree(4).build();
        assertThat(back.topology()).isEqualTo(new TopologySpec.FatTree(4, new LinkSpec(200, 500), new LinkSpec(200, 500), new LinkSpec(200, 500)));
    }

    @Test
    void a_tiers_own_rate_or_delay_stays_when_every_links_other_setting_is_given_after_it() {
        Scenario rate = Lbsim.scenario().leafSpine(2, 2, 2).linkRateGbps(100).set("topology.hostLink.rateGbps", 25).linkDelayNs(1000).build();
        TopologySpec.LeafSpine r = (TopologySpec.LeafSpine) rate.topology();
        assertThat(r.hostLink()).isEqualTo(new LinkSpec(25, 1000));
        assertThat(r.leafSpineLink()).isEqualTo(new LinkSpec(100, 1000));
        Scenario delay = Lbsim.scenario().leafSpine(2, 2, 2).linkDelayNs(1000).set("topology.hostLink.delayNs", 50).linkRateGbps(100).build();
        TopologySpec.LeafSpine d = (TopologySpec.LeafSpine) delay.topology();
        assertThat(d.hostLink()).isEqualTo(new LinkSpec(100, 50));
        assertThat(d.leafSpineLink()).isEqualTo(new LinkSpec(100, 1000));
    }

    @Test
    void choosing_the_same_type_keeps_its_parameters_and_another_type_starts_from_its_defaults() {
        Scenario same = Lbsim.scenario().scheme("subflow").set("loadBalancing.subflows", 8).scheme("subflow").build();
        assertThat(same.loadBalancing().params()).isEqualTo(new Subflows.Params(8));
        Scenario other = Lbsim.scenario().scheme("subflow").set("loadBalancing.subflows", 8).scheme("ofan").build();
        assertThat(other.loadBalancing()).isEqualTo(ScenarioDefaults.component(org.lbsim.registry.LoadBalancers.REGISTRY, "ofan"));
        Scenario w = Lbsim.scenario().permutation(1000, 4).allToAll(2000).build();
        assertThat(w.workload()).isEqualTo(new WorkloadSpec.AllToAll(2000, 0));
    }

    @Test
    void failed_links_append_to_the_list() {
        Scenario s = Lbsim.scenario().fatTree(4).failLink("e0", "a0").failLink("e1", "a1").build();
        assertThat(s.failures().links()).containsExactly(new FailureSpec.FailedLink("e0", "a0", 0), new FailureSpec.FailedLink("e1", "a1", 0));
    }

    @Test
    void a_misspelt_key_fails_at_the_call_with_the_path_and_the_closest_key() {
        ScenarioException e = error(() -> Lbsim.scenario().set("switches.ecn.kminByts", 1));
        assertThat(e.field()).isEqualTo("switches.ecn.kminByts");
        assertThat(e.getMessage()).isEqualTo("switches.ecn.kminByts: unknown key, did you mean 'kminBytes'? (allowed keys: enabled, kminBytes, kmaxBytes, pmax, markAt)");
        assertThat(error(() -> Lbsim.scenario().set("topolgy.k", 4)).getMessage()).startsWith("topolgy: unknown key, did you mean 'topology'?");
        // a key of another variant says which type it belongs to
        assertThat(error(() -> Lbsim.scenario().set("topology.leaves", 4)).getMessage())
                .startsWith("topology.leaves: unknown key for fat-tree, it belongs to leaf-spine: add 'type: leaf-spine'");
        // the same key is fine once the type is chosen
        assertThat(Lbsim.scenario().leafSpine(2, 2, 2).set("topology.leaves", 4).build().topology().hostCount()).isEqualTo(8);
    }

    @Test
    void a_misspelt_type_name_fails_at_the_call_with_a_suggestion() {
        assertThat(error(() -> Lbsim.scenario().scheme("ofna")).getMessage())
                .startsWith("loadBalancing.type: unknown load-balancing scheme 'ofna', did you mean 'ofan'? (allowed: ecmp, ");
        assertThat(error(() -> Lbsim.scenario().set("topology.type", "fattree")).getMessage())
                .startsWith("topology.type: unknown topology type 'fattree', did you mean 'fat-tree'?");
        assertThat(error(() -> Lbsim.scenario().congestionControl("dcqnc")).field()).isEqualTo("congestionControl.type");
    }

    @Test
    void bad_values_fail_at_build_exactly_as_the_binder_reports_them() {
        ScenarioException e = error(() -> Lbsim.scenario().fatTree(5).build());
        assertThat(e.field()).isEqualTo("topology.k");
        assertThat(e.getMessage()).isEqualTo(error(() -> cli("topology.k=5")).getMessage());
        // an intermediate state may be invalid: kmin above the default kmax, then kmax raised
        Scenario ok = Lbsim.scenario().set("switches.ecn.kminBytes", 500_000).set("switches.ecn.kmaxBytes", 600_000).build();
        assertThat(ok.switches().ecn().kmaxBytes()).isEqualTo(600_000);
        assertThat(error(() -> Lbsim.scenario().set("workload.messageBytes", "big").build()).getMessage())
                .isEqualTo("workload.messageBytes: expected an integer or a size with a unit (B, KB, KiB, MB, MiB, GB, GiB, TB, TiB), got the string \"big\"");
    }

    @Test
    void malformed_paths_and_unusable_values_are_scenario_errors() {
        assertThat(error(() -> Lbsim.scenario().set("switches..ecn", 1)).field()).isEqualTo("switches..ecn");
        assertThat(error(() -> Lbsim.scenario().set("topology.k.x", 1)).getMessage()).isEqualTo("topology.k: is an integer, it has no key 'x'");
        assertThat(error(() -> Lbsim.scenario().set("seed", new Object())).getMessage()).startsWith("seed: cannot use a java.lang.Object");
        assertThat(error(() -> Lbsim.scenario().set("failures.links[3].a", "e0")).getMessage())
                .isEqualTo("failures.links: has 0 elements; index 3 is out of range (0 appends an element)");
        assertThat(error(() -> Lbsim.scenario().override("topology.k")).getMessage()).contains("expected PATH=VALUE");
    }

    @Test
    void a_failed_call_leaves_the_builder_unchanged() {
        ScenarioBuilder b = Lbsim.scenario().fatTree(4);
        Map<String, Object> before = b.toTree();
        error(() -> b.set("switches.ecn.kminByts", 1));
        error(() -> b.set("topology.type", "fattree"));
        assertThat(b.toTree()).isEqualTo(before);
    }

    @Test
    void copies_are_independent() {
        ScenarioBuilder base = Lbsim.scenario().fatTree(4).permutation(65536);
        ScenarioBuilder spray = base.copy().scheme("host-spray");
        assertThat(base.build().loadBalancing().type()).isEqualTo("ecmp");
        assertThat(spray.build().loadBalancing().type()).isEqualTo("host-spray");
        assertThat(spray.build().topology()).isEqualTo(base.build().topology());
    }

    @Test
    void a_builder_can_start_from_a_scenario_or_a_tree() {
        Scenario s = Lbsim.scenario().fatTree(4).scheme("ofan").seed(3).build();
        assertThat(Lbsim.scenario(s).build()).isEqualTo(s);
        assertThat(Lbsim.scenario(Map.of("topology", Map.of("k", 4))).build().topology().hostCount()).isEqualTo(16);
    }

    @Test
    void run_and_prepare_simulate_the_built_scenario_deterministically() {
        ScenarioBuilder b = Lbsim.scenario().fatTree(4).permutation(65536).scheme("host-spray").seed(3);
        PreparedRun prepared = b.prepare();
        assertThat(prepared.flows()).hasSize(16);
        RunResult r = b.run();
        RunResult direct = Simulation.run(b.build(), null);
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(r.cctPs()).isPositive().isEqualTo(direct.cctPs());
        assertThat(r.counters()).isEqualTo(direct.counters());
        assertThat(Lbsim.run(b.build()).cctPs()).isEqualTo(r.cctPs());
    }

    @Test
    void prepare_reports_what_only_the_built_fabric_can_tell_with_the_field_path() {
        ScenarioException e = error(() -> Lbsim.scenario().fatTree(4).failLink("e0", "c0").prepare());
        assertThat(e.getMessage()).isEqualTo("failures.links[0]: there is no link between e0 and c0");
    }
}
