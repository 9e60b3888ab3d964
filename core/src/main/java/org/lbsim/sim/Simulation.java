package org.lbsim.sim;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.BufferModel;
import org.lbsim.net.EcnMarker;
import org.lbsim.net.Network;
import org.lbsim.net.OverflowPolicy;
import org.lbsim.net.Packet;
import org.lbsim.net.PfcWatchdog;
import org.lbsim.registry.Component;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.OverflowPolicies;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.EvenSplitLoad;
import org.lbsim.topology.FabricCuts;
import org.lbsim.topology.FailureSchedule;
import org.lbsim.topology.Fib;
import org.lbsim.topology.LinkFailures;
import org.lbsim.topology.PathFacts;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;
import org.lbsim.transport.ConnectionPlan;
import org.lbsim.transport.QueuePairRecipe;
import org.lbsim.transport.Transport;
import org.lbsim.workload.Flow;
import org.lbsim.workload.Workload;
import org.lbsim.workload.Workloads;

/** Builds a run from a scenario: the one place where topology, routing, network, transport and workload meet. */
public final class Simulation {
    private Simulation() {
    }

    /** Builds and runs; {@code baseDir} resolves relative trace paths (null = working directory). */
    public static RunResult run(Scenario scenario, Path baseDir) {
        return prepare(scenario, baseDir).run();
    }

    /**
     * Builds everything and checks what can only be checked against the built fabric (failed links
     * that must exist, trace hosts within range). Throws {@link ScenarioException} with the field path.
     */
    public static PreparedRun prepare(Scenario scenario, Path baseDir) {
        return prepare(scenario, baseDir, null, QueuePairScheme::of, exactPortsRequested(), 0, 0, Simulator::new);
    }

    /**
     * The checks {@link #prepare(Scenario, Path)} makes on the scenario alone before it builds anything: time
     * inputs within the longest simulated time, timers no shorter than the fabric can resolve (one frame at
     * its fastest link; a timeout also one hop's delay), Themis's PSN rings from the formula, the forwarding tables and the size of a generated
     * workload against the heap and the flow limit. Cheap; throws {@link ScenarioException} naming the field.
     */
    public static void checkBeforeBuilding(Scenario scenario) {
        InputBounds.times(scenario);
        InputBounds.timers(scenario);
        InputBounds.themisRings(scenario);
        Feasibility.fabric(scenario);
        Feasibility.workloadSize(scenario);
    }

    /**
     * {@code threads} for "as many as pay": a partitioned run on every core for fabrics of
     * {@value Partitioning#HOSTS_WHERE_THREADS_PAY} hosts or more that it supports, else the sequential
     * run. Both give the same flows, so the choice only changes the wall time.
     */
    public static final int AUTO_THREADS = -1;

    /** Stack size of a partitioned run's worker threads (as the launcher gives the main thread). */
    private static final long WORKER_STACK_BYTES = 8L << 20;

    /**
     * Like {@link #prepare(Scenario, Path)}, as a partitioned run on {@code threads} threads
     * ({@code --threads}; every count gives the sequential run's flows: see {@link org.lbsim.kernel.Simulator});
     * 0 = the sequential run; {@link #AUTO_THREADS} = as many as pay.
     * Throws {@link ScenarioException} for what a partitioned run does not support ({@link Partitioning}).
     */
    public static PreparedRun prepare(Scenario scenario, Path baseDir, int threads) {
        return prepare(scenario, baseDir, threads, 0);
    }

    /**
     * Like {@link #prepare(Scenario, Path, int)}, the fabric cut into {@code partitions} partitions
     * (0: {@link Partitioning#defaultPartitions}); the cut changes speed and memory, never results.
     */
    public static PreparedRun prepare(Scenario scenario, Path baseDir, int threads, int partitions) {
        if (threads < 0 && threads != AUTO_THREADS) {
            throw new IllegalArgumentException("threads must be >= 0 or AUTO_THREADS, got " + threads);
        }
        if (partitions < 0) {
            throw new IllegalArgumentException("partitions must be >= 0, got " + partitions);
        }
        return prepare(scenario, baseDir, null, QueuePairScheme::of, exactPortsRequested(), threads, partitions, Simulator::new);
    }

