package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.Transport;

/**
 * Queue pairs of dependent connections are built when they start and released once done and
 * unreferenced: the results are exactly those of a run that keeps every queue pair, while far fewer
 * are alive at once. Late duplicates (erasure-coded extra symbols, retransmissions) and packets lost
 * on a failed link exercise the "nothing refers to it any more" rule; the invariants (every packet a
 * queue pair made is counted until delivered or lost) are checked after each run.
 */
class LazyQueuePairsTest {
    @TempDir
    Path dir;

    @Test
    void releasingDoneQueuePairsChangesNoResultAndKeepsFewAlive() {
        FailureSpec failedLink = TestScenarios.failLinks(List.of(new FailureSpec.FailedLink("a0", "c0", 0)), 3000);
        int checked = 0;
        for (WorkloadSpec w : DependentFlowsTest.busyWorkloads()) {
            for (String lb : List.of("ecmp", "switch-pkt-ar", "host-dr")) {
                for (boolean failure : new boolean[] {false, true}) {
                    Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), lb, w, 7);
                    if (failure) {
                        s = TestScenarios.withFailures(s, failedLink);
                    }
                    CheckedRun released = CheckedRun.of(s, dir);
                    CheckedRun kept = CheckedRun.of(s, dir, p -> p.transport().keepAllQueuePairs());
                    String what = lb + (failure ? " with a failed link " : " ") + w;
                    RunResult r = released.result();
                    assertThat(r).as(what).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(kept.result());
                    assertThat(r.flowsFinished()).as(what).isEqualTo(r.flows());
                    Transport t = released.prepared().transport();
                    assertThat(kept.prepared().transport().releasedQueuePairs()).isZero();
                    int dependentQps = 0;
                    for (int q = 0; q < t.flowCount(); q++) {
                        dependentQps += released.prepared().flows().get(t.connectionOf(q)).dependent() ? 1 : 0;
                        if (t.senderOf(q) == null) {
                            assertThat(t.receiverOf(q)).isNull();
                            assertThat(t.outstandingPackets(q)).isZero();
                        }
                    }
                    // every dependent queue pair was released: once done and unreferenced none is kept
                    assertThat(t.releasedQueuePairs()).as(what).isEqualTo(dependentQps).isPositive();
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(DependentFlowsTest.busyWorkloads().size() * 6);
    }

    @Test
    void aLongChainKeepsOnlyTheQueuePairsInProgressAlive() {
        // 2 servers x 4 GPUs, 4 layers of Llama 7B: 4 rings of 2 servers, per layer a ReduceScatter and an AllGather step per GPU
        WorkloadSpec fsdp = new WorkloadSpec.Fsdp("llama-7b", 4, 0, 4, 2, 0);
        CheckedRun run = CheckedRun.of(TestScenarios.scenario(TestScenarios.fatTree(4), "ofan", fsdp, 3), dir);
        Transport t = run.prepared().transport();
        assertThat(run.result().flowsFinished()).isEqualTo(run.result().flows());
        long independent = run.prepared().flows().stream().filter(f -> !f.dependent()).count();
        assertThat(t.flowCount()).isEqualTo(8 * 2 * 4);
        assertThat(independent).isEqualTo(8);
        assertThat(t.releasedQueuePairs()).isEqualTo(t.flowCount() - independent);
        // the 8 first steps (built up front, kept), then about one step per GPU at a time, two while one hands over to the next
        assertThat(t.maxLiveQueuePairs()).isBetween(8 + 8, 8 + 2 * 8);
    }
}
