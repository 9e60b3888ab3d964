package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
