package org.lbsim.sim;

import org.lbsim.registry.Capability;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Workload;

/**
 * How a run with {@code --threads N} is split and what it supports. Pods (a fat tree's
 * edge and aggregation switches with their hosts; a leaf-spine's leaves with their hosts) go to the
 * partitions in contiguous blocks, and the switches of no pod (cores, spines) are dealt out in
 * blocks too. The lookahead is the smallest propagation delay of any link of the fabric, which does
 * not depend on the split, so every split runs the same synchronisation windows and gives the same
 * results.
 *
 * <p>Partitions are not threads: a thread runs a contiguous block of partitions, one after another
 * in every window. Cutting the fabric finer than the threads need ({@link #defaultPartitions}: about
 * {@value #HOSTS_PER_PARTITION} hosts each) makes each partition's window touch a small part of the
 * fabric's memory, which stays in cache, where a run in global time order touches all of it between
 * two visits of any one port: at k = 24 and 32 one thread runs the event loop about twice as fast as
 * the sequential kernel (bench/README.md, "Large fabrics").
 *
 * <p>Supported: every interaction between partitions is a packet on a link. So the run's schemes,
 * congestion controls and loss recoveries must keep their state per switch, per port, per host or
 * per queue pair: those whose registry entry declares {@link Capability#PARTITION_SAFE}; the workload's flows are independent (no dependencies, jobs or persistent
 * queue pairs); no PFC. Samplers (time series, port loads) observe the fabric between windows: a window
 * ends at each sample instant. Failures of every kind are supported: the failure timeline (events, the
 * random process, their convergence) and the convergence of links down from time zero change the
 * whole fabric between windows too, and a failed link also loses the frames still in a sender's
 * outbox ({@link org.lbsim.net.Link}).
 */
public final class Partitioning {
    /** Hosts per partition that {@link #defaultPartitions} aims at (k = 24 and 32: 8-36 within the noise of each other, coarser cuts slower). */
    static final int HOSTS_PER_PARTITION = 16;
    /** At most this many partitions by default: each costs an event set, packet pools and a row of outboxes. */
    static final int MAX_DEFAULT_PARTITIONS = 512;

    private Partitioning() {
    }

    /** Partitions of a run on {@code threads} threads: one per {@value #HOSTS_PER_PARTITION} hosts, at most 512, at least one per thread. */
    public static int defaultPartitions(Topology t, int threads) {
        int byHosts = Math.min(MAX_DEFAULT_PARTITIONS, (t.hostCount() + HOSTS_PER_PARTITION - 1) / HOSTS_PER_PARTITION);
        return Math.max(threads, Math.min(byHosts, Math.max(1, t.nodeCount() - t.hostCount())));
    }

    /** Throws a {@link ScenarioException} naming the first part of {@code s} that {@code --threads} does not support. */
    static void checkSupported(Scenario s) {
        allowed(s.loadBalancing(), "loadBalancing", LoadBalancers.REGISTRY);
        for (int i = 0; i < s.trafficClasses().size(); i++) {
            allowed(s.trafficClasses().get(i).loadBalancing(), "trafficClasses[" + i + "].loadBalancing", LoadBalancers.REGISTRY);
        }
        allowed(s.congestionControl(), "congestionControl", CongestionControls.REGISTRY);
        allowed(s.lossRecovery(), "lossRecovery", LossRecoveries.REGISTRY);
        if (s.switches().pfc().enabled()) {
            refuse("switches.pfc.enabled", "PFC");
        }
        if (s.nic().persistentQueuePairs()) {
            refuse("nic.queuePairs", "persistent queue pairs");
        }
    }

    /** Hosts from which {@code --threads} pays off (bench/README.md, "Large fabrics": S2's 1,024 hosts 1.4-1.6x faster with 2 threads, S1's 128 slower). */
    public static final int HOSTS_WHERE_THREADS_PAY = 1024;

    /**
     * How many threads a run without {@code --threads} uses: every core (at most 64) for fabrics of
     * {@value #HOSTS_WHERE_THREADS_PAY} hosts or more that a partitioned run supports, else 0 (sequential).
     */
    static int threadsThatPay(Scenario s, Workload w, Topology t) {
        if (t.hostCount() < HOSTS_WHERE_THREADS_PAY) {
            return 0;
        }
        try {
            checkSupported(s);
            checkSupported(w);
        } catch (ScenarioException unsupported) {
            return 0;
        }
        return Math.min(64, Runtime.getRuntime().availableProcessors());
    }