    /**
     * Like {@link #prepare(Scenario, Path)}, but every switch port wakes up per dequeued frame (the
     * exact path) instead of handing frames on at enqueue where it could; the results are
     * the same, only the event count differs. For differential tests and comparisons; on the command
     * line {@code -Dlbsim.exactPorts=true} (e.g. in {@code LBSIM_OPTS}) does the same.
     */
    public static PreparedRun prepareExact(Scenario scenario, Path baseDir) {
        return prepare(scenario, baseDir, null, QueuePairScheme::of, true, 0, 0, Simulator::new);
    }

    /**
     * Like {@link #prepare(Scenario, Path)}, on the sequential kernel {@code kernel} makes (a fresh
     * {@link Simulator} or a subclass): for tools that observe the kernel, such as the bench's event
     * trace recorder. A run of the product never passes anything but {@code Simulator::new}.
     */
    public static PreparedRun prepareOn(Scenario scenario, Path baseDir, java.util.function.Supplier<Simulator> kernel) {
        return prepare(scenario, baseDir, null, QueuePairScheme::of, exactPortsRequested(), 0, 0, kernel);
    }

    private static boolean exactPortsRequested() {
        return Boolean.parseBoolean(System.getProperty("lbsim.exactPorts", "false"));
    }

    /**
     * Like {@link #prepare(Scenario, Path)}, with {@code scheme} in place of the scenario's
     * {@code loadBalancing}: for trying a scheme in code before it is registered.
     */
    public static PreparedRun prepare(Scenario scenario, Path baseDir, LoadBalancer scheme) {
        return prepare(scenario, baseDir, scheme, QueuePairScheme::of, exactPortsRequested(), 0, 0, Simulator::new);
    }

    /**
     * Like {@link #prepare(Scenario, Path)}, with the parts of every queue pair made by the scheme
     * bundle {@code bundle} builds from its class's load balancer and the run's loss-recovery factory.
     */
    public static PreparedRun prepare(Scenario scenario, Path baseDir, BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> bundle) {
        return prepare(scenario, baseDir, null, bundle, exactPortsRequested(), 0, 0, Simulator::new);
    }

