package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.spi.QpContext;

/** A connection plan: which queue pairs carry which connection, and which connections wait for others. */
class ConnectionPlanTest {
    private static QpContext qp(int q) {
        return new QpContext(q, 0, 1, 10_000L, 10, 1000, 62, 20, 200_000, Time.us(8), 200_000);
    }

    private final List<QpContext> qps = List.of(qp(0), qp(1), qp(2));
    private final int[] connectionOfQp = {0, 0, 1};
    private final long[] startPsOfQp = {0, 0, 5_000};

    @Test
    void anIndependentPlanHasEveryConnectionStartAtItsOwnTimeOnQueuePairsOfItsOwn() {
        ConnectionPlan plan = ConnectionPlan.independent(qps, connectionOfQp, startPsOfQp, 2);
        assertThat(plan.qps()).isSameAs(qps);
        assertThat(plan.qpCount()).isEqualTo(3);
        assertThat(plan.connectionOfQp()).containsExactly(0, 0, 1);
        assertThat(plan.startPsOfQp()).containsExactly(0, 0, 5_000);
        assertThat(plan.connections()).isEqualTo(2);
        assertThat(plan.depsOfConnection()).as("no dependencies").isNull();
        assertThat(plan.gapPsOfConnection()).isNull();
        assertThat(plan.previousOnQp()).as("a queue pair per message").isNull();
        for (int q = 0; q < 3; q++) {
            assertThat(plan.dependent(q)).as("queue pair %d", q).isFalse();
        }
    }

    @Test
    void aQueuePairIsDependentWhenItsConnectionWaitsForAnother() {
        ConnectionPlan plan = new ConnectionPlan(qps, connectionOfQp, startPsOfQp, 2, new int[][] {{}, {0}}, new long[] {0, 100}, null);
        assertThat(plan.dependent(0)).isFalse();
        assertThat(plan.dependent(1)).isFalse();
        assertThat(plan.dependent(2)).isTrue();
    }
}
