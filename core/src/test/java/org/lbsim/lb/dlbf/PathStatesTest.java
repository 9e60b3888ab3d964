package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DLBF III-B: Algorithm 1's priority order in each case, state expiry, and III-C's one-way-delay gap. */
class PathStatesTest {
    private static final long AVAIL = 50_000_000;
    private static final long UNAVAIL = 100_000_000;

    private static PathStates paths(int n) {
        return new PathStates(1000, n, AVAIL, UNAVAIL);
    }

    /** Which paths a selection returns over many draws. */
    private static Set<Integer> choices(PathStates p, int old, long now) {
        Set<Integer> seen = new HashSet<>();
        SplittableRandom rng = new SplittableRandom(7);
        for (int i = 0; i < 400; i++) {
            seen.add(p.select(old, now, rng));
        }
        return seen;
    }

    @Test
    void reusesTheOldPathWhenItIsAvailable() {
        PathStates p = paths(4);
        p.onEcho(2, false, 0);
        p.onEcho(1, false, 0);
        assertEquals(Set.of(2), choices(p, 2, 10)); // lines 1-2, although another path is available too
    }

    @Test
    void reusesTheOldPathWhenItIsUnprobed() {
        PathStates p = paths(4);
        p.onEcho(1, false, 0);
        assertEquals(Set.of(3), choices(p, 3, 10)); // not unavailable is enough, even with an available path around
    }

    @Test
    void leavesAnUnavailableOldPathForARandomAvailableOne() {
        PathStates p = paths(6);
        p.onEcho(0, true, 0);
        p.onEcho(2, false, 0);
        p.onEcho(4, false, 0);
        assertEquals(Set.of(2, 4), choices(p, 0, 10)); // lines 3-4: available before the unprobed 1, 3, 5
    }

    @Test
    void exploresARandomUnprobedPathWhenNoneIsAvailable() {
        PathStates p = paths(5);
        p.onEcho(0, true, 0);
        p.onEcho(3, true, 0);
        assertEquals(Set.of(1, 2, 4), choices(p, 0, 10)); // lines 5-6, never the unavailable 3
    }

    @Test
    void fallsBackToTheOldPathWhenEveryPathIsUnavailable() {
        PathStates p = paths(3);
        for (int i = 0; i < 3; i++) {
            p.onEcho(i, true, 0);
        }
        assertEquals(Set.of(1), choices(p, 1, 10)); // lines 7-8
        assertEquals(PathStates.FALLBACK, p.lastChoice());
        assertEquals(Set.of(0), choices(p, 0, 10), "path 0 is an old path like any other");
    }

    @Test
    void aNewFlowTakesAnAvailablePathFirstThenAnUnprobedOne() {
        PathStates p = paths(4);
        assertEquals(Set.of(0, 1, 2, 3), choices(p, -1, 0)); // all unprobed: any
        p.onEcho(2, false, 0);
        assertEquals(Set.of(2), choices(p, -1, 10));
        p.onEcho(2, true, 20);
        p.onEcho(0, true, 20);
        assertEquals(Set.of(1, 3), choices(p, -1, 30));
    }

    @Test
    void availableExpiresToUnprobedAfterTAvailAndAFreshAckRenewsIt() {
        PathStates p = paths(2);
        p.onEcho(0, false, 1000);
        assertEquals(PathStates.AVAILABLE, p.state(0, 1000 + AVAIL - 1));
        assertEquals(PathStates.UNPROBED, p.state(0, 1000 + AVAIL));
        p.onEcho(1, false, 0);
        p.onEcho(1, false, AVAIL - 10); // renewed
        assertEquals(PathStates.AVAILABLE, p.state(1, 2 * AVAIL - 11));
        assertEquals(PathStates.UNPROBED, p.state(1, 2 * AVAIL - 10));
    }

    @Test
    void unavailableExpiresAfterTUnavailAndUnmarkedAcksDoNotClearItEarlier() {
        PathStates p = paths(2);
        p.onEcho(0, true, 5000);
        p.onEcho(0, false, 6000); // a late unmarked ACK: still unavailable
        assertEquals(PathStates.UNAVAILABLE, p.state(0, 5000 + UNAVAIL - 1));
        assertEquals(PathStates.UNPROBED, p.state(0, 5000 + UNAVAIL));
        p.onEcho(0, false, 5000 + UNAVAIL + 1); // after expiry an unmarked ACK makes it available
        assertEquals(PathStates.AVAILABLE, p.state(0, 5000 + UNAVAIL + 2));
        // an expired unavailable old path is no longer avoided: Algorithm 1 reuses it
        assertEquals(Set.of(0), choices(p, 0, 5000 + UNAVAIL + 2));
    }

    @Test
    void portsMapBackToTheirPathAndForeignPortsToNone() {
        PathStates p = new PathStates(65534, 4, AVAIL, UNAVAIL);
        assertEquals(65534, p.port(0));
        assertEquals(1, p.port(3)); // wraps around the 16-bit port space
        for (int i = 0; i < 4; i++) {
            assertEquals(i, p.indexOf(p.port(i)));
        }
        assertEquals(-1, p.indexOf(2));
        assertEquals(-1, p.indexOf(65533));
    }

    /** III-C: one-way delays read on two unsynchronised clocks carry the pair's offset; Delta (Eq. 1) does not. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void deltaIsUnaffectedByAConstantClockOffset(long seed) {
        Random r = new Random(seed);
        long owdOld = 1_000_000 + r.nextInt(20_000_000);
        long owdNew = 1_000_000 + r.nextInt(20_000_000);
        long offset = r.nextLong() >> 20; // up to ~ +-2^43 ps, either sign
        PathStates synced = paths(2);
        PathStates skewed = paths(2);
        long t1 = r.nextInt(1_000_000_000);
        synced.recordOwd(0, t1, t1 + owdOld);
        synced.recordOwd(1, t1 + 5, t1 + 5 + owdNew);
        skewed.recordOwd(0, t1, t1 + owdOld + offset); // the receiver's clock reads t2 + offset
        skewed.recordOwd(1, t1 + 5, t1 + 5 + owdNew + offset);
        assertEquals(owdOld - owdNew, synced.deltaPs(0, 1));
        assertEquals(synced.deltaPs(0, 1), skewed.deltaPs(0, 1));
        assertEquals(synced.deltaPs(1, 0), skewed.deltaPs(1, 0));
        assertTrue(skewed.owdPs(0) != synced.owdPs(0) || offset == 0);
    }

    @Test
    void anUnmeasuredNewPathIsTakenAtTheLowestDelayMeasured() {
        PathStates p = paths(3);
        assertEquals(3, p.size());
        p.recordOwd(0, 0, 9_000);
        p.recordOwd(1, 0, 4_000);
        assertTrue(p.hasOwd(0));
        assertFalse(p.hasOwd(2));
        assertEquals(5_000, p.deltaPs(0, 2));
        assertEquals(0, p.deltaPs(2, 0)); // an unmeasured old path gives no gap
    }
}