    private static PreparedRun prepare(Scenario scenario, Path baseDir, LoadBalancer scheme,
                                       BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> bundle, boolean exactPorts, int threads,
                                       int partitionsAsked, java.util.function.Supplier<Simulator> sequentialKernel) {
        if (threads > 0) {
            Partitioning.checkSupported(scenario);
        }
        RandomStreams rng = new RandomStreams(scenario.seed());
        checkBeforeBuilding(scenario);
        Topology topology = Topologies.build(scenario.topology());
        stopIfInterrupted();
        boolean[] down;
        try {
            down = LinkFailures.resolve(topology, scenario.failures(), rng.stream("failures"));
        } catch (ScenarioException e) {
            throw e.under("failures");
        }
        int failedLinks = 0;
        for (boolean d : down) {
            failedLinks += d ? 1 : 0;
        }
        Fib healthy = Routing.compute(topology, new boolean[topology.linkCount()]);
        Fib converged = failedLinks == 0 ? healthy : Routing.compute(topology, down);
        stopIfInterrupted();

        Workload workload;
        try {
            workload = Workloads.build(scenario.workload(), topology, scenario.packets().mtuBytes(), rng.stream("workload"), baseDir);
        } catch (ScenarioException e) {
            throw e.field().startsWith("workload") ? e : e.under("workload");
        }
        if (threads > 0) {
            Partitioning.checkSupported(workload);
        } else if (threads == AUTO_THREADS) {
            threads = Partitioning.threadsThatPay(scenario, workload, topology);
        }
        stopIfInterrupted();
        List<Flow> flows = workload.flows();
        boolean dependent = workload.hasDependencies();
        Feasibility.flows(scenario, flows, topology, healthy);
        stopIfInterrupted();

        if (failedLinks > 0) {
            for (int i = 0; i < flows.size(); i++) {
                Flow f = flows.get(i);
                if (PathFacts.path(topology, converged, f.src(), f.dst()).length == 0) {
                    throw new ScenarioException("failures", "the failed links (" + failedLinks + ") cut host " + f.src() + " off from host "
                            + f.dst() + " (flow " + i + "), so the run could never finish; use another seed or fewer failures");
                }
            }
        }
        LoadBalancer[] lbByClass = schemesByClass(scenario, scheme);
        CongestionControlFactory cc = component(CongestionControls.REGISTRY, scenario.congestionControl(), "congestionControl");
        LossRecoveryFactory recovery = component(LossRecoveries.REGISTRY, scenario.lossRecovery(), "lossRecovery");
        OverflowPolicy.Factory overflow = overflowPolicy(scenario.switches().overflow());

        int[] src = flows.stream().mapToInt(Flow::src).toArray();
        int[] dst = flows.stream().mapToInt(Flow::dst).toArray();
        if (dependent) {
            // steps between the same two hosts follow each other: each pair loads the fabric once (rho_max, OFAN App. A)
            long[] pairs = flows.stream().mapToLong(f -> ((long) f.src() << 32) | f.dst()).distinct().toArray();
            src = java.util.Arrays.stream(pairs).mapToInt(k -> (int) (k >>> 32)).toArray();
            dst = java.util.Arrays.stream(pairs).mapToInt(k -> (int) k).toArray();
        }
        List<FailureSchedule.Event> schedule;
        try {
            schedule = FailureSchedule.resolve(topology, scenario.failures(), down, src, dst);
        } catch (ScenarioException e) {
            throw e.under("failures");
        }
        PacketSpec pk = scenario.packets();
        double ackPerData = (double) (pk.ackBytes() + pk.interFrameGapBytes()) / (pk.mtuBytes() + pk.headerBytes() + pk.interFrameGapBytes());
        long rhoMax = flows.isEmpty() ? Long.MAX_VALUE : EvenSplitLoad.rhoMaxMbps(topology, converged, src, dst, ackPerData);

        Simulator sim;
        if (threads > 0) {
            // chosen here, once: a sequential run never loads the partitioned kernel, so its calls stay monomorphic
            int partitions = partitionsAsked > 0 ? partitionsAsked : Partitioning.defaultPartitions(topology, threads);
            org.lbsim.kernel.PartitionedSimulator parallel = new org.lbsim.kernel.PartitionedSimulator(partitions, threads,
                    Partitioning.lookaheadPs(topology), WORKER_STACK_BYTES);
            parallel.setNodePartitions(Partitioning.partitionOfNodes(topology, partitions));
            sim = parallel;
        } else {
            sim = sequentialKernel.get();
            sim.setWindowPs(Partitioning.windowPs(topology));
        }
        FailureSpec failures = scenario.failures();
        long convergencePs = convergencePs(failures, topology, healthy, pk);
        Fib initial = convergencePs == 0 ? converged : healthy;
        Network network = network(scenario, sim, topology, initial, rng, down);
        network.setOverflowPolicy(overflow.create(network, scenario.packets().headerBytes()));
        PfcSpec pfcSpec = scenario.switches().pfc();
        PfcWatchdog watchdog = pfcSpec.enabled() ? new PfcWatchdog(network, Time.us(pfcSpec.deadlockCheckUs())) : null;
        programSwitches(scenario, network, initial, rng, lbByClass);
        if (failedLinks > 0 && convergencePs > 0) {
            RoutingConvergence.schedule(sim, network, converged, convergencePs);
        }
        FailureTimeline timeline = failures.duringRun()
                ? new FailureTimeline(sim, network, schedule, down, convergencePs, Time.ns(failures.detectionDelayNs()), failures.mtbfUs(),
                        failures.mttrUs(), rng)
                : null;

        stopIfInterrupted();
        QueuePairs queuePairs = queuePairs(flows, scenario.nic().qpsPerConnection(), topology, healthy, pk, rhoMax);
        List<QpContext> qps = queuePairs.contexts();
        LoadBalancer[] lbOfQp = qps.stream().map(q -> lbByClass[q.trafficClass()]).toArray(LoadBalancer[]::new);
        java.util.Map<LoadBalancer, QueuePairScheme> bundles = new java.util.IdentityHashMap<>();
        QueuePairScheme[] bundleOfQp = java.util.Arrays.stream(lbOfQp).map(l -> bundles.computeIfAbsent(l, x -> bundle.apply(x, recovery)))
                .toArray(QueuePairScheme[]::new);
        int[][] deps = dependent ? flows.stream().map(Flow::deps).toArray(int[][]::new) : null;
        long[] gaps = dependent ? flows.stream().mapToLong(Flow::gapPs).toArray() : null;
        int[] previousOnQp = scenario.nic().persistentQueuePairs() ? persistentChains(flows, qps, queuePairs.connectionOf()) : null;
        Transport transport = new Transport(network, new ConnectionPlan(qps, queuePairs.connectionOf(),
                qps.stream().mapToLong(QpContext::startPs).toArray(), flows.size(), deps, gaps, previousOnQp),
                new QueuePairRecipe(cc, bundleOfQp, lbOfQp, rng, pk.ackBytes(), converged), scenario.nic().batchPackets());
        List<Flow> awaited = flows;
        if (workload.cutsBackground()) {
            // DLBF IV: background that persists throughout the foreground's lifetime; the run and its bound are the foreground's
            List<Flow> foreground = new java.util.ArrayList<>();
            for (int i = 0; i < flows.size(); i++) {
                if (workload.lastsForeground(i)) {
                    transport.lastsForeground(i);
                } else {
                    foreground.add(flows.get(i));
                }
            }
            awaited = foreground;
        }
        if (failures.duringRun()) {
            // OFAN App. A for the fabric as it is: each time routing converges, rho_max of the new routes (a rho_max sender may follow it)
            int[] pairSrc = src;
            int[] pairDst = dst;
            network.addRoutingListener(fib -> transport.setRhoMaxMbps(EvenSplitLoad.rhoMaxMbps(topology, fib, pairSrc, pairDst, ackPerData)));
        }
        long pacedMbps = Long.MAX_VALUE;
        if (flows.size() > 0) {
            long rate = cc.create(qps.get(0)).rateMbps(); // queue pair 0's start rate (it may not be built yet)
            if (rate < topology.rateMbps(topology.hostPort(flows.get(0).src()))) {
                pacedMbps = rate;
            }
        }
        long bound = Bounds.collectivePs(topology, healthy, awaited,
                scenario.workload() instanceof WorkloadSpec.Permutation || Bounds.formPermutation(awaited), pk,
                pacedMbps, FabricCuts.of(topology));
        // several traffic classes (a foreground and its background): the out-of-order packets of each are sampled apart too
        int[] classes = scenario.metrics().sampleIntervalUs() > 0
                ? flows.stream().mapToInt(org.lbsim.workload.Flow::trafficClass).distinct().sorted().toArray() : new int[0];
        Sampler sampler = scenario.metrics().sampleIntervalUs() > 0
                ? new Sampler(sim, network, transport, Math.max(1, Time.us(scenario.metrics().sampleIntervalUs())), scenario.metrics().rateSeriesQps(),
                        scenario.metrics().balanceWindowUs() > 0 ? Math.max(1, Time.us(scenario.metrics().balanceWindowUs())) : 0,
                        classes.length > 1 ? classes : new int[0])
                : null;
        org.lbsim.scenario.MetricsSpec metrics = scenario.metrics();
        PortLoads portLoads = metrics.portLoadsFromUs() < 0 ? new PortLoads(network)
                : new PortLoads(network, sim, Time.us(metrics.portLoadsFromUs()), Time.us(metrics.portLoadsToUs()));
        if (!exactPorts && !failures.duringRun()) {
            network.handOnAtEnqueue(); // one event per hop where the dequeue instant is known at enqueue
            network.skipIdleNicWakes(); // no NIC wake-up whose outcome is known
        }
        if (!exactPorts) {
            transport.skipPacedLooks(); // no look at queue pairs that pacing still holds back (failures during the run included)
        }
        return new PreparedRun(scenario, sim, topology, network, transport, workload, bound, rhoMax, failedLinks, watchdog, sampler, portLoads,
                dependent || !workload.jobs().isEmpty() ? Bounds.jobBoundsPs(topology, healthy, workload, pk, pacedMbps) : new long[0],
                timeline, distinct(lbByClass));
    }

