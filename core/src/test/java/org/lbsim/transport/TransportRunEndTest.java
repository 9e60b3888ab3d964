package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.scenario.NicSpec;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.TestScenarios;

/**
 * When the transport ends a run: on {@link HostStackRingTest}'s six connections of host 0 (one queue pair each), the
 * end action runs once, at the instant the last connection the run waits for completed. The simulator is driven
 * directly, the end action recording the instant instead of stopping it, so the run drains to its last event.
 */
class TransportRunEndTest {
    /** Far beyond the run's last event (about 10 us): the simulator drains well before. */
    private static final long DRAINED_BY_PS = 1_000_000_000L;

    @TempDir
    Path dir;

    private PreparedRun built() {
        return HostStackRingTest.built(dir, TestScenarios.lineRate(), NicSpec.defaults(), false);
    }

    /** The latest completion of the connections other than {@code except} (-1: of all). */
    private static long lastCompletionPs(Transport t, int except) {
        long last = -1;
        for (int c = 0; c < t.connectionCount(); c++) {
            assertThat(t.connectionDonePs(c)).as("connection %d completed", c).isPositive();
            if (c != except) {
                last = Math.max(last, t.connectionDonePs(c));
            }
        }
        return last;
    }

    @Test
    void theEndActionRunsOnceAtTheLastCompletion() {
        PreparedRun p = built();
        Transport t = p.transport();
        List<Long> ends = new ArrayList<>();
        t.onAllDone(() -> ends.add(p.simulator().nowPs()));
        assertThat(t.connectionCount()).isEqualTo(6);
        assertThat(t.foregroundDone()).isFalse();
        p.simulator().run(DRAINED_BY_PS);
        long last = lastCompletionPs(t, -1);
        assertThat(ends).containsExactly(last);
        assertThat(t.lastCompletionPs()).isEqualTo(last);
        assertThat(t.completedFlows()).isEqualTo(6);
        assertThat(t.foregroundDone()).isTrue();
    }

    @Test
    void aConnectionThatLastsAsLongAsTheOthersLeavesTheEndToThem() {
        PreparedRun p = built();
        Transport t = p.transport();
        int longest = t.connectionOf(1); // queue pair 1 sends its sixth packet after every other queue pair is done
        t.lastsForeground(longest);
        List<Long> ends = new ArrayList<>();
        List<Boolean> doneThen = new ArrayList<>();
        t.onAllDone(() -> {
            ends.add(p.simulator().nowPs());
            doneThen.add(t.foregroundDone());
        });
        assertThat(t.foregroundDone()).isFalse();
        p.simulator().run(DRAINED_BY_PS);
        long lastOfOthers = lastCompletionPs(t, longest);
        assertThat(ends).containsExactly(lastOfOthers);
        assertThat(doneThen).containsExactly(true);
        assertThat(t.connectionDonePs(longest)).as("it completed as the run drained").isGreaterThan(lastOfOthers);
    }
}
