package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Network;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;

/**
 * One event per hop: a port that hands frames to its link at enqueue and settles its queue
 * lazily must give the run the exact path gives (every result to the picosecond, drops at the same
 * packets, the same ECN marks, queue integrals and maxima), with fewer events. Differential over
 * seeded random small fabrics: buffers small enough to drop, ECN thresholds that mark, schemes that
 * read queue lengths, links down from time zero, runs cut short by a time limit.
 */
class HandOnAtEnqueueTest {
    private static final List<String> SCHEMES = List.of("host-spray", "ecmp", "jsq", "drill", "switch-pkt", "ofan", "switch-pkt-ar", "subflow");

    /** A random small fabric and workload; {@code seed} picks everything. */
    static Scenario random(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String scheme = SCHEMES.get(r.nextInt(SCHEMES.size()));
        int k = r.nextInt(3) == 0 ? 2 : 4;
        WorkloadSpec w = r.nextBoolean()
                ? new WorkloadSpec.Permutation(4096L * (1 + r.nextInt(96)) + r.nextInt(4096), 0)
                : new WorkloadSpec.AllToAll(4096L * (1 + r.nextInt(12)) + r.nextInt(4096), 0);
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(k), scheme, w, seed);
        long buffer = 8_000 + r.nextInt(200_000); // small enough that all-to-all and spraying drop
        long kmin = 1_000 + r.nextInt(40_000);
        s = ScenarioTweaks.withSwitches(s, new SwitchSpec(new BufferSpec.PerPort(buffer),
                new EcnSpec(r.nextBoolean(), kmin, kmin + r.nextInt(100_000), 0.1 + 0.9 * r.nextDouble()), PfcSpec.defaults()));
        if (k == 4 && r.nextInt(3) == 0) {
            s = TestScenarios.withFailures(s, new FailureSpec(List.of(), 0.05, r.nextBoolean() ? 0 : 3_000));
        }
        if (r.nextInt(4) == 0) {
            s = ScenarioTweaks.withLimits(s, new LimitsSpec(5 + r.nextInt(40)));
        }
        return s;
    }

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, 40).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void handingOnAtEnqueueGivesTheExactPathsResultsWithFewerEvents(long seed) {
        ExactAndFast runs = ExactAndFast.runOrNull(random(seed));
        if (runs == null) {
            return; // random link failures cut a host off: rejected at build time, nothing to compare
        }
        CheckedRun exact = runs.exact();
        CheckedRun fast = runs.fast();

        assertThat(lazyPorts(exact.prepared().network())).isZero();
        assertThat(lazyPorts(fast.prepared().network())).isPositive();
        assertThat(fast.prepared().network().ambiguousCounterReads()).isZero();
        RunResult a = exact.result();
        RunResult b = fast.result();
        assertThat(b.flowResults()).isEqualTo(a.flowResults());
        assertThat(b.layers()).isEqualTo(a.layers());
        assertThat(b).usingRecursiveComparison().ignoringFields("wallTimeMs", "counters.events").isEqualTo(a);
        assertThat(b.counters().events()).isLessThan(a.counters().events());
        assertSamePorts(exact, fast);
    }

    private static void assertSamePorts(CheckedRun exact, CheckedRun fast) {
        Network ne = exact.prepared().network();
        Network nf = fast.prepared().network();
        for (int p = 0; p < exact.prepared().topology().portCount(); p++) {
            EgressPort e = ne.egress(p);
            if (e != null) {
                EgressPort f = nf.egress(p);
                assertThat(f.drops()).as("drops at port %d", p).isEqualTo(e.drops());
                assertThat(f.ecnMarks()).as("ECN marks at port %d", p).isEqualTo(e.ecnMarks());
                assertThat(f.maxQueueBytes()).as("max queue at port %d", p).isEqualTo(e.maxQueueBytes());
                assertThat(f.txBytes()).as("bytes sent by port %d", p).isEqualTo(e.txBytes());
                assertThat(f.queueBytes()).as("queue at the end at port %d", p).isEqualTo(e.queueBytes()).isNotNegative();
            }
        }
    }

    /** The lazy path admits against its private buffer's limit itself: a frame that fills the buffer exactly gets in, as on the exact path. */
    @Test
    void aFrameThatFillsItsPortsBufferExactlyIsAdmittedOnBothPaths(@TempDir Path dir) {
        PacketSpec pk = PacketSpec.defaults();
        long frame = pk.mtuBytes() + pk.headerBytes();
        // an incast of full frames to host 0, which sends nothing: its edge port queues data frames only
        List<long[]> rows = new ArrayList<>();
        for (int src = 1; src < 16; src++) {
            rows.add(ScenarioTweaks.flow(src, 0, 8L * pk.mtuBytes()));
        }
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", ScenarioTweaks.trace(dir, "incast.csv", rows), 1);
        s = ScenarioTweaks.withSwitches(s, new SwitchSpec(new BufferSpec.PerPort(3 * frame), EcnSpec.defaults(), PfcSpec.defaults()));
        s = ScenarioTweaks.withLimits(s, new LimitsSpec(30));
        CheckedRun exact = CheckedRun.of(Simulation.prepareExact(s, dir), p -> { });
        CheckedRun fast = CheckedRun.of(Simulation.prepare(s, dir), p -> { });
        assertThat(lazyPorts(fast.prepared().network())).isPositive();
        assertThat(fast.result().flowResults()).isEqualTo(exact.result().flowResults());
        assertSamePorts(exact, fast);
        Network n = fast.prepared().network();
        long full = 0;
        long drops = 0;
        for (int p = 0; p < fast.prepared().topology().portCount(); p++) {
            EgressPort e = n.egress(p);
            full += e != null && e.handsOnAtEnqueue() && e.maxQueueBytes() == 3 * frame ? 1 : 0;
            drops += e != null ? e.drops() : 0;
        }
        assertThat(full).as("lazy ports whose queue filled the buffer exactly").isPositive();
        assertThat(drops).as("frames refused by a full buffer").isPositive();
    }

    /** A lossy fabric with per-port buffers and nothing watching the ports: every switch port hands on. */
    @Test
    void everyPortOfAPlainLossyFabricHandsOnAndAHopCostsAboutOneEvent() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(64 * 4096, 0), 3);
        CheckedRun fast = CheckedRun.of(s, null);
        Network n = fast.prepared().network();
        int switchPorts = 0;
        for (int p = 0; p < fast.prepared().topology().portCount(); p++) {
            switchPorts += n.egress(p) != null ? 1 : 0;
        }
        assertThat(lazyPorts(n)).isEqualTo(switchPorts);
        // a hop is a link arrival; the NIC's wake-up per frame and the transport's timers come on top
        double perHop = fast.result().counters().events() / (double) fast.result().counters().packetHops();
        assertThat(perHop).isLessThan(1.4); // k = 4: paths of 1-5 switch hops, so the NIC's event weighs more than at k = 8
        RunResult exact = CheckedRun.of(Simulation.prepareExact(s, null), p -> { }).result();
        assertThat(exact.counters().events() / (double) exact.counters().packetHops()).isGreaterThan(1.6);
    }

    /** PFC, shared buffers and failures during the run need the dequeue instant: those ports stay exact. */
    @Test
    void portsThatNeedTheDequeueInstantStayExact() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(16 * 4096, 0), 3);
        Scenario shared = ScenarioTweaks.withSwitches(s, new SwitchSpec(BufferSpec.SharedDynamic.defaults(), EcnSpec.defaults(), PfcSpec.defaults()));
        assertThat(lazyPorts(CheckedRun.of(shared, null).prepared().network())).isZero();
        Scenario ar = ScenarioTweaks.withLoadBalancing(s, TestScenarios.lb("ar")); // reads port counters every microsecond
        assertThat(lazyPorts(CheckedRun.of(ar, null).prepared().network())).isZero();
        // an egress stage installed after the build (as tests and tools do) takes the switch's ports back to the exact path
        PreparedRun late = Simulation.prepare(s, null);
        Network n = late.network();
        int before = lazyPorts(n);
        int node = late.topology().hostCount();
        n.switchAt(node).setEgressStage(new org.lbsim.net.EgressStage() {
            @Override
            public void onEnqueue(org.lbsim.net.Packet p, int port, long queueBytes) {
            }

            @Override
            public void onDequeue(org.lbsim.net.Packet p, int port, long queueBytes) {
            }
        });
        assertThat(lazyPorts(n)).isEqualTo(before - late.topology().degree(node));
    }

    private static int lazyPorts(Network n) {
        int count = 0;
        for (int p = 0; p < n.topology().portCount(); p++) {
            EgressPort e = n.egress(p);
            count += e != null && e.handsOnAtEnqueue() ? 1 : 0;
        }
        return count;
    }
}
