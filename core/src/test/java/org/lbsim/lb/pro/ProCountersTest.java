package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A run's PRO counters are kept per partition and reported as their field-by-field sum. */
class ProCountersTest {
    private static ProCounters counters(long base) {
        ProCounters c = new ProCounters();
        c.nacks = base + 1;
        c.repeats = base + 2;
        c.timeouts = base + 3;
        c.senderTimeouts = base + 4;
        c.mprdmaRecoveries = base + 5;
        c.mprdmaBitmapStalls = base + 6;
        c.mprdmaSlowMarks = base + 7;
        c.mprdmaRepaths = base + 8;
        c.mprdmaBitmapDrops = base + 9;
        c.mprdmaEcnCuts = base + 10;
        c.mprdmaPrunedAcks = base + 11;
        return c;
    }

    @Test
    void theSumOfTwoPartitionsIsTheTotalOfEveryCounter() {
        ProCounters t = ProCounters.sum(List.of(counters(0), counters(100)));
        assertThat(new long[] {t.nacks, t.repeats, t.timeouts, t.senderTimeouts, t.mprdmaRecoveries, t.mprdmaBitmapStalls, t.mprdmaSlowMarks,
                t.mprdmaRepaths, t.mprdmaBitmapDrops, t.mprdmaEcnCuts, t.mprdmaPrunedAcks})
                .containsExactly(102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122);
    }
}
