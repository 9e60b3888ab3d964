package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HOST FLOWLET AR (OFAN 3.2 (3), after PLB): the queue pair's label changes only at the end of a
 * window of alpha ACKs of its current label, and only when more than beta of them echoed ECN.
 */
class HostFlowletArPolicyTest {

    private static int label(HostFlowletAr.Policy p) {
        return p.entropyFor(0, false);
    }

    @Test
    void theLabelChangesAtTheEndOfAWindowWithMoreThanBetaMarkedAndNotBefore() {
        HostFlowletAr.Policy p = new HostFlowletAr.Policy(new SplittableRandom(1), 10, 0.4);
        int first = label(p);
        for (int i = 0; i < 9; i++) {
            p.onAck(first, i < 5); // 5 of the first 9 marked: already above 40%, but the window is not over
            assertThat(label(p)).as("after ACK %d of a window of 10", i + 1).isEqualTo(first);
        }
        p.onAck(first, false);
        assertThat(p.changes()).as("5 of 10 marked > 40%").isEqualTo(1);
        assertThat(label(p)).isNotEqualTo(first);
    }

    @Test
    void exactlyBetaMarkedIsNotEnough() {
        HostFlowletAr.Policy p = new HostFlowletAr.Policy(new SplittableRandom(2), 10, 0.4);
        int first = label(p);
        for (int i = 0; i < 10; i++) {
            p.onAck(first, i < 4);
        }
        assertThat(p.changes()).as("4 of 10 marked = 40%, not more").isZero();
        assertThat(label(p)).isEqualTo(first);
    }

    @Test
    void withoutMarksTheLabelNeverChanges() {
        HostFlowletAr.Policy p = new HostFlowletAr.Policy(new SplittableRandom(3), 7, 0.0);
        int first = label(p);
        for (int i = 0; i < 100_000; i++) {
            p.onAck(first, false);
        }
        assertThat(p.changes()).isZero();
        assertThat(label(p)).isEqualTo(first);
    }

    @Test
    void acksOfAnEarlierLabelDoNotCountAndOnlyTheLossOfTheCurrentLabelMovesIt() {
        HostFlowletAr.Policy p = new HostFlowletAr.Policy(new SplittableRandom(4), 4, 0.4);
        int first = label(p);
        for (int i = 0; i < 4; i++) {
            p.onAck(first, true);
        }
        int second = label(p);
        assertThat(second).isNotEqualTo(first);
        for (int i = 0; i < 100; i++) {
            p.onAck(first, true); // late feedback about the label already left
        }
        assertThat(label(p)).isEqualTo(second);
        p.onLoss(first);
        assertThat(label(p)).as("loss of an old label").isEqualTo(second);
        p.onLoss(second);
        assertThat(label(p)).as("loss of the current label").isNotEqualTo(second);
        assertThat(p.changes()).isEqualTo(2);
    }

    /** ACKs of the current label, all echoing ECN, until the label first changes. */
    private static int acksUntilTheFirstChange(HostFlowletAr.Params params, long baseRttPs) {
        org.lbsim.spi.QpContext qp = new org.lbsim.spi.QpContext(0, 0, 4, 1 << 20, 256, 4096, 62, 20, 800_000, baseRttPs, 800_000);
        HostFlowletAr.Policy p = (HostFlowletAr.Policy) new HostFlowletAr(params)
                .newEntropyPolicy(new org.lbsim.spi.HostContext(qp, null, null, new SplittableRandom(5), null));
        int current = label(p);
        for (int n = 1; n <= 100_000; n++) {
            p.onAck(current, true);
            if (p.changes() > 0) {
                return n;
            }
        }
        throw new AssertionError("the label never changed");
    }

    @Test
    void alphaZeroMeansAWindowOfOneBandwidthDelayProductOfFrames() {
        // 800 Gb/s x 8 us = 800,000 bytes; a frame is 4096 + 62 + 20 = 4178 bytes: 191 whole frames
        assertThat(acksUntilTheFirstChange(new HostFlowletAr.Params(0, 0.4), 8_000_000L)).isEqualTo(191);
        assertThat(acksUntilTheFirstChange(new HostFlowletAr.Params(5, 0.4), 8_000_000L)).as("alpha given").isEqualTo(5);
        assertThat(acksUntilTheFirstChange(new HostFlowletAr.Params(0, 0.4), 1_000L)).as("a BDP below one frame: one ACK").isEqualTo(1);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void changesHappenExactlyAtTheWindowEndsAReferenceCountPredicts(long seed) {
        SplittableRandom script = new SplittableRandom(seed * 31 + 7);
        int alpha = 1 + script.nextInt(40);
        double beta = script.nextInt(11) / 10.0;
        double markProbability = script.nextDouble();
        HostFlowletAr.Policy p = new HostFlowletAr.Policy(new SplittableRandom(seed), alpha, beta);
        int acks = 0;
        int marked = 0;
        long expectedChanges = 0;
        int windowsWithMarks = 0;
        for (int i = 0; i < 20_000; i++) {
            int current = label(p);
            boolean stale = script.nextInt(10) == 0;
            boolean mark = script.nextDouble() < markProbability;
            p.onAck(stale ? current ^ 0x10000 : current, mark); // a label the policy never uses stands for a stale one
            boolean change = false;
            if (!stale) {
                acks++;
                marked += mark ? 1 : 0;
                if (acks == alpha) {
                    change = marked > beta * acks;
                    windowsWithMarks += marked > 0 ? 1 : 0;
                    acks = 0;
                    marked = 0;
                }
            }
            expectedChanges += change ? 1 : 0;
            if (p.changes() != expectedChanges || (!change && label(p) != current)) {
                String what = String.format("seed %d (alpha %d, beta %.1f, marks %.2f), ACK %d", seed, alpha, beta, markProbability, i);
                assertThat(p.changes()).as(what).isEqualTo(expectedChanges);
                assertThat(label(p)).as(what + ": label moved outside a window end").isEqualTo(current);
            }
        }
        System.out.printf("[flowlet] seed %d: alpha %d, beta %.1f, mark probability %.2f: %d label changes over %d windows with marks%n", seed,
                alpha, beta, markProbability, expectedChanges, windowsWithMarks);
    }
}
