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
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, "sweep s", 4, 0);
        p.runStarted("s-p0-seed1");
        p.runStarted("s-p1-seed1");
        long now = System.nanoTime();
        assertThat(p.line(now)).startsWith("sweep s: 0/4 runs; running s-p0-seed1 ").contains(", s-p1-seed1 ");
        p.runDone("s-p0-seed1", "point 0", 1500);
        p.runStarted("s-p2-seed1");
        String line = p.line(System.nanoTime());
        assertThat(line).startsWith("sweep s: 1/4 runs, ").contains("; last s-p0-seed1 1.5s (mean 1.5s per run); running s-p1-seed1 ")
                .contains(", s-p2-seed1 ").doesNotContain("running s-p0");
        p.runDone("s-p1-seed1", "point 1", 2500);
        assertThat(p.line(System.nanoTime())).contains("; last s-p1-seed1 2.5s (mean 2.0s per run); running s-p2-seed1 ");
        p.runStarted("s-p3-seed1");
        p.runEnded("s-p3-seed1"); // simulated, waiting to be recorded: no longer running
        assertThat(p.line(System.nanoTime())).doesNotContain("s-p3-seed1");
        p.runDone("s-p3-seed1", "point 3", 500);
        p.runFailed("s-p2-seed1", "point 2");
        assertThat(p.line(System.nanoTime())).contains("4/4 runs").doesNotContain("running");
        p.finish();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).endsWith("\n").contains("\r");
    }

    /** Piped or redirected: one plain line per recorded (or failed) run with its point and wall time, no control character. */
    @Test
    void inALogEveryFinishedRunIsOneLineWithItsPointAndWallTime() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, "sweep s", 3, 0);
        p.startTicker(); // no ticker off a terminal
        p.runStarted("s-p0-seed1");
        p.runStarted("s-p1-seed1");
        p.runDone("s-p0-seed1", "point 0 (loadBalancing.type=ecmp)", 1500);
        p.runFailed("s-p1-seed1", "point 1 (loadBalancing.type=ofan)");
        p.runStarted("s-p2-seed1");
        p.runDone("s-p2-seed1", "point 2 (loadBalancing.type=drill)", 12_300);
        p.finish();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text.lines().toList()).as("no final line: the last run's says it").hasSize(3);
        assertThat(text.lines().toList().get(0)).matches("sweep s: 1/3 runs, [0-9.]+ runs/s, ETA [0-9.]+s; s-p0-seed1 in 1\\.5s: point 0 \\(loadBalancing.type=ecmp\\)");
        assertThat(text.lines().toList().get(1)).matches("sweep s: 2/3 runs \\(1 failed\\), .*; s-p1-seed1 failed \\(stderr says why\\): point 1 \\(loadBalancing.type=ofan\\)");
        assertThat(text.lines().toList().get(2)).matches("sweep s: 3/3 runs \\(1 failed\\), [0-9.]+ runs/s, [0-9.]+s elapsed; s-p2-seed1 in 12s: point 2 \\(loadBalancing.type=drill\\)");
        assertThat(text.chars().filter(c -> c < 0x20 && c != '\n')).as("control characters").isEmpty();
        assertThat(text).doesNotContain("running");
    }
}
