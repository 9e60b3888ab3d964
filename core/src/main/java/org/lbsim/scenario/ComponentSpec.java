package org.lbsim.scenario;

/**
 * A pluggable component chosen by name ({@code type:}) from a registry, with its own parameter
 * record. Load balancing schemes, congestion control and loss recovery are all described this
 * way, so adding one is a class plus a registration, never a change to the scenario model.
 */
public record ComponentSpec(String type, Record params) {
    public ComponentSpec {
        ScenarioException.require(type != null && !type.isBlank(), "type", "is required");
        ScenarioException.require(params != null, type, "parameters are missing");
    }

    /** The parameters as the record type the component declared. */
    public <P extends Record> P params(Class<P> kind) {
        return kind.cast(params);
    }
}
