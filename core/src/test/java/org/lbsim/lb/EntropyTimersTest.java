package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** REPS's per-entropy timers: the same answers as a map from entropy to its oldest unanswered send. */
class EntropyTimersTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void agreesWithAMapUnderRandomStartsAndClears(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        EntropyTimers timers = new EntropyTimers();
        Map<Integer, Long> model = new HashMap<>();
        // a small key range forces collisions on the low bits, deletions in the middle of probe runs and growth
        int keys = seed % 2 == 0 ? 40 : 16000;
        for (int step = 0; step < 20_000; step++) {
            int e = rng.nextInt(keys);
            if (rng.nextInt(3) == 0) {
                timers.clear(e);
                model.remove(e);
            } else {
                timers.sinceOrStart(e, step);
                model.putIfAbsent(e, (long) step);
            }
            int probe = rng.nextInt(keys);
            assertThat(timers.sincePs(probe)).isEqualTo(model.getOrDefault(probe, -1L));
            assertThat(timers.size()).isEqualTo(model.size());
        }
        for (int e = 0; e < Math.min(keys, 2000); e++) {
            assertThat(timers.sincePs(e)).as("entropy %d", e).isEqualTo(model.getOrDefault(e, -1L));
        }
    }

    @Test
    void aRunningTimerKeepsItsOldestSend() {
        EntropyTimers timers = new EntropyTimers();
        timers.sinceOrStart(7, 100);
        timers.sinceOrStart(7, 200);
        assertThat(timers.sincePs(7)).isEqualTo(100);
        timers.clear(7);
        assertThat(timers.sincePs(7)).isEqualTo(-1);
        timers.sinceOrStart(7, 300);
        assertThat(timers.sincePs(7)).isEqualTo(300);
    }
}
