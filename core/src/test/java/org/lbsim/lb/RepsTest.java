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
import org.lbsim.testing.Packets;

/**
 * HOST PKT AR (OFAN 3.2 (6)): REPS. Entropies come back into use only through unmarked ACKs, each
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
    void frozenWithAPartlyFilledBufferItCyclesThroughTheEntropiesWrittenSoFarInOrder() {
        Reps.Policy p = policy(8, 7);
        for (int e : new int[] {11, 22, 33}) {
            p.onAck(e, false);
        }
        assertThat(p.entropyFor(0, false)).isEqualTo(11);
        p.onLoss(11);
        assertThat(p.frozen()).isTrue();
        List<Integer> sent = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            sent.add(p.entropyFor(i, false));
        }
        assertThat(sent).as("the two valid ones, then slots 0..2 round and round").containsExactly(22, 33, 11, 22, 33, 11, 22, 33);
        assertThat(p.explored()).isZero();
    }

    @Test
    void frozenWithAFullBufferItCyclesFromTheOldestSlot() {
        Reps.Policy p = policy(3, 8);
        for (int e : new int[] {1, 2, 3, 4}) {
            p.onAck(e, false); // 4 overwrites 1: slots hold 4, 2, 3 and the oldest is slot 1
        }
        assertThat(p.entropyFor(0, false)).isEqualTo(2);
        p.onLoss(2);
        assertThat(p.frozen()).isTrue();
        List<Integer> sent = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            sent.add(p.entropyFor(i, false));
        }
        assertThat(sent).as("the two valid ones, then the buffer from its oldest slot").containsExactly(3, 4, 2, 3, 4, 2, 3);
    }

    @Test
    void aQueuePairExploresForExploreRttsOfItsOwnBaseRtt() {
        org.lbsim.spi.QpContext qp = new org.lbsim.spi.QpContext(0, 0, 4, 1 << 20, 256, 4096, 62, 20, 800_000, Time.us(8), 800_000);
        Reps.Params params = new Reps.Params(8, 100, 1.5, Reps.TIMEOUT_FROM_LOSS_RECOVERY, 10, 1 << 16);
        Reps.Policy p = (Reps.Policy) new Reps(params).newEntropyPolicy(new org.lbsim.spi.HostContext(qp, null, null, new SplittableRandom(9), sim));
        ChoiceRecorder.advanceTo(sim, Time.us(1));
        p.entropyFor(0, false); // the window opens with the first packet: 1.5 x 8 us from here
        ChoiceRecorder.advanceTo(sim, Time.us(13) - 1);
        assertThat(p.exploring()).isTrue();
        ChoiceRecorder.advanceTo(sim, Time.us(13));
        assertThat(p.exploring()).isFalse();
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

    // ---------------------------------------------------------------- timeouts noticed on reuse (htsim)

    private Reps.Policy reusePolicy(long seed) {
        return new Reps.Policy(new SplittableRandom(seed), sim, 8, FREEZE_PS, 0, true, Time.us(10), 16000);
    }

    private final org.lbsim.net.PacketPool pool = new org.lbsim.net.PacketPool();

    private org.lbsim.net.Packet ack(int entropy, boolean ecnEcho, long sentPs) {
        org.lbsim.net.Packet a = Packets.ack(pool, 0, 0);
        a.entropy = entropy;
        a.ecnEcho = ecnEcho;
        a.echoSentPs = sentPs;
        return a;
    }

    @Test
    void onReuseALossRecoveryTimeoutFreezesNothing() {
        Reps.Policy p = reusePolicy(1);
        int e = p.entropyFor(0, false);
        p.onLoss(e);
        assertThat(p.frozen()).isFalse();
        assertThat(p.freezes()).isZero();
    }

    @Test
    void onReuseTheRtoFollowsRfc6298FromTheAckedPacketsSendTimes() {
        Reps.Policy p = reusePolicy(2);
        assertThat(p.rtoPs()).as("before any sample: htsim's 1 ms").isEqualTo(Time.us(1000));
        int e = p.entropyFor(0, false);
        ChoiceRecorder.advanceTo(sim, Time.us(8));
        p.onAck(ack(e, false, 0), sim.nowPs());
        assertThat(p.rtoPs()).as("first sample 8 us: srtt 8 + 4 x 4").isEqualTo(Time.us(24));
        int f = p.entropyFor(1, false);
        ChoiceRecorder.advanceTo(sim, Time.us(10));
        p.onAck(ack(f, false, Time.us(8)), sim.nowPs());
        // rttvar = (3 x 4 + |8 - 2|) / 4 = 4.5, srtt = (7 x 8 + 2) / 8 = 7.25 -> 25.25 us
        assertThat(p.rtoPs()).isEqualTo(Time.ns(25_250));
        assertThat(p.runningTimers()).as("each ACK stopped its entropy's timer").isZero();
    }

    /** Reuses entropy e at 2 us and at 12 us; returns e. */
    private int reuseTwice(Reps.Policy p) {
        int e = p.entropyFor(0, false);
        ChoiceRecorder.advanceTo(sim, Time.us(2));
        p.onAck(ack(e, false, 0), sim.nowPs()); // RTT 2 us: RTO 6 us floored to 10 us; e is now valid
        p.onAck(ack(e, false, 0), sim.nowPs()); // a second good ACK on e: e sits in the buffer twice
        assertThat(p.entropyFor(1, false)).as("reuse e; its timer starts at 2 us").isEqualTo(e);
        ChoiceRecorder.advanceTo(sim, Time.us(12));
        assertThat(p.entropyFor(2, false)).as("10 us later, not more than the RTO: still e").isEqualTo(e);
        assertThat(p.timeouts()).isZero();
        // RTT samples of 2 us keep the RTO at its 10 us floor
        p.onAck(ack(42, false, Time.us(10)), sim.nowPs());
        p.onAck(ack(e, false, Time.us(10)), sim.nowPs());
        p.onAck(ack(e, false, Time.us(10)), sim.nowPs()); // e's timer is stopped by these ACKs, e twice more in the buffer
        assertThat(p.rtoPs()).isEqualTo(Time.us(10));
        assertThat(p.entropyFor(3, false)).isEqualTo(42);
        assertThat(p.entropyFor(4, false)).as("timer restarts at 12 us").isEqualTo(e);
        ChoiceRecorder.advanceTo(sim, Time.ns(22_001));
        return e;
    }

    @Test
    void onReuseAnEntropyUnansweredForAnRtoIsReportedDroppedAndReplaced() {
        Reps.Policy p = new Reps.Policy(new SplittableRandom(3), sim, 8, 0, 0, true, Time.us(10), 16000); // never freezes
        int e = reuseTwice(p);
        int next = p.entropyFor(5, false);
        assertThat(p.timeouts()).as("e's packet of 12 us went unanswered for more than 10 us").isEqualTo(1);
        assertThat(next).as("the buffer's next entropy was e: it is dropped and, none valid left, a fresh one is drawn").isNotEqualTo(e);
        assertThat(next).isBetween(0, 15999);
        assertThat(p.timerSincePs(next)).isEqualTo(sim.nowPs());
        assertThat(p.frozen()).isFalse();
    }

    @Test
    void onReuseATimeoutOutsideExplorationFreezes() {
        Reps.Policy p = reusePolicy(3);
        int e = reuseTwice(p);
        int next = p.entropyFor(5, false);
        assertThat(p.timeouts()).isEqualTo(1);
        assertThat(p.frozen()).isTrue();
        assertThat(p.freezes()).isEqualTo(1);
        assertThat(next).as("frozen: the buffer's known-good entropies are cycled").isIn(e, 42);
    }

    @Test
    void onReuseALostPacketWhoseEntropyNeverComesBackIsNeverNoticed() {
        // REPS's buffer only holds entropies that came back, so a path that loses everything is
        // forgotten without a timeout (unless a fresh draw hits its entropy again)
        Reps.Policy p = reusePolicy(4);
        int lost = p.entropyFor(0, false);
        int good = p.entropyFor(1, false);
        ChoiceRecorder.advanceTo(sim, Time.us(5));
        for (int i = 2; i < 200; i++) {
            p.onAck(ack(good, false, sim.nowPs() - Time.us(5)), sim.nowPs());
            assertThat(p.entropyFor(i, false)).isEqualTo(good);
            ChoiceRecorder.advanceTo(sim, sim.nowPs() + Time.us(1));
        }
        assertThat(p.timeouts()).isZero();
        assertThat(p.frozen()).isFalse();
        assertThat(p.runningTimers()).as("the lost entropy's timer and the last send on the good one").isEqualTo(2);
        assertThat(p.timerSincePs(lost)).isZero();
        assertThat(lost).isNotEqualTo(good);
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14})
    void onReuseNoEntropyIsSentWhileItsTimerIsOlderThanTheRto(long seed) {
        // random ACK / loss / time sequences: whenever the policy hands out an entropy, that entropy
        // has no unanswered send older than the RTO (checked against an independent record)
        SplittableRandom rng = new SplittableRandom(seed);
        Reps.Policy p = new Reps.Policy(new SplittableRandom(seed), sim, 8, FREEZE_PS, 0, true, Time.us(10), 64);
        java.util.Map<Integer, Long> oldestUnanswered = new java.util.HashMap<>();
        List<long[]> inFlight = new ArrayList<>();
        for (int psn = 0; psn < 3000; psn++) {
            long now = sim.nowPs();
            long rto = p.rtoPs();
            long timeoutsBefore = p.timeouts();
            int e = p.entropyFor(psn, false);
            Long since = oldestUnanswered.get(e);
            if (since != null && now - since > rto) {
                // allowed only as the replacement drawn right after that very timeout was reported
                assertThat(p.timeouts()).as("psn %d entropy %d unanswered since %d, rto %d", psn, e, since, rto).isGreaterThan(timeoutsBefore);
                assertThat(p.timerSincePs(e)).as("its timer restarts").isEqualTo(now);
                oldestUnanswered.put(e, now);
            }
            oldestUnanswered.putIfAbsent(e, now);
            if (rng.nextInt(10) > 0) {
                inFlight.add(new long[] {e, now});
            }
            while (!inFlight.isEmpty() && rng.nextInt(3) > 0) {
                long[] sent = inFlight.remove(rng.nextInt(inFlight.size()));
                oldestUnanswered.remove((int) sent[0]);
                p.onAck(ack((int) sent[0], rng.nextInt(4) == 0, sent[1]), now);
            }
            // a timeout the policy noticed forgets that entropy's timer: only stale ones may go
            oldestUnanswered.keySet().removeIf(k -> {
                boolean dropped = p.timerSincePs(k) < 0;
                assertThat(!dropped || now - oldestUnanswered.get(k) > rto).as("entropy %d forgotten before its RTO", k).isTrue();
                return dropped;
            });
            assertThat(p.runningTimers()).isEqualTo(oldestUnanswered.size());
            ChoiceRecorder.advanceTo(sim, now + Time.ns(100 + rng.nextInt(3000)));
        }
        assertThat(p.timeouts()).as("the random losses do get noticed").isPositive();
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
        return underFailure(TestScenarios.lb(scheme), packets, seed);
    }

    private static Loss underFailure(org.lbsim.scenario.ComponentSpec lb, int packets, long seed) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(packets * 4096L, 0), seed);
        s = new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), lb, s.congestionControl(), s.lossRecovery(),
                s.workload(), s.failures(), s.limits());
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
    void withRoutesThatNeverConvergeRepsLosesFewerPacketsOnTheFailedLinkThanHostSpraying() {
        // htsim reading (default): only explored entropies can meet the dead link, since only
        // entropies that came back are reused; the loss-recovery timeouts change nothing
        for (long seed = 1; seed <= 3; seed++) {
            Loss reps = underFailure("host-pkt-ar", 512, seed);
            Loss spray = underFailure("host-spray", 512, seed);
            String msg = String.format("seed %d, a0-c0 failed, never converging, 16 x 512 packets: host-pkt-ar %s; host-spray %s", seed, reps, spray);
            System.out.println("[reps] " + msg);
            assertThat(reps.result().flowsFinished()).as(msg).isEqualTo(16);
            assertThat(spray.result().flowsFinished()).as(msg).isEqualTo(16);
            assertThat(reps.total()).as(msg).isLessThan(spray.total() * 6 / 10);
            assertThat(reps.afterFirstTimeout()).as(msg).isLessThan(spray.afterFirstTimeout() / 2);
        }
    }

    @Test
    void withLossRecoveryTimeoutsRepsFreezesOntoKnownGoodPathsAndStopsLosingPackets() {
        // REPS's ns-3 port: the first loss-recovery timeout freezes the queue pair onto its
        // buffer's entropies, which all came back, so the dead link sees almost nothing after it
        org.lbsim.scenario.ComponentSpec ns3 = new org.lbsim.scenario.ComponentSpec("host-pkt-ar",
                new Reps.Params(8, 100, 1, Reps.TIMEOUT_FROM_LOSS_RECOVERY, 10, 1 << 16));
        for (long seed = 1; seed <= 3; seed++) {
            Loss reps = underFailure(ns3, 512, seed);
            Loss spray = underFailure("host-spray", 512, seed);
            String msg = String.format("seed %d, a0-c0 failed, never converging, 16 x 512 packets: host-pkt-ar (loss-recovery) %s; host-spray %s",
                    seed, reps, spray);
            System.out.println("[reps] " + msg);
            assertThat(reps.result().flowsFinished()).as(msg).isEqualTo(16);
            assertThat(reps.firstTimeoutPs()).as(msg).isPositive();
            // host spraying keeps hashing a share of its resent symbols onto the dead link; frozen REPS only reuses entropies that came back
            assertThat(spray.afterFirstTimeout()).as(msg).isGreaterThan(100);
            assertThat(reps.afterFirstTimeout()).as(msg).isLessThanOrEqualTo(spray.afterFirstTimeout() / 20);
            assertThat(reps.total()).as(msg).isLessThan(spray.total());
        }
    }
}
