package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Themis-D's rings at their edges: an empty ring, the ePSN itself in the ring, and the ring's unused entries. */
class PsnRingsTest {
    @Test
    void aNackOnAnEmptyRingIsUnmatchedAndLeavesTheRingAsItWas() {
        PsnRings rings = new PsnRings(4, true);
        int qp = rings.newSlot(2);
        rings.record(qp, 1);
        assertThat(rings.onNack(qp, 0)).isEqualTo(PsnRings.BLOCK);
        assertThat(rings.contents(qp)).isEmpty();
        assertThat(rings.onNack(qp, 3)).isEqualTo(PsnRings.UNMATCHED);
        rings.record(qp, 4);
        assertThat(rings.contents(qp)).containsExactly(4);
        assertThat(rings.unmatched()).isEqualTo(1);
    }

    @Test
    void theEpsnItselfAheadOfTheTpsnIsDequeuedAndNotTakenForTheTpsn() {
        PsnRings rings = new PsnRings(8, false);
        int qp = rings.newSlot(2);
        rings.record(qp, 2); // went down, but after the NIC had asked for it
        rings.record(qp, 3);
        assertThat(rings.onNack(qp, 2)).as("tPSN 3 took the other path").isEqualTo(PsnRings.BLOCK);
        assertThat(rings.contents(qp)).isEmpty();
    }

    @Test
    void onlyTheHeldEntriesClearTheBlockedEpsnNotTheRingsUnusedOnes() {
        PsnRings rings = new PsnRings(4, true);
        int qp = rings.newSlot(2);
        rings.record(qp, 1);
        rings.record(qp, 3);
        assertThat(rings.onNack(qp, 0)).isEqualTo(PsnRings.BLOCK);
        assertThat(rings.contents(qp)).containsExactly(3);
        assertThat(rings.valid(qp)).as("0 is nowhere in the ring (its unused entries read 0)").isTrue();
        assertThat(rings.compensate(qp, 2)).isTrue();
    }
}
