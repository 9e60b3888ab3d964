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
     * The checks every prepare starts with, before anything is built: what a partitioned run supports when
     * {@code threads} > 0 ({@link Partitioning}), then {@link #checkBeforeBuilding}. The built fabric and workload are
     * checked next, as they are built (failed links that exist, trace hosts in range, flows that fit).
     */
    public static void check(Scenario scenario, int threads) {
        if (threads > 0) {
            Partitioning.checkSupported(scenario);
        }
        checkBeforeBuilding(scenario);
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
        check(scenario, threads);
        RandomStreams rng = new RandomStreams(scenario.seed());
        Fabric fabric = fabric(scenario, rng);
        Workload workload = workload(scenario, baseDir, fabric.topology(), rng);
        threads = resolveThreads(threads, scenario, workload, fabric.topology());
        stopIfInterrupted();
        List<Flow> flows = workload.flows();
        checkFlows(scenario, flows, fabric);
        Schemes schemes = schemes(scenario, scheme);
        HostPairs pairs = hostPairs(flows, workload.hasDependencies());
        List<FailureSchedule.Event> schedule = failureSchedule(scenario, fabric, pairs);
        double ackPerData = ackPerData(scenario.packets());
        long rhoMax = flows.isEmpty() ? Long.MAX_VALUE
                : EvenSplitLoad.rhoMaxMbps(fabric.topology(), fabric.converged(), pairs.src(), pairs.dst(), ackPerData);
        Simulator sim = kernel(fabric.topology(), threads, partitionsAsked, sequentialKernel);
        WiredFabric wired = wire(scenario, sim, fabric, rng, schemes, schedule);
        Network network = wired.network();
        stopIfInterrupted();
        QueuePairLayout queuePairs = QueuePairLayout.of(flows, scenario.nic().qpsPerConnection(), fabric.topology(), fabric.healthy(),
                scenario.packets(), rhoMax);
        Transport transport = transport(scenario, network, fabric, workload, queuePairs, schemes, bundle, rng);
        List<Flow> awaited = awaitedFlows(workload, transport);
        if (scenario.failures().duringRun()) {
            // OFAN App. A for the fabric as it is: each time routing converges, rho_max of the new routes (a rho_max sender may follow it)
            Topology topology = fabric.topology();
            network.addRoutingListener(fib -> transport.setRhoMaxMbps(EvenSplitLoad.rhoMaxMbps(topology, fib, pairs.src(), pairs.dst(), ackPerData)));
        }
        RunBounds bounds = bounds(scenario, fabric, workload, awaited, queuePairs.contexts(), schemes.cc(), rhoMax);
        Sampler sampler = sampler(scenario.metrics(), sim, network, transport, flows);
        PortLoads portLoads = portLoads(scenario.metrics(), network, sim);
        takeShortcuts(exactPorts, scenario.failures().duringRun(), network, transport);
        return new PreparedRun(scenario, sim, fabric.topology(), network, transport, workload, fabric.failedLinks(), bounds,
                new RunObservers(wired.watchdog(), sampler, portLoads, wired.timeline()), distinct(schemes.lbByClass()));
    }

    /**
     * The fabric before any packet: its links down from time zero, the routes around them once
     * converged, and the routes of the healthy fabric.
     */
    private record Fabric(Topology topology, boolean[] down, int failedLinks, Fib healthy, Fib converged) {
    }

    private static Fabric fabric(Scenario scenario, RandomStreams rng) {
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
        return new Fabric(topology, down, failedLinks, healthy, converged);
    }

    private static Workload workload(Scenario scenario, Path baseDir, Topology topology, RandomStreams rng) {
        try {
            return Workloads.build(scenario.workload(), topology, scenario.packets().mtuBytes(), rng.stream("workload"), baseDir);
        } catch (ScenarioException e) {
            throw e.field().startsWith("workload") ? e : e.under("workload");
        }
    }

    /** The threads to run on: those asked for once the workload is known to allow them, or as many as pay. */
    private static int resolveThreads(int asked, Scenario scenario, Workload workload, Topology topology) {
        if (asked > 0) {
            Partitioning.checkSupported(workload);
            return asked;
        }
        return asked == AUTO_THREADS ? Partitioning.threadsThatPay(scenario, workload, topology) : asked;
    }

    /** The flows fit the heap and limits, and none has its hosts cut apart by the links down from time zero. */
    private static void checkFlows(Scenario scenario, List<Flow> flows, Fabric fabric) {
        Feasibility.flows(scenario, flows, fabric.topology(), fabric.healthy());
        stopIfInterrupted();
        if (fabric.failedLinks() == 0) {
            return;
        }
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            if (PathFacts.path(fabric.topology(), fabric.converged(), f.src(), f.dst()).length == 0) {
                throw new ScenarioException("failures", "the failed links (" + fabric.failedLinks() + ") cut host " + f.src() + " off from host "
                        + f.dst() + " (flow " + i + "), so the run could never finish; use another seed or fewer failures");
            }
        }
    }

    /** The run's components: the load-balancing scheme of each traffic class, congestion control, loss recovery, overflow policy. */
    private record Schemes(LoadBalancer[] lbByClass, CongestionControlFactory cc, LossRecoveryFactory recovery,
                           OverflowPolicy.Factory overflow) {
    }

    private static Schemes schemes(Scenario scenario, LoadBalancer override) {
        LoadBalancer[] lbByClass = schemesByClass(scenario, override);
        CongestionControlFactory cc = component(CongestionControls.REGISTRY, scenario.congestionControl(), "congestionControl");
        LossRecoveryFactory recovery = component(LossRecoveries.REGISTRY, scenario.lossRecovery(), "lossRecovery");
        return new Schemes(lbByClass, cc, recovery, overflowPolicy(scenario.switches().overflow()));
    }

    /** The host pairs that load the fabric, as parallel source and destination arrays. */
    private record HostPairs(int[] src, int[] dst) {
    }

    /** Each flow's hosts; for dependent flows each pair once, since steps between the same two hosts follow each other. */
    private static HostPairs hostPairs(List<Flow> flows, boolean dependent) {
        if (!dependent) {
            return new HostPairs(flows.stream().mapToInt(Flow::src).toArray(), flows.stream().mapToInt(Flow::dst).toArray());
        }
        // each pair loads the fabric once (rho_max, OFAN App. A)
        long[] pairs = flows.stream().mapToLong(f -> ((long) f.src() << 32) | f.dst()).distinct().toArray();
        return new HostPairs(java.util.Arrays.stream(pairs).mapToInt(k -> (int) (k >>> 32)).toArray(),
                java.util.Arrays.stream(pairs).mapToInt(k -> (int) k).toArray());
    }

    private static List<FailureSchedule.Event> failureSchedule(Scenario scenario, Fabric fabric, HostPairs pairs) {
        try {
            return FailureSchedule.resolve(fabric.topology(), scenario.failures(), fabric.down(), pairs.src(), pairs.dst());
        } catch (ScenarioException e) {
            throw e.under("failures");
        }
    }

    /** Wire time of an ACK per data frame's (rho_max counts the ACKs flowing back). */
    private static double ackPerData(PacketSpec pk) {
        return (double) (pk.ackBytes() + pk.interFrameGapBytes()) / (pk.mtuBytes() + pk.headerBytes() + pk.interFrameGapBytes());
    }

    /** The kernel: partitioned on {@code threads} threads, or sequential ({@code threads} 0). */
    private static Simulator kernel(Topology topology, int threads, int partitionsAsked, java.util.function.Supplier<Simulator> sequentialKernel) {
        if (threads > 0) {
            // chosen here, once: a sequential run never loads the partitioned kernel, so its calls stay monomorphic
            int partitions = partitionsAsked > 0 ? partitionsAsked : Partitioning.defaultPartitions(topology, threads);
            org.lbsim.kernel.PartitionedSimulator parallel = new org.lbsim.kernel.PartitionedSimulator(partitions, threads,
                    Partitioning.lookaheadPs(topology), WORKER_STACK_BYTES);
            parallel.setNodePartitions(Partitioning.partitionOfNodes(topology, partitions));
            return parallel;
        }
        Simulator sim = sequentialKernel.get();
        sim.setWindowPs(Partitioning.windowPs(topology));
        return sim;
    }

    /** The network as built, with its PFC watchdog (null in a lossy fabric) and its failures during the run (null without any). */
    private record WiredFabric(Network network, PfcWatchdog watchdog, FailureTimeline timeline) {
    }

    /** Builds the network, programs its switches and schedules routing convergence and the failures during the run. */
    private static WiredFabric wire(Scenario scenario, Simulator sim, Fabric fabric, RandomStreams rng, Schemes schemes,
                                    List<FailureSchedule.Event> schedule) {
        FailureSpec failures = scenario.failures();
        Topology topology = fabric.topology();
        long convergencePs = convergencePs(failures, topology, fabric.healthy(), scenario.packets());
        Fib initial = convergencePs == 0 ? fabric.converged() : fabric.healthy();
        Network network = network(scenario, sim, topology, initial, rng, fabric.down());
        network.setOverflowPolicy(schemes.overflow().create(network, scenario.packets().headerBytes()));
        PfcSpec pfcSpec = scenario.switches().pfc();
        PfcWatchdog watchdog = pfcSpec.enabled() ? new PfcWatchdog(network, Time.us(pfcSpec.deadlockCheckUs())) : null;
        programSwitches(scenario, network, initial, rng, schemes.lbByClass());
        if (fabric.failedLinks() > 0 && convergencePs > 0) {
            RoutingConvergence.schedule(sim, network, fabric.converged(), convergencePs);
        }
        FailureTimeline timeline = failures.duringRun()
                ? new FailureTimeline(sim, network, schedule, fabric.down(), convergencePs, Time.ns(failures.detectionDelayNs()), failures.mtbfUs(),
                        failures.mttrUs(), rng)
                : null;
        return new WiredFabric(network, watchdog, timeline);
    }

    /** The transport over {@code queuePairs}: each queue pair made by its traffic class's scheme bundle. */
    private static Transport transport(Scenario scenario, Network network, Fabric fabric, Workload workload, QueuePairLayout queuePairs,
                                       Schemes schemes, BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> bundle, RandomStreams rng) {
        List<Flow> flows = workload.flows();
        List<QpContext> qps = queuePairs.contexts();
        LoadBalancer[] lbOfQp = qps.stream().map(q -> schemes.lbByClass()[q.trafficClass()]).toArray(LoadBalancer[]::new);
        java.util.Map<LoadBalancer, QueuePairScheme> bundles = new java.util.IdentityHashMap<>();
        QueuePairScheme[] bundleOfQp = java.util.Arrays.stream(lbOfQp)
                .map(l -> bundles.computeIfAbsent(l, x -> bundle.apply(x, schemes.recovery()))).toArray(QueuePairScheme[]::new);
        boolean dependent = workload.hasDependencies();
        int[][] deps = dependent ? flows.stream().map(Flow::deps).toArray(int[][]::new) : null;
        long[] gaps = dependent ? flows.stream().mapToLong(Flow::gapPs).toArray() : null;
        int[] previousOnQp = scenario.nic().persistentQueuePairs() ? queuePairs.persistentChains(flows) : null;
        ConnectionPlan plan = new ConnectionPlan(qps, queuePairs.connectionOf(), qps.stream().mapToLong(QpContext::startPs).toArray(),
                flows.size(), deps, gaps, previousOnQp);
        QueuePairRecipe recipe = new QueuePairRecipe(schemes.cc(), bundleOfQp, lbOfQp, rng, scenario.packets().ackBytes(), fabric.converged());
        return new Transport(network, plan, recipe, scenario.nic().batchPackets());
    }

    /**
     * The flows the run waits for: all of them, or, with background that persists throughout the
     * foreground's lifetime (DLBF IV), the foreground's; the run and its bound are the foreground's.
     */
    private static List<Flow> awaitedFlows(Workload workload, Transport transport) {
        List<Flow> flows = workload.flows();
        if (!workload.cutsBackground()) {
            return flows;
        }
        List<Flow> foreground = new java.util.ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            if (workload.lastsForeground(i)) {
                transport.lastsForeground(i);
            } else {
                foreground.add(flows.get(i));
            }
        }
        return foreground;
    }

    /** The collective's lower bound over the awaited flows and each job's ideal, on the healthy fabric at the senders' start rate. */
    private static RunBounds bounds(Scenario scenario, Fabric fabric, Workload workload, List<Flow> awaited, List<QpContext> qps,
                                    CongestionControlFactory cc, long rhoMax) {
        Topology topology = fabric.topology();
        long pacedMbps = pacedMbps(cc, qps, workload.flows(), topology);
        long bound = Bounds.collectivePs(topology, fabric.healthy(), awaited,
                scenario.workload() instanceof WorkloadSpec.Permutation || Bounds.formPermutation(awaited), scenario.packets(),
                pacedMbps, FabricCuts.of(topology));
        long[] jobBounds = workload.hasDependencies() || !workload.jobs().isEmpty()
                ? Bounds.jobBoundsPs(topology, fabric.healthy(), workload, scenario.packets(), pacedMbps) : new long[0];
        return new RunBounds(bound, rhoMax, jobBounds);
    }

    /** The rate senders start at when below the host line rate (queue pair 0's, which may not be built yet), else Long.MAX_VALUE. */
    private static long pacedMbps(CongestionControlFactory cc, List<QpContext> qps, List<Flow> flows, Topology topology) {
        if (flows.isEmpty()) {
            return Long.MAX_VALUE;
        }
        long rate = cc.create(qps.get(0)).rateMbps();
        return rate < topology.rateMbps(topology.hostPort(flows.get(0).src())) ? rate : Long.MAX_VALUE;
    }

    /** The periodic sampler, or null when {@code metrics.sampleIntervalUs} is 0. */
    private static Sampler sampler(org.lbsim.scenario.MetricsSpec metrics, Simulator sim, Network network, Transport transport, List<Flow> flows) {
        if (metrics.sampleIntervalUs() <= 0) {
            return null;
        }
        // several traffic classes (a foreground and its background): the out-of-order packets of each are sampled apart too
        int[] classes = flows.stream().mapToInt(Flow::trafficClass).distinct().sorted().toArray();
        return new Sampler(sim, network, transport, Math.max(1, Time.us(metrics.sampleIntervalUs())), metrics.rateSeriesQps(),
                metrics.balanceWindowUs() > 0 ? Math.max(1, Time.us(metrics.balanceWindowUs())) : 0,
                classes.length > 1 ? classes : new int[0]);
    }

    private static PortLoads portLoads(org.lbsim.scenario.MetricsSpec metrics, Network network, Simulator sim) {
        return metrics.portLoadsFromUs() < 0 ? new PortLoads(network)
                : new PortLoads(network, sim, Time.us(metrics.portLoadsFromUs()), Time.us(metrics.portLoadsToUs()));
    }

    /** Event shortcuts that leave the results as they are; none on the exact path (differential tests). */
    private static void takeShortcuts(boolean exactPorts, boolean failuresDuringRun, Network network, Transport transport) {
        if (exactPorts) {
            return;
        }
        if (!failuresDuringRun) {
            network.handOnAtEnqueue(); // one event per hop where the dequeue instant is known at enqueue
            network.skipIdleNicWakes(); // no NIC wake-up whose outcome is known
        }
        transport.skipPacedLooks(); // no look at queue pairs that pacing still holds back (failures during the run included)
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

    /** The switches' buffer model: built here, not asked of the spec, since scenario records know nothing of net. */
    private static BufferModel bufferModel(BufferSpec spec) {
        return spec.match(new BufferSpec.Cases<>() {
            @Override
            public BufferModel perPort(BufferSpec.PerPort p) {
                return BufferModel.perPort(p.bytesPerPort());
            }

            @Override
            public BufferModel sharedDynamic(BufferSpec.SharedDynamic s) {
                return BufferModel.sharedDynamic(s.totalBytes(), s.alpha());
            }
        });
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
