package org.lbsim.scenario;

/**
 * A traffic class with a load-balancing scheme of its own (DLBF IV: DLBF foreground over ECMP
 * background; CTCCL 3: the training DSCP class on policy routing, the rest on ECMP). Flows of the
 * class (a trace's {@code class} column) stamp it into their packets; their hosts use this scheme's
 * entropy policy and every switch this scheme's port selector for them. Congestion control and loss
 * recovery stay the run's.
 */
public record TrafficClassSpec(
        @Doc("the DSCP class, 1-63 (class 0 is the run's own loadBalancing)") int trafficClass,
        @Doc("load-balancing scheme of this class (see `lbsim list schemes`)") ComponentSpec loadBalancing) {

    public TrafficClassSpec {
        ScenarioException.require(trafficClass >= 1 && trafficClass <= 63, "trafficClass",
                "must be a DSCP class between 1 and 63 (class 0 uses the top-level loadBalancing), got " + trafficClass);
        ScenarioException.require(loadBalancing != null, "loadBalancing", "is required");
    }
}
