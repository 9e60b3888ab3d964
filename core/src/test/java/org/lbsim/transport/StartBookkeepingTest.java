package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The start bookkeeping of the flow scheduler: pending-start order, the dependency graph, persistent chains, completions. */
class StartBookkeepingTest {

    @Test
    void pendingStartsComeOutByTimeThenByWhenTheyWereQueued() {
        StartHeap heap = new StartHeap();
        long[] times = {50, 10, 50, 30, 10, 70, 30};
        for (int i = 0; i < times.length; i++) {
            heap.push(times[i], i);
        }
        int[] popped = new int[times.length];
        for (int i = 0; i < popped.length; i++) {
            popped[i] = heap.pop();
        }
        assertThat(popped).containsExactly(1, 4, 3, 6, 0, 2, 5);
        assertThat(heap.isEmpty()).isTrue();
    }

    @Test
    void aDependentIsReadyWhenItsLastDependencyCompletesAndStartsAfterItsGap() {
        // connections 0 and 1 independent; 2 waits for both with a 5 ps gap; queue pairs 0-1 carry 0, 2 carries 1, 3-4 carry 2
        int[] connectionOfQp = {0, 0, 1, 2, 2};
        long[] startPsOfQp = {0, 0, 0, 100, 100};
        ConnectionGraph graph = new ConnectionGraph(3, connectionOfQp, startPsOfQp, new int[][] {{}, {}, {0, 1}}, new long[] {0, 0, 5});
        assertThat(graph.ready(0)).isTrue();
        assertThat(graph.ready(2)).isFalse();
        assertThat(graph.dependent(graph.dependentsFrom(0))).isEqualTo(2);
        assertThat(graph.dependencyDone(2)).isFalse();
        assertThat(graph.dependencyDone(2)).isTrue();
        assertThat(graph.startPsAfter(2, 90)).as("earliest start is later than now + gap").isEqualTo(100);
        assertThat(graph.startPsAfter(2, 200)).isEqualTo(205);
        assertThat(graph.qpsFrom(3) - graph.qpsFrom(2)).isEqualTo(2);
        assertThat(new int[] {graph.qp(graph.qpsFrom(2)), graph.qp(graph.qpsFrom(2) + 1)}).containsExactly(3, 4);
    }

    @Test
    void aLaterMessageWaitsForThePreviousOneAndInheritsItsQueuePair() {
        PersistentChains chains = new PersistentChains(new int[] {-1, 0, 1});
        assertThat(chains.continues(0)).isFalse();
        assertThat(chains.holdsBack(1)).as("message 0 is not acknowledged yet").isTrue();
        assertThat(chains.onComplete(0, null, null)).as("message 1 was waiting").isEqualTo(1);
        assertThat(chains.holdsBack(1)).isFalse();
        assertThat(chains.onComplete(1, null, null)).as("message 2 was not waiting yet").isEqualTo(-1);
        assertThat(chains.holdsBack(2)).isFalse();
    }

