package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kernels' event heap against a plain reference, {@link PriorityQueue} on (time, target,
 * sequence), the target being the kind of event below, driven like the kernel drives it: a clock that follows the pops; bursts of
 * events at the same instant; a frame time and an ACK time as fixed delays; retransmission timers
 * re-armed far ahead and cancelled lazily (a generation in the tag: stale wake-ups are popped and
 * ignored, as {@code SenderQp} does); phases whose density changes by orders of magnitude (what made
 * the calendar queue candidate re-tune); and the occasional event before the earliest one (the
 * clock stopped at a time limit). Every pop must give the reference's event: time, handler, kind, tag.
 */
class KeyedEventQueueAgainstReferenceTest {
    private static final Comparator<long[]> BY_KEY = Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[2]).thenComparingLong(e -> e[1]);
    private static final long FRAME_PS = 41_780;
    private static final long ACK_PS = 840;
    private static final long RTO_PS = 80_000_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void popsTheReferencesEventsInTheReferencesOrder(long seed) {
        Random rng = new Random(seed);
        KeyedEventQueue q = new KeyedEventQueue(rng.nextBoolean() ? 1 : 1 << 12);
        PriorityQueue<long[]> ref = new PriorityQueue<>(BY_KEY);
        int timers = 1 + rng.nextInt(2_000);
        long[] generation = new long[timers];
        long seq = 0;
        long nowPs = 0;
        long pops = 0;
        long staleTimerPops = 0;
        int steps = 150_000 + rng.nextInt(150_000);
        int phaseLength = 10_000 + rng.nextInt(40_000);
        int targetPending = 1;
        long scalePs = 1;
        for (int step = 0; step < steps; step++) {
            if (step % phaseLength == 0) {
                // a new phase: another working-set size and time scale
                targetPending = 1 + rng.nextInt(rng.nextBoolean() ? 50 : 20_000);
                scalePs = 1L << rng.nextInt(16);
            }
            boolean pop = !ref.isEmpty() && (ref.size() > targetPending ? rng.nextInt(10) < 7 : rng.nextInt(10) < 3);
            if (pop) {
                long[] e = ref.poll();
                assertThat(q.peekTime()).as("time, step %d", step).isEqualTo(e[0]);
                assertThat(q.peekHandler()).as("handler, step %d", step).isEqualTo((int) e[2]);
                assertThat(q.peekKind()).as("kind, step %d", step).isEqualTo((int) e[3]);
                assertThat(q.peekTag()).as("tag, step %d", step).isEqualTo(e[4]);
                q.pop();
                pops++;
                nowPs = e[0];
                if (e[2] == 0) {
                    int timer = (int) e[3];
                    if (e[4] != generation[timer]) {
                        staleTimerPops++;
                    } else if (rng.nextInt(4) > 0) {
                        // the live timer fired and re-arms itself
                        generation[timer]++;
                        long[] r = {nowPs + RTO_PS, seq++, 0, timer, generation[timer]};
                        push(q, ref, r);
                    }
                }
            } else {
                int what = rng.nextInt(100);
                long[] e;
                if (what < 10) {
                    // re-arm a timer (the old wake-up stays queued, stale) or cancel it lazily
                    int timer = rng.nextInt(timers);
                    generation[timer]++;
                    if (rng.nextInt(5) == 0) {
                        continue;
                    }
                    long delay = rng.nextInt(3) == 0 ? RTO_PS : RTO_PS - rng.nextInt(1_000_000);
                    e = new long[] {nowPs + delay, seq++, 0, timer, generation[timer]};
                } else if (what < 40) {
                    e = new long[] {nowPs + FRAME_PS * (scalePs % 7 + 1), seq++, 1, rng.nextInt(), rng.nextLong()};
                } else if (what < 60) {
                    e = new long[] {nowPs + ACK_PS, seq++, 2, rng.nextInt(), rng.nextLong()};
                } else if (what < 75) {
                    e = new long[] {nowPs, seq++, 3, rng.nextInt(), rng.nextLong()}; // same instant: ties
                } else if (what < 97) {
                    e = new long[] {nowPs + rng.nextInt(64) * scalePs, seq++, 4, rng.nextInt(), rng.nextLong()};
                } else if (what < 99) {
                    e = new long[] {nowPs + (long) rng.nextInt(1 << 30) * scalePs, seq++, 5, rng.nextInt(), rng.nextLong()};
                } else {
                    // before the earliest pending event (and before now): the clock stopped at a time limit
                    e = new long[] {Math.max(0, nowPs - rng.nextInt(5_000_000)), seq++, 6, rng.nextInt(), rng.nextLong()};
                }
                push(q, ref, e);
            }
            assertThat(q.size()).isEqualTo(ref.size());
        }
        while (!ref.isEmpty()) {
            long[] e = ref.poll();
            assertThat(q.peekTime()).isEqualTo(e[0]);
            assertThat(q.peekTag()).isEqualTo(e[4]);
            q.pop();
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(pops).as("a long run").isGreaterThan(50_000);
        assertThat(staleTimerPops).as("lazily cancelled timers were popped").isPositive();
    }

    private static void push(KeyedEventQueue q, PriorityQueue<long[]> ref, long[] e) {
        q.push(e[0], e[2], e[1], (int) e[2], (int) e[3], e[4]);
        ref.add(e);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {21, 22, 23})
    void thousandsOfEventsAtOneInstantForOneTargetComeOutInSequenceOrder(long seed) {
        // a synchronised fabric: every port's wake-up at the same picosecond
        Random rng = new Random(seed);
        KeyedEventQueue q = new KeyedEventQueue(16);
        int n = 40_000;
        long t = 1_000_000 + rng.nextInt(1000);
        for (int i = 0; i < n; i++) {
            q.push(t, 0, i, i, 0, i);
            if (rng.nextInt(4) == 0) {
                q.push(t + 1 + rng.nextInt(100), 0, n + i, -1, 0, -1);
            }
        }
        int expected = 0;
        long last = 0;
        while (!q.isEmpty()) {
            assertThat(q.peekTime()).isGreaterThanOrEqualTo(last);
            last = q.peekTime();
            if (q.peekTime() == t) {
                assertThat(q.peekHandler()).isEqualTo(expected++);
            }
            q.pop();
        }
        assertThat(expected).isEqualTo(n);
    }
}
