package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sequential kernel and the partitioned kernel order equal-time events by one canonical key, so
 * a run writes the same flows.csv, byte for byte, with {@code --threads 0} (sequential) and with 1, 2
 * or 3 threads (the fabric cut into pods or finer): an all-to-all, and a permutation with a link failed
 * from the start, two failing during the run (one of them repaired) and routes converging late.
 */
class KernelsAgreeTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"all-to-all", "permutation with failures"})
    void theSequentialRunAndEveryThreadCountWriteTheSameFlowsCsv(String name) throws IOException {
        String workload = name.split(" ")[0];
        Path scenario = dir.resolve("k8.yaml");
        Files.writeString(scenario, """
                name: k8
                seed: 5
                topology: {type: fat-tree, k: 8}
                loadBalancing: {type: host-spray}
                workload: {type: %s, messageBytes: %s}
                %s
                """.formatted(workload, workload.equals("all-to-all") ? "16KiB" : "256KiB", workload.equals("all-to-all") ? "" : """
                failures:
                  links: [{a: e1, b: a1}]
                  convergenceDelayNs: 3000
                  events:
                    - {atUs: 4, link: {a: a0, b: c0}, action: down}
                    - {atUs: 6, link: {a: a4, b: c1}, action: down}
                    - {atUs: 9, link: {a: a4, b: c1}, action: up}
                """));
        byte[] sequential = flows(scenario, "seq", "--threads", "0");
        assertThat(new String(sequential, java.nio.charset.StandardCharsets.UTF_8).lines().count()).as("a row per flow").isGreaterThan(100);
        if (!workload.equals("all-to-all")) {
            assertThat(Files.readString(dir.resolve("seq").resolve("summary.json"))).as("the failures happened")
                    .contains("\"failedLinks\": 1").containsPattern("\"lostAtEvent\": [1-9]");
        }
        for (String threads : new String[] {"1", "2", "3"}) {
            assertThat(flows(scenario, "t" + threads, "--threads", threads)).as("--threads %s", threads).isEqualTo(sequential);
        }
    }

    private byte[] flows(Path scenario, String name, String... extra) throws IOException {
        Path out = dir.resolve(name);
        String[] args = new String[4 + extra.length];
        args[0] = "run";
        args[1] = scenario.toString();
        args[2] = "--out";
        args[3] = out.toString();
        System.arraycopy(extra, 0, args, 4, extra.length);
        MainTest.Result r = lbsim(args);
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isZero();
        return Files.readAllBytes(out.resolve("flows.csv"));
    }
}
