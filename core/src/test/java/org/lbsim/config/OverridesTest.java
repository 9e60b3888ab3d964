package org.lbsim.config;

import org.lbsim.scenario.SetException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lbsim.config.ScenarioBinderTest.list;
import static org.lbsim.config.ScenarioBinderTest.map;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;

class OverridesTest {

    private static String applyError(Map<String, Object> tree, String... args) {
        try {
            Overrides.apply(tree, List.of(args));
        } catch (SetException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a SetException");
    }

    @Test
    void values_are_read_as_yaml_scalars() {
        assertThat(Overrides.scalar("4")).isEqualTo(4);
        assertThat(Overrides.scalar("-4")).isEqualTo(-4);
        assertThat(Overrides.scalar("5000000000")).isEqualTo(5_000_000_000L);
        assertThat(Overrides.scalar("2.5")).isEqualTo(2.5);
        assertThat(Overrides.scalar("1e6")).isEqualTo(1e6);
        assertThat(Overrides.scalar("true")).isEqualTo(true);
        assertThat(Overrides.scalar("False")).isEqualTo(false);
        assertThat(Overrides.scalar("null")).isNull();
        assertThat(Overrides.scalar("host-spray")).isEqualTo("host-spray");
        assertThat(Overrides.scalar("\"2024\"")).isEqualTo("2024");
        assertThat(Overrides.scalar("'yes'")).isEqualTo("yes");
        assertThat(Overrides.scalar("")).isEqualTo("");
        assertThat(Overrides.scalar("a=b")).isEqualTo("a=b");
    }

    @Test
    void set_changes_nested_values_creates_missing_maps_and_leaves_the_input_alone() {
        Map<String, Object> tree = map("name", "x", "topology", map("k", 8));
        Map<String, Object> out = Overrides.apply(tree, List.of("topology.k=4", "workload.messageBytes=65536", "loadBalancing.type=host-spray",
                "name=other=name"));
        assertThat(out).isEqualTo(map("name", "other=name", "topology", map("k", 4), "workload", map("messageBytes", 65536),
                "loadBalancing", map("type", "host-spray")));
        assertThat(tree).isEqualTo(map("name", "x", "topology", map("k", 8)));
        Scenario s = ScenarioBinder.bind(out);
        assertThat(((TopologySpec.FatTree) s.topology()).k()).isEqualTo(4);
        assertThat(s.loadBalancing().type()).isEqualTo("host-spray");
    }

    @Test
    void set_can_change_the_type_of_a_variant() {
        Map<String, Object> out = Overrides.apply(map("topology", map("type", "fat-tree")),
                List.of("topology.type=leaf-spine", "topology.leaves=2"));
        Scenario s = ScenarioBinder.bind(out);
        assertThat(s.topology()).isInstanceOf(TopologySpec.LeafSpine.class);
        assertThat(((TopologySpec.LeafSpine) s.topology()).leaves()).isEqualTo(2);
    }

    @Test
    void set_addresses_list_elements_and_appends_at_the_end() {
        Map<String, Object> tree = map("failures", map("links", list(map("a", "e0", "b", "a0"))));
        Map<String, Object> out = Overrides.apply(tree, List.of("failures.links[0].b=a1", "failures.links[1].a=e2", "failures.links[1].b=a3"));
        Scenario s = ScenarioBinder.bind(out);
        assertThat(s.failures().links()).containsExactly(new FailureSpec.FailedLink("e0", "a1", 0), new FailureSpec.FailedLink("e2", "a3", 0));
        Map<String, Object> fresh = Overrides.apply(map(), List.of("failures.links[0].a=e1", "failures.links[0].b=a1"));
        assertThat(ScenarioBinder.bind(fresh).failures().links()).containsExactly(new FailureSpec.FailedLink("e1", "a1", 0));
    }

    @Test
    void malformed_or_impossible_assignments_name_the_argument() {
        assertThat(applyError(map(), "topology.k")).isEqualTo("--set topology.k: expected PATH=VALUE, such as topology.k=4");
        assertThat(applyError(map(), "=4")).isEqualTo("--set =4: the path before '=' is empty; expected PATH=VALUE, such as topology.k=4");
        assertThat(applyError(map(), "topology..k=4"))
                .isEqualTo("--set topology..k=4: 'topology..k' is not a valid path; expected keys separated by dots, such as topology.k or failures.links[0].a");
        assertThat(applyError(map("topology", map("k", 8)), "topology.k.x=1"))
                .isEqualTo("--set topology.k.x=1: topology.k: is the integer 8, not a map, so it has no key 'x'");
        assertThat(applyError(map("failures", map("links", list())), "failures.links[3].a=e0"))
                .isEqualTo("--set failures.links[3].a=e0: failures.links: has 0 elements; index 3 is out of range (0 appends an element)");
        assertThat(applyError(map("topology", map("k", 8)), "topology[0]=1"))
                .isEqualTo("--set topology[0]=1: topology: is a map, not a list, so it has no element [0]");
    }

    @Test
    void binding_errors_are_blamed_on_the_assignment_that_caused_them() {
        List<String> args = List.of("topology.k=4", "topology.kk=4", "lossRecovery.type=sak", "workload.messageBytes=-1", "topology.type=leaf-spine");
        assertThat(Overrides.blame(args, new ScenarioException("topology.kk", "unknown key"))).contains("topology.kk=4");
        assertThat(Overrides.blame(args, new ScenarioException("lossRecovery.type", "unknown"))).contains("lossRecovery.type=sak");
        assertThat(Overrides.blame(args, new ScenarioException("workload.messageBytes", "must be >= 1"))).contains("workload.messageBytes=-1");
        assertThat(Overrides.blame(args, new ScenarioException("topology.hostsPerLeaf", "bad"))).contains("topology.type=leaf-spine");
        assertThat(Overrides.blame(args, new ScenarioException("packets.mtuBytes", "bad"))).isEmpty();
        assertThat(Overrides.blame(List.of("failures.links[0].a=x9"), new ScenarioException("failures.links[0].a", "no switch"))).contains("failures.links[0].a=x9");
        assertThat(Overrides.blame(List.of("failures.links[0].a=x9"), new ScenarioException("failures.links[1].a", "no switch"))).isEmpty();
        assertThatThrownBy(() -> ScenarioBinder.bind(Overrides.apply(map(), List.of("topology.kk=4"))))
                .isInstanceOf(ScenarioException.class).hasMessageStartingWith("topology.kk: unknown key, did you mean 'k'?");
    }
}
