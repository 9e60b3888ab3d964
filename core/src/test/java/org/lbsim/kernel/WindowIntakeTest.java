package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A window's intake, read beside the heap as the partitioned kernel reads them, gives exactly the
 * order of (time, creation time, creator sequence) that the heap alone gives: windows of
 * arrivals with many equal times and equal creation times, local events pushed while the window runs,
 * what lies beyond the window's end carried over in the heap, and windows too wide to pack.
 */
class WindowIntakeTest {
    private static final Comparator<long[]> KEY = Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]).thenComparingLong(e -> e[2]);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void runsEveryEventInKeyOrderAcrossWindows(long seed) {
        Random rng = new Random(seed);
        KeyedEventQueue heap = new KeyedEventQueue(16);
        WindowIntake intake = new WindowIntake();
        PriorityQueue<long[]> pending = new PriorityQueue<>(KEY); // the reference: every event not yet run
        long seq = 0;
        long windowStart = 0;
        long windowPs = 500_000;
        boolean wide = false;
        for (int w = 0; w < 40; w++) {
            long end = windowStart + windowPs;
            int arrivals = rng.nextInt(w % 7 == 0 ? 5 : 3_000);
            wide = w % 11 == 5; // a window whose arrivals cannot be packed
            for (int i = 0; i < arrivals; i++) {
                // few distinct times and creation times, so ties in both are common
                long t = end - windowPs + rng.nextInt(64) * 7_000L + (wide && i == 0 ? WindowIntake.MAX_SPAN_PS + 1 : 0);
                long targetKey = windowStart - windowPs + rng.nextInt(8) * 1_000L;
                long s = ((long) rng.nextInt(50) << 40) | seq++;
                long[] e = {t, targetKey, s, rng.nextInt(1_000), rng.nextInt(4), rng.nextLong()};
                pending.add(e);
                intake.append(e[0], e[1], e[2], (e[3] << 32) | e[4], e[5]);
            }
            intake.sort(heap);
            if (wide && arrivals > 0) {
                assertThat(intake.hasNext()).as("a window too wide to pack goes into the heap").isFalse();
            }
            while (true) {
                long[] expected = pending.peek();
                long t;
                long targetKey;
                long s;
                long hk;
                long tag;
                if (intake.headComesFirst(heap)) {
                    t = intake.headTimePs();
                    if (t >= end) {
                        break;
                    }
                    targetKey = intake.headTarget();
                    s = intake.headSeq();
                    hk = ((long) intake.headHandler() << 32) | intake.headKind();
                    tag = intake.headTag();
                    intake.advance();
                } else if (!heap.isEmpty()) {
                    t = heap.peekTime();
                    if (t >= end) {
                        break;
                    }
                    targetKey = heap.peekTarget();
                    s = heap.peekSeq();
                    hk = ((long) heap.peekHandler() << 32) | heap.peekKind();
                    tag = heap.peekTag();
                    heap.pop();
                } else {
                    break;
                }
                assertThat(expected).as("an event ran that the reference does not have, window %d", w).isNotNull();
                assertThat(new long[] {t, targetKey, s, hk, tag}).as("window %d", w)
                        .containsExactly(expected[0], expected[1], expected[2], (expected[3] << 32) | expected[4], expected[5]);
                pending.poll();
                if (rng.nextInt(4) == 0) {
                    // the event schedules one of its own partition's, possibly still inside the window
                    long[] local = {t + rng.nextInt(3) * 7_000L, t, ((long) rng.nextInt(50) << 40) | seq++, rng.nextInt(1_000), rng.nextInt(4), rng.nextLong()};
                    pending.add(local);
                    heap.push(local[0], local[1], local[2], (int) local[3], (int) local[4], local[5]);
                }
            }
            intake.drainInto(heap);
            assertThat(intake.hasNext()).isFalse();
            long before = pending.stream().filter(e -> e[0] < end).count();
            assertThat(before).as("events left before the end of window %d", w).isZero();
            assertThat(heap.size()).as("every event not yet run waits in the heap after window %d", w).isEqualTo(pending.size());
            windowStart = end;
        }
    }
}
