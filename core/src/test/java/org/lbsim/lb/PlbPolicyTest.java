package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.scenario.ScenarioException;

/**
 * PLB as Linux's tcp_plb.c runs it with DCTCP's rounds: a round is congested when at least K of its ACKs echo
 * ECN; N congested rounds in a row move the label, M do when nothing is in flight; a timeout moves it and holds
 * congestion-driven moves for 1x-2x the suspension.
 */
class PlbPolicyTest {
    private static final long ACK_GAP_PS = 1_000_000L;
    private static final PacketPool POOL = new PacketPool();

    /** Drives one queue pair's policy: sends, ACKs one microsecond apart, losses. */
    private static final class Driver {
        final Plb.Counters counters = new Plb.Counters();
        final Plb.Policy policy;
        long nowPs;

        Driver(Plb.Params params, long seed) {
            policy = new Plb.Policy(new SplittableRandom(seed), params, counters);
        }

        void send(int packets) {
            for (int i = 0; i < packets; i++) {
                policy.entropyFor(i, false);
            }
        }

        void ack(boolean marked) {
            Packet ack = POOL.acquire();
            ack.kind = Packet.ACK;
            ack.ecnEcho = marked;
            nowPs += ACK_GAP_PS;
            policy.onAck(ack, nowPs);
            POOL.release(ack);
        }

        /**
         * Fills the pipe with {@code acksPerRound + 1} packets and ends DCTCP's first round (its first ACK, clean):
         * from then on, with one send after every ACK, each round is exactly {@code acksPerRound} ACKs and
         * packets are always in flight.
         */
        void prime(int acksPerRound) {
            send(acksPerRound + 1);
            ack(false);
            send(1);
        }

        /** One round of a primed pipe: {@code acks} ACKs, the first {@code marked} echoing ECN, each followed by a send. */
        void steadyRound(int acks, int marked) {
            for (int i = 0; i < acks; i++) {
                ack(i < marked);
                send(1);
            }
        }

        long repaths() {
            return counters.forcedRepaths + counters.idleRepaths + counters.timeoutRepaths;
        }
    }

    private static Plb.Params params(double k, int n, int m, long suspendUs) {
        return new Plb.Params(k, n, m, suspendUs);
    }

    @Test
    void theLabelMovesAfterExactlyNCongestedRoundsWhilePacketsAreInFlight() {
        Driver d = new Driver(Plb.Params.defaults(), 1);
        d.prime(10);
        int first = d.policy.label();
        for (int r = 1; r < 12; r++) {
            d.steadyRound(10, 5); // 50 % marked = K: congested
            assertThat(d.policy.label()).as("after congested round %d of 12", r).isEqualTo(first);
        }
        d.steadyRound(10, 5);
        assertThat(d.counters.forcedRepaths).as("the 12th congested round").isEqualTo(1);
        assertThat(d.counters.idleRepaths).isZero();
        assertThat(d.policy.label()).isNotEqualTo(first);
        assertThat(d.counters.rounds).as("the first round of one ACK, then 12").isEqualTo(13);
        assertThat(d.counters.congestedRounds).isEqualTo(12);
    }

    @Test
    void aRoundEndsWhenThePacketsSentAtItsStartAreAcknowledgedAndNotBefore() {
        Driver d = new Driver(Plb.Params.defaults(), 5);
        d.prime(4);
        assertThat(d.counters.rounds).isEqualTo(1);
        d.steadyRound(3, 0);
        assertThat(d.counters.rounds).as("3 of the round's 4 ACKs").isEqualTo(1);
        d.steadyRound(1, 0);
        assertThat(d.counters.rounds).isEqualTo(2);
    }

    @Test
    void aShareJustBelowKIsACleanRoundThatStartsTheCountAgain() {
        Driver d = new Driver(Plb.Params.defaults(), 2);
        d.prime(10);
        int first = d.policy.label();
        for (int r = 0; r < 11; r++) {
            d.steadyRound(10, 5);
        }
        d.steadyRound(10, 4); // 40 % < 50 %
        for (int r = 0; r < 11; r++) {
            d.steadyRound(10, 5);
        }
        assertThat(d.repaths()).as("11 + clean + 11: never 12 in a row").isZero();
        assertThat(d.policy.label()).isEqualTo(first);
        assertThat(d.counters.congestedRounds).isEqualTo(22);
        d.steadyRound(10, 5);
        assertThat(d.counters.forcedRepaths).isEqualTo(1);
    }