    /** Whether a partitioned run ({@code --threads}) supports this run: its scenario and its built workload. */
    public static boolean supports(PreparedRun run) {
        try {
            checkSupported(run.scenario());
            checkSupported(run.workload());
            return true;
        } catch (ScenarioException e) {
            return false;
        }
    }

    /** What the built workload adds to {@link #checkSupported}: independent flows only. */
    static void checkSupported(Workload w) {
        if (w.hasDependencies() || !w.jobs().isEmpty()) {
            refuse("workload", "dependent flows or jobs (collectives, dags, traces with deps)");
        }
    }

    /** Refuses a component whose registry entry does not declare {@link Capability#PARTITION_SAFE}, listing those that do. */
    private static void allowed(ComponentSpec spec, String field, Registry<?> registry) {
        if (!registry.declares(spec.type(), Capability.PARTITION_SAFE)) {
            throw new ScenarioException(field + ".type", "'" + spec.type() + "' is not supported with --threads; allowed: "
                    + String.join(", ", registry.namesDeclaring(Capability.PARTITION_SAFE)));
        }
    }

    private static void refuse(String field, String what) {
        throw new ScenarioException(field, what + " is not supported with --threads (only fabrics where partitions meet on links);"
                + " run without --threads");
    }

    /** The smallest propagation delay of any link: the lookahead of every partitioned run on this fabric. */
    public static long lookaheadPs(Topology t) {
        if (smallestDelayPs(t) <= 0) {
            throw new ScenarioException("topology", "a link without propagation delay leaves --threads no lookahead; give every link a delay > 0");
        }
        return smallestDelayPs(t);
    }

    /**
     * The synchronisation window of a run of this fabric (see {@link org.lbsim.kernel.Simulator}): the
     * lookahead, so a sequential run and a partitioned run give the same results; 1 ps on a fabric with
     * a link without delay, which only a sequential run accepts.
     */
    public static long windowPs(Topology t) {
        return Math.max(1, smallestDelayPs(t));
    }

    private static long smallestDelayPs(Topology t) {
        long min = Long.MAX_VALUE;
        for (int p = 0; p < t.portCount(); p++) {
            min = Math.min(min, t.delayPs(p));
        }
        return min;
    }

    /** The partition of every node: pods in contiguous blocks, switches of no pod in blocks of their own, hosts with their switch. */
    public static int[] partitionOfNodes(Topology t, int partitions) {
        if (partitions > Math.max(1, t.podCount())) {
            return finerThanPods(t, partitions);
        }
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

    /**
     * More partitions than pods: the switches in node order (a pod's switches are neighbours), each
     * with the hosts attached to it, dealt out in contiguous blocks of about equal weight (their ports:
     * events happen where packets arrive), so a partition is a few top-of-rack switches with their
     * hosts, or a few aggregation or core switches, and the threads' blocks carry about equal work.
     */
    private static int[] finerThanPods(Topology t, int partitions) {
        int[] part = new int[t.nodeCount()];
        // weight: ports, as every packet that arrives on a port is an event there (a switch's and its hosts')
        int[] weight = new int[t.nodeCount()];
        long total = 0;
        for (int n = 0; n < t.nodeCount(); n++) {
            int ports = t.portEnd(n) - t.firstPort(n);
            weight[t.isHost(n) ? t.hostSwitch(n) : n] += ports;
            total += ports;
        }
        int switches = t.nodeCount() - t.hostCount();
        long seen = 0;
        int previous = 0;
        for (int n = t.hostCount(), i = 0; n < t.nodeCount(); n++, i++) {
            int want = (int) (seen * partitions / total);
            // never skip a partition, and leave at least one switch for each partition still to come
            int p = Math.max(Math.min(want, previous + 1), previous);
            p = Math.min(partitions - 1, Math.max(p, partitions - (switches - i)));
            part[n] = p;
            previous = p;
            seen += weight[n];
        }
        for (int h = 0; h < t.hostCount(); h++) {
            part[h] = part[t.hostSwitch(h)];
        }
        return part;
    }
}
