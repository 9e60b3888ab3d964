package org.lbsim.sim;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.counters.SchemeCounters;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.JobResult;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.OutOfOrder;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Network;
import org.lbsim.net.Nic;
import org.lbsim.net.PfcIngress;
import org.lbsim.net.PfcWatchdog;
import org.lbsim.scenario.Scenario;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.topology.FabricCuts;
import org.lbsim.topology.Topology;
import org.lbsim.transport.OutOfOrderStats;
import org.lbsim.transport.Transport;
import org.lbsim.workload.Flow;
import org.lbsim.workload.Workload;

/**
 * A run that has been fully built and validated but not started. {@link #run()} simulates it once
 * and returns the result; the built objects stay readable afterwards for tests and invariant checks.
 */
public final class PreparedRun {
    private final Scenario scenario;
    private final Simulator sim;
    private final Topology topology;
    private final Network network;
    private final Transport transport;
    private final List<Flow> flows;
    private final Workload workload;
    private final long[] jobIdealPs;
    private final long lowerBoundPs;
    private final long rhoMaxMbps;
    private final int failedLinks;
    private final PfcWatchdog watchdog;
    private final Sampler sampler;
    /** Failures during the run, or null without any. */
    private final FailureTimeline failureTimeline;
    private final PortLoads portLoads;
    /** The run's load-balancing schemes, each once (they report their own counters). */
    private final List<LoadBalancer> schemes;
    private RunResult result;

    PreparedRun(Scenario scenario, Simulator sim, Topology topology, Network network, Transport transport, Workload workload, int failedLinks,
                RunBounds bounds, RunObservers observers, List<LoadBalancer> schemes) {
        this.scenario = scenario;
        this.sim = sim;
        this.topology = topology;
        this.network = network;
        this.transport = transport;
        this.workload = workload;
        this.flows = workload.flows();
        this.failedLinks = failedLinks;
        this.lowerBoundPs = bounds.lowerBoundPs();
        this.rhoMaxMbps = bounds.rhoMaxMbps();
        this.jobIdealPs = bounds.jobIdealPs();
        this.watchdog = observers.watchdog();
        this.sampler = observers.sampler();
        this.portLoads = observers.portLoads();
        this.failureTimeline = observers.failureTimeline();
        this.schemes = schemes;
    }

    public RunResult run() {
        return run(0);
    }

    /**
     * Simulates once, giving up after {@code maxWallSeconds} of wall-clock time (0 = no limit; the
     * run then ends as {@link RunResult#WALL_LIMIT}, its results depend on the machine).
     */
    public RunResult run(double maxWallSeconds) {
        return run(maxWallSeconds, System.nanoTime());
    }

    /**
     * As {@link #run(double)}, the wall-clock limit counted from {@code wallStartNanos} ({@link System#nanoTime}), such as
     * when reading and building the run began, so that the limit covers every phase; a limit already passed stops the
     * simulation at its first check.
     */
    public RunResult run(double maxWallSeconds, long wallStartNanos) {
        if (result != null) {
            throw new IllegalStateException("a prepared run can run only once");
        }
        if (!(maxWallSeconds >= 0) || Double.isInfinite(maxWallSeconds)) {
            throw new IllegalArgumentException("maxWallSeconds must be >= 0, got " + maxWallSeconds);
        }
        long wallStart = System.nanoTime();
        if (maxWallSeconds > 0) {
            long deadline = wallStartNanos + (long) Math.min(maxWallSeconds * 1e9, Long.MAX_VALUE / 4.0);
            sim.setWallDeadlineNanos(deadline == 0 ? 1 : deadline);
        }
        // When the last connection completes, freeze the fabric statistics at that instant, then let
        // the frames still in flight drain so that late duplicates count as spurious retransmissions.
        transport.onAllDone(() -> {
            completedAtPs = sim.nowPs();
            layerSnapshot = layerStats(completedAtPs);
            lossesAtCompletion = FailureTimeline.losses(network);
            portLoads.close();
            if (sampler != null) {
                sampler.stop();
            }
            if (workload.cutsBackground()) {
                sim.stop(); // background that lasts as long as the foreground would never drain
            }
        });
        sim.run(scenario.limits().maxTimePs());
        if (watchdog != null && watchdog.report() == null && !transport.foregroundDone()) {
            watchdog.checkNow(); // the run went quiet with flows unfinished: name the cycle if there is one
        }
        long end = sim.nowPs();
        String[] ending = ending(end, maxWallSeconds);
        result = collect(end, ending[0], ending[1], (System.nanoTime() - wallStart) / 1_000_000);
        return result;
    }