    @Test
    void withNothingInFlightMCongestedRoundsAreEnough() {
        Driver d = new Driver(Plb.Params.defaults(), 3);
        int first = d.policy.label();
        // A burst of 8, all marked, acknowledged to the last: a round of its first ACK (7 still in flight), then one
        // of the other 7 ending with nothing in flight. Two bursts: congested rounds 1-4, the 3rd with 7 in flight.
        d.send(8);
        for (int i = 0; i < 8; i++) {
            d.ack(true);
        }
        assertThat(d.counters.congestedRounds).isEqualTo(2);
        d.send(8);
        d.ack(true);
        assertThat(d.counters.congestedRounds).isEqualTo(3);
        assertThat(d.policy.label()).as("3 congested rounds, but 7 packets in flight").isEqualTo(first);
        for (int i = 0; i < 7; i++) {
            d.ack(true);
        }
        assertThat(d.counters.idleRepaths).as("the 4th congested round ends with nothing in flight").isEqualTo(1);
        assertThat(d.counters.forcedRepaths).isZero();
        assertThat(d.policy.label()).isNotEqualTo(first);
    }

    @Test
    void idleRehashZeroMeansOnlyTheForcedMove() {
        Driver d = new Driver(params(0.5, 5, 0, 60_000_000L), 4);
        for (int burst = 0; burst < 2; burst++) {
            d.send(8);
            for (int i = 0; i < 8; i++) {
                d.ack(true);
            }
        }
        assertThat(d.counters.congestedRounds).isEqualTo(4);
        assertThat(d.repaths()).isZero();
        d.send(8);
        d.ack(true);
        assertThat(d.counters.forcedRepaths).as("the 5th congested round").isEqualTo(1);
    }

    @Test
    void sendingWithNothingInFlightChecksTooWhenNoRoundEndDid() {
        Driver d = new Driver(Plb.Params.defaults(), 8);
        d.send(2);
        d.ack(true); // DCTCP's first round: one ACK
        for (int r = 0; r < 2; r++) {
            d.send(1);
            d.ack(true); // a round per ACK, one packet always left in flight
        }
        assertThat(d.counters.congestedRounds).isEqualTo(3);
        int label = d.policy.label();
        assertThat(d.repaths()).as("3 congested rounds, each ending with a packet in flight").isZero();
        d.policy.onLoss(label ^ 1); // the packet in flight is given up, under a label already left: no timeout move
        assertThat(d.policy.label()).isEqualTo(label);
        d.send(1);
        assertThat(d.counters.idleRepaths).as("tcp_plb_check_rehash at the send with nothing in flight").isEqualTo(1);
        assertThat(d.policy.label()).isNotEqualTo(label);
    }

    @Test
    void aTimeoutMovesTheLabelAndHoldsCongestionMovesForBetweenOneAndTwoSuspensions() {
        long suspendUs = 1_000; // 250 rounds of 4 ACKs, one microsecond apart
        Driver d = new Driver(params(0.5, 2, 0, suspendUs), 6);
        d.prime(4);
        d.steadyRound(4, 0);
        int before = d.policy.label();
        long lossPs = d.nowPs; // the latest ACK's instant: where the pause starts
        d.policy.onLoss(before);
        int after = d.policy.label();
        assertThat(after).isNotEqualTo(before);
        assertThat(d.counters.timeoutRepaths).isEqualTo(1);
        d.policy.onLoss(before);
        assertThat(d.policy.label()).as("a second loss of the label already left").isEqualTo(after);
        assertThat(d.counters.timeoutRepaths).isEqualTo(1);
        d.send(2); // the two resent
        int rounds = 0;
        while (d.counters.forcedRepaths == 0) {
            d.steadyRound(4, 4);
            rounds++;
            assertThat(rounds).as("the pause ends within 2x the suspension").isLessThan(600);
        }
        assertThat(d.nowPs - lossPs).as("no congestion-driven move within 1x the suspension")
                .isGreaterThanOrEqualTo(suspendUs * 1_000_000L)
                .isLessThanOrEqualTo(2 * suspendUs * 1_000_000L + 4 * ACK_GAP_PS);
    }

