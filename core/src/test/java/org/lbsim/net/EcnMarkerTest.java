package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * RED-style marking on the queue a packet finds: never at or below kmin, always above kmax, and in
 * between with probability pmax x (queue - kmin) / (kmax - kmin), drawn from the port's own stream.
 * Only that band draws a number, so a port's later decisions do not depend on how often it was empty.
 */
class EcnMarkerTest {
    private static final long KMIN = 10_000;
    private static final long KMAX = 50_000;

    @Test
    void offNeverMarksAndDrawsNothing() {
        EcnMarker off = EcnMarker.off();
        SplittableRandom rng = new SplittableRandom(7);
        SplittableRandom twin = new SplittableRandom(7);
        for (long q : new long[] {0, 1, 4158, 1_000_000, Long.MAX_VALUE / 2}) {
            assertThat(off.shouldMark(q, rng)).as("queue %d", q).isFalse();
        }
        assertThat(rng.nextLong()).as("no draw").isEqualTo(twin.nextLong());
    }

    @Test
    void disabledMarkerIgnoresItsThresholds() {
        EcnMarker disabled = new EcnMarker(false, KMIN, KMAX, 1.0);
        SplittableRandom rng = new SplittableRandom(7);
        assertThat(disabled.shouldMark(KMAX + 1, rng)).isFalse();
        assertThat(disabled.shouldMark((KMIN + KMAX) / 2, rng)).isFalse();
        assertThat(rng.nextLong()).isEqualTo(new SplittableRandom(7).nextLong());
    }

    @Test
    void atOrBelowKminNothingIsMarkedAndNoNumberIsDrawn() {
        EcnMarker m = new EcnMarker(true, KMIN, KMAX, 1.0);
        SplittableRandom rng = new SplittableRandom(3);
        for (long q : new long[] {0, 1, KMIN - 1, KMIN}) {
            assertThat(m.shouldMark(q, rng)).as("queue %d", q).isFalse();
        }
        assertThat(rng.nextLong()).as("the stream did not move").isEqualTo(new SplittableRandom(3).nextLong());
    }

    @Test
    void aboveKmaxEveryPacketIsMarkedWithoutADraw() {
        // pmax 0.01: were these queues in the linear band, almost none would be marked
        EcnMarker m = new EcnMarker(true, KMIN, KMAX, 0.01);
        SplittableRandom rng = new SplittableRandom(5);
        for (long q : new long[] {KMAX + 1, KMAX + 4158, 10 * KMAX}) {
            assertThat(m.shouldMark(q, rng)).as("queue %d", q).isTrue();
        }
        assertThat(rng.nextLong()).as("the stream did not move").isEqualTo(new SplittableRandom(5).nextLong());
    }

    @Test
    void atKmaxItselfTheProbabilityIsPmaxNotCertainty() {
        // q = kmax: p = 0.2 x 40,000 / 40,000 = 0.2; of 20,000 packets about 4,000 are marked
        EcnMarker m = new EcnMarker(true, KMIN, KMAX, 0.2);
        SplittableRandom rng = new SplittableRandom(11);
        int marked = 0;
        for (int i = 0; i < 20_000; i++) {
            marked += m.shouldMark(KMAX, rng) ? 1 : 0;
        }
        assertThat(marked).isBetween(3_700, 4_300);
    }

    @Test
    void betweenKminAndKmaxEachDecisionIsOneDrawAgainstTheLinearProbability() {
        // p(q) = 0.2 x (q - 10,000) / 40,000: 0.005 at 11,000, 0.1 at 30,000, 0.195 at 49,000; the marker's decision is
        // exactly "the stream's next double < p(q)", one draw per decision
        double pmax = 0.2;
        EcnMarker m = new EcnMarker(true, KMIN, KMAX, pmax);
        SplittableRandom rng = new SplittableRandom(2024);
        SplittableRandom twin = new SplittableRandom(2024);
        long[] queues = {KMIN + 1, 11_000, 20_000, 30_000, 40_000, 49_000, KMAX};
        int marked = 0;
        for (int i = 0; i < 70_000; i++) {
            long q = queues[i % queues.length];
            double p = pmax * (q - KMIN) / (double) (KMAX - KMIN);
            boolean expected = twin.nextDouble() < p;
            boolean got = m.shouldMark(q, rng);
            assertThat(got).as("decision %d at queue %d", i, q).isEqualTo(expected);
            marked += got ? 1 : 0;
        }
        // mean p over the seven queues = 0.2 x (0.000025 + 0.025 + 0.25 + 0.5 + 0.75 + 0.975 + 1) / 7 = 0.1: about 7,000 marks
        assertThat(marked).isBetween(6_750, 7_250);
    }

    @Test
    void theProbabilityGrowsLinearlyFromKminToPmaxAtKmax() {
        // 40,000 packets at each queue: p = 0.05 at 20,000 (2,000 marks) and 0.15 at 40,000 (6,000 marks)
        EcnMarker m = new EcnMarker(true, KMIN, KMAX, 0.2);
        SplittableRandom rng = new SplittableRandom(99);
        int quarter = 0;
        int threeQuarters = 0;
        for (int i = 0; i < 40_000; i++) {
            quarter += m.shouldMark(20_000, rng) ? 1 : 0;
            threeQuarters += m.shouldMark(40_000, rng) ? 1 : 0;
        }
        assertThat(quarter).isBetween(1_800, 2_200);
        assertThat(threeQuarters).isBetween(5_700, 6_300);
    }

    @Test
    void stepMarkingWithKminEqualToKmaxMarksExactlyTheQueuesAboveK() {
        long k = 200_000;
        EcnMarker step = new EcnMarker(true, k, k, 1.0);
        SplittableRandom rng = new SplittableRandom(1);
        assertThat(step.shouldMark(k, rng)).isFalse();
        assertThat(step.shouldMark(k + 1, rng)).isTrue();
        assertThat(rng.nextLong()).isEqualTo(new SplittableRandom(1).nextLong());
    }
}
