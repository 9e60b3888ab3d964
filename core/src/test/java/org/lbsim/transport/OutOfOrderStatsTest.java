package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The out-of-order statistics on their own: each data arrival's degree (PSN minus the expected PSN)
 * lands in a log2 bucket and in an exact per-degree count, from which the quantiles are read; the
 * reorder buffers' occupancy is tracked per traffic class; a partitioned run's statistics add up.
 */
class OutOfOrderStatsTest {
    /** Arrivals of degree 0, 0, 1, 3, 4 and 5000 (beyond the exact range), holding 0, 0, 1, 2, 1 and 3 packets. */
    private static OutOfOrderStats sixArrivals() {
        OutOfOrderStats s = new OutOfOrderStats();
        s.record(0, 0);
        s.record(0, 0);
        s.record(1, 1);
        s.record(3, 2);
        s.record(4, 1);
        s.record(5000, 3);
        return s;
    }

    @Test
    void eachArrivalIsCountedInTheLog2BucketOfItsDegreeAndInOrderArrivalsInBucketZero() {
        OutOfOrderStats s = sixArrivals();
        long[] expected = new long[33];
        expected[0] = 2; // degree 0
        expected[1] = 1; // 1
        expected[2] = 1; // 3 in [2, 4)
        expected[3] = 1; // 4 in [4, 8)
        expected[13] = 1; // 5000 in [4096, 8192)
        assertThat(s.log2Histogram()).containsExactly(expected);
        assertThat(s.samples()).isEqualTo(6);
        assertThat(s.arrivals()).as("out-of-order arrivals").isEqualTo(4);
        assertThat(s.maxDegree()).isEqualTo(5000);
        assertThat(s.maxHeld()).isEqualTo(3);
        s.log2Histogram()[0] = 99;
        assertThat(s.log2Histogram()[0]).as("the histogram handed out is a copy").isEqualTo(2);
    }

    @Test
    void theQuantilesAreTheSmallestDegreeWhoseCumulativeCountReachesTheRank() {
        OutOfOrderStats s = sixArrivals();
        // all six arrivals, by degree: 0, 0, 1, 3, 4, 4096 (5000 shares the last exact slot)
        assertThat(s.degreeQuantile(0.25)).as("rank ceil(1.5) = 2").isZero();
        assertThat(s.degreeQuantile(0.34)).as("rank ceil(2.04) = 3").isEqualTo(1);
        assertThat(s.degreeQuantile(0.5)).as("rank 3, reached exactly at degree 1").isEqualTo(1);
        assertThat(s.degreeQuantile(0.6)).as("rank ceil(3.6) = 4").isEqualTo(3);
        assertThat(s.degreeQuantile(0.75)).as("rank ceil(4.5) = 5").isEqualTo(4);
        assertThat(s.degreeQuantile(1)).isEqualTo(OutOfOrderStats.EXACT_DEGREES - 1);
        // out-of-order arrivals only: 1, 3, 4, 4096
        assertThat(s.outOfOrderDegreeQuantile(0.25)).isEqualTo(1);
        assertThat(s.outOfOrderDegreeQuantile(0.5)).isEqualTo(3);
        assertThat(s.outOfOrderDegreeQuantile(0.75)).isEqualTo(4);
        assertThat(s.outOfOrderDegreeQuantile(1)).isEqualTo(OutOfOrderStats.EXACT_DEGREES - 1);
    }

    @Test
    void withoutArrivalsOrWithOnlyInOrderOnesTheQuantilesAreZero() {
        OutOfOrderStats s = new OutOfOrderStats();
        assertThat(s.degreeQuantile(0.5)).isZero();
        assertThat(s.outOfOrderDegreeQuantile(0.5)).isZero();
        s.record(0, 0);
        s.record(0, 0);
        assertThat(s.degreeQuantile(1)).isZero();
        assertThat(s.outOfOrderDegreeQuantile(0.5)).as("no out-of-order arrival").isZero();
        assertThat(s.outOfOrderDegreeQuantile(1)).isZero();
        assertThat(s.arrivals()).isZero();
        assertThat(s.maxDegree()).isZero();
    }

    @Test
    void heldPacketsAreTrackedInTotalAndPerTrafficClass() {
        OutOfOrderStats s = new OutOfOrderStats();
        s.held(2, 5);
        s.held(1, 0);
        s.held(3, 63);
        s.held(-1, 5);
        assertThat(s.heldNow()).isEqualTo(5);
        assertThat(s.heldNow(5)).isEqualTo(1);
        assertThat(s.heldNow(0)).isEqualTo(1);
        assertThat(s.heldNow(63)).isEqualTo(3);
        assertThat(s.heldNow(7)).isZero();
    }

    @Test
    void aPartitionsStatisticsAddToTheTotalsAsIfOneReceiverHadSeenEveryArrival() {
        OutOfOrderStats total = new OutOfOrderStats();
        total.record(2, 4);
        total.held(1, 3);
        OutOfOrderStats part = sixArrivals();
        part.held(2, 3);
        part.held(5, 63);
        total.add(part);

        long[] expected = new long[33];
        expected[0] = 2;
        expected[1] = 1;
        expected[2] = 2; // 2 and 3
        expected[3] = 1;
        expected[13] = 1;
        assertThat(total.log2Histogram()).containsExactly(expected);
        assertThat(total.samples()).isEqualTo(7);
        assertThat(total.arrivals()).isEqualTo(5);
        assertThat(total.maxDegree()).isEqualTo(5000);
        assertThat(total.maxHeld()).as("the larger of the two receivers' buffers, not their sum").isEqualTo(4);
        assertThat(total.heldNow()).isEqualTo(8);
        assertThat(total.heldNow(3)).isEqualTo(3);
        assertThat(total.heldNow(63)).isEqualTo(5);
        // degrees 0, 0, 1, 2, 3, 4, 4096: the exact counts were added too
        assertThat(total.degreeQuantile(0.55)).as("rank ceil(3.85) = 4").isEqualTo(2);
        assertThat(total.degreeQuantile(1)).isEqualTo(OutOfOrderStats.EXACT_DEGREES - 1);
        assertThat(total.outOfOrderDegreeQuantile(0.4)).as("rank 2 of 1, 2, 3, 4, 4096").isEqualTo(2);
    }
}
