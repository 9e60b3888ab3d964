package org.lbsim.config;

import org.lbsim.registry.Registry;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;

/**
 * What a scenario file means when it leaves a key out. {@link Scenario} itself has no
 * {@code defaults()}: its default is assembled here from the defaults of its parts.
 */
public final class ScenarioDefaults {
    public static final String NAME = "unnamed";
    public static final long SEED = 1;
    public static final String LOAD_BALANCING = "ecmp";
    public static final String CONGESTION_CONTROL = "fixed-rate";
    public static final String LOSS_RECOVERY = "erasure";

    private ScenarioDefaults() {
    }

    public static Scenario scenario() {
        return new Scenario(NAME, SEED, TopologySpec.defaults(), PacketSpec.defaults(), SwitchSpec.defaults(),
                component(Schema.registryOf("loadBalancing"), LOAD_BALANCING),
                component(Schema.registryOf("congestionControl"), CONGESTION_CONTROL),
                component(Schema.registryOf("lossRecovery"), LOSS_RECOVERY),
                WorkloadSpec.defaults(), FailureSpec.defaults(), LimitsSpec.defaults());
    }

    /** The named component of a registry with its default parameters. */
    public static ComponentSpec component(Registry<?> registry, String name) {
        return new ComponentSpec(name, registry.find(name)
                .orElseThrow(() -> new IllegalStateException("no " + registry.kind() + " named " + name))
                .defaults());
    }
}
