package org.lbsim.scenario;

/** Everything that determines a run. Immutable; equal scenarios and seeds give identical results. */
public record Scenario(
        @Doc("free-form name shown in summaries") String name,
        @Doc("master seed; every random stream is split from it") long seed,
        @Doc("the fabric") TopologySpec topology,
        @Doc("packet sizes") PacketSpec packets,
        @Doc("switch buffers and ECN") SwitchSpec switches,
        @Doc("load-balancing scheme (see `lbsim list schemes`)") ComponentSpec loadBalancing,
        @Doc("congestion control") ComponentSpec congestionControl,
        @Doc("loss recovery") ComponentSpec lossRecovery,
        @Doc("traffic") WorkloadSpec workload,
        @Doc("link failures and routing convergence") FailureSpec failures,
        @Doc("run limits") LimitsSpec limits,
        @Doc("time series sampling") MetricsSpec metrics,
        @Doc("queue pairs per connection, whether they persist from message to message, and the NIC's queue-pair scheduling") NicSpec nic,
        @Doc("traffic classes with a load-balancing scheme of their own, each as {trafficClass: N, loadBalancing: {type: ...}}; flows take their class from the workload (a trace's class column)") java.util.List<TrafficClassSpec> trafficClasses) {

    public Scenario {
        ScenarioException.require(name != null, "name", "is required");
        // the name becomes part of a folder name, so it has to fit one (255 bytes with seed and date)
        ScenarioException.require(name.length() <= MAX_NAME_LENGTH, "name", "must be at most " + MAX_NAME_LENGTH + " characters, got "
                + name.length());
        ScenarioException.require(topology != null, "topology", "is required");
        ScenarioException.require(packets != null, "packets", "is required");
        ScenarioException.require(switches != null, "switches", "is required");
        ScenarioException.require(loadBalancing != null, "loadBalancing", "is required");
        ScenarioException.require(congestionControl != null, "congestionControl", "is required");
        ScenarioException.require(lossRecovery != null, "lossRecovery", "is required");
        ScenarioException.require(workload != null, "workload", "is required");
        ScenarioException.require(failures != null, "failures", "is required");
        ScenarioException.require(limits != null, "limits", "is required");
        ScenarioException.require(metrics != null, "metrics", "is required");
        ScenarioException.require(nic != null, "nic", "is required");
        trafficClasses = trafficClasses == null ? java.util.List.of() : java.util.List.copyOf(trafficClasses);
        java.util.Set<Integer> classes = new java.util.HashSet<>();
        for (int i = 0; i < trafficClasses.size(); i++) {
            ScenarioException.require(classes.add(trafficClasses.get(i).trafficClass()), "trafficClasses[" + i + "].trafficClass",
                    "class " + trafficClasses.get(i).trafficClass() + " is listed twice; give each class one scheme");
        }
        workload.checkHosts(topology.hostCount());
    }

    /** Longest scenario name. */
    public static final int MAX_NAME_LENGTH = 100;

    /** With the default time-series sampling and one queue pair per connection. */
    public Scenario(String name, long seed, TopologySpec topology, PacketSpec packets, SwitchSpec switches,
                    ComponentSpec loadBalancing, ComponentSpec congestionControl, ComponentSpec lossRecovery,
                    WorkloadSpec workload, FailureSpec failures, LimitsSpec limits) {
        this(name, seed, topology, packets, switches, loadBalancing, congestionControl, lossRecovery, workload, failures, limits,
                MetricsSpec.defaults(), NicSpec.defaults());
    }

    /** With one load-balancing scheme for every traffic class. */
    public Scenario(String name, long seed, TopologySpec topology, PacketSpec packets, SwitchSpec switches,
                    ComponentSpec loadBalancing, ComponentSpec congestionControl, ComponentSpec lossRecovery,
                    WorkloadSpec workload, FailureSpec failures, LimitsSpec limits, MetricsSpec metrics, NicSpec nic) {
        this(name, seed, topology, packets, switches, loadBalancing, congestionControl, lossRecovery, workload, failures, limits,
                metrics, nic, java.util.List.of());
    }

    public Scenario withSeed(long newSeed) {
        return new Scenario(name, newSeed, topology, packets, switches, loadBalancing, congestionControl, lossRecovery, workload, failures,
                limits, metrics, nic, trafficClasses);
    }
}
