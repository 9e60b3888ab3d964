package org.lbsim.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A build that takes long says so on stderr; a closed ticker says nothing more. */
class BuildTickerTest {
    @Test
    void aLongBuildSaysWhatItIsDoingUntilItIsOver() throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (BuildTicker t = BuildTicker.start(err, true, "big.yaml", 0, 60_000)) {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (bytes.size() == 0) {
                    Thread.sleep(10);
                }
            });
        }
        String after = bytes.toString(StandardCharsets.UTF_8);
        assertThat(after).matches("big\\.yaml: reading, checking and building the run, \\d+ s \\.\\.\\.\\R");
        Thread.sleep(50);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(after);
    }

    @Test
    void nothingIsShownWhenNotAsked() throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BuildTicker t = BuildTicker.start(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, "big.yaml", 0, 0)) {
            Thread.sleep(50);
        }
        assertThat(bytes.size()).isZero();
    }
}
