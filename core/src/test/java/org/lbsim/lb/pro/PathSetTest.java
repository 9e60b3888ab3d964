package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PRO III-A, Algorithm 1: the orchestrated round robin of one NIC's queue pairs over a destination path set. */
class PathSetTest {
    /** M (a power of two, as III-A assumes) and P queue pairs, 1 <= P <= M: span P forced odd covers every odd span below M + 1. */
    static Stream<Arguments> pathsAndQps() {
        return IntStream.of(1, 2, 4, 8, 16, 64).boxed()
                .flatMap(m -> IntStream.rangeClosed(1, m).filter(p -> p <= 17 || p == m).mapToObj(p -> Arguments.of(m, p)));
    }

    @ParameterizedTest(name = "M={0}, P={1}")
    @MethodSource("pathsAndQps")
    void everyQpVisitsAllMPathsInMPacketsAndTwoQpsNeverShareAPathInARound(int m, int qps) {
        PathSet set = new PathSet(m, 1, true);
        PathSet.Cursor[] c = new PathSet.Cursor[qps];
        for (int q = 0; q < qps; q++) {
            c[q] = set.newCursor();
        }
        @SuppressWarnings("unchecked")
        Set<Integer>[] seen = new Set[qps];
        for (int round = 0; round < 3 * m; round++) {
            Set<Integer> inRound = new HashSet<>();
            for (int q = 0; q < qps; q++) {
                if (round % m == 0) {
                    seen[q] = new HashSet<>();
                }
                int path = set.next(c[q]);
                assertThat(path).isBetween(0, m - 1);
                seen[q].add(path);
                assertThat(inRound.add(path)).as("round %d: queue pair %d takes path %d already taken", round, q, path).isTrue();
            }
            if (round % m == m - 1) {
                for (int q = 0; q < qps; q++) {
                    assertThat(seen[q]).as("queue pair %d over packets %d..%d", q, round - m + 1, round).hasSize(m);
                }
            }
        }
        assertThat(set.active()).isEqualTo(qps);
    }

    @Test
    void anOddSpanVisitsAllPathsFromAnyStartSeeded() {
        Random rng = new Random(16);
        for (int trial = 0; trial < 2000; trial++) {
            int m = 1 << (1 + rng.nextInt(6));
            int span = 2 * rng.nextInt(4 * m) + 1;
            int start = rng.nextInt(m);
            Set<Integer> paths = new HashSet<>();
            for (int k = 0, p = start; k < m; k++, p = (p + span) % m) {
                paths.add(p);
            }
            assertThat(paths).as("M %d span %d start %d", m, span, start).hasSize(m);
        }
    }

    @Test
    void newQueuePairsStartAtTheCounterAndTheCounterFollowsTheLastPath() {
        PathSet set = new PathSet(8, 1, true);
        PathSet.Cursor a = set.newCursor();
        PathSet.Cursor b = set.newCursor();
        assertThat(set.next(a)).isZero(); // C = 0 at first (line 11)
        assertThat(set.counter()).isEqualTo(1); // C = path + 1 (line 12)
        assertThat(set.next(b)).isEqualTo(1);
        // P = 2 -> span 3 (line 7)
        assertThat(set.next(a)).isEqualTo(3);
        assertThat(set.next(b)).isEqualTo(4);
        assertThat(set.counter()).isEqualTo(5);
        PathSet.Cursor late = set.newCursor();
        assertThat(set.next(late)).as("a late queue pair starts at C mod M").isEqualTo(5);
        set.leave(a);
        assertThat(set.active()).isEqualTo(2);
        assertThat(set.next(b)).as("P = 2 again: span 3").isEqualTo(7);
    }

    @Test
    void aSetStartsItsFirstQueuePairAtItsInitialCounterAndStaggersTheNextFromThere() {
        PathSet set = new PathSet(8, 1, true, 5);
        PathSet.Cursor a = set.newCursor();
        PathSet.Cursor b = set.newCursor();
        assertThat(set.counter()).isEqualTo(5);
        assertThat(set.next(a)).isEqualTo(5);
        assertThat(set.next(b)).isEqualTo(6);
        assertThat(b.path()).as("the cursor keeps its last path").isEqualTo(6);
        assertThat(set.next(a)).as("span 3 from 5").isEqualTo(0);
        PathSet unorchestrated = new PathSet(8, 1, false, 3);
        PathSet.Cursor c = unorchestrated.newCursor();
        PathSet.Cursor d = unorchestrated.newCursor();
        assertThat(unorchestrated.next(c)).isEqualTo(unorchestrated.next(d)).isEqualTo(3);
        PathSet batched = new PathSet(16, 4, true, 2);
        assertThat(batched.next(batched.newCursor())).as("block 2 of 4 paths").isEqualTo(8);
        assertThat(batched.blocks()).isEqualTo(4);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PathSet(16, 4, true, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a path set's start must be between 0 and 3, got 4");
    }

    @Test
    void withoutInterQpOrchestrationQueuePairsCollide() {
        PathSet set = new PathSet(8, 1, false);
        PathSet.Cursor a = set.newCursor();
        PathSet.Cursor b = set.newCursor();
        for (int round = 0; round < 16; round++) {
            assertThat(set.next(a)).isEqualTo(set.next(b)).isEqualTo(round % 8);
        }
    }

    static Stream<Arguments> batches() {
        return Stream.of(Arguments.of(16, 2, 3), Arguments.of(16, 4, 3), Arguments.of(64, 8, 5), Arguments.of(8, 8, 1), Arguments.of(32, 4, 8));
    }

    @ParameterizedTest(name = "M={0}, n={1}, P={2}")
    @MethodSource("batches")
    void batchesOfNPacketsSpreadOverMOverNBlocksOfNPaths(int m, int n, int qps) {
        PathSet set = new PathSet(m, n, true);
        PathSet.Cursor[] c = new PathSet.Cursor[qps];
        for (int q = 0; q < qps; q++) {
            c[q] = set.newCursor();
        }
        int blocks = m / n;
        @SuppressWarnings("unchecked")
        Set<Integer>[] perQp = new Set[qps];
        for (int round = 0; round < 2 * blocks; round++) {
            Set<Integer> inRound = new HashSet<>();
            for (int q = 0; q < qps; q++) {
                if (round % blocks == 0) {
                    perQp[q] = new HashSet<>();
                }
                Set<Integer> batch = new HashSet<>();
                for (int k = 0; k < n; k++) {
                    batch.add(set.next(c[q]));
                }
                assertThat(batch).as("one batch of queue pair %d takes n different paths", q).hasSize(n);
                assertThat(batch.stream().map(p -> p / n).distinct().count()).as("... all of one block").isEqualTo(1);
                perQp[q].addAll(batch);
                if (qps <= blocks) {
                    for (int p : batch) {
                        assertThat(inRound.add(p)).as("round %d: batches of a NIC's queue pairs overlap at path %d", round, p).isTrue();
                    }
                }
            }
            if (round % blocks == blocks - 1) {
                for (int q = 0; q < qps; q++) {
                    assertThat(perQp[q]).as("queue pair %d over M/n batches", q).hasSize(m);
                }
            }
        }
    }
}
