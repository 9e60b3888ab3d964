package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/**
 * HOST_PKT_AR (OFAN 3.2 (6), after REPS): entropies come back into use only through unmarked ACKs;
 * a timeout purges the lost entropy and freezes the queue pair (reuse cached entropies without
 * consuming them, explore nothing) for freezeUs; end to end it stops sending onto a failed link
 * that routing never removes.
 */
class RepsTest {
    private static final long FREEZE_PS = Time.us(100);

    private final Simulator sim = new Simulator();

    private Reps.Policy policy(int cacheSize, long seed) {
        return new Reps.Policy(new SplittableRandom(seed), sim, cacheSize, FREEZE_PS);
    }

    @Test
    void anEntropyAckedWithoutMarkIsRecycledOnceInArrivalOrder() {
        Reps.Policy p = policy(8, 1);
        int first = p.entropyFor(0, false);
        int second = p.entropyFor(1, false);
        assertThat(p.explored()).as("empty cache: both packets explore").isEqualTo(2);

        p.onAck(second, false);
        p.onAck(first, false);
        assertThat(p.cached()).isEqualTo(2);
        assertThat(p.entropyFor(2, false)).as("oldest cached entropy first").isEqualTo(second);
        assertThat(p.entropyFor(3, false)).isEqualTo(first);
        assertThat(p.recycled()).isEqualTo(2);
        assertThat(p.cached()).as("each recycled entropy is consumed").isZero();
        p.entropyFor(4, false);
        assertThat(p.explored()).as("cache drained: explore again").isEqualTo(3);
    }

    @Test
    void anEntropyWhoseAckEchoedEcnIsNotRecycled() {
        Reps.Policy p = policy(8, 2);
        int e = p.entropyFor(0, false);
        p.onAck(e, true);
        assertThat(p.cached()).isZero();
        p.entropyFor(1, false);
        assertThat(p.explored()).as("explored: %d, recycled: %d", p.explored(), p.recycled()).isEqualTo(2);
        assertThat(p.recycled()).isZero();
    }

    @Test
    void aFullCacheOverwritesItsOldestEntropy() {
        Reps.Policy p = policy(3, 3);
        for (int e = 10; e < 15; e++) {
            p.onAck(e, false);
        }
        assertThat(p.cached()).isEqualTo(3);
        assertThat(List.of(p.entropyFor(0, false), p.entropyFor(1, false), p.entropyFor(2, false))).containsExactly(12, 13, 14);
    }

    @Test
    void aLossPurgesTheEntropyAndFreezesThePolicyForFreezeUs() {
        Reps.Policy p = policy(16, 4);
        for (int e : new int[] {100, 200, 300, 200, 400}) {
            p.onAck(e, false);
        }
        p.onLoss(200);
        assertThat(p.cached()).as("both copies of 200 purged").isEqualTo(3);
        assertThat(p.frozen()).isTrue();

        // frozen: cycle over 100, 300, 400 without consuming them and without exploring
        long exploredBefore = p.explored();
        List<Integer> sent = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            sent.add(p.entropyFor(i, false));
        }
        assertThat(sent).as("entropies sent while frozen").containsOnly(100, 300, 400).doesNotContain(200);
        assertThat(sent.subList(0, 3)).containsExactlyInAnyOrder(100, 300, 400);
        assertThat(sent.subList(3, 6)).isEqualTo(sent.subList(0, 3));
        assertThat(p.cached()).isEqualTo(3);
        assertThat(p.explored()).isEqualTo(exploredBefore);

