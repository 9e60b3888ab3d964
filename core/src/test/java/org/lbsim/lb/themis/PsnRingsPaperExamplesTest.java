package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Themis-S and Themis-D on the paper's own examples, packet for packet (Fig. 2, Fig. 4b, Fig. 4c, Eq. 1, section 4). */
class PsnRingsPaperExamplesTest {
    private static final boolean LITERAL = false;
    private static final boolean RING_CLEARS = true;

    @Test
    void fig4bNackFor2FindsTpsn3AndIsBlockedThenNackFor4FindsTpsn6AndIsForwarded() {
        PsnRings rings = new PsnRings(16, LITERAL);
        int qp = rings.newSlot(2); // Fig. 4a: two paths
        for (int psn : new int[] {0, 1, 3, 2}) {
            rings.record(qp, psn); // enqueued before they leave the ToR, in this order
        }
        assertThat(rings.onNack(qp, 2)).as("tPSN 3: 3 mod 2 != 2 mod 2").isEqualTo(PsnRings.BLOCK);
        assertThat(rings.contents(qp)).as("0, 1 and the tPSN 3 dequeued").containsExactly(2);
        assertThat(rings.valid(qp)).isTrue();
        assertThat(rings.blockedEpsn(qp)).isEqualTo(2);
        rings.record(qp, 6); // 4 lost on path 0, 5 late on path 1, 6 arrives
        assertThat(rings.onNack(qp, 4)).as("tPSN 6: 6 mod 2 == 4 mod 2").isEqualTo(PsnRings.FORWARD);
        assertThat(rings.contents(qp)).isEmpty();
    }

    @Test
    void fig4cBlockedEpsn2IsCompensatedByTheToRWhenPsn4Arrives() {
        PsnRings rings = new PsnRings(16, RING_CLEARS);
        int qp = rings.newSlot(2);
        for (int psn : new int[] {0, 1, 3}) {
            rings.record(qp, psn); // 2 is lost
        }
        assertThat(rings.onNack(qp, 2)).isEqualTo(PsnRings.BLOCK);
        assertThat(rings.valid(qp)).as("BePSN 2, Valid").isTrue();
        assertThat(rings.compensate(qp, 5)).as("5 took the other path: proves nothing").isFalse();
        assertThat(rings.compensate(qp, 4)).as("4 mod 2 == 2 mod 2: the ToR sends the NACK for 2").isTrue();
        assertThat(rings.valid(qp)).isFalse();
        assertThat(rings.compensate(qp, 6)).as("one NACK per BePSN").isFalse();
    }

    @Test
    void theBlockedEpsnArrivingClearsValidWithoutCompensation() {
        PsnRings rings = new PsnRings(16, RING_CLEARS);
        int qp = rings.newSlot(2);
        rings.record(qp, 1);
        assertThat(rings.onNack(qp, 0)).isEqualTo(PsnRings.BLOCK);
        assertThat(rings.compensate(qp, 0)).isFalse();
        assertThat(rings.valid(qp)).isFalse();
        assertThat(rings.compensate(qp, 2)).as("0 was not lost").isFalse();
    }

    @Test
    void fig2OooPacketOnTheExpectedPacketsPathMakesAValidNackOneOnAnotherPathAnInvalidOne() {
        PsnRings valid = new PsnRings(16, RING_CLEARS);
        int a = valid.newSlot(2);
        valid.record(a, 2); // ePSN 0, PSN 2 arrives: same path as 0
        assertThat(valid.onNack(a, 0)).isEqualTo(PsnRings.FORWARD);

        PsnRings invalid = new PsnRings(16, RING_CLEARS);
        int b = invalid.newSlot(2);
        invalid.record(b, 1); // ePSN 0, PSN 1 arrives: the other path
        assertThat(invalid.onNack(b, 0)).isEqualTo(PsnRings.BLOCK);
    }

    @Test
    void aBePsnThatOvertookTheNackOnTheLastHopIsNotCompensatedUnlessTheLiteralOrderIsAsked() {
        for (boolean ringClears : new boolean[] {true, false}) {
            PsnRings rings = new PsnRings(16, ringClears);
            int qp = rings.newSlot(2);
            for (int psn : new int[] {0, 1, 3, 2}) {
                rings.record(qp, psn); // 2 went down right behind the tPSN 3, before the NACK for 2 came up
            }
            assertThat(rings.onNack(qp, 2)).isEqualTo(PsnRings.BLOCK);
            assertThat(rings.compensate(qp, 4)).as("ringClearsBlocked = " + ringClears).isEqualTo(!ringClears);
        }
    }

    @Test
    void aNackWhoseRingHoldsNoLargerPsnIsForwardedAsUnmatched() {
        PsnRings rings = new PsnRings(4, RING_CLEARS);
        int qp = rings.newSlot(4);
        rings.record(qp, 0);
        rings.record(qp, 1);
        assertThat(rings.onNack(qp, 5)).isEqualTo(PsnRings.UNMATCHED);
        assertThat(rings.unmatched()).isEqualTo(1);
    }

    @Test
    void aFullRingOverwritesItsOldestEntryAndKeepsTheLatestCapacityPsns() {
        PsnRings rings = new PsnRings(3, RING_CLEARS);
        int qp = rings.newSlot(2);
        int other = rings.newSlot(2);
        for (int psn = 0; psn < 5; psn++) {
            rings.record(qp, psn);
        }
        rings.record(other, 9);
        assertThat(rings.contents(qp)).containsExactly(2, 3, 4);
        assertThat(rings.contents(other)).containsExactly(9);
        assertThat(rings.overwrites()).isEqualTo(2);
        assertThat(rings.highWater()).isEqualTo(3);
    }

    @Test
    void slotsGrowWithoutDisturbingEarlierRings() {
        PsnRings rings = new PsnRings(5, RING_CLEARS);
        for (int q = 0; q < 100; q++) {
            assertThat(rings.newSlot(1 + q % 7)).isEqualTo(q);
            rings.record(q, q);
            rings.record(q, q + 1000);
        }
        for (int q = 0; q < 100; q++) {
            assertThat(rings.contents(q)).containsExactly(q, q + 1000);
            assertThat(rings.paths(q)).isEqualTo(1 + q % 7);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void eq1VisitsAllNPathsInNConsecutivePsns(long seed) {
        Random rng = new Random(seed);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + rng.nextInt(256);
            int base = rng.nextInt(n);
            int start = rng.nextInt(1 << 24);
            Set<Integer> paths = new HashSet<>();
            for (int psn = start; psn < start + n; psn++) {
                int path = ThemisTor.path(psn, base, n);
                assertThat(path).isBetween(0, n - 1);
                paths.add(path);
            }
            assertThat(paths).as("N = %d, P_base = %d, from PSN %d", n, base, start).hasSize(n);
            assertThat(ThemisTor.path(start, base, n)).isEqualTo(ThemisTor.path(start + n, base, n));
        }
    }

    @Test
    void section4MemoryExampleIs193KbAndTable1GivesAHundredEntries() {
        assertThat(Themis.Params.defaults().entries(400_000, 1500)).isEqualTo(100);
        assertThat(Themis.paperExampleBytes()).isEqualTo(256 * 2 + (20 + 100) * 100 * 16).isEqualTo(192_512);
        assertThat(Themis.summary()).contains("193 KB");
    }
}
