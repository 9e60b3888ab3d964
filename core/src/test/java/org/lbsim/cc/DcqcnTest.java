package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Time;

/**
 * The reaction point's timers, step by step, in HPCC's setting (the defaults): T_D 4 us, T_I 900 us,
 * alpha every 1 us with g = 1/256, one fast-recovery stage, AI 50 Mb/s, HAI 100 Mb/s, no target clamp.
 */
class DcqcnTest {
    private static final long LINE_MBPS = 100_000;
    private static final double G = 1.0 / 256;
    private static final long US = Time.us(1);

    private static Dcqcn dcqcn() {
        return new Dcqcn(Dcqcn.Params.defaults(), LINE_MBPS, 20);
    }

    @Test
    void withoutCongestionSignalsTheRateStaysAtLineRate() {
        Dcqcn cc = dcqcn();
        assertThat(cc.rateMbpsAt(Time.us(10_000))).isEqualTo(LINE_MBPS);
        assertThat(cc.earliestSendPs(Time.us(10_000), 0)).isLessThanOrEqualTo(Time.us(10_000));
        assertThat(cc.cuts()).isZero();
    }

    @Test
    void theFirstCutComesAtTheFirstDecreaseCheckWithAlphaDecayedSinceTheCnp() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        assertThat(cc.rateMbpsAt(4 * US - 1)).as("no cut before T_D").isEqualTo(LINE_MBPS);
        // alpha starts at 1 and decays at 1, 2, 3 and 4 us (no further CNP); the check at 4 us cuts
        double alpha = Math.pow(1 - G, 4);
        assertThat(cc.rateMbpsAt(4 * US)).isEqualTo((long) (LINE_MBPS * (1 - alpha / 2)));
        assertThat(cc.cuts()).isEqualTo(1);
    }

    @Test
    void aNackCutsTheRateLikeACnp() {
        Dcqcn byNack = dcqcn();
        Dcqcn byCnp = dcqcn();
        byNack.onNack(0);
        byCnp.onCnp(0);
        assertThat(byNack.rateMbpsAt(5 * US)).isEqualTo(byCnp.rateMbpsAt(5 * US)).isLessThan(LINE_MBPS);
        assertThat(byNack.signals()).isEqualTo(1);
    }

    @Test
    void withNacksNotCountedAsCongestionSignalsOnlyCnpsCut() {
        Dcqcn.Params d = Dcqcn.Params.defaults();
        Dcqcn cc = new Dcqcn(new Dcqcn.Params(d.rateIncreaseTimerUs(), d.rateDecreaseIntervalUs(), d.byteCounterBytes(),
                d.additiveIncreaseGbps(), d.hyperIncreaseGbps(), d.alphaGain(), d.alphaUpdateUs(), d.fastRecoveryStages(),
                d.minRateGbps(), d.cnpIntervalUs(), d.clampTargetRate(), false), LINE_MBPS, 20);
        cc.onNack(0);
        assertThat(cc.rateMbpsAt(100 * US)).isEqualTo(LINE_MBPS);
        cc.onCnp(100 * US);
        assertThat(cc.rateMbpsAt(105 * US)).isLessThan(LINE_MBPS);
    }

    @Test
    void severalSignalsWithinOneDecreaseIntervalCutOnce() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        cc.onNack(US / 2);
        cc.onCnp(2 * US);
        cc.onNack(3 * US);
        cc.rateMbpsAt(7 * US);
        assertThat(cc.cuts()).isEqualTo(1);
    }

    @Test
    void recoveryGoesFastRecoveryThenAdditiveThenHyperTowardsAnUnclampedTarget() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        double cut = LINE_MBPS * (1 - Math.pow(1 - G, 4) / 2);
        long t0 = 4 * US;
        assertThat(cc.rateMbpsAt(t0)).isEqualTo((long) cut);
        // the first cut happened in stage 0: the target stays at line rate (CLAMP_TARGET_RATE 0)
        double fast = (cut + LINE_MBPS) / 2;
        assertThat(cc.rateMbpsAt(t0 + Time.us(900) - 1)).isEqualTo((long) cut);
        assertThat(cc.rateMbpsAt(t0 + Time.us(900))).as("fast recovery: halfway to the target").isEqualTo((long) fast);
        double additive = (fast + LINE_MBPS) / 2; // target + 50 Mb/s, capped at line rate
        assertThat(cc.rateMbpsAt(t0 + Time.us(1800))).as("additive increase").isEqualTo((long) additive);
        assertThat(cc.rateMbpsAt(t0 + Time.us(2700))).as("hyper increase").isEqualTo((long) ((additive + LINE_MBPS) / 2));
    }

    @Test
    void withTheTargetClampedTheStagesAddNothingThenTheAdditiveStepThenTheHyperStep() {
        Dcqcn.Params d = Dcqcn.Params.defaults();
        Dcqcn cc = new Dcqcn(new Dcqcn.Params(d.rateIncreaseTimerUs(), d.rateDecreaseIntervalUs(), d.byteCounterBytes(),
                d.additiveIncreaseGbps(), d.hyperIncreaseGbps(), d.alphaGain(), d.alphaUpdateUs(), d.fastRecoveryStages(),
                d.minRateGbps(), d.cnpIntervalUs(), true, d.nackIsCongestionSignal()), LINE_MBPS, 20);
        cc.onCnp(0);
        double current = LINE_MBPS * (1 - Math.pow(1 - G, 4) / 2);
        double target = LINE_MBPS; // clamped at the cut to the rate before it: line rate
        long t0 = 4 * US;
        assertThat(cc.rateMbpsAt(t0)).isEqualTo((long) current);
        current = (target + current) / 2; // stage 1, fast recovery: halfway, the target unchanged
        assertThat(cc.rateMbpsAt(t0 + Time.us(900))).isEqualTo((long) current);
        cc.onCnp(t0 + Time.us(900)); // cut at the next check (908 us), target clamped to the rate then
        target = current;
        double alpha = (1 - G) * ((1 - G) * Math.pow(1 - G, 4 + 900 - 1) + G);
        alpha = alpha * Math.pow(1 - G, 3); // CNP seen at the 905 us update, then 906 .. 908 quiet
        long cutPs = t0 + Time.us(904);
        double cut = current * (1 - alpha / 2);
        assertThat((double) cc.rateMbpsAt(cutPs)).isCloseTo(cut, within(1.0));
        current = cut;
        current = (target + current) / 2; // fast recovery
        assertThat((double) cc.rateMbpsAt(cutPs + Time.us(900))).isCloseTo(current, within(1.0));
        target += 50; // additive: 50 Mb/s
        current = (target + current) / 2;
        assertThat((double) cc.rateMbpsAt(cutPs + Time.us(1800))).isCloseTo(current, within(1.0));
        target += 100; // hyper: 100 Mb/s
        current = (target + current) / 2;
        assertThat((double) cc.rateMbpsAt(cutPs + Time.us(2700))).isCloseTo(current, within(1.0));
        target += 100;
        current = (target + current) / 2;
        assertThat((double) cc.rateMbpsAt(cutPs + Time.us(3600))).isCloseTo(current, within(1.0));
    }

    @Test
    void aCutAfterRecoveryBeganClampsTheTargetToTheRateBeforeTheCut() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        long t0 = 4 * US;
        cc.rateMbpsAt(t0 + Time.us(900)); // one fast-recovery stage
        double before = cc.rateMbpsAt(t0 + Time.us(900) + US);
        cc.onCnp(t0 + Time.us(900) + US);
        long nextCheck = t0 + Time.us(900) + 4 * US; // decrease checks stay on their 4 us grid
        double afterCut = cc.rateMbpsAt(nextCheck);
        assertThat(afterCut).isLessThan(before);
        // the next fast-recovery stage moves halfway back to the rate before the cut, not to line rate
        double recovered = cc.rateMbpsAt(nextCheck + Time.us(900));
        assertThat(recovered).isCloseTo((afterCut + before) / 2, within(2.0));
    }

    @Test
    void alphaRisesWithEveryMicrosecondThatSawASignalAndDecaysOtherwise() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0); // first CNP: alpha = 1, this one is not counted
        for (int us = 1; us <= 3; us++) {
            cc.onCnp(us * US - US / 2);
        }
        cc.rateMbpsAt(3 * US);
        // updates at 1, 2, 3 us each saw a CNP: alpha = (1-g) alpha + g stays 1
        assertThat(cc.alpha()).isCloseTo(1.0, within(1e-12));
        cc.rateMbpsAt(103 * US);
        assertThat(cc.alpha()).isCloseTo(Math.pow(1 - G, 100), within(1e-12));
    }

    @Test
    void theRateNeverFallsBelowTheMinimum() {
        Dcqcn cc = dcqcn();
        for (int i = 0; i < 2_000; i++) {
            cc.onCnp(i * 4 * US);
        }
        assertThat(cc.rateMbpsAt(8_000 * US)).isEqualTo(100);
    }

    private static Dcqcn.Params withTimers(double alphaUpdateUs, double rateDecreaseIntervalUs) {
        Dcqcn.Params d = Dcqcn.Params.defaults();
        return new Dcqcn.Params(d.rateIncreaseTimerUs(), rateDecreaseIntervalUs, d.byteCounterBytes(), d.additiveIncreaseGbps(),
                d.hyperIncreaseGbps(), d.alphaGain(), alphaUpdateUs, d.fastRecoveryStages(), d.minRateGbps(), d.cnpIntervalUs(),
                d.clampTargetRate(), d.nackIsCongestionSignal());
    }

    /** Alpha after the first CNP at 0 and its quiet updates at 1, 2, 3 and 4 us, as the updates compute it. */
    private static double alphaAt4Us() {
        double alpha = 1.0;
        for (int i = 0; i < 4; i++) {
            alpha = (1 - G) * alpha;
        }
        return alpha;
    }

    @Test
    void aFrameSentAtTheInstantOfACutIsPacedAtTheCutRate() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        cc.onSent(1000, 4 * US); // nothing asked the rate since the CNP: the cut due at 4 us applies first
        long cut = (long) (LINE_MBPS * (1 - alphaAt4Us() / 2));
        assertThat(cc.rateMbps()).as("without a byte counter a frame starts no stage").isEqualTo(cut);
        assertThat(cc.earliestSendPs(4 * US, 1000)).isEqualTo(4 * US + Time.serializationPs(1000 + 20, cut));
    }

    @Test
    void aCnpAtTheInstantOfAnAlphaUpdateComesAfterThatUpdate() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        cc.onCnp(5 * US); // the cut at 4 us and the quiet update at 5 us are taken first, as each would have fired
        double alpha = alphaAt4Us() * (1 - G); // 5 us, quiet
        alpha = (1 - G) * alpha + G; // 6 us saw the CNP
        alpha = (1 - G) * alpha; // 7 us
        alpha = (1 - G) * alpha; // 8 us, then the check cuts
        double first = LINE_MBPS * (1 - alphaAt4Us() / 2);
        assertThat(cc.rateMbpsAt(8 * US)).isEqualTo((long) (first * (1 - alpha / 2)));
        assertThat(cc.cuts()).isEqualTo(2);
    }

    @Test
    void aCnpAtTheInstantOfADecreaseCheckWaitsForTheNextCheck() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        cc.onCnp(8 * US); // the checks at 4 us (a cut) and at 8 us (nothing since) fired before it
        long first = (long) (LINE_MBPS * (1 - alphaAt4Us() / 2));
        assertThat(cc.rateMbpsAt(8 * US)).isEqualTo(first);
        assertThat(cc.rateMbpsAt(12 * US - 1)).isEqualTo(first);
        assertThat(cc.cuts()).isEqualTo(1);
        assertThat(cc.rateMbpsAt(12 * US)).isLessThan(first);
        assertThat(cc.cuts()).isEqualTo(2);
    }

    @Test
    void withAnAlphaPeriodThatDoesNotDivideTheDecreaseIntervalACnpSeenByTheCutStillCountsAtTheNextAlphaUpdate() {
        // the DCQCN paper's alpha timer K = 55 us against a decrease interval of 50 us
        Dcqcn cc = new Dcqcn(withTimers(55, 50), LINE_MBPS, 20);
        cc.onCnp(0); // starts the timers: alpha updates at 55, 110 .. us, decrease checks at 50, 100 .. us
        cc.onCnp(Time.us(10));
        assertThat(cc.rateMbpsAt(Time.us(50))).as("cut with alpha still 1").isEqualTo(LINE_MBPS / 2);
        assertThat(cc.cuts()).isEqualTo(1);
        cc.rateMbpsAt(Time.us(55));
        assertThat(cc.alpha()).as("the update at 55 us saw the CNP of 10 us: (1 - g) + g").isEqualTo(1.0);
        assertThat(cc.rateMbpsAt(Time.us(100))).as("no CNP since the last check").isEqualTo(LINE_MBPS / 2);
        assertThat(cc.cuts()).isEqualTo(1);
        cc.rateMbpsAt(Time.us(110));
        assertThat(cc.alpha()).isEqualTo(1 - G);
    }

    /** The rate and target of one reaction point, one recovery stage at a time, computed as the stages compute them. */
    private static final class Recovery {
        double targetMbps;
        double currentMbps;

        Recovery(double targetMbps, double currentMbps) {
            this.targetMbps = targetMbps;
            this.currentMbps = currentMbps;
        }

        /** One stage: the target moves by {@code stepMbps} (0 in fast recovery), the rate halfway to it. */
        long stage(double stepMbps) {
            targetMbps = Math.min(LINE_MBPS, targetMbps + stepMbps);
            currentMbps = Math.min(LINE_MBPS, (targetMbps + currentMbps) / 2);
            return (long) currentMbps;
        }
    }

    private static void send(Dcqcn cc, int frames, long nowPs) {
        for (int i = 0; i < frames; i++) {
            cc.onSent(4158, nowPs);
        }
    }

    @Test
    void withTheByteCounterEveryBBytesSentIsAStageAdditiveOnceEitherCounterPassedFHyperOnceBothHave() {
        Dcqcn.Params d = Dcqcn.Params.defaults();
        // the DCQCN paper's F = 5 stages of fast recovery; B = ten 4158-byte frames so that stages come quickly
        Dcqcn cc = new Dcqcn(new Dcqcn.Params(d.rateIncreaseTimerUs(), d.rateDecreaseIntervalUs(), 10 * 4158L,
                d.additiveIncreaseGbps(), d.hyperIncreaseGbps(), d.alphaGain(), d.alphaUpdateUs(), 5,
                d.minRateGbps(), d.cnpIntervalUs(), d.clampTargetRate(), d.nackIsCongestionSignal()), LINE_MBPS, 20);
        double ai = d.additiveIncreaseGbps() * 1000;
        double hai = d.hyperIncreaseGbps() * 1000;
        cc.onCnp(0);
        Recovery r = new Recovery(LINE_MBPS, LINE_MBPS * (1 - alphaAt4Us() / 2));
        send(cc, 9, 4 * US);
        assertThat(cc.rateMbps()).as("9 frames after the cut at 4 us: no stage yet").isEqualTo((long) r.currentMbps);
        send(cc, 1, 4 * US);
        assertThat(cc.rateMbps()).as("the 10th completes byte stage 1: fast recovery").isEqualTo(r.stage(0));

        cc.onCnp(5 * US); // recovery had begun (a byte stage): the cut at 8 us clamps the target to the rate before it
        double alpha = alphaAt4Us() * (1 - G);
        alpha = (1 - G) * alpha + G;
        alpha = (1 - G) * alpha;
        alpha = (1 - G) * alpha;
        r = new Recovery(r.currentMbps, r.currentMbps * (1 - alpha / 2));
        for (int stage = 1; stage <= 4; stage++) {
            send(cc, 10, 8 * US);
            assertThat(cc.rateMbps()).as("byte stage %d: fast recovery", stage).isEqualTo(r.stage(0));
        }
        send(cc, 10, 8 * US);
        assertThat(cc.rateMbps()).as("byte stage 5: additive").isEqualTo(r.stage(ai));
        for (int stage = 1; stage <= 5; stage++) {
            assertThat(cc.rateMbpsAt(8 * US + stage * Time.us(900))).as("timer stage %d: additive, the byte counter passed F", stage)
                    .isEqualTo(r.stage(ai));
        }
        send(cc, 10, Time.us(5000));
        assertThat(cc.rateMbps()).as("byte stage 6: additive, the timer has completed F stages, not passed F").isEqualTo(r.stage(ai));
        assertThat(cc.rateMbpsAt(8 * US + 6 * Time.us(900))).as("timer stage 6: additive").isEqualTo(r.stage(ai));
        send(cc, 10, Time.us(5500));
        assertThat(cc.rateMbps()).as("byte stage 7: hyper, both counters passed F").isEqualTo(r.stage(hai));
    }

    @Test
    void recoveryReachesTheLineRateExactlyAndAQuietStretchThereChangesNothingBeforeTheNextCut() {
        Dcqcn cc = dcqcn();
        cc.onCnp(0);
        Recovery r = new Recovery(LINE_MBPS, LINE_MBPS * (1 - alphaAt4Us() / 2));
        int stages = 0;
        while (r.currentMbps < LINE_MBPS) {
            r.stage(0); // the target stays at line rate: every stage moves the rate halfway to it
            stages++;
        }
        long atLinePs = 4 * US + stages * Time.us(900);
        assertThat(stages).as("halving a gap of about 50 Gb/s down to below the last bit of 100 000").isBetween(40, 60);
        assertThat(cc.rateMbpsAt(atLinePs - 1)).isLessThan(LINE_MBPS);
        assertThat(cc.rateMbpsAt(atLinePs)).isEqualTo(LINE_MBPS);
        assertThat(cc.rateMbpsAt(Time.us(100_000))).isEqualTo(LINE_MBPS);
        assertThat(cc.rateMbpsAt(Time.us(100_000) + Time.us(450))).isEqualTo(LINE_MBPS);
        cc.onCnp(Time.us(200_000));
        // alpha decayed quietly at every microsecond from 5 us to 200 ms; the CNP is seen at the next update
        double alpha = alphaAt4Us() * Math.pow(1 - G, Time.us(200_000) / US - 4);
        alpha = (1 - G) * alpha + G;
        for (int i = 0; i < 3; i++) {
            alpha = (1 - G) * alpha;
        }
        long cutPs = Time.us(200_000) + 4 * US;
        assertThat(cc.rateMbpsAt(cutPs - 1)).isEqualTo(LINE_MBPS);
        double cut = LINE_MBPS * (1 - alpha / 2);
        assertThat(cc.rateMbpsAt(cutPs)).isEqualTo((long) cut);
        assertThat(cc.cuts()).isEqualTo(2);
        // the target was clamped to the line rate: the first stage moves halfway back to it
        assertThat(cc.rateMbpsAt(cutPs + Time.us(900))).isEqualTo((long) ((LINE_MBPS + cut) / 2));
    }

    /** Timers are lazy: how often the rate is looked at must not change it, not even in the last bit. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void theResultDoesNotDependOnHowOftenTheRateIsRead(long seed) {
        Random rnd = new Random(seed);
        Dcqcn often = dcqcn();
        Dcqcn rarely = dcqcn();
        long t = 0;
        for (int i = 0; i < 300; i++) {
            t += (long) (rnd.nextDouble() * (rnd.nextBoolean() ? 3 * US : 3_000 * US));
            for (long probe = t - 100 * US; probe < t; probe += 7 * US) {
                if (probe > 0) {
                    often.rateMbpsAt(probe);
                }
            }
            often.onNack(t);
            rarely.onNack(t);
            assertThat(often.rateMbpsAt(t + 1)).isEqualTo(rarely.rateMbpsAt(t + 1));
            assertThat(often.alpha()).isEqualTo(rarely.alpha());
        }
    }
}