    /** Why the simulation loop returned: the ending and one line of detail. */
    private String[] ending(long endPs, double maxWallSeconds) {
        int done = transport.completedFlows();
        int total = transport.flowCount();
        if (transport.foregroundDone() && workload.cutsBackground()) {
            return new String[] {RunResult.COMPLETED, backgroundCut()};
        }
        if (done == total) {
            return new String[] {RunResult.COMPLETED, ""};
        }
        String unfinished = (total - done) + " of " + total + " queue pairs unfinished";
        if (watchdog != null && watchdog.report() != null) {
            return new String[] {RunResult.PFC_DEADLOCK, watchdog.report() + "; " + unfinished};
        }
        if (sim.wallLimitReached()) {
            return new String[] {RunResult.WALL_LIMIT, "wall-clock limit of " + maxWallSeconds + " s reached at " + formatPs(endPs)
                    + " of simulated time; " + unfinished};
        }
        if (sim.timeLimitReached()) {
            return new String[] {RunResult.TIME_LIMIT, "simulated-time limit limits.maxTimeUs = " + scenario.limits().maxTimeUs()
                    + " us reached; " + unfinished + (network.noRouteDrops() > 0 ? " (" + network.noRouteDrops()
                    + " packets dropped for lack of a route)" : "")};
        }
        if (network.noRouteDrops() > 0) {
            return new String[] {RunResult.NO_ROUTE, network.noRouteDrops() + " packets dropped for lack of a route and nothing left to do at "
                    + formatPs(endPs) + "; " + unfinished};
        }
        return new String[] {RunResult.STALLED, "nothing left to simulate at " + formatPs(endPs) + "; " + unfinished};
    }

    /** What ending with the foreground cut, and which of that background ended before it (its bytes did not last). */
    private String backgroundCut() {
        int cut = 0;
        int endedEarly = 0;
        for (int i = 0; i < flows.size(); i++) {
            if (workload.lastsForeground(i)) {
                if (transport.connectionDonePs(i) >= 0) {
                    endedEarly++;
                } else {
                    cut++;
                }
            }
        }
        return cut + " background flows cut when the foreground completed" + (endedEarly == 0 ? ""
                : "; " + endedEarly + " ended before it (raise their bytes to make them last)");
    }

    private long completedAtPs = -1;
    private List<LayerStats> layerSnapshot;
    private org.lbsim.metrics.FailureEventStats.Losses lossesAtCompletion;