    @Test
    void thePauseAfterATimeoutEndsAtExactlyTheLatestAckPlusTheSuspensionPlusItsRandomShare() {
        long seed = 11;
        long suspendPs = 1_000_000L; // 1 us
        SplittableRandom twin = new SplittableRandom(seed); // the policy's stream, replayed
        int label0 = twin.nextInt(1 << 16);
        Driver d = new Driver(params(0.5, 1, 0, 1), seed);
        assertThat(d.policy.entropyFor(0, false)).as("every packet carries the label").isEqualTo(label0);
        d.send(1);
        d.ack(false); // DCTCP's first round, clean; one packet left in flight
        long lastAckPs = d.nowPs;
        d.policy.onLoss(label0);
        int label1 = twin.nextInt(1 << 16);
        long pausedUntilPs = lastAckPs + suspendPs + twin.nextLong(suspendPs);
        assertThat(d.policy.label()).isEqualTo(label1);
        assertThat(d.policy.entropyFor(1, false)).isEqualTo(label1);

        d.nowPs = pausedUntilPs - 1 - ACK_GAP_PS;
        d.ack(true); // a congested round (N = 1) ending 1 ps before the pause does
        assertThat(d.counters.congestedRounds).isEqualTo(1);
        assertThat(d.policy.label()).as("still paused").isEqualTo(label1);
        d.send(1);
        d.nowPs = pausedUntilPs - ACK_GAP_PS;
        d.ack(true); // the next one ends at the pause's end
        assertThat(d.counters.forcedRepaths).isEqualTo(1);
        assertThat(d.policy.label()).isEqualTo(twin.nextInt(1 << 16));
    }