    @Test
    void aQueuePairHasAtMostOneSuccessor() {
        assertThatThrownBy(() -> new PersistentChains(new int[] {-1, 0, 0})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PersistentChains(new int[] {0})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRunEndsWithTheLastAwaitedConnectionNotWithBackground() {
        ConnectionProgress progress = new ConnectionProgress(new int[] {0, 0, 1}, 2);
        progress.lastsForeground(1);
        assertThat(progress.qpCompleted(2, 40)).as("connection 1 has one queue pair").isTrue();
        assertThat(progress.connectionCompleted(1, 40)).as("background is not awaited").isFalse();
        assertThat(progress.lastCompletionPs()).isZero();
        assertThat(progress.qpCompleted(0, 10)).isFalse();
        assertThat(progress.qpCompleted(1, 30)).isTrue();
        assertThat(progress.connectionCompleted(0, 30)).isTrue();
        assertThat(progress.lastCompletionPs()).isEqualTo(30);
        assertThat(progress.completedQps()).isEqualTo(3);
        assertThat(progress.connectionDonePs(1)).isEqualTo(40);
    }

    @Test
    void pendingStartsPushedAndPoppedInAnyMixComeOutByTimeThenByQueueOrderPastTheInitialCapacity() {
        // a model heap over (time, push order); times from a small range so that ties are frequent
        SplittableRandom rng = new SplittableRandom(5);
        StartHeap heap = new StartHeap();
        PriorityQueue<long[]> model = new PriorityQueue<>(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        List<Integer> popped = new ArrayList<>();
        List<Integer> expected = new ArrayList<>();
        int pushed = 0;
        for (int step = 0; step < 3000; step++) {
            if (model.isEmpty() || rng.nextInt(5) < 3) {
                long t = rng.nextInt(40);
                heap.push(t, pushed);
                model.add(new long[] {t, pushed});
                pushed++;
            } else {
                assertThat(heap.topPs()).isEqualTo(model.peek()[0]);
                expected.add((int) model.poll()[1]);
                popped.add(heap.pop());
            }
            assertThat(heap.isEmpty()).isEqualTo(model.isEmpty());
        }
        while (!model.isEmpty()) {
            assertThat(heap.topPs()).isEqualTo(model.peek()[0]);
            expected.add((int) model.poll()[1]);
            popped.add(heap.pop());
        }
        assertThat(heap.isEmpty()).isTrue();
        assertThat(pushed - popped.size()).isZero();
        assertThat(popped).isEqualTo(expected);
    }

    @Test
    void fortyStartsPushedInDescendingTimeComeOutAscendingAndAnEntryMayBeAQueuePair() {
        StartHeap heap = new StartHeap();
        for (int i = 0; i < 40; i++) {
            heap.push(1000 - 10 * i, i % 2 == 0 ? i : -1 - i);
        }
        for (int i = 39; i >= 0; i--) {
            assertThat(heap.topPs()).isEqualTo(1000 - 10 * i);
            assertThat(heap.pop()).isEqualTo(i % 2 == 0 ? i : -1 - i);
        }
        assertThat(heap.isEmpty()).isTrue();
    }

    @Test
    void withoutDependenciesEveryConnectionIsReadyAndHasNoDependents() {
        // queue pairs interleaved over the connections: 0 and 2 carry connection 1, 1 and 3 connection 0
        int[] connectionOfQp = {1, 0, 1, 0};
        long[] startPsOfQp = {70, 20, 70, 20};
        ConnectionGraph graph = new ConnectionGraph(2, connectionOfQp, startPsOfQp, null, null);
        for (int c = 0; c < 2; c++) {
            assertThat(graph.ready(c)).isTrue();
            assertThat(graph.dependentsFrom(c + 1) - graph.dependentsFrom(c)).isZero();
        }
        assertThat(graph.earliestStartPs(0)).isEqualTo(20);
        assertThat(graph.earliestStartPs(1)).isEqualTo(70);
        assertThat(graph.startPsAfter(1, 100)).as("no gap").isEqualTo(100);
        assertThat(graph.qpsFrom(0)).isZero();
        assertThat(graph.qpsFrom(1)).isEqualTo(2);
        assertThat(graph.qpsFrom(2)).isEqualTo(4);
        assertThat(new int[] {graph.qp(0), graph.qp(1), graph.qp(2), graph.qp(3)}).containsExactly(1, 3, 0, 2);
    }

    @Test
    void aConnectionListsEachOfItsDependentsOnceInConnectionOrder() {
        // 0 <- {1, 3}, 1 <- {2, 3}, 2 <- {3}: connection 3 waits for three, connection 0 has two dependents
        int[] connectionOfQp = {0, 1, 2, 3};
        long[] startPsOfQp = {0, 10, 20, 30};
        int[][] deps = {{}, {0}, {1}, {0, 1, 2}};
        ConnectionGraph graph = new ConnectionGraph(4, connectionOfQp, startPsOfQp, deps, new long[] {0, 1, 2, 3});
        int[][] dependents = new int[4][];
        for (int c = 0; c < 4; c++) {
            dependents[c] = new int[graph.dependentsFrom(c + 1) - graph.dependentsFrom(c)];
            for (int k = 0; k < dependents[c].length; k++) {
                dependents[c][k] = graph.dependent(graph.dependentsFrom(c) + k);
            }
        }
        assertThat(dependents[0]).containsExactly(1, 3);
        assertThat(dependents[1]).containsExactly(2, 3);
        assertThat(dependents[2]).containsExactly(3);
        assertThat(dependents[3]).isEmpty();
        assertThat(graph.ready(0)).isTrue();
        assertThat(graph.ready(3)).isFalse();
        assertThat(graph.dependencyDone(3)).isFalse();
        assertThat(graph.dependencyDone(3)).isFalse();
        assertThat(graph.ready(3)).isFalse();
        assertThat(graph.dependencyDone(3)).isTrue();
        assertThat(graph.ready(3)).isTrue();
        assertThat(graph.startPsAfter(3, 26)).isEqualTo(30);
        assertThat(graph.startPsAfter(3, 28)).as("now + gap 3").isEqualTo(31);
    }

    @Test
    void aQueuePairCannotFollowItselfNorOneBeyondThePlan() {
        assertThatThrownBy(() -> new PersistentChains(new int[] {-1, 2})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue pair 1 cannot follow queue pair 2");
        assertThatThrownBy(() -> new PersistentChains(new int[] {-1, 1})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PersistentChains(new int[] {1, -1, 1})).as("queue pair 1 already has queue pair 0 next")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("queue pair 2 cannot follow queue pair 1");
        PersistentChains fine = new PersistentChains(new int[] {1, -1});
        assertThat(fine.continues(0)).isTrue();
        assertThat(fine.previous(0)).isEqualTo(1);
        assertThat(fine.previous(1)).isEqualTo(-1);
        assertThat(fine.holdsBack(0)).isTrue();
        assertThat(fine.onComplete(1, null, null)).as("queue pair 0 follows queue pair 1 and was waiting").isZero();
    }

    @Test
    void aFirstMessageNeverWaitsAndALaterOneOnlyUntilItsPredecessorCompleted() {
        PersistentChains chains = new PersistentChains(new int[] {-1, 0, -1, 2});
        assertThat(chains.holdsBack(0)).isFalse();
        assertThat(chains.holdsBack(2)).isFalse();
        assertThat(chains.onComplete(2, null, null)).as("message 3 did not ask yet").isEqualTo(-1);
        assertThat(chains.holdsBack(3)).as("its predecessor is done").isFalse();
        assertThat(chains.holdsBack(1)).isTrue();
        assertThat(chains.onComplete(1, null, null)).as("nothing follows message 1").isEqualTo(-1);
        assertThat(chains.onComplete(0, null, null)).isEqualTo(1);
    }

    @Test
    void aLeftOutQueuePairCompletesItsShareOfTheConnectionWithoutAnArrival() {
        ConnectionProgress progress = new ConnectionProgress(new int[] {0, 0, 0, 1}, 2);
        assertThat(progress.connectionCount()).isEqualTo(2);
        assertThat(progress.connectionOf(3)).isEqualTo(1);
        progress.qpLeftOut(1);
        assertThat(progress.completedQps()).isEqualTo(1);
        assertThat(progress.lastCompletionPs()).as("leaving out is no completion time").isZero();
        assertThat(progress.qpCompleted(0, 50)).isFalse();
        assertThat(progress.qpCompleted(2, 20)).as("queue pair 1 was left out").isTrue();
        assertThat(progress.lastCompletionPs()).as("the latest completion, not the last reported").isEqualTo(50);
        assertThat(progress.completedQps()).isEqualTo(3);
        assertThat(progress.connectionDonePs(0)).isEqualTo(-1);
        assertThat(progress.connectionCompleted(0, 50)).isFalse();
        assertThat(progress.foregroundDone()).isFalse();
        assertThat(progress.qpCompleted(3, 60)).isTrue();
        assertThat(progress.connectionCompleted(1, 60)).isTrue();
        assertThat(progress.foregroundDone()).isTrue();
        assertThat(progress.connectionDonePs(0)).isEqualTo(50);
        assertThat(progress.connectionDonePs(1)).isEqualTo(60);
    }

    @Test
    void markingAConnectionBackgroundTwiceCountsItOnceAndMarkingEveryOneIsRefused() {
        ConnectionProgress progress = new ConnectionProgress(new int[] {0, 1, 2}, 3);
        progress.lastsForeground(0);
        progress.lastsForeground(0);
        progress.lastsForeground(1);
        assertThat(progress.foregroundDone()).isFalse();
        assertThat(progress.qpCompleted(2, 5)).isTrue();
        assertThat(progress.connectionCompleted(2, 5)).as("connection 2 is the only one awaited").isTrue();
        assertThat(progress.foregroundDone()).isTrue();

        ConnectionProgress all = new ConnectionProgress(new int[] {0, 1}, 2);
        all.lastsForeground(1);
        assertThatThrownBy(() -> all.lastsForeground(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nothing would end the run");
    }
}