    /**
     * Building stops between its phases when the thread was interrupted (a caller that gave up on it, such as
     * {@code --max-wall-seconds} passing while the run is built), rather than finishing work nobody waits for.
     */
    static void stopIfInterrupted() {
        if (Thread.currentThread().isInterrupted()) {
            throw new java.util.concurrent.CancellationException("building the run was interrupted");
        }
    }

    /** Each scheme of the run once, in traffic-class order. */
    private static List<LoadBalancer> distinct(LoadBalancer[] lbByClass) {
        java.util.Set<LoadBalancer> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        return java.util.Arrays.stream(lbByClass).filter(seen::add).toList();
    }

    /** The load-balancing scheme of each traffic class (DSCP 0-63): the run's, or the class's own from {@code trafficClasses}. */
    private static LoadBalancer[] schemesByClass(Scenario scenario, LoadBalancer override) {
        LoadBalancer lb = override != null ? override : component(LoadBalancers.REGISTRY, scenario.loadBalancing(), "loadBalancing");
        LoadBalancer[] lbByClass = new LoadBalancer[64];
        java.util.Arrays.fill(lbByClass, lb);
        for (int i = 0; i < scenario.trafficClasses().size(); i++) {
            org.lbsim.scenario.TrafficClassSpec tc = scenario.trafficClasses().get(i);
            lbByClass[tc.trafficClass()] = component(LoadBalancers.REGISTRY, tc.loadBalancing(), "trafficClasses[" + i + "].loadBalancing");
        }
        return lbByClass;
    }

