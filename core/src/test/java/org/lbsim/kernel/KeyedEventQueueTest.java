package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The kernels' event heap: pops in (time, target, sequence) order through ties, interleaving and growth. */
class KeyedEventQueueTest {

    private record Ev(long time, long target, long seq, int handler, int kind, long tag) {
    }

    private static final Comparator<Ev> BY_KEY = Comparator.comparingLong(Ev::time).thenComparingLong(Ev::target).thenComparingLong(Ev::seq);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void popsEventsByTimeTargetAndSequenceThroughTiesInterleavingAndGrowth(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        KeyedEventQueue q = new KeyedEventQueue(1); // starts at its minimum capacity, so it must grow many times
        PriorityQueue<Ev> model = new PriorityQueue<>(BY_KEY);
        long seq = 0;
        int distinctTimes = 1 + rng.nextInt(20); // few distinct times: many ties
        List<Ev> popped = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            boolean push = model.isEmpty() || rng.nextInt(100) < 60;
            if (push) {
                Ev e = new Ev(rng.nextInt(distinctTimes) * 1_000L, rng.nextInt(4), seq++, rng.nextInt(1 << 20), rng.nextInt(), rng.nextLong());
                q.push(e.time(), e.target(), e.seq(), e.handler(), e.kind(), e.tag());
                model.add(e);
            } else {
                Ev expected = model.poll();
                assertThat(new Ev(q.peekTime(), q.peekTarget(), q.peekSeq(), q.peekHandler(), q.peekKind(), q.peekTag()))
                        .as("step %d", step).isEqualTo(expected);
                q.pop();
                popped.add(expected);
            }
            assertThat(q.size()).isEqualTo(model.size());
        }
        while (!model.isEmpty()) {
            Ev expected = model.poll();
            assertThat(q.peekTime()).isEqualTo(expected.time());
            assertThat(q.peekHandler()).isEqualTo(expected.handler());
            assertThat(q.peekKind()).isEqualTo(expected.kind());
            assertThat(q.peekTag()).isEqualTo(expected.tag());
            q.pop();
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(popped).hasSizeGreaterThan(1000);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13})
    void eventsAtTheSameTimeAndTargetComeOutInSequenceOrder(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        KeyedEventQueue q = new KeyedEventQueue(16);
        int n = 5_000;
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
            times[i] = rng.nextInt(3); // three times only
            q.push(times[i], 7, i, i, 0, 0);
        }
        int lastHandlerAtTime = -1;
        long lastTime = -1;
        for (int i = 0; i < n; i++) {
            long t = q.peekTime();
            int h = q.peekHandler();
            assertThat(t).isGreaterThanOrEqualTo(lastTime);
            if (t == lastTime) {
                assertThat(h).isGreaterThan(lastHandlerAtTime);
            }
            assertThat(times[h]).isEqualTo(t);
            lastTime = t;
            lastHandlerAtTime = h;
            q.pop();
        }
    }

    @ParameterizedTest(name = "kind {0}")
    @ValueSource(ints = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE})
    void handlerAndKindSurviveTheirPackingIntoOneWord(int kind) {
        KeyedEventQueue q = new KeyedEventQueue(16);
        q.push(5, 0, 0, Integer.MAX_VALUE - 3, kind, Long.MIN_VALUE);
        assertThat(q.peekHandler()).isEqualTo(Integer.MAX_VALUE - 3);
        assertThat(q.peekKind()).isEqualTo(kind);
        assertThat(q.peekTag()).isEqualTo(Long.MIN_VALUE);
        assertThat(q.peekTime()).isEqualTo(5);
    }
}
