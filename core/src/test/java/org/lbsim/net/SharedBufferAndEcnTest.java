package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/** An 8-to-1 incast on k = 4 against the shared dynamic-threshold buffer and RED-style ECN marking. */
class SharedBufferAndEcnTest {
    private static final int MAX_FRAME = 4096 + 62;
    private static final EcnSpec ECN_OFF = new EcnSpec(false, 10_000, 50_000, 0.2);

    @TempDir
    Path dir;

    /** Hosts 2..9 each send 256 KB to host 0; e0's port to h0 is the bottleneck. */
    private Scenario incast(BufferSpec buffer, EcnSpec ecn) {
        List<long[]> rows = new ArrayList<>();
        for (int src = 2; src <= 9; src++) {
            rows.add(flow(src, 0, 64 * 4096));
        }
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", trace(dir, "incast.csv", rows), 1);
        return ScenarioTweaks.withSwitches(s, new SwitchSpec(buffer, ecn));
    }

    private static EgressPort bottleneck(CheckedRun run) {
        Topology t = run.prepared().topology();
        return run.prepared().network().egress(t.peerPort(t.hostPort(0)));
    }

    @Test
    void aSmallSharedBufferDropsPartOfAnIncastButNeverHoldsMoreThanItsTotal() {
        long total = 150_000;
        double alpha = 1.0;
        CheckedRun run = CheckedRun.of(incast(new BufferSpec.SharedDynamic(total, alpha), ECN_OFF), dir);
        RunResult r = run.result();

        assertThat(r.counters().drops()).isPositive();
        assertThat(r.flowsFinished()).isEqualTo(8); // erasure coding recovers the dropped frames
        BufferModel e0 = run.prepared().network().buffer(run.prepared().topology().hostSwitch(0));
        assertThat(e0.isShared()).isTrue();
        assertThat(e0.sharedTotalBytes()).isEqualTo(total);
        // Choudhury-Hahne: a port admits a frame only while its queue stays within alpha x free memory,
        // so one congested port settles below alpha / (1 + alpha) of the buffer (plus one frame)
        EgressPort port = bottleneck(run);
        assertThat(port.maxQueueBytes()).isPositive()
                .isLessThanOrEqualTo((long) (alpha * (total + MAX_FRAME) / (1 + alpha)));
        assertThat(port.drops()).isPositive();
        // memory is all returned at the end
        assertThat(e0.sharedUsedBytes()).isZero();
    }

    @Test
    void aLargerAlphaLetsTheCongestedPortTakeMoreOfTheSharedBuffer() {
        long total = 150_000;
        CheckedRun low = CheckedRun.of(incast(new BufferSpec.SharedDynamic(total, 0.5), ECN_OFF), dir);
        CheckedRun high = CheckedRun.of(incast(new BufferSpec.SharedDynamic(total, 4), ECN_OFF), dir);

        assertThat(bottleneck(high).maxQueueBytes()).isGreaterThan(bottleneck(low).maxQueueBytes());
        assertThat(bottleneck(low).maxQueueBytes()).isLessThanOrEqualTo((long) (0.5 * (total + MAX_FRAME) / 1.5));
        assertThat(high.result().counters().drops()).isLessThan(low.result().counters().drops());
    }

    @Test
    void aSharedBufferLargeEnoughForTheIncastDropsNothing() {
        CheckedRun run = CheckedRun.of(incast(new BufferSpec.SharedDynamic(20_000_000, 8), ECN_OFF), dir);
        assertThat(run.result().counters().drops()).isZero();
        assertThat(run.result().counters().retransmissions()).isZero();
        assertThat(bottleneck(run).maxQueueBytes()).isGreaterThan(150_000);
    }

    @Test
    void withEcnOnAndALowThresholdQueuesAboveKminMarkPacketsAndOnlyThose() {
        long kmin = 10_000;
        CheckedRun run = CheckedRun.of(incast(BufferSpec.defaults(), new EcnSpec(true, kmin, 50_000, 0.2)), dir);
        RunResult r = run.result();

        assertThat(r.counters().ecnMarks()).isPositive();
        assertThat(bottleneck(run).ecnMarks()).isPositive();
        LayerStats toHosts = r.layers().stream().filter(l -> l.layer().equals("E->H")).findFirst().orElseThrow();
        assertThat(toHosts.ecnMarks()).isPositive();
        Topology t = run.prepared().topology();
        long marks = 0;
        for (int p = 0; p < t.portCount(); p++) {
            EgressPort e = run.prepared().network().egress(p);
            if (e != null) {
                marks += e.ecnMarks();
                if (e.maxQueueBytes() <= kmin) {
                    assertThat(e.ecnMarks()).as("port %d never above kmin", p).isZero();
                }
            }
        }
        assertThat(marks).isEqualTo(r.counters().ecnMarks());
        // a frame is counted once however many ports mark it
        long dataFrames = r.flowResults().stream().mapToLong(f -> f.packetsSent()).sum();
        assertThat(marks).isLessThanOrEqualTo(dataFrames);
    }

    @Test
    void withEcnOffNothingIsMarkedAndFixedRateSendersDoNotNotice() {
        EcnSpec on = new EcnSpec(true, 10_000, 50_000, 0.2);
        RunResult marked = CheckedRun.of(incast(BufferSpec.defaults(), on), dir).result();
        RunResult unmarked = CheckedRun.of(incast(BufferSpec.defaults(), ECN_OFF), dir).result();

        assertThat(unmarked.counters().ecnMarks()).isZero();
        assertThat(unmarked.layers()).allSatisfy(l -> assertThat(l.ecnMarks()).isZero());
        assertThat(marked.counters().ecnMarks()).isPositive();
        // same queues either way: fixed-rate senders ignore ECN echoes
        assertThat(unmarked.cctPs()).isEqualTo(marked.cctPs());
        assertThat(unmarked.flowResults()).isEqualTo(marked.flowResults());
    }
}