    /** The routing convergence delay G in picoseconds, -1 for never. */
    private static long convergencePs(FailureSpec failures, Topology topology, Fib healthy, PacketSpec pk) {
        if (failures.convergenceDelayRtts() < 0) {
            return failures.convergenceDelayNs() < 0 ? -1 : Time.ns(failures.convergenceDelayNs());
        }
        // OFAN 5.2 gives G in multiples of the minimum network RTT: that of the longest idle path
        int far = topology.hostCount() - 1;
        if (PathFacts.path(topology, healthy, 0, far).length == 0 || PathFacts.path(topology, healthy, far, 0).length == 0) {
            throw new ScenarioException("failures.convergenceDelayRtts", "needs a route between host 0 and host " + far
                    + " to measure the base RTT; give failures.convergenceDelayNs instead");
        }
        long rtt = Bounds.baseRttPs(topology, healthy, 0, far, pk);
        return Math.round(failures.convergenceDelayRtts() * rtt);
    }

    /** Links, ports (buffers, ECN, PFC), switches and NICs, with the links down from time zero and the injected drops. */
    private static Network network(Scenario scenario, Simulator sim, Topology topology, Fib initial, RandomStreams rng, boolean[] down) {
        BufferSpec bufferSpec = scenario.switches().buffer();
        EcnSpec ecnSpec = scenario.switches().ecn();
        EcnMarker ecn = new EcnMarker(ecnSpec.enabled(), ecnSpec.kminBytes(), ecnSpec.kmaxBytes(), ecnSpec.pmax());
        PfcSpec pfcSpec = scenario.switches().pfc();
        Network.PfcConfig pfc = pfcSpec.enabled()
                ? new Network.PfcConfig(pfcSpec.xoffBytes(), pfcSpec.xonBytes(), pfcSpec.dynamicAlpha(), pfcSpec.headroomBytes())
                : null;
        Network network = new Network(sim, topology, initial, rng, node -> bufferModel(bufferSpec), ecn,
                scenario.packets().interFrameGapBytes(), pfc);
        if (scenario.switches().controlPriority()) {
            network.setPriorityKind(Packet.ACK);
            network.setPriorityKind(Packet.NACK);
            network.setPriorityKind(Packet.CNP);
        }
        if (scenario.nic().controlPriority()) {
            network.setNicControlPriority();
        }
        if (EcnSpec.DEQUEUE.equals(ecnSpec.markAt())) {
            network.setEcnMarkAtDequeue(true);
        }
        for (int link = 0; link < down.length; link++) {
            if (down[link]) {
                network.setLinkDown(link, true);
            }
        }
        FailureSpec failures = scenario.failures();
        if (!failures.dropPackets().isEmpty()) {
            network.setInjectedDrops(failures.dropPackets().stream().mapToLong(d -> ((long) d.qp() << 32) | d.psn()).toArray());
        }
        return network;
    }

