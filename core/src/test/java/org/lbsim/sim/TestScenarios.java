package org.lbsim.sim;

import java.util.List;
import org.lbsim.cc.FixedRate;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.IdealErasure;

/** Small scenarios for tests, built in code with the paper's defaults. */
public final class TestScenarios {
    private TestScenarios() {
    }

    public static TopologySpec fatTree(int k) {
        return new TopologySpec.FatTree(k, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
    }

    public static ComponentSpec lb(String name) {
        return new ComponentSpec(name, LoadBalancers.REGISTRY.find(name).orElseThrow().defaults());
    }

    public static ComponentSpec lineRate() {
        return new ComponentSpec("fixed-rate", new FixedRate.Params(false, 0));
    }

    public static ComponentSpec erasure() {
        return new ComponentSpec("erasure", IdealErasure.Params.rto(80));
    }

    public static Scenario scenario(TopologySpec topo, String lb, WorkloadSpec workload, long seed) {
        return new Scenario("test", seed, topo, PacketSpec.defaults(), SwitchSpec.defaults(), lb(lb), lineRate(), erasure(),
                workload, FailureSpec.defaults(), LimitsSpec.defaults());
    }

    public static Scenario withFailures(Scenario s, FailureSpec f) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), f, s.limits());
    }

    public static Scenario withRecovery(Scenario s, ComponentSpec recovery) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                recovery, s.workload(), s.failures(), s.limits());
    }

    public static FailureSpec failLinks(List<FailureSpec.FailedLink> links, double convergenceNs) {
        return new FailureSpec(links, 0, convergenceNs);
    }
}