    private RunResult collect(long drainedPs, String ending, String endingDetail, long wallMs) {
        long endPs = completedAtPs >= 0 ? completedAtPs : drainedPs;
        List<LayerStats> layerStats = layerSnapshot != null ? layerSnapshot : layerStats(endPs);
        long packetHops = 0;
        long ecnMarks = 0;
        long drops = 0;
        for (LayerStats l : layerStats) {
            packetHops += l.txPackets();
            ecnMarks += l.ecnMarks();
            drops += l.drops();
        }
        List<FlowResult> flowResults = new ArrayList<>(flows.size());
        long retx = 0;
        long spurious = 0;
        long timeouts = 0;
        long firstStart = Long.MAX_VALUE;
        long lastEnd = 0;
        int finished = 0;
        int awaitedUnfinished = 0;
        long[] sent = new long[flows.size()];
        long[] retxOf = new long[flows.size()];
        long[] spuriousOf = new long[flows.size()];
        long[] dupOf = new long[flows.size()];
        long[] timeoutsOf = new long[flows.size()];
        long[] receiverDone = new long[flows.size()];
        for (int q = 0; q < transport.flowCount(); q++) {
            int c = transport.connectionOf(q);
            long retransmissions = transport.retransmissions(q);
            long duplicates = transport.duplicatesReceived(q);
            long receiverCompletedPs = transport.receiverCompletedPs(q);
            sent[c] += transport.sentPackets(q);
            retxOf[c] += retransmissions;
            // the receiver already had it; copies a scheme sent on purpose are not retransmissions
            spuriousOf[c] += Math.min(retransmissions, Math.max(0, duplicates - transport.duplicatesSent(q)));
            dupOf[c] += duplicates;
            timeoutsOf[c] += transport.timeouts(q);
            receiverDone[c] = receiverDone[c] < 0 || receiverCompletedPs < 0 ? -1 : Math.max(receiverDone[c], receiverCompletedPs);
        }
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            long done = transport.connectionDonePs(i);
            long started = transport.connectionStartedPs(i); // a dependent flow's actual start; -1 if it never started
            long fct = done >= 0 ? done - started : -1;
            flowResults.add(new FlowResult(i, f.src(), f.dst(), f.bytes(), started, fct, receiverDone[i], sent[i],
                    retxOf[i], spuriousOf[i], dupOf[i], timeoutsOf[i]));
            retx += retxOf[i];
            spurious += spuriousOf[i];
            timeouts += timeoutsOf[i];
            if (fct >= 0) {
                finished++;
            }
            if (!workload.lastsForeground(i)) {
                // the collective is what the run waits for: background cut at its end is not part of it
                if (started >= 0) {
                    firstStart = Math.min(firstStart, started);
                }
                if (fct >= 0) {
                    lastEnd = Math.max(lastEnd, done);
                } else {
                    awaitedUnfinished++;
                }
            }
        }
        long cct = awaitedUnfinished == 0 && firstStart != Long.MAX_VALUE ? lastEnd - firstStart : -1;
        RunResult.Counters counters = new RunResult.Counters(sim.eventsProcessed(), packetHops, network.injected(),
                network.delivered(), network.totalDropped(), drops, totalLinkLoss(), network.noRouteDrops(), ecnMarks, retx,
                spurious, timeouts, network.inFlight(), network.pool().created(), failedLinks, pfcPauses(),
                watchdog == null || watchdog.report() == null ? "" : watchdog.report(), transport.nacksSent(), transport.cnpsSent());
        OutOfOrderStats o = transport.outOfOrder();
        OutOfOrder ooo = new OutOfOrder(o.samples(), o.arrivals(), o.maxDegree(), o.maxHeld(), o.log2Histogram());
        List<TimeSeries> series = sampler == null ? List.of() : List.copyOf(sampler.series());
        return new RunResult(scenario.name(), scenario.seed(), topology.hostCount(), flows.size(), finished, cct, lowerBoundPs,
                rhoMaxMbps, FabricCuts.of(topology).oversubscription(), endPs, layerStats, List.copyOf(flowResults), counters, ooo, series,
                jobResults(flowResults), ending, endingDetail, sampler == null ? 0 : sampler.decimations(), wallMs,
                failureTimeline == null ? List.of()
                        : failureTimeline.stats(endPs, lossesAtCompletion != null ? lossesAtCompletion : FailureTimeline.losses(network)),
                schemeCounters());
    }

    /** Switch-program totals (when there are any) and every scheme's own counters. */
    private java.util.Map<String, Number> schemeCounters() {
        SchemeCounters c = new SchemeCounters();
        long consumed = network.totalConsumed();
        if (consumed > 0 || network.originated() > 0) {
            c.add("switch.consumed", consumed);
            for (int r = 0; r < network.consumeReasons().size(); r++) {
                c.add("switch.consumed." + network.consumeReasons().get(r), network.consumed(r));
            }
            c.add("switch.originated", network.originated());
            c.add("switch.heldAtEnd", network.held());
        }
        for (int i = 0; i < network.counterNames().size(); i++) {
            c.add(network.counterNames().get(i), network.counterTotal(i)); // switch mechanisms' named counters (switch.trimmed)
        }
        for (LoadBalancer lb : schemes) {
            lb.reportCounters(c);
        }
        portLoads.close(); // a run that did not complete: up to where it stopped
        portLoads.report(c);
        return c.values();
    }

    /** Per job: JCT, each phase's CCT (from its first flow's start to its last flow's completion), the ideal. */
    private List<JobResult> jobResults(List<FlowResult> flowResults) {
        List<org.lbsim.workload.Job> jobs = workload.jobs();
        if (jobs.isEmpty()) {
            return List.of();
        }
        int n = jobs.size();
        long[] first = new long[n];
        long[] last = new long[n];
        int[] count = new int[n];
        boolean[] unfinished = new boolean[n];
        java.util.Arrays.fill(first, Long.MAX_VALUE);
        long[][] phaseFirst = new long[n][];
        long[][] phaseLast = new long[n][];
        int[][] phaseCount = new int[n][];
        boolean[][] phaseUnfinished = new boolean[n][];
        for (int j = 0; j < n; j++) {
            int phases = jobs.get(j).phases().size();
            phaseFirst[j] = new long[phases];
            java.util.Arrays.fill(phaseFirst[j], Long.MAX_VALUE);
            phaseLast[j] = new long[phases];
            phaseCount[j] = new int[phases];
            phaseUnfinished[j] = new boolean[phases];
        }
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            FlowResult r = flowResults.get(i);
            int j = f.job();
            int ph = f.phase();
            count[j]++;
            phaseCount[j][ph]++;
            if (r.startPs() >= 0) {
                first[j] = Math.min(first[j], r.startPs());
                phaseFirst[j][ph] = Math.min(phaseFirst[j][ph], r.startPs());
            }
            if (r.finished()) {
                long done = r.startPs() + r.fctPs();
                last[j] = Math.max(last[j], done);
                phaseLast[j][ph] = Math.max(phaseLast[j][ph], done);
            } else {
                unfinished[j] = true;
                phaseUnfinished[j][ph] = true;
            }
        }
        List<JobResult> out = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            org.lbsim.workload.Job job = jobs.get(j);
            List<JobResult.Phase> phases = new ArrayList<>();
            for (int ph = 0; ph < job.phases().size(); ph++) {
                long start = phaseFirst[j][ph] == Long.MAX_VALUE ? -1 : phaseFirst[j][ph];
                long cct = phaseUnfinished[j][ph] || start < 0 ? -1 : phaseLast[j][ph] - start;
                phases.add(new JobResult.Phase(ph, job.phases().get(ph), phaseCount[j][ph], start, cct));
            }
            long start = first[j] == Long.MAX_VALUE ? -1 : first[j];
            long jct = unfinished[j] || start < 0 ? -1 : last[j] - start;
            out.add(new JobResult(j, job.name(), job.collective(), job.ranks(), job.bytes(), count[j], start, jct,
                    j < jobIdealPs.length ? jobIdealPs[j] : 0, job.busFactor(), job.background(), phases));
        }
        return List.copyOf(out);
    }

    private List<LayerStats> layerStats(long endPs) {
        List<LayerStats> layerStats = new ArrayList<>();
        for (int code : topology.layersInPathOrder()) {
            int ports = 0;
            long max = 0;
            double meanSum = 0;
            long marks = 0;
            long tx = 0;
            long layerDrops = 0;
            long pauses = 0;
            long pausedPs = 0;
            long maxTxBytes = 0;
            long sumTxBytes = 0;
            for (int p = 0; p < topology.portCount(); p++) {
                if (topology.layerOf(p) != code) {
                    continue;
                }
                ports++;
                EgressPort e = network.egress(p);
                if (e == null) {
                    Nic nic = network.nic(topology.portOwner(p));
                    tx += nic.txPackets();
                    maxTxBytes = Math.max(maxTxBytes, nic.txBytes());
                    sumTxBytes += nic.txBytes();
                    pauses += nic.pauseEvents();
                    pausedPs += nic.pausedPs(endPs);
                    continue;
                }
                pauses += e.pauseEvents();
                pausedPs += e.pausedPs(endPs);
                e.finishStats(endPs);
                max = Math.max(max, e.maxQueueBytes());
                meanSum += e.timeAverageQueueBytes(endPs);
                marks += e.ecnMarks();
                tx += e.txPackets();
                layerDrops += e.drops();
                maxTxBytes = Math.max(maxTxBytes, e.txBytes());
                sumTxBytes += e.txBytes();
            }
            layerStats.add(new LayerStats(topology.layerName(code), ports, max, ports == 0 ? 0 : meanSum / ports, layerDrops,
                    network.linkLossInLayer(code), marks, tx, pauses, pausedPs, maxTxBytes, ports == 0 ? 0 : sumTxBytes / (double) ports));
        }
        return List.copyOf(layerStats);
    }

    private long pfcPauses() {
        long n = 0;
        for (int s = topology.hostCount(); s < topology.nodeCount(); s++) {
            PfcIngress pfc = network.pfc(s);
            n += pfc == null ? 0 : pfc.pausesSent();
        }
        return n;
    }

    private long totalLinkLoss() {
        long n = 0;
        for (int code = 0; code < 16; code++) {
            n += network.linkLossInLayer(code);
        }
        return n;
    }

    public Scenario scenario() {
        return scenario;
    }

    public Simulator simulator() {
        return sim;
    }

    public Topology topology() {
        return topology;
    }

    public Network network() {
        return network;
    }

    public Transport transport() {
        return transport;
    }

    public List<Flow> flows() {
        return flows;
    }

    /** The flows and their jobs. */
    public Workload workload() {
        return workload;
    }

    /** Each job's critical path on an idle fabric (empty for workloads without jobs). */
    public long[] jobIdealPs() {
        return jobIdealPs.clone();
    }

    public long lowerBoundPs() {
        return lowerBoundPs;
    }

    /** The PFC deadlock watchdog, or null in a lossy fabric. */
    public PfcWatchdog watchdog() {
        return watchdog;
    }

    public long rhoMaxMbps() {
        return rhoMaxMbps;
    }

    /** Human-readable duration for summaries. */
    public static String formatPs(long ps) {
        if (ps < 0) {
            return "unfinished";
        }
        if (ps >= Time.PS_PER_MS) {
            return String.format(java.util.Locale.ROOT, "%.6f ms", ps / (double) Time.PS_PER_MS);
        }
        return String.format(java.util.Locale.ROOT, "%.5f us", ps / (double) Time.PS_PER_US);
    }
}
