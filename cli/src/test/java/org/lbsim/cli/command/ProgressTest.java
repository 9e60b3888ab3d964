package org.lbsim.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Progress of a long run and of a sweep: what the terminal line says, and nothing when not on a terminal. */
class ProgressTest {
    @Test
    void aRunsLineGivesSimulatedTimeEventRateFlowsAndTheLeastTimeLeftUntilTheLowerBound() {
        // 2 s of wall time simulated 25 of the bound's 100 us: at that pace at least 6 s more
        String line = RunProgress.line(2.0, 25_000_000L, 4_000_000L, 3, 16, 100_000_000L);
        assertThat(line).isEqualTo("simulated 25.00000 us (lower bound 100.00000 us), 2.00 M events/s, 3/16 flows done, at least 6.0s left,"
                + " 2.0s elapsed");
        assertThat(RunProgress.line(90.0, 120_000_000L, 4_000_000L, 15, 16, 100_000_000L))
                .isEqualTo("simulated 120.00000 us (lower bound 100.00000 us), 0.04 M events/s, 15/16 flows done, past the lower bound, 1m30s elapsed");
        assertThat(RunProgress.line(0.5, 0, 0, 0, 4, 0)).isEqualTo("simulated 0.00000 us, 0.00 M events/s, 0/4 flows done, 0.5s elapsed");
    }

    @Test
    void noProgressIsShownWhenNotAsked() {
        assertThat(RunProgress.start(null, System.out, false)).isNull();
    }

    @Test
    void onATerminalASweepNamesTheLastRunWithItsTimeAndTheRunsUnderWay() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, 10_000, "sweep s", 4, 0);
        p.runStarted("s-p0-seed1");
        p.runStarted("s-p1-seed1");
        long now = System.nanoTime();
        assertThat(p.line(now)).startsWith("sweep s: 0/4 runs; running s-p0-seed1 ").contains(", s-p1-seed1 ");
        p.runDone("s-p0-seed1", 1500);
        p.runStarted("s-p2-seed1");
        String line = p.line(System.nanoTime());
        assertThat(line).startsWith("sweep s: 1/4 runs, ").contains("; last s-p0-seed1 1.5s (mean 1.5s per run); running s-p1-seed1 ")
                .contains(", s-p2-seed1 ").doesNotContain("running s-p0");
        p.runDone("s-p1-seed1", 2500);
        assertThat(p.line(System.nanoTime())).contains("; last s-p1-seed1 2.5s (mean 2.0s per run); running s-p2-seed1 ");
        p.runStarted("s-p3-seed1");
        p.runEnded("s-p3-seed1"); // simulated, waiting to be recorded: no longer running
        assertThat(p.line(System.nanoTime())).doesNotContain("s-p3-seed1");
        p.runDone("s-p3-seed1", 500);
        p.runFailed("s-p2-seed1");
        assertThat(p.line(System.nanoTime())).contains("4/4 runs").doesNotContain("running");
        p.finish();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).endsWith("\n").contains("\r");
    }

    @Test
    void inALogASweepLineStaysShortAndNamesNoRuns() {
        Progress p = new Progress(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false, 10_000, "sweep s", 2, 0);
        p.runStarted("s-p0-seed1");
        p.runDone("s-p0-seed1", 1000);
        p.runStarted("s-p1-seed1");
        assertThat(p.line(System.nanoTime())).matches("sweep s: 1/2 runs, [0-9.]+ runs/s, ETA [0-9.]+s");
    }
}
