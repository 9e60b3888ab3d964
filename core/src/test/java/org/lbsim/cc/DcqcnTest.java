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