    /**
     * Every switch gets the run's port selector and switch program, and each traffic class with a
     * scheme of its own its selector and program; every scheme hears of new routes.
     */
    private static void programSwitches(Scenario scenario, Network network, Fib initial, RandomStreams rng, LoadBalancer[] lbByClass) {
        Topology topology = network.topology();
        Simulator sim = network.simulator();
        LoadBalancer lb = lbByClass[0];
        for (int node = topology.hostCount(); node < topology.nodeCount(); node++) {
            SwitchContext ctx = new SwitchContext(node, topology, initial, rng.stream("switch", node), network, sim);
            network.setSelector(node, lb.newPortSelector(ctx));
            lb.programSwitch(ctx, network.switchAt(node));
            for (org.lbsim.scenario.TrafficClassSpec tc : scenario.trafficClasses()) {
                LoadBalancer classLb = lbByClass[tc.trafficClass()];
                SwitchContext classCtx = new SwitchContext(node, topology, initial, rng.stream("switch-class-" + tc.trafficClass(), node), network, sim);
                network.switchAt(node).setClassSelector(tc.trafficClass(), classLb.newPortSelector(classCtx));
                classLb.programSwitch(classCtx, network.switchAt(node));
            }
        }
        // hosts' source-routing state follows the routes in force (HOST DR's waypoints)
        java.util.Set<LoadBalancer> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (LoadBalancer l : lbByClass) {
            if (distinct.add(l)) {
                network.addRoutingListener(l::onRoutingChange);
            }
        }
    }

    /**
     * Persistent queue pairs (NCCL keeps one connection per peer and channel for the whole run): the
     * messages of one job between the same two hosts, in the same traffic class and channel, follow each
     * other on one queue pair (the k-th queue pair of each connection when there are several), in the
     * dependency graph's order (Kahn, stable: a collective's steps in step order, independent flows in
     * workload order). Returns, per queue pair, the queue pair of the previous message on it, or -1.
     */
    static int[] persistentChains(List<Flow> flows, List<QpContext> qps, int[] connectionOf) {
        int[] firstQp = new int[flows.size()];
        java.util.Arrays.fill(firstQp, -1);
        for (int q = qps.size() - 1; q >= 0; q--) {
            firstQp[connectionOf[q]] = q;
        }
        record Key(int job, int src, int dst, int trafficClass, int channel, int qpIndex) {
        }
        java.util.Map<Key, Integer> last = new java.util.HashMap<>();
        int[] previous = new int[qps.size()];
        java.util.Arrays.fill(previous, -1);
        for (int c : org.lbsim.workload.FlowGraph.topologicalOrder(flows)) {
            Flow f = flows.get(c);
            for (int q = firstQp[c]; q < qps.size() && connectionOf[q] == c; q++) {
                Key k = new Key(f.job(), f.src(), f.dst(), f.trafficClass(), f.channel(), qps.get(q).qpIndex());
                Integer before = last.put(k, q);
                previous[q] = before == null ? -1 : before;
            }
        }
        return previous;
    }

