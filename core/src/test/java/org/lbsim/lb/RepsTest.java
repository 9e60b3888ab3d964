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
 * HOST_PKT_AR (OFAN 3.2 (6)): REPS. Entropies come back into use only through unmarked ACKs, each
 * once, oldest first; the first base RTT (one BDP) and an empty buffer explore; a timeout outside
 * exploration freezes the queue pair (no exploration, cycle through the buffer) until the first
 * good ACK after freezeUs, which restarts one base RTT of exploration; end to end it stops sending onto a failed link
 * that routing never removes.
 */
class RepsTest {
    private static final long FREEZE_PS = Time.us(100);

    private final Simulator sim = new Simulator();

    private Reps.Policy policy(int cacheSize, long seed, long explorePs) {
        return new Reps.Policy(new SplittableRandom(seed), sim, cacheSize, FREEZE_PS, explorePs);
    }

    private Reps.Policy policy(int cacheSize, long seed) {
        return policy(cacheSize, seed, 0);
    }

    @Test
    void anEntropyAckedWithoutMarkIsRecycledOnceInArrivalOrder() {
        Reps.Policy p = policy(8, 1);
        int first = p.entropyFor(0, false);
        int second = p.entropyFor(1, false);
        assertThat(p.explored()).as("nothing acknowledged yet: both packets explore").isEqualTo(2);

        p.onAck(second, false);
        p.onAck(first, false);
        assertThat(p.validEntropies()).isEqualTo(2);
        assertThat(p.entropyFor(2, false)).as("oldest valid entropy first").isEqualTo(second);
        assertThat(p.entropyFor(3, false)).isEqualTo(first);
        assertThat(p.recycled()).isEqualTo(2);
        assertThat(p.validEntropies()).as("each reused entropy is consumed").isZero();
        p.entropyFor(4, false);
        assertThat(p.explored()).as("no valid entropy left: explore again").isEqualTo(3);
    }

    @Test
    void theFirstBaseRttExploresEvenWithGoodAcks() {
        Reps.Policy p = policy(8, 6, 1000);
        ChoiceRecorder.advanceTo(sim, 500);
        p.entropyFor(0, false); // the window opens with the first packet
        p.onAck(42, false);
        ChoiceRecorder.advanceTo(sim, 1499);
        for (int i = 1; i < 5; i++) {
            assertThat(p.entropyFor(i, false)).isNotEqualTo(42);
        }
        assertThat(p.explored()).isEqualTo(5);
        ChoiceRecorder.advanceTo(sim, 1500);
        assertThat(p.entropyFor(5, false)).as("exploration over: reuse").isEqualTo(42);
    }

    @Test
    void anEntropyWhoseAckEchoedEcnIsNotRecycled() {
        Reps.Policy p = policy(8, 2);
        int e = p.entropyFor(0, false);
        p.onAck(e, true);
        assertThat(p.validEntropies()).isZero();
        p.entropyFor(1, false);
        assertThat(p.explored()).as("explored: %d, recycled: %d", p.explored(), p.recycled()).isEqualTo(2);
        assertThat(p.recycled()).isZero();
    }

    @Test
    void aFullBufferOverwritesItsOldestEntropy() {
        Reps.Policy p = policy(3, 3);
        for (int e = 10; e < 15; e++) {
            p.onAck(e, false);
        }
        assertThat(p.validEntropies()).isEqualTo(3);
        assertThat(List.of(p.entropyFor(0, false), p.entropyFor(1, false), p.entropyFor(2, false))).containsExactly(12, 13, 14);
    }

    @Test
    void aTimeoutFreezesUntilTheFirstGoodAckAfterFreezeUsThenExploresOneBdp() {
        Reps.Policy p = policy(4, 4, 1000);
        for (int i = 0; i < 3; i++) {
            p.entropyFor(i, false);
        }
        for (int e : new int[] {100, 200, 300, 400}) {
            p.onAck(e, false);
        }
        p.onLoss(999);
        assertThat(p.frozen()).as("a timeout while exploring does not freeze").isFalse();
        ChoiceRecorder.advanceTo(sim, 1000);
        p.entropyFor(3, false); // consumes 100
        p.onLoss(999);
        assertThat(p.frozen()).isTrue();
        assertThat(p.freezes()).isEqualTo(1);

        // frozen: the three valid entropies once each, then the whole buffer in order, no exploration
        long exploredBefore = p.explored();
        List<Integer> sent = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            sent.add(p.entropyFor(4 + i, false));
        }
        assertThat(sent).containsExactly(200, 300, 400, 100, 200, 300, 400, 100, 200, 300, 400);
        assertThat(p.explored()).isEqualTo(exploredBefore);
        p.onLoss(998);
        assertThat(p.freezes()).as("a timeout while frozen does not extend the freeze").isEqualTo(1);

        // a good ACK before freezeUs keeps the freeze; the first one after it ends it
        ChoiceRecorder.advanceTo(sim, 1000 + FREEZE_PS);
        p.onAck(500, false);
        assertThat(p.frozen()).as("at exactly freezeUs").isTrue();
        ChoiceRecorder.advanceTo(sim, 1001 + FREEZE_PS);
        assertThat(p.frozen()).as("no ACK yet").isTrue();
        p.onAck(600, false);
        assertThat(p.frozen()).isFalse();
        assertThat(p.exploring()).as("one base RTT of exploration again").isTrue();
        p.onLoss(997);
        assertThat(p.frozen()).as("a timeout while exploring does not freeze").isFalse();
        for (int i = 0; i < 3; i++) {
            p.entropyFor(20 + i, false);
        }
        assertThat(p.explored()).isEqualTo(exploredBefore + 3);
        ChoiceRecorder.advanceTo(sim, 2001 + FREEZE_PS);
        assertThat(p.exploring()).isFalse();
        assertThat(p.entropyFor(23, false)).as("then the oldest valid entropy").isEqualTo(500);
    }

    @Test
    void withoutFreezeTimeNothingFreezes() {
        Reps.Policy never = new Reps.Policy(new SplittableRandom(5), sim, 4, 0, 0);
        never.onAck(7, false);
        never.onLoss(7);
        assertThat(never.frozen()).isFalse();
        assertThat(never.entropyFor(0, false)).isEqualTo(7);
        never.entropyFor(1, false);
        assertThat(never.explored()).isEqualTo(1);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void whileFrozenOnlyEntropiesThatCameBackUnmarkedAreSent(long seed) {
        // random ACK / loss sequences: once frozen, every packet carries an entropy an unmarked ACK returned
        SplittableRandom script = new SplittableRandom(seed);
        Reps.Policy p = policy(1 + script.nextInt(16), seed, 1000L * script.nextInt(20));
        List<Integer> sent = new ArrayList<>();
        java.util.Set<Integer> good = new java.util.HashSet<>();
        boolean wasFrozen = false;
        for (int i = 0; i < 2000; i++) {
            ChoiceRecorder.advanceTo(sim, 100L * i);
            int e = p.entropyFor(i, false);
            if (wasFrozen) {
                assertThat(good).as("seed %d, packet %d", seed, i).contains(e);
            }
            sent.add(e);
            int r = script.nextInt(10);
            if (r < 7) {
                int acked = sent.get(script.nextInt(sent.size()));
                boolean marked = script.nextInt(5) == 0;
                if (!marked) {
                    good.add(acked);
                }
                p.onAck(acked, marked);
            } else if (r == 7) {
                p.onLoss(sent.get(script.nextInt(sent.size())));
            }
            wasFrozen = p.frozen();
        }
        assertThat(p.freezes()).as("seed %d", seed).isPositive();
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
