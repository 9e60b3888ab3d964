package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.SingleMessageAnalyticTest;
import org.lbsim.sim.TestScenarios;

/**
 * The flow scheduler's one wake-up, shared by the independent connections' start order and the
 * dependent connections queued by completions: a dependent due before the next independent start
 * wakes it earlier; one whose dependency does not complete never starts. Independent per-message queue
 * pairs are started by their own hosts, so that a partitioned run starts each in its host's partition.
 */
class FlowSchedulerTest {
    @TempDir
    Path dir;

    /**
     * Four hosts under one leaf at 400 Gb/s (20 ps per byte), 1 us links: every path is 2 hops. No time series, so
     * the sampler keeps no queue pair from being released.
     */
    private Scenario oneLeaf(String... rows) throws Exception {
        return oneLeaf(LimitsSpec.defaults(), rows);
    }

    private Scenario oneLeaf(LimitsSpec limits, String... rows) throws Exception {
        Files.writeString(dir.resolve("dag.csv"), "id,src,dst,bytes,deps,gap_ns,start_ns\n" + String.join("\n", rows) + "\n");
        TopologySpec topo = new TopologySpec.LeafSpine(4, 1, 1, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        Scenario s = TestScenarios.scenario(topo, "ecmp", new WorkloadSpec.DagTrace("dag.csv"), 1);
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), limits, new MetricsSpec(0, 0), NicSpec.defaults());
    }

    private static long alonePs(long bytes) {
        return SingleMessageAnalyticTest.expectedFctPs(2, bytes, 20, 1_000_000);
    }

    @Test
    void aDependentDueBeforeTheNextIndependentStartStartsOnTimeAndTheIndependentOneAtItsOwn() throws Exception {
        // flow 1 waits for flow 0 with a 2 ns gap; flow 2 is independent and starts at 500 us, long after
        CheckedRun run = CheckedRun.of(oneLeaf("0,0,1,40960,,0,0", "1,2,3,40960,0,2,0", "2,1,0,4096,,0,500000"), dir);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(0).fctPs()).isEqualTo(alonePs(40960));
        assertThat(f.get(1).startPs()).isEqualTo(alonePs(40960) + 2_000);
        assertThat(f.get(1).fctPs()).isEqualTo(alonePs(40960));
        assertThat(f.get(2).startPs()).isEqualTo(500_000_000L);
        assertThat(f.get(2).fctPs()).isEqualTo(alonePs(4096));
        assertThat(run.cctPs()).isEqualTo(500_000_000L + alonePs(4096));
        Transport t = run.prepared().transport();
        assertThat(t.releasedQueuePairs()).as("only the dependent one is built on start and released").isEqualTo(1);
        assertThat(t.senderOf(2).startPs()).as("the independent queue pair, built up front, knows its start").isEqualTo(500_000_000L);
        assertThat(t.maxLiveQueuePairs()).isEqualTo(3);
    }

    @Test
    void aDependentQueuedAfterAnEarlierWakeUpStartsAtItsOwnTime() throws Exception {
        // flows 1 and 2 both wait for flow 0: 1 with a 300 ns gap, 2 with 100 ns; 2 is queued second but due first
        CheckedRun run = CheckedRun.of(oneLeaf("0,0,1,8192,,0,0", "1,2,3,8192,0,300,0", "2,1,0,8192,0,100,0"), dir);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(1).startPs()).isEqualTo(alonePs(8192) + 300_000);
        assertThat(f.get(2).startPs()).isEqualTo(alonePs(8192) + 100_000);
        assertThat(f.get(1).fctPs()).isEqualTo(alonePs(8192));
        assertThat(f.get(2).fctPs()).isEqualTo(alonePs(8192));
    }

    @Test
    void aDependentOfAConnectionUnfinishedAtTheTimeLimitNeverStarts() throws Exception {
        // flow 0 (4 MB, about 82 us alone) is cut by the 50 us limit: flow 1, which waits for it, never starts
        CheckedRun run = CheckedRun.of(oneLeaf(new LimitsSpec(50), "0,0,1,4096000,,0,0", "1,2,3,4096,0,0,0", "2,3,2,4096,,0,0"), dir);
        Transport t = run.prepared().transport();
        assertThat(t.connectionStartedPs(0)).isZero();
        assertThat(t.connectionStartedPs(1)).isEqualTo(-1);
        assertThat(t.connectionDonePs(0)).isEqualTo(-1);
        assertThat(t.connectionDonePs(2)).isEqualTo(alonePs(4096));
        assertThat(t.sentPackets(1)).isZero();
        assertThat(t.receiverCompletedPs(1)).isEqualTo(-1);
        assertThat(t.senderOf(1)).as("never built").isNull();
        assertThat(run.result().flowResults().get(1).startPs()).isEqualTo(-1);
        assertThat(run.result().flowsFinished()).isEqualTo(1);
    }

    @Test
    void theFirstConnectionOfTheFileMayWaitForALaterOne() throws Exception {
        // connection 0 waits for connection 1, listed after it: a pending connection 0 is told apart from a single queue pair
        CheckedRun run = CheckedRun.of(oneLeaf("0,0,1,8192,1,50,0", "1,2,3,8192,,0,0"), dir);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(1).startPs()).isZero();
        assertThat(f.get(0).startPs()).isEqualTo(alonePs(8192) + 50_000);
        assertThat(f.get(0).fctPs()).isEqualTo(alonePs(8192));
    }

    @Test
    void independentConnectionsListedOutOfStartOrderStartEachAtItsOwnTime() throws Exception {
        // both from host 0: the later one listed first
        CheckedRun run = CheckedRun.of(oneLeaf("0,0,1,8192,,0,20000", "1,0,2,8192,,0,0"), dir);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(1).startPs()).isZero();
        assertThat(f.get(1).fctPs()).isEqualTo(alonePs(8192));
        assertThat(f.get(0).startPs()).isEqualTo(20_000_000L);
        assertThat(f.get(0).fctPs()).isEqualTo(alonePs(8192));
    }

    @Test
    void aPartitionedRunStartsEachHostsQueuePairsWhereTheHostRunsAndGivesTheSequentialFlows() throws Exception {
        // independent connections, one queue pair per message: each host starts its own, so a partitioned run can
        // place every start at its host's partition; hosts 0 and 3 start one each at 10 us towards host 2
        TopologySpec topo = new TopologySpec.LeafSpine(4, 1, 1, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        WorkloadSpec trace = ScenarioTweaks.trace(dir, "starts.csv",
                List.of(new long[] {0, 1, 4096, 0}, new long[] {0, 2, 40960, 10_000}, new long[] {3, 2, 40960, 10_000}));
        Scenario s = TestScenarios.scenario(topo, "ecmp", trace, 1);
        CheckedRun sequential = CheckedRun.of(s, dir);
        PreparedRun partitioned = Simulation.prepare(s, dir, 2, 2);
        RunResult r = partitioned.run();
        Invariants.check(partitioned);
        assertThat(r.flowResults()).isEqualTo(sequential.result().flowResults());
        assertThat(r.flowResults().get(0).fctPs()).isEqualTo(alonePs(4096));
        assertThat(r.flowResults().get(2).startPs()).isEqualTo(10_000_000L);
    }

    @Test
    void aStartAtTheInstantItsHostsNicFreesKeepsTheNicsWakeUp() throws Exception {
        // host 0 sends host 1 one 1000-byte packet at 0: 1062 bytes on the wire, 21.24 ns per hop, so it has fully
        // arrived after 2 x 21.24 ns + 2 x 1 us = 2042.48 ns; host 1's NIC sends the 64-byte ACK and is free after
        // its 20-byte gap, at 2042.48 + 1.28 + 0.4 = 2044.16 ns, exactly when host 1's own queue pair starts. The NIC
        // leaves out a wake-up at the end of a gap only when no start is due by then, so no kick falls in a skipped window
        PacketSpec pk = PacketSpec.defaults();
        long arrivedPs = 2 * (1000 + pk.headerBytes()) * 20L + 2 * 1_000_000L;
        long freePs = arrivedPs + (pk.ackBytes() + pk.interFrameGapBytes()) * 20L;
        assertThat(freePs).isEqualTo(2_044_160);
        Files.writeString(dir.resolve("ack-then-start.csv"), "src,dst,bytes,start_ns\n0,1,1000,0\n1,2,4096,2044.16\n");
        TopologySpec topo = new TopologySpec.LeafSpine(4, 1, 1, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        Scenario s = TestScenarios.scenario(topo, "ecmp", new WorkloadSpec.Trace("ack-then-start.csv"), 1);
        CheckedRun run = CheckedRun.of(s, dir);
        assertThat(run.prepared().network().nicKicksInSkippedWindows()).isZero();
        assertThat(run.prepared().network().nicWakesSkipped()).as("the NICs do leave out wake-ups here").isEqualTo(1);
        assertThat(run.fctPs(1)).as("sent from its start on, alone").isEqualTo(alonePs(4096));
    }

    @Test
    void whereCompletionsStartQueuePairsNoNicLeavesOutAWakeUpAStartQueuedLaterMayNeed() throws Exception {
        // flow 1 (h0 -> h1, 1000 bytes) starts at 2000.88 ns, so host 1's NIC is free after its ACK at 2000.88 + 2044.16
        // = 4045.04 ns; flow 0 (h2 -> h3, 1000 bytes alone) completes at that very instant and flow 2 (h1 -> h2), which
        // waits for it, starts then. When the NIC freed, nothing was pending yet: only a completion queued the start
        assertThat(alonePs(1000)).isEqualTo(4_045_040);
        CheckedRun run = CheckedRun.of(oneLeaf("0,2,3,1000,,0,0", "1,0,1,1000,,0,2000.88", "2,1,2,4096,0,0,0"), dir);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(0).fctPs()).isEqualTo(4_045_040);
        assertThat(f.get(2).startPs()).isEqualTo(4_045_040);
        assertThat(f.get(2).fctPs()).isEqualTo(alonePs(4096));
        assertThat(run.prepared().network().nicKicksInSkippedWindows()).isZero();
    }
}
