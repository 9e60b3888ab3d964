package org.lbsim.sim;

import java.util.List;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Workload;

/**
 * How a run with {@code --threads N} is split (issue 21) and what it supports. Pods (a fat tree's
 * edge and aggregation switches with their hosts; a leaf-spine's leaves with their hosts) go to the
 * partitions in contiguous blocks, and the switches of no pod (cores, spines) are dealt out in
 * blocks too. The lookahead is the smallest propagation delay of any link of the fabric, which does
 * not depend on the split, so every split runs the same synchronisation windows and gives the same
 * results.
 *
 * <p>Supported: every interaction between partitions is a packet on a link. So the run's schemes,
 * congestion controls and loss recoveries must keep their state per switch, per port or per queue
 * pair (the lists below); the workload's flows are independent (no dependencies, jobs or persistent
 * queue pairs); no PFC; no failures of any kind. Samplers (time series, port loads) observe the
 * fabric between windows: a window ends at each sample instant.
 */
public final class Partitioning {
    /** Load-balancing schemes whose state is per switch, per port or per queue pair. */
    public static final List<String> SCHEMES = List.of("ecmp", "host-spray", "subflow", "host-flowlet-ar", "host-pkt-ar", "switch-pkt",
            "simple-rr", "jsq", "rsq", "switch-pkt-ar", "drill", "ar");
    public static final List<String> CONGESTION_CONTROLS = List.of("fixed-rate", "dcqcn");
    public static final List<String> LOSS_RECOVERIES = List.of("erasure", "nic-sr", "go-back-n", "sack");

    private Partitioning() {
    }

    /** Throws a {@link ScenarioException} naming the first part of {@code s} that {@code --threads} does not support. */
    static void checkSupported(Scenario s) {
        allowed(s.loadBalancing(), "loadBalancing", SCHEMES);
        for (int i = 0; i < s.trafficClasses().size(); i++) {
            allowed(s.trafficClasses().get(i).loadBalancing(), "trafficClasses[" + i + "].loadBalancing", SCHEMES);
        }
        allowed(s.congestionControl(), "congestionControl", CONGESTION_CONTROLS);
        allowed(s.lossRecovery(), "lossRecovery", LOSS_RECOVERIES);
        if (s.switches().pfc().enabled()) {
            refuse("switches.pfc.enabled", "PFC");
        }
        FailureSpec f = s.failures();
        if (!f.links().isEmpty() || f.linkProbability() > 0 || !f.events().isEmpty() || f.mtbfUs() > 0 || !f.dropPackets().isEmpty()) {
            refuse("failures", "failures of any kind (links, linkProbability, events, mtbfUs, dropPackets)");
        }
        if (s.nic().persistentQueuePairs()) {
            refuse("nic.queuePairs", "persistent queue pairs");
        }
    }

    /** What the built workload adds to {@link #checkSupported}: independent flows only. */
    static void checkSupported(Workload w) {
        if (w.hasDependencies() || !w.jobs().isEmpty()) {
            refuse("workload", "dependent flows or jobs (collectives, dags, traces with deps)");
        }
    }

    private static void allowed(ComponentSpec spec, String field, List<String> names) {
        if (!names.contains(spec.type())) {
            throw new ScenarioException(field + ".type", "'" + spec.type() + "' is not supported with --threads; allowed: "
                    + String.join(", ", names));
        }
    }

    private static void refuse(String field, String what) {
        throw new ScenarioException(field, what + " is not supported with --threads (only fabrics where partitions meet on links);"
                + " run without --threads");
    }

    /** The smallest propagation delay of any link: the lookahead of every partitioned run on this fabric. */
    public static long lookaheadPs(Topology t) {
        long min = Long.MAX_VALUE;
        for (int p = 0; p < t.portCount(); p++) {
            min = Math.min(min, t.delayPs(p));
        }
        if (min <= 0) {
            throw new ScenarioException("topology", "a link without propagation delay leaves --threads no lookahead; give every link a delay > 0");
        }
        return min;
    }

    /** The partition of every node: pods in contiguous blocks, switches of no pod in blocks of their own, hosts with their switch. */
    public static int[] partitionOfNodes(Topology t, int partitions) {
        int[] part = new int[t.nodeCount()];
        int pods = t.podCount();
        int podless = 0;
        for (int n = t.hostCount(); n < t.nodeCount(); n++) {
            podless += t.pod(n) < 0 ? 1 : 0;
        }
        int seen = 0;
        for (int n = t.hostCount(); n < t.nodeCount(); n++) {
            int pod = t.pod(n);
            part[n] = pod >= 0 && pods > 0 ? (int) ((long) pod * partitions / pods) : (int) ((long) seen++ * partitions / Math.max(1, podless));
        }
        for (int h = 0; h < t.hostCount(); h++) {
            part[h] = part[t.hostSwitch(h)];
        }
        return part;
    }
}