        // still frozen just before freezeUs ends, thawed after
        ChoiceRecorder.advanceTo(sim, FREEZE_PS - 1);
        assertThat(p.frozen()).isTrue();
        p.entropyFor(9, false);
        assertThat(p.cached()).isEqualTo(3);
        ChoiceRecorder.advanceTo(sim, FREEZE_PS);
        assertThat(p.frozen()).isFalse();
        p.entropyFor(10, false);
        assertThat(p.cached()).as("thawed: consumes again").isEqualTo(2);
    }

    @Test
    void aLossOfAnEntropyNotInTheCacheStillFreezesAndWithoutFreezeTimeNothingFreezes() {
        Reps.Policy p = policy(4, 5);
        p.onAck(7, false);
        p.onLoss(8);
        assertThat(p.cached()).isEqualTo(1);
        assertThat(p.frozen()).isTrue();

        Reps.Policy never = new Reps.Policy(new SplittableRandom(5), sim, 4, 0);
        never.onAck(7, false);
        never.onLoss(7);
        assertThat(never.frozen()).isFalse();
        never.entropyFor(0, false);
        assertThat(never.explored()).isEqualTo(1);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void aLostEntropyIsNeverSentAgainWhileFrozen(long seed) {
        // random ACK / loss sequences: after onLoss(e), no packet carries e until the freeze ends
        SplittableRandom script = new SplittableRandom(seed);
        Reps.Policy p = policy(1 + script.nextInt(32), seed);
        List<Integer> recent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int e = p.entropyFor(i, false);
            recent.add(e);
            if (script.nextInt(4) > 0) {
                p.onAck(recent.get(script.nextInt(recent.size())), script.nextInt(5) == 0);
            }
        }
        int lost = recent.get(script.nextInt(recent.size()));
        p.onLoss(lost);
        assertThat(p.frozen()).isTrue();
        int cachedAtLoss = p.cached();
        for (int i = 0; i < 200; i++) {
            int e = p.entropyFor(300 + i, false);
            if (cachedAtLoss > 0) {
                assertThat(e).as("seed %d, %d cached after the loss", seed, cachedAtLoss).isNotEqualTo(lost);
            }
        }
        if (cachedAtLoss > 0) {
            assertThat(p.cached()).isEqualTo(cachedAtLoss);
        }
    }

    // ---------------------------------------------------------------- end to end

    /** Link loss of a run in total and from the first timeout on (sampled every 0.25 us). */
    private record Loss(RunResult result, long total, long afterFirstTimeout, long firstTimeoutPs) {
        @Override
        public String toString() {
            return String.format("link loss %d, %d of them after the first timeout at %.1f us (%d timeouts, CCT %.1f us, %d buffer drops)", total,
                    afterFirstTimeout, firstTimeoutPs / 1e6, result.counters().timeouts(), result.cctPs() / 1e6, result.counters().drops());
        }
    }

    private static Loss underFailure(String scheme, int packets, long seed) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), scheme, new WorkloadSpec.Permutation(packets * 4096L, 0), seed);
        s = TestScenarios.withFailures(s, TestScenarios.failLinks(List.of(new FailureSpec.FailedLink("a0", "c0", 0)), -1));
        long[] atFirstTimeout = {-1, -1};
        CheckedRun run = CheckedRun.of(s, null, prepared -> {
            Simulator sim = prepared.simulator();
            long interval = Time.ns(250);
            int[] id = new int[1];
            id[0] = sim.register((kind, tag) -> {
                long timeouts = 0;
                for (int q = 0; q < prepared.transport().flowCount(); q++) {
                    timeouts += prepared.transport().senderOf(q).recovery().timeouts();
                }
                if (timeouts > 0 && atFirstTimeout[0] < 0) {
                    long lost = 0;
                    for (int code = 0; code < 16; code++) {
                        lost += prepared.network().linkLossInLayer(code);
                    }
                    atFirstTimeout[0] = lost;
                    atFirstTimeout[1] = sim.nowPs();
                }
                sim.scheduleBackground(id[0], sim.nowPs() + interval, 0, 0);
            });
            sim.scheduleBackground(id[0], interval, 0, 0);
        });
        long total = run.result().counters().linkLoss();
        return new Loss(run.result(), total, atFirstTimeout[0] < 0 ? 0 : total - atFirstTimeout[0], atFirstTimeout[1]);
    }

    @Test
    void withRoutesThatNeverConvergeRepsStopsLosingPacketsOnTheFailedLinkUnlikeHostSpraying() {
        for (long seed = 1; seed <= 3; seed++) {
            Loss reps = underFailure("host-pkt-ar", 512, seed);
            Loss spray = underFailure("host-spray", 512, seed);
            String msg = String.format("seed %d, a0-c0 failed, never converging, 16 x 512 packets: host-pkt-ar %s; host-spray %s", seed, reps, spray);
            System.out.println("[reps] " + msg);
            assertThat(reps.result().flowsFinished()).as(msg).isEqualTo(16);
            assertThat(spray.result().flowsFinished()).as(msg).isEqualTo(16);
            assertThat(reps.firstTimeoutPs()).as(msg).isPositive();
            // host spraying keeps hashing a share of its resent symbols onto the dead link; REPS only reuses entropies that came back
            assertThat(spray.afterFirstTimeout()).as(msg).isGreaterThan(100);
            assertThat(reps.afterFirstTimeout()).as(msg).isLessThanOrEqualTo(spray.afterFirstTimeout() / 20);
            assertThat(reps.total()).as(msg).isLessThan(spray.total());
        }
    }
}
