package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A parameter just outside its range in a scenario file, one per scheme (PRO, Themis, ECMP, DCQCN) and for
 * the packet sizes: {@code run} and {@code validate} print the same one line naming the file, the
 * position of the field's key, the field and the allowed range, exit with 2 and write no run folder; the
 * value just inside runs.
 */
class SchemeRangesCliTest {
    static final String BASE = """
            name: ranges
            seed: 3
            topology: {type: fat-tree, k: 4}
            workload: {type: permutation, messageBytes: 16384}
            """;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            loadBalancing: {type: pro, batchPackets: 4097}        | loadBalancing.batchPackets: must be between 1 and 4096, got 4097 | 4096
            loadBalancing: {type: pro, mprdmaProbe: 1.01}         | loadBalancing.mprdmaProbe: must be between 0 and 1, got 1.01 | 1
            loadBalancing: {type: themis, ringEntries: 65537}     | loadBalancing.ringEntries: must be between 0 (from the formula) and 65536, got 65537 | 65536
            loadBalancing: {type: themis, capacityFactor: 0.99}   | loadBalancing.capacityFactor: must be between 1 and 16, got 0.99 | 1
            loadBalancing: {type: ecmp, htsimSeed: -1}            | loadBalancing.htsimSeed: must be a non-negative integer (htsim reads it with atoi), got -1 | 0
            congestionControl: {type: dcqcn, alphaGain: 0}        | congestionControl.alphaGain: must be in (0, 1], got 0 | 1
            congestionControl: {type: dcqcn, minRateGbps: 0.0009} | congestionControl.minRateGbps: must be a number of Gb/s between 0.001 and 1000000, got 0.0009 | 0.001
            packets: {mtuBytes: 0}                                | packets.mtuBytes: must be between 1 and 1048576, got 0 | 1024
            """)
    void aValueJustOutsideIsOneLineNamingTheFileAndFieldTheOneJustInsideRuns(String line, String problem, String inside) throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, BASE + line + "\n");
        String value = problem.substring(problem.lastIndexOf("got ") + 4);
        String field = problem.substring(0, problem.indexOf(':'));
        int column = line.indexOf(field.substring(field.lastIndexOf('.') + 1) + ":") + 1;
        assertThat(refused(f)).isEqualTo("lbsim: " + f + ":5:" + column + ": " + problem);
        Path good = dir.resolve("good.yaml");
        Files.writeString(good, BASE + line.replace(": " + value + "}", ": " + inside + "}") + "\n");
        MainTest.Result ok = lbsim("run", good.toString(), "--out", dir.resolve("good").toString(), "--quiet");
        assertThat(ok.code()).as("stderr: %s", ok.err()).isZero();
    }

    /** k = 4 fat tree, 800 Gb/s host links, 4096-byte MTU, F = 1.5: ceil(800e9 b/s x RTT_last x 1.5 / (8 x 4096 B)) = ceil(36.62 x RTT_last in us) entries. */
    @Test
    void aThemisRingTheFormulaSizesBeyondTheBoundIsRefusedBeforeTheRun() throws IOException {
        Path inside = dir.resolve("inside.yaml");
        Files.writeString(inside, BASE + "loadBalancing: {type: themis, lastHopRttUs: 1789}\n");
        MainTest.Result ok = lbsim("validate", inside.toString());
        assertThat(ok.code()).as("stderr: %s", ok.err()).isZero();
        Path outside = dir.resolve("outside.yaml");
        Files.writeString(outside, BASE + "loadBalancing: {type: themis, lastHopRttUs: 1790}\n");
        assertThat(refused(outside)).isEqualTo("lbsim: " + outside + ":5:1: loadBalancing.ringEntries: must be between 0 (from the formula) and 65536;"
                + " 0 gives ceil(BW x RTT_last x F / MTU) = 65552 for a host link of 800 Gb/s, lastHopRttUs 1790, capacityFactor 1.5 and an MTU of 4096 B:"
                + " lower one of these or give ringEntries");
    }

    /** The one error line of {@code run} (no run folder), which {@code validate} prints too. */
    private String refused(Path scenario) {
        Path out = dir.resolve("out");
        String line = lbsim("run", scenario.toString(), "--out", out.toString()).errorLine();
        assertThat(out).doesNotExist();
        assertThat(lbsim("validate", scenario.toString()).errorLine()).isEqualTo(line);
        return line;
    }
}
