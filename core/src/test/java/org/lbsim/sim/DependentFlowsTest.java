package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cc.FixedRate;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.JobResult;
import org.lbsim.metrics.LowerBound;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.scenario.TraceFormatException;

/**
 * Flows that wait for each other (collective steps): analytic completion times on idle fabrics, the
 * NCCL-tests bandwidth formulas, determinism and conservation, and the critical-path bound.
 */
class DependentFlowsTest {
    @TempDir
    Path dir;

    /** One leaf with {@code hosts} hosts at 400 Gb/s (20 ps per byte), 1 us links: every path is 2 hops, no choice of path. */
    static TopologySpec oneLeaf(int hosts) {
        return new TopologySpec.LeafSpine(hosts, 1, 1, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
    }

    private WorkloadSpec.DagTrace dag(String name, String... rows) throws Exception {
        Files.writeString(dir.resolve(name), "id,src,dst,bytes,deps,gap_ns\n" + String.join("\n", rows) + "\n");
        return new WorkloadSpec.DagTrace(name);
    }

    @Test
    void aChainOfTwoFlowsWithAComputeGapEndsAtTheSumOfTheirAloneTimesPlusTheGap() throws Exception {
        // k = 4 fat tree at 800 Gb/s (10 ps per byte), 500 ns links: h0 -> h1 under one edge (2 hops), then h1 -> h2 in the pod (4 hops)
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp",
                dag("chain.csv", "7,0,1,1048576,,0", "9,1,2,1000000,7,5000"), 1);
        CheckedRun run = CheckedRun.of(s, dir);

        long first = SingleMessageAnalyticTest.expectedFctPs(2, 1L << 20, 10, 500_000);
        long second = SingleMessageAnalyticTest.expectedFctPs(4, 1_000_000, 10, 500_000);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(0).fctPs()).isEqualTo(first);
        assertThat(f.get(1).startPs()).isEqualTo(first + 5_000_000L);
        assertThat(f.get(1).fctPs()).isEqualTo(second);
        assertThat(run.cctPs()).isEqualTo(first + 5_000_000L + second);
        // the critical path charges the short last frame its own store-and-forward (App. B), 10.56 ns per hop
        // below the frame-by-frame time, where it waits behind the full frame ahead
        long bound = first + 5_000_000L + second - 3 * (41_580 - 6_380);
        assertThat(run.prepared().lowerBoundPs()).isEqualTo(bound);
        JobResult job = run.result().jobs().get(0);
        assertThat(job.jctPs()).isEqualTo(run.cctPs());
        assertThat(job.idealPs()).isEqualTo(bound);
        assertThat(job.slowdown()).isEqualTo((double) run.cctPs() / bound);
    }

    @Test
    void aPacedDependentFlowBehavesLikeTheSameFlowStartedAtThatTimeByTheClock() throws Exception {
        ComponentSpec paced = new ComponentSpec("fixed-rate", new FixedRate.Params(false, 300));
        Scenario chained = withCc(TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp",
                dag("paced.csv", "0,0,1,300000,,0", "1,1,2,300000,0,1000", "2,1,3,200000,0,1000"), 1), paced);
        CheckedRun a = CheckedRun.of(chained, dir);
        long start = a.result().flowResults().get(1).startPs();
        assertThat(start).isEqualTo(a.fctPs(0) + 1_000_000L);
        // the same flows as independent flows, the later two starting at that instant (same queue pair ids, so same
        // path hashes): equal FCTs, paced phases included
        String at = java.math.BigDecimal.valueOf(start, 3).toPlainString();
        Files.writeString(dir.resolve("fixed.csv"), "src,dst,bytes,start_ns\n0,1,300000,0\n1,2,300000," + at + "\n1,3,200000," + at + "\n");
        Scenario fixed = withCc(TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", new WorkloadSpec.Trace("fixed.csv"), 1), paced);
        CheckedRun b = CheckedRun.of(fixed, dir);
        assertThat(b.result().flowResults().get(1).startPs()).isEqualTo(start);
        assertThat(a.fctPs(1)).isEqualTo(b.fctPs(1));
        assertThat(a.fctPs(2)).isEqualTo(b.fctPs(2));
    }

    private static Scenario withCc(Scenario s, ComponentSpec cc) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), cc, s.lossRecovery(),
                s.workload(), s.failures(), s.limits());
    }

    /** Frame times of a 2-hop path at 400 Gb/s, 1 us links, as App. B splits them. */
    private static long ringStepPs(long chunk) {
        int packets = (int) ((chunk + 4095) / 4096);
        long last = chunk - (packets - 1) * 4096L;
        long dataSer = 4158 * 20;
        long lastSer = (last + 62) * 20;
        long gap = 20 * 20;
        long dataLatency = 2_000_000 + lastSer; // two links, one more store-and-forward at the leaf
        long ackSer = 64 * 20;
        long ackLatency = 2_000_000 + ackSer;
        // every host sends one chunk and receives one: its NIC interleaves its data with the ACKs it owes (OFAN App. B, mode 2)
        return LowerBound.permutationPs(packets, dataSer, lastSer, gap, dataLatency, ackSer, ackLatency);
    }

    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {2, 3, 4, 8})
    void aRingAllReduceIsTwoNMinusOneChainedStepsOfOneNthEach(int n) {
        long bytes = n * 256L * 1024;
        Scenario s = TestScenarios.scenario(oneLeaf(n), "ecmp",
                new WorkloadSpec.Collective("all-reduce", "ring", bytes, 0, "packed", 1, 0, 1, 0), 1);
        CheckedRun run = CheckedRun.of(s, dir);
        long step = ringStepPs(bytes / n);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f).hasSize(2 * (n - 1) * n);
        for (int k = 0; k < f.size(); k++) {
            int stepIndex = k / n;
            assertThat(f.get(k).startPs()).as("step %d of flow %d", stepIndex, k).isEqualTo(stepIndex * step);
            assertThat(f.get(k).fctPs()).as("flow %d", k).isEqualTo(step);
        }
        JobResult job = run.result().jobs().get(0);
        assertThat(job.jctPs()).isEqualTo(2L * (n - 1) * step);
        assertThat(job.phases()).extracting(JobResult.Phase::cctPs).containsExactly((n - 1) * step, (n - 1) * step);
        assertThat(job.busFactor()).isEqualTo(2.0 * (n - 1) / n);
        assertThat(job.busbwGBps()).isEqualTo(job.algbwGBps() * 2 * (n - 1) / n);
        assertThat(run.prepared().lowerBoundPs()).isLessThanOrEqualTo(run.cctPs());
    }

    @Test
    void aLargeRingAllReduceOnAContentionFreeFabricReachesTheNicGoodputInBusBandwidth() {
        int n = 4;
        long bytes = n * (32L << 20);
        Scenario s = TestScenarios.scenario(oneLeaf(n), "ecmp",
                new WorkloadSpec.Collective("all-reduce", "ring", bytes, 0, "packed", 1, 0, 1, 0), 1);
        JobResult job = CheckedRun.of(s, dir).result().jobs().get(0);
        // NCCL-tests: algbw = S / t, busbw = algbw x 2(n-1)/n; a 400 Gb/s NIC carries 4096 B of payload per
        // 4158 + 20 B data frame and 64 + 20 B ACK it owes the ring neighbour: 50 GB/s x 4096 / 4262
        double goodput = 50.0 * 4096 / 4262;
        assertThat(job.algbwGBps()).isEqualTo(bytes * 1000.0 / job.jctPs());
        assertThat(job.busbwGBps()).isCloseTo(goodput, org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(job.busbwGBps()).isLessThan(goodput);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reduce", "broadcast"})
    void aBinaryTreeOverThreeRanksIsAChainOfTwoFlowsOfTheWholeSize(String op) {
        // NCCL's tree over 3 ranks: 1 -> 2 -> 0 (rank 2's parent is 0), so reduce and broadcast are chains
        long bytes = 1L << 20;
        Scenario s = TestScenarios.scenario(oneLeaf(3), "ecmp", new WorkloadSpec.Collective(op, "tree", bytes, 0, "packed", 1, 0, 1, 0), 1);
        CheckedRun run = CheckedRun.of(s, dir);
        long alone = SingleMessageAnalyticTest.expectedFctPs(2, bytes, 20, 1_000_000);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f).extracting(FlowResult::src).containsExactly(op.equals("reduce") ? new Integer[] {1, 2} : new Integer[] {0, 2});
        assertThat(f).extracting(FlowResult::dst).containsExactly(op.equals("reduce") ? new Integer[] {2, 0} : new Integer[] {2, 1});
        assertThat(f.get(1).startPs()).isEqualTo(alone);
        assertThat(run.cctPs()).isEqualTo(2 * alone);
        assertThat(run.result().jobs().get(0).idealPs()).isEqualTo(2 * alone);
    }

    @Test
    void aDoubleBinaryTreeAllReduceWaitsForItsCriticalPath() {
        // n = 4: tree 0 is 1, 3 -> 2 -> 0 and tree 1 (mirrored) 2, 0 -> 1 -> 3; each carries S/2 up two levels and down two
        long bytes = 2L << 20;
        Scenario s = TestScenarios.scenario(oneLeaf(4), "ecmp", new WorkloadSpec.Collective("all-reduce", "tree", bytes, 0, "packed", 1, 0, 1, 0), 1);
        CheckedRun run = CheckedRun.of(s, dir);
        long alone = SingleMessageAnalyticTest.expectedFctPs(2, bytes / 2, 20, 1_000_000);
        JobResult job = run.result().jobs().get(0);
        assertThat(job.flows()).isEqualTo(12);
        assertThat(job.idealPs()).isEqualTo(4 * alone);
        assertThat(run.prepared().lowerBoundPs()).isGreaterThanOrEqualTo(4 * alone);
        assertThat(job.jctPs()).isGreaterThanOrEqualTo(run.prepared().lowerBoundPs());
        // the steps where a rank is the only sender to its peer run exactly alone: 2 -> 0 and 1 -> 3 (reduce
        // into the roots), 0 -> 2 and 3 -> 1 (the roots' broadcast); the others are 2:1 incasts
        List<FlowResult> f = run.result().flowResults();
        for (int k : new int[] {2, 5, 6, 9}) {
            assertThat(f.get(k).fctPs()).as("flow %d", k).isEqualTo(alone);
        }
        assertThat(f.get(6).startPs()).isEqualTo(f.get(2).startPs() + alone);
        assertThat(job.phases()).extracting(JobResult.Phase::name).containsExactly("reduce", "broadcast");
        assertThat(run.result().flowResults()).allMatch(FlowResult::finished);
    }

    static List<WorkloadSpec> busyWorkloads() {
        return List.of(
                new WorkloadSpec.Collective("all-reduce", "ring", 3L << 20, 12, "random", 1, 100, 2, 0),
                new WorkloadSpec.Collective("all-reduce", "tree", 3L << 20, 13, "random", 1, 0, 1, 0),
                new WorkloadSpec.Collective("all-to-all", "staggered", 3L << 20, 8, "per-tor", 1, 0, 1, 0),
                new WorkloadSpec.Jobs(List.of(
                        new WorkloadSpec.JobSpec("ar", "all-reduce", "ring", 1L << 20, 6, "random", 1, 0, 1, 0, 0),
                        new WorkloadSpec.JobSpec("moe", "many-to-few", "parallel", 300_000, 5, "random", 2, 0, 1, 3, 0),
                        new WorkloadSpec.JobSpec("bc", "broadcast", "ring", 500_000, 3, "packed", 1, 0, 1, 0, 0)),
                        List.of(new WorkloadSpec.BackgroundSpec(2, 2_000_000, 0))),
                new WorkloadSpec.Jobs(List.of(new WorkloadSpec.JobSpec("ar", "all-reduce", "ring", 1L << 20, 8, "random", 1, 0, 1, 0, 0)),
                        List.of(new WorkloadSpec.BackgroundSpec("poisson", 1, 1, false, "hadoop", 0.3, 20, 0, "bytes"))),
                new WorkloadSpec.Jobs(List.of(new WorkloadSpec.JobSpec("astra", "all-reduce", "astra-ring", 1L << 20, 6, "packed", 1, 10, 1, 0, 0, 3, 2)),
                        List.of(new WorkloadSpec.BackgroundSpec(2, 2_000_000, 0))));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"web-search", "hadoop", "ali-storage"})
    void poissonBackgroundOffersTheTargetLoadWithTheCdfsMean(String cdf) {
        // HPCC traffic_gen: WebSearch mean = 1,711,250 B, FbHdp (Hadoop) mean = 120,420.75 B; ConWeave's AliStorage2019 40,869.8 B (piecewise-linear CDFs)
        double mean = switch (cdf) {
            case "hadoop" -> 120_420.75;
            case "ali-storage" -> 40_869.8;
            default -> 1_711_250;
        };
        double durationUs = cdf.equals("web-search") ? 100_000 : 20_000;
        WorkloadSpec w = new WorkloadSpec.Jobs(List.of(), List.of(new WorkloadSpec.BackgroundSpec("poisson", 1, 1, false, cdf, 0.4, durationUs, 5, "bytes")));
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", w, 9);
        org.lbsim.workload.Workload built = org.lbsim.workload.Workloads.build(w, org.lbsim.topology.Topologies.build(s.topology()), 4096,
                new SplittableRandom(9), dir);
        List<org.lbsim.workload.Flow> flows = built.flows();
        double bytes = flows.stream().mapToLong(org.lbsim.workload.Flow::bytes).sum();
        // 16 hosts x 800 Gb/s x 0.4 x duration
        double offered = 16 * 100e9 * 0.4 * durationUs * 1e-6;
        assertThat(bytes / offered).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.06));
        assertThat(bytes / flows.size()).isCloseTo(mean, org.assertj.core.data.Percentage.withPercentage(6));
        assertThat(flows).allMatch(f -> f.src() != f.dst() && f.trafficClass() == 5 && !f.dependent() && f.startPs() <= durationUs * 1_000_000);
        assertThat(built.jobs().get(0).background()).isTrue();
    }

    @Test
    void dependentWorkloadsAreDeterministicConserveTheirPacketsAndNeverBeatTheirBound() {
        for (WorkloadSpec w : busyWorkloads()) {
            for (String lb : List.of("ecmp", "ofan", "switch-pkt-ar")) {
                Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), lb, w, 5);
                CheckedRun a = CheckedRun.of(s, dir); // checks conservation and queue invariants
                RunResult b = CheckedRun.of(s, dir).result();
                assertThat(b).as("%s %s", lb, w).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(a.result());
                assertThat(a.result().flowsFinished()).isEqualTo(a.result().flows());
                assertThat(a.cctPs()).as("%s %s", lb, w).isGreaterThanOrEqualTo(a.prepared().lowerBoundPs());
                long[] ideal = a.prepared().jobIdealPs();
                for (JobResult j : a.result().jobs()) {
                    assertThat(j.jctPs()).as("%s %s job %s", lb, w, j.name()).isGreaterThanOrEqualTo(ideal[j.job()]);
                }
                // every dependent flow started after all its dependencies completed (plus its gap)
                List<org.lbsim.workload.Flow> flows = a.prepared().flows();
                for (int i = 0; i < flows.size(); i++) {
                    FlowResult r = a.result().flowResults().get(i);
                    for (int d : flows.get(i).deps()) {
                        FlowResult dep = a.result().flowResults().get(d);
                        assertThat(r.startPs()).isGreaterThanOrEqualTo(dep.startPs() + dep.fctPs() + flows.get(i).gapPs());
                    }
                }
            }
        }
    }

    @Test
    void jobsTakeDisjointHostsAndTooManyRanksIsAnErrorNamingTheJob() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", busyWorkloads().get(3), 5);
        PreparedRun p = Simulation.prepare(s, dir);
        java.util.Map<Integer, java.util.Set<Integer>> hostsOfJob = new java.util.HashMap<>();
        for (org.lbsim.workload.Flow f : p.flows()) {
            hostsOfJob.computeIfAbsent(f.job(), k -> new java.util.HashSet<>()).add(f.src());
            hostsOfJob.computeIfAbsent(f.job(), k -> new java.util.HashSet<>()).add(f.dst());
        }
        assertThat(hostsOfJob.get(0)).hasSize(6).doesNotContainAnyElementsOf(hostsOfJob.get(1));
        assertThat(hostsOfJob.get(1)).hasSize(5).doesNotContainAnyElementsOf(hostsOfJob.get(2));
        assertThat(hostsOfJob.get(2)).hasSize(3).doesNotContainAnyElementsOf(hostsOfJob.get(3)).doesNotContainAnyElementsOf(hostsOfJob.get(0));
        assertThat(hostsOfJob.get(3)).hasSize(2); // the background pair: the two hosts no job took
        Scenario tooMany = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", new WorkloadSpec.Jobs(List.of(
                new WorkloadSpec.JobSpec("a", "all-reduce", "ring", 1L << 20, 10, "packed", 1, 0, 1, 0, 0),
                new WorkloadSpec.JobSpec("b", "all-reduce", "ring", 1L << 20, 10, "packed", 1, 0, 1, 0, 0)), List.of()), 5);
        assertThatThrownBy(() -> Simulation.prepare(tooMany, dir)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("workload.jobs[1].hosts").hasMessageContaining("only 6");
    }

    @Test
    void badGraphsAreOneLineErrorsNamingTheFileLineAndColumn() throws Exception {
        Scenario cycle = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", dag("cycle.csv", "1,0,1,1000,3,0", "2,1,2,1000,1,0", "3,2,0,1000,2,0"), 1);
        assertThatThrownBy(() -> Simulation.prepare(cycle, dir)).isInstanceOf(TraceFormatException.class)
                .hasMessage("cycle.csv:2: deps: flow 1 is on a dependency cycle (3 flows can never start)");
        Scenario unknown = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", dag("unknown.csv", "1,0,1,1000,,0", "2,1,2,1000,1;5,0"), 1);
        assertThatThrownBy(() -> Simulation.prepare(unknown, dir)).isInstanceOf(TraceFormatException.class)
                .hasMessage("unknown.csv:3: deps: flow 2 waits for id 5, which no row has");
        Scenario range = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", dag("range.csv", "1,0,16,1000,,0"), 1);
        assertThatThrownBy(() -> Simulation.prepare(range, dir)).isInstanceOf(TraceFormatException.class)
                .hasMessage("range.csv:2: dst: must be an integer between 0 and 15, got 16");
        Scenario twice = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", dag("twice.csv", "1,0,1,1000,,0", "1,1,2,1000,,0"), 1);
        assertThatThrownBy(() -> Simulation.prepare(twice, dir)).isInstanceOf(TraceFormatException.class)
                .hasMessage("twice.csv:3: id: id 1 appears twice (first on line 2)");
    }

    @Test
    void aWrittenGraphReadsBackAsTheSameFlows() throws Exception {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", busyWorkloads().get(3), 5);
        PreparedRun p = Simulation.prepare(s, dir);
        java.io.StringWriter w = new java.io.StringWriter();
        org.lbsim.workload.DagTrace.write(w, p.flows());
        org.lbsim.workload.Workload back = org.lbsim.workload.DagTrace.read(new java.io.StringReader(w.toString()), "x.csv", 16);
        assertThat(back.flows()).hasSameSizeAs(p.flows());
        for (int i = 0; i < p.flows().size(); i++) {
            org.lbsim.workload.Flow a = p.flows().get(i);
            org.lbsim.workload.Flow b = back.flows().get(i);
            assertThat(List.of(b.src(), b.dst(), b.bytes(), b.startPs(), b.gapPs(), b.job(), b.phase(), b.trafficClass()))
                    .isEqualTo(List.of(a.src(), a.dst(), a.bytes(), a.startPs(), a.gapPs(), a.job(), a.phase(), a.trafficClass()));
            assertThat(b.deps()).containsExactly(a.deps());
        }
        // and the run of the read-back graph equals the run of the generated one
        Files.writeString(dir.resolve("back.csv"), w.toString());
        Scenario again = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", new WorkloadSpec.DagTrace("back.csv"), 5);
        assertThat(CheckedRun.of(again, dir).result().flowResults()).isEqualTo(CheckedRun.of(s, dir).result().flowResults());
    }

    @Test
    void ncclTreesAreTreesAndTheSecondIsTheFirstMirroredOrShifted() {
        SplittableRandom rng = new SplittableRandom(3);
        for (int t = 0; t < 20; t++) {
            int n = 2 + rng.nextInt(60);
            for (int[] parent : List.of(org.lbsim.workload.NcclTrees.binaryTreeParents(n), org.lbsim.workload.NcclTrees.mirroredTreeParents(n))) {
                int roots = 0;
                for (int i = 0; i < n; i++) {
                    roots += parent[i] < 0 ? 1 : 0;
                    int hops = 0;
                    for (int p = i; parent[p] >= 0; p = parent[p]) {
                        assertThat(++hops).as("n %d rank %d reaches the root", n, i).isLessThan(n);
                    }
                }
                assertThat(roots).isEqualTo(1);
                int[] children = new int[n];
                for (int i = 0; i < n; i++) {
                    if (parent[i] >= 0) {
                        children[parent[i]]++;
                    }
                }
                assertThat(java.util.Arrays.stream(children).max().orElse(0)).isLessThanOrEqualTo(2);
            }
        }
    }
}
