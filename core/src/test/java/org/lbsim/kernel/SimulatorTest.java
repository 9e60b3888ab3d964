package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

    /** Records (time, kind, tag) of every wake-up. */
    private static final class Recorder implements EventHandler {
        final Simulator sim;
        final List<long[]> seen = new ArrayList<>();

        Recorder(Simulator sim) {
            this.sim = sim;
        }

        @Override
        public void onEvent(int kind, long tag) {
            seen.add(new long[] {sim.nowPs(), kind, tag});
        }
    }

    @Test
    void anEventInThePastIsRejected() {
        Simulator sim = new Simulator();
        Recorder r = new Recorder(sim);
        int id = sim.register(r);
        sim.schedule(id, 1_000, 0, 0);
        sim.run(Long.MAX_VALUE);
        assertThat(sim.nowPs()).isEqualTo(1_000);

        assertThatThrownBy(() -> sim.schedule(id, 999, 0, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("past");
        assertThatThrownBy(() -> sim.scheduleIn(id, -1, 0, 0)).isInstanceOf(IllegalStateException.class);
        assertThat(sim.pendingEvents()).isZero();
    }

    @Test
    void anEventAtTheCurrentTimeIsAccepted() {
        Simulator sim = new Simulator();
        Recorder r = new Recorder(sim);
        int id = sim.register(new EventHandler() {
            @Override
            public void onEvent(int kind, long tag) {
                if (kind == 0) {
                    sim.scheduleIn(sim.register(r), 0, 7, 8);
                }
            }
        });
        sim.schedule(id, 500, 0, 0);
        sim.run(Long.MAX_VALUE);
        assertThat(r.seen).hasSize(1);
        assertThat(r.seen.get(0)).containsExactly(500, 7, 8);
    }

    @Test
    void runUntilStopsBeforeLaterEventsAndAdvancesTimeToTheLimit() {
        Simulator sim = new Simulator();
        Recorder r = new Recorder(sim);
        int id = sim.register(r);
        sim.schedule(id, 100, 1, 10);
        sim.schedule(id, 200, 2, 20);
        sim.schedule(id, 300, 3, 30);

        sim.run(200); // an event exactly at the limit still runs

        assertThat(r.seen).hasSize(2);
        assertThat(sim.nowPs()).isEqualTo(200);
        assertThat(sim.pendingEvents()).isEqualTo(1);
        assertThat(sim.eventsProcessed()).isEqualTo(2);

        sim.run(250);
        assertThat(r.seen).hasSize(2);
        assertThat(sim.nowPs()).isEqualTo(250);

        sim.run(Long.MAX_VALUE);
        assertThat(r.seen).extracting(e -> e[0]).containsExactly(100L, 200L, 300L);
        assertThat(r.seen).extracting(e -> e[1]).containsExactly(1L, 2L, 3L);
        assertThat(r.seen).extracting(e -> e[2]).containsExactly(10L, 20L, 30L);
        assertThat(sim.nowPs()).isEqualTo(300);
    }

    @Test
    void stopReturnsAfterTheCurrentEventAndKeepsTheRestPending() {
        Simulator sim = new Simulator();
        List<Long> seen = new ArrayList<>();
        int id = sim.register((kind, tag) -> {
            seen.add(tag);
            if (tag == 2) {
                sim.stop();
            }
        });
        for (int i = 1; i <= 4; i++) {
            sim.schedule(id, i * 10L, 0, i);
        }
        sim.run(Long.MAX_VALUE);
        assertThat(seen).containsExactly(1L, 2L);
        assertThat(sim.nowPs()).isEqualTo(20);
        assertThat(sim.pendingEvents()).isEqualTo(2);

        sim.run(Long.MAX_VALUE); // a new run clears the stop request
        assertThat(seen).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void wakeUpsReachTheHandlerTheyWereScheduledForAmongManyRegistrations() {
        Simulator sim = new Simulator();
        List<Recorder> recorders = new ArrayList<>();
        for (int i = 0; i < 300; i++) { // more than the initial handler table
            Recorder r = new Recorder(sim);
            recorders.add(r);
            assertThat(sim.register(r)).isEqualTo(i);
        }
        for (int i = 0; i < 300; i++) {
            sim.schedule(i, 1_000 - i, i, i);
        }
        sim.run(Long.MAX_VALUE);
        for (int i = 0; i < 300; i++) {
            assertThat(recorders.get(i).seen).hasSize(1);
            assertThat(recorders.get(i).seen.get(0)).containsExactly(1_000 - i, i, i);
        }
    }
}
