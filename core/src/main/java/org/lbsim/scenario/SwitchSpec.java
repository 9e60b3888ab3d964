package org.lbsim.scenario;

/** Properties shared by every switch of the fabric. */
public record SwitchSpec(
        @Doc("egress buffer model") BufferSpec buffer,
        @Doc("ECN marking on enqueue") EcnSpec ecn) {

    public SwitchSpec {
        ScenarioException.require(buffer != null, "buffer", "is required");
        ScenarioException.require(ecn != null, "ecn", "is required");
    }

    public static SwitchSpec defaults() {
        return new SwitchSpec(BufferSpec.defaults(), EcnSpec.defaults());
    }
}