    @Test
    void withoutASuspensionATimeoutHoldsNothingBack() {
        Driver d = new Driver(params(0.5, 1, 0, 0), 12);
        d.send(2);
        d.ack(false);
        int before = d.policy.label();
        d.policy.onLoss(before);
        assertThat(d.counters.timeoutRepaths).isEqualTo(1);
        int after = d.policy.label();
        assertThat(after).isNotEqualTo(before);
        d.send(1);
        d.ack(true); // the next congested round, one microsecond later
        assertThat(d.counters.forcedRepaths).as("no pause: N = 1 congested round moves the label").isEqualTo(1);
        assertThat(d.policy.label()).isNotEqualTo(after);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void repathsHappenExactlyWhereAReferenceCountPredicts(long seed) {
        SplittableRandom script = new SplittableRandom(seed * 17 + 3);
        int n = 1 + script.nextInt(12);
        int m = script.nextInt(n + 1);
        double k = script.nextInt(11) / 10.0;
        double markProbability = script.nextDouble();
        Driver d = new Driver(params(k, n, m, 60_000_000L), seed);
        long sent = 0;
        long done = 0;
        long roundEnd = 0;
        int acks = 0;
        int marked = 0;
        int consecutive = 0;
        long forced = 0;
        long idle = 0;
        for (int step = 0; step < 20_000; step++) {
            int label = d.policy.label();
            boolean move = false;
            if (sent == done || script.nextInt(3) == 0) {
                if (sent == done && m > 0 && consecutive >= m) { // the check at a send after idle
                    consecutive = 0;
                    idle++;
                    move = true;
                }
                d.send(1);
                sent++;
            } else {
                boolean mark = script.nextDouble() < markProbability;
                d.ack(mark);
                done++;
                acks++;
                marked += mark ? 1 : 0;
                if (done >= roundEnd) {
                    consecutive = marked >= k * acks ? Math.min(consecutive + 1, n) : 0;
                    acks = 0;
                    marked = 0;
                    roundEnd = sent;
                    boolean force = consecutive >= n;
                    if (force || (m > 0 && sent == done && consecutive >= m)) {
                        forced += force ? 1 : 0;
                        idle += force ? 0 : 1;
                        consecutive = 0;
                        move = true;
                    }
                }
            }
            String what = String.format("seed %d (K %.1f, N %d, M %d), step %d", seed, k, n, m, step);
            assertThat(d.counters.forcedRepaths).as(what).isEqualTo(forced);
            assertThat(d.counters.idleRepaths).as(what).isEqualTo(idle);
            if (!move) {
                assertThat(d.policy.label()).as(what + ": no move").isEqualTo(label);
            }
        }
        assertThat(forced + idle).as("the script congests some rounds").isPositive();
    }

    @Test
    void theSchemeReportsWhatItsQueuePairsDidAddedOverThem() {
        Plb plb = new Plb(params(0.5, 12, 1, 0));
        org.lbsim.kernel.Simulator sim = new org.lbsim.kernel.Simulator();
        for (int qp = 0; qp < 2; qp++) {
            org.lbsim.spi.QpContext ctx = new org.lbsim.spi.QpContext(qp, qp, 4, 1 << 20, 256, 4096, 62, 20, 800_000, 8_000_000L, 800_000);
            Plb.Policy p = (Plb.Policy) plb.newEntropyPolicy(new org.lbsim.spi.HostContext(ctx, null, null, new SplittableRandom(qp), sim));
            p.entropyFor(0, false);
            Packet ack = POOL.acquire();
            ack.ecnEcho = true;
            p.onAck(ack, ACK_GAP_PS); // a congested round ending with nothing in flight: M = 1 moves the label
            POOL.release(ack);
            p.entropyFor(1, false);
            p.onLoss(p.label()); // a timeout moves it again
        }
        java.util.Map<String, Long> reported = new java.util.TreeMap<>();
        plb.reportCounters(new org.lbsim.spi.CounterSink() {
            @Override
            public void add(String name, long value) {
                reported.put(name, value);
            }

            @Override
            public void add(String name, double value) {
                throw new AssertionError(name);
            }
        });
        assertThat(reported).containsExactlyEntriesOf(new java.util.TreeMap<>(java.util.Map.of("plb.rounds", 2L, "plb.congestedRounds", 2L,
                "plb.forcedRepaths", 0L, "plb.idleRepaths", 2L, "plb.timeoutRepaths", 2L)));
    }

    @Test
    void parametersOutsideLinuxsRangesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> params(1.5, 12, 3, 1)).isInstanceOf(ScenarioException.class).hasMessageContaining("congestedShare");
        assertThatThrownBy(() -> params(0.5, 0, 3, 1)).isInstanceOf(ScenarioException.class).hasMessageContaining("rehashRounds");
        assertThatThrownBy(() -> params(0.5, 32, 3, 1)).isInstanceOf(ScenarioException.class).hasMessageContaining("rehashRounds");
        assertThatThrownBy(() -> params(0.5, 12, 32, 1)).isInstanceOf(ScenarioException.class).hasMessageContaining("idleRehashRounds");
        assertThatThrownBy(() -> params(0.5, 12, 3, 256_000_000L)).isInstanceOf(ScenarioException.class).hasMessageContaining("suspendAfterTimeoutUs");
    }

    @Test
    void onAFatTreeOnlyEcnMarksMoveFlows() {
        RunResult marking = Lbsim.scenario().fatTree(4).permutation(4 << 20).scheme("plb").set("loadBalancing.rehashRounds", 3)
                .set("switches.ecn.enabled", true).set("switches.ecn.kminBytes", 20_000).set("switches.ecn.kmaxBytes", 20_000).seed(3).run();
        RunResult unmarked = Lbsim.scenario().fatTree(4).permutation(4 << 20).scheme("plb").set("loadBalancing.rehashRounds", 3)
                .set("switches.ecn.enabled", false).seed(3).run();
        assertThat(marking.flowsFinished()).isEqualTo(16);
        assertThat(unmarked.flowsFinished()).isEqualTo(16);
        java.util.Map<String, Number> m = marking.schemeCounters();
        assertThat(m.get("plb.congestedRounds").longValue()).as("colliding flows see marked rounds").isPositive();
        assertThat(m.get("plb.forcedRepaths").longValue() + m.get("plb.idleRepaths").longValue()).as("and move").isPositive();
        java.util.Map<String, Number> u = unmarked.schemeCounters();
        assertThat(u.get("plb.rounds").longValue()).isPositive();
        assertThat(u.get("plb.congestedRounds").longValue()).as("no marks, no congested round").isZero();
        assertThat(u.get("plb.forcedRepaths").longValue() + u.get("plb.idleRepaths").longValue()).isZero();
    }
}