    /** The queue pairs of a run and the connection (flow) each carries part of. */
    private record QueuePairs(List<QpContext> contexts, int[] connectionOf) {
    }

    private static QueuePairs queuePairs(List<Flow> flows, int qpsPer, Topology topology, Fib healthy, PacketSpec pk, long rhoMax) {
        // Each connection (flow) is split over qpsPerConnection queue pairs of (nearly) equal shares.
        List<QpContext> qps = new java.util.ArrayList<>();
        List<Integer> connectionOf = new java.util.ArrayList<>();
        // A host's queue pairs that start together, in flow order: rank and count give each its phase.
        // Dependent flows start together when they wait for the same flows with the same gap.
        record HostStart(int src, long startPs, List<Integer> deps, long gapPs) {
            static HostStart of(Flow f) {
                return new HostStart(f.src(), f.startPs(), java.util.Arrays.stream(f.deps()).sorted().boxed().toList(), f.gapPs());
            }
        }
        java.util.Map<HostStart, int[]> together = new java.util.HashMap<>();
        for (Flow f : flows) {
            together.computeIfAbsent(HostStart.of(f), k -> new int[2])[1] += (int) Math.min(qpsPer, f.bytes());
        }
        java.util.Map<Long, Long> rttOfPair = new java.util.HashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            long rtt = rttOfPair.computeIfAbsent(((long) f.src() << 32) | f.dst(), k -> Bounds.baseRttPs(topology, healthy, f.src(), f.dst(), pk));
            int n = (int) Math.min(qpsPer, f.bytes());
            int[] rankCount = together.get(HostStart.of(f));
            for (int j = 0; j < n; j++) {
                long share = f.bytes() / n + (j < f.bytes() % n ? 1 : 0);
                int packets = (int) Math.max(1, (share + pk.mtuBytes() - 1) / pk.mtuBytes());
                double phase = (double) rankCount[0]++ / rankCount[1];
                qps.add(new QpContext(qps.size(), f.src(), f.dst(), share, packets, pk.mtuBytes(), pk.headerBytes(),
                        pk.interFrameGapBytes(), topology.rateMbps(topology.hostPort(f.src())), rtt, rhoMax, f.startPs(), phase,
                        f.trafficClass(), j, qpsPer));
                connectionOf.add(i);
            }
        }
        return new QueuePairs(qps, connectionOf.stream().mapToInt(Integer::intValue).toArray());
    }

    private static BufferModel bufferModel(BufferSpec spec) {
        if (spec instanceof BufferSpec.PerPort p) {
            return BufferModel.perPort(p.bytesPerPort());
        }
        BufferSpec.SharedDynamic s = (BufferSpec.SharedDynamic) spec;
        return BufferModel.sharedDynamic(s.totalBytes(), s.alpha());
    }

    /** The run's overflow policy ({@code switches.overflow}), by name from {@link OverflowPolicies}. */
    private static OverflowPolicy.Factory overflowPolicy(String name) {
        Component<OverflowPolicy.Factory> c = OverflowPolicies.REGISTRY.find(name).orElseThrow(() -> new ScenarioException("switches.overflow",
                "unknown " + OverflowPolicies.REGISTRY.kind() + " '" + name + "'; allowed: " + String.join(", ", OverflowPolicies.REGISTRY.names())));
        return c.create(c.defaults());
    }

    private static <T> T component(Registry<T> registry, ComponentSpec spec, String field) {
        Component<T> c = registry.find(spec.type()).orElseThrow(() -> new ScenarioException(field + ".type",
                "unknown " + registry.kind() + " '" + spec.type() + "'; allowed: " + String.join(", ", registry.names())));
        if (!c.paramsType().isInstance(spec.params())) {
            throw new ScenarioException(field, "parameters of '" + spec.type() + "' must be a " + c.paramsType().getSimpleName());
        }
        return c.create(spec.params());
    }
}
