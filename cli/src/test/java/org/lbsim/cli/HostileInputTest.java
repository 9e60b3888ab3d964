package org.lbsim.cli;

import org.lbsim.cli.errors.Failures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile inputs, one each: inputs that could hang, explode or print wrong numbers with exit 0 get
 * exit 2 with one line naming the field (before any simulation), or a completed, correct run that
 * says how it ended.
 */
class HostileInputTest {
    /** A 16-host fat tree, 64 KiB messages: milliseconds per run. */
    static final String SMALL = """
            name: small
            topology: {type: fat-tree, k: 4}
            workload: {type: permutation, messageBytes: 65536}
            limits: {maxTimeUs: 5000}
            """;

    @TempDir
    Path dir;

    Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /** The one error line of {@code run} (no run folder written) and of {@code validate}: both the same, exit 2. */
    String refused(String scenario, String... sets) throws IOException {
        Path f = file("s.yaml", scenario);
        Path out = dir.resolve("out");
        String[] runArgs = Stream.concat(Stream.of("run", f.toString(), "--out", out.toString()), Stream.of(sets).flatMap(s -> Stream.of("--set", s)))
                .toArray(String[]::new);
        String line = lbsim(runArgs).errorLine();
        assertThat(out).doesNotExist();
        String[] validateArgs = Stream.concat(Stream.of("validate", f.toString()), Stream.of(sets).flatMap(s -> Stream.of("--set", s)))
                .toArray(String[]::new);
        assertThat(lbsim(validateArgs).errorLine()).isEqualTo(line);
        return line;
    }

    static Stream<Arguments> refusedSets() {
        return Stream.of(
                // hangs: a derangement of one host, periods that round to 0 ps, a time limit that is none
                Arguments.of(new String[] {"switches.pfc.enabled=true", "switches.pfc.deadlockCheckUs=1e-7"}, "switches.pfc.deadlockCheckUs: must be a number of microseconds between 0.000001 (1 ps)"),
                Arguments.of(new String[] {"lossRecovery.type=sack", "lossRecovery.rtoUs=1e-7"}, "lossRecovery.rtoUs: must be a number of microseconds between 0.000001"),
                Arguments.of(new String[] {"lossRecovery.type=nic-sr", "lossRecovery.rtoUs=1e-7"}, "lossRecovery.rtoUs: must be a number of microseconds between 0.000001"),
                Arguments.of(new String[] {"loadBalancing.type=ar", "loadBalancing.refreshUs=1e-7"}, "loadBalancing.refreshUs: must be a number of microseconds between 0.000001"),
                Arguments.of(new String[] {"limits.maxTimeUs=1e30"}, "limits.maxTimeUs: must be a number of microseconds between 0.000001 (1 ps) and 1000000000, got 1.0E30"),
                // overflowing packet counts and memory
                Arguments.of(new String[] {"workload.messageBytes=17592186044416"}, "workload.messageBytes: 17592186044416 bytes are 4294967296 packets"),
                Arguments.of(new String[] {"workload.messageBytes=1099511627776"}, "workload.messageBytes: 16 queue pairs of 268435456 packets each need about"),
                Arguments.of(new String[] {"workload.messageBytes=8796093022208"}, "workload.messageBytes: 8796093022208 bytes are 2147483648 packets of packets.mtuBytes = 4096 per queue pair, more than the 2147483519"),
                // delays that overflow picoseconds or outlast any run
                Arguments.of(new String[] {"topology.hostLink.delayNs=1e30"}, "topology.hostLink.delayNs: must be a number of nanoseconds between 0 and 1000000000 (1 s), got 1.0E30"),
                Arguments.of(new String[] {"topology.hostLink.delayNs=2147483648"}, "topology.hostLink.delayNs: must be a number of nanoseconds between 0 and 1000000000 (1 s), got 2147483648"),
                Arguments.of(new String[] {"topology.hostLink.rateGbps=1e-9"}, "topology.hostLink.rateGbps: must be a number of Gb/s between 0.001 and 1000000"),
                Arguments.of(new String[] {"name=" + "n".repeat(300)}, "name: must be at most 100 characters, got 300"),
                Arguments.of(new String[] {"metrics.sampleIntervalUs=1e-9"}, "metrics.sampleIntervalUs: must be 0 (off) or a number of microseconds between 0.000001 (1 ps)"),
                Arguments.of(new String[] {"topology.k=128"}, "topology: 524288 hosts x 20480 switches = 10737418240 forwarding entries"));
    }

    @ParameterizedTest
    @MethodSource("refusedSets")
    void refusedBeforeSimulatingWithTheFieldNamed(String[] sets, String expected) throws IOException {
        assertThat(refused(SMALL, sets)).startsWith("lbsim: ").contains(expected);
    }

    /**
     * Every semantic error of a scenario file at once, one line each at the field's line and column (a map entry at its
     * key); a field set by --set at the --set.
     */
    @Test
    void everyErrorOfAScenarioNamesItsLineAndColumn() throws IOException {
        Path f = file("s.yaml", """
                name: bad
                topology:
                  type: fat-tree
                  k: 5
                workload: {type: permutation, messageBytes: -4096}
                limits:
                  maxTimeUs: -5
                """);
        MainTest.Result r = lbsim("validate", f.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(r.err().lines().toList()).containsExactlyInAnyOrder(
                "lbsim: " + f + ":4:3: topology.k: must be an even integer between 2 and 128, got 5",
                "lbsim: " + f + ":5:31: workload.messageBytes: must be >= 1 byte, got -4096",
                "lbsim: " + f + ":7:3: limits.maxTimeUs: must be a number of microseconds between 0.000001 (1 ps) and 1000000000, got -5");
        assertThat(lbsim("validate", f.toString(), "--set", "topology.k=4", "--set", "workload.messageBytes=4096", "--set", "limits.maxTimeUs=100",
                "--set", "workload.hosts=17").errorLine())
                .isEqualTo("lbsim: --set workload.hosts=17: workload.hosts: must be <= the 16 hosts of the topology, got 17");
        Path g = file("g.yaml", "topology: {type: fat-tree, k: 4}\nworkload: {type: permutation}\nswitches:\n  pfc: {enabled: true, deadlockCheckUs: 1e-7}\n");
        assertThat(lbsim("validate", g.toString()).errorLine()).startsWith("lbsim: " + g + ":4:24: switches.pfc.deadlockCheckUs: ");
    }

    @Test
    void aPermutationOnAOneHostFabricIsRefusedInsteadOfSpinning() throws IOException {
        assertThat(refused(SMALL.replace("{type: fat-tree, k: 4}", "{type: leaf-spine, hostsPerLeaf: 1, leaves: 1, spines: 1}")))
                .contains("workload: a permutation needs at least 2 hosts, the topology has 1");
        assertThat(refused(SMALL.replace("{type: fat-tree, k: 4}", "{type: leaf-spine, hostsPerLeaf: 1, leaves: 1, spines: 1}")
                .replace("permutation", "all-to-all"))).contains("workload: an all-to-all needs at least 2 hosts, the topology has 1");
    }

    @Test
    void nanAndInfinityNameTheField() throws IOException {
        assertThat(refused(SMALL.replace("maxTimeUs: 5000", "maxTimeUs: .nan"))).contains("limits.maxTimeUs: must be a finite number");
        assertThat(refused(SMALL + "metrics: {sampleIntervalUs: .inf}\n")).contains("metrics.sampleIntervalUs: must be a finite number");
        assertThat(refused(SMALL + "metrics: {sampleIntervalUs: -.inf}\n")).contains("metrics.sampleIntervalUs: must be a finite number");
    }

    @Test
    void aTraceStartingNearTwoToTheSixtyThreeIsRefused() throws IOException {
        file("t.csv", "src,dst,bytes,start_ns\n0,1,4096,0\n1,0,4096,9223372036854775807\n");
        String line = refused(SMALL.replace("{type: permutation, messageBytes: 65536}", "{type: trace, file: t.csv}"));
        assertThat(line).contains("t.csv:3: start_ns: must be a number of nanoseconds between 0 and 1000000000000");
    }

    @Test
    void aTraceFlowStartingAfterTheTimeLimitIsRefused() throws IOException {
        file("t.csv", "src,dst,bytes,start_ns\n0,1,4096,0\n1,0,4096,6000000\n");
        String line = refused(SMALL.replace("{type: permutation, messageBytes: 65536}", "{type: trace, file: t.csv}"));
        assertThat(line).contains("limits.maxTimeUs: flow 1 starts at 6000.0 us, not before the simulated-time limit of 5000.0 us");
    }

    static final String CUSTOM = """
            name: custom
            topology:
              type: custom
              hosts: 3
              switches: [s0, s1, s2]
              links: [h0 s0, h1 s1, h2 s2, s0 s1]
              linkRateGbps: 400
              linkDelayNs: 500
              routes: []
            workload: {type: trace, file: t.csv}
            limits: {maxTimeUs: 5000}
            """;

    @Test
    void aDisconnectedHostOfACustomTopologyIsRefused() throws IOException {
        file("t.csv", "src,dst,bytes,start_ns\n0,1,4096,0\n0,2,4096,0\n");
        assertThat(refused(CUSTOM)).contains("topology.links: host h0 has no route to host h2 (flow 1)");
    }

    @Test
    void loopingStaticRoutesAreRefused() throws IOException {
        file("t.csv", "src,dst,bytes,start_ns\n0,1,4096,0\n");
        String looping = CUSTOM.replace("s0 s1]", "s0 s1, s1 s2, s2 s0]").replace("routes: []", "routes: [s0 h1 s2, s2 h1 s0]");
        assertThat(refused(looping)).contains("topology.routes: host h0 has no route to host h1 (flow 0)").contains("static routes loop");
    }

    @Test
    void aLongCustomChainStillRuns() throws IOException {
        // paths longer than the tier count allowed for used to fail in the bound's path walk
        file("t.csv", "src,dst,bytes,start_ns\n0,1,8192,0\n");
        Path f = file("chain.yaml", """
                name: chain
                topology: {type: custom, hosts: 2, switches: [a, b, c, d, e], links: [h0 a, a b, b c, c d, d e, e h1], linkRateGbps: 400, linkDelayNs: 500, routes: []}
                workload: {type: trace, file: t.csv}
                limits: {maxTimeUs: 5000}
                """);
        MainTest.Result r = lbsim("run", f.toString(), "--out", dir.resolve("run").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("flows        1 of 1 finished", "ending       completed");
    }

    @Test
    void anUnwritableOutputIsFoundBeforeSimulating() throws IOException {
        Path f = file("s.yaml", SMALL);
        Path blocker = file("plain-file", "x");
        MainTest.Result r = lbsim("run", f.toString(), "--out", blocker.resolve("run").toString());
        assertThat(r.errorLine()).contains("--out " + blocker.resolve("run")).contains("is a file, not a folder");
        r = lbsim("run", f.toString(), "--db", blocker.resolve("x.duckdb").toString());
        assertThat(r.errorLine()).contains("--db").contains("is a file, not a folder");
    }

    @Test
    void aTinySampleIntervalRunsWithBoundedSeriesAndSaysSo() throws IOException {
        Path f = file("s.yaml", SMALL + "metrics: {sampleIntervalUs: 1e-6, rateSeriesQps: 1}\n");
        Path out = dir.resolve("run");
        MainTest.Result r = lbsim("run", f.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String summary = Files.readString(out.resolve("summary.json"));
        assertThat(summary).contains("\"ending\": \"completed\"").containsPattern("\"seriesDecimations\": [1-9]");
        long rows;
        try (Stream<String> lines = Files.lines(out.resolve("series.csv"))) {
            rows = lines.filter(l -> l.startsWith("goodput,")).count();
        }
        assertThat(rows).isBetween(1L, 65536L);
    }

    @Test
    void aRunThatCanNeverFinishEndsAtItsTimeLimitWithBoundedSeriesAndSaysWhy() throws IOException {
        Path f = file("s.yaml", """
                name: stuck
                topology: {type: fat-tree, k: 4}
                workload: {type: permutation, messageBytes: 65536}
                failures: {links: [{a: e0, b: a0}], convergenceDelayNs: -1}
                metrics: {sampleIntervalUs: 0.05}
                limits: {maxTimeUs: 5000}
                """);
        Path out = dir.resolve("run");
        MainTest.Result r = lbsim("run", f.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("ending       time-limit: simulated-time limit limits.maxTimeUs = 5000.0 us reached; [0-9]+ of 16 queue pairs unfinished");
        String summary = Files.readString(out.resolve("summary.json"));
        assertThat(summary).contains("\"ending\": \"time-limit\"", "\"cctPs\": -1,").containsPattern("\"seriesDecimations\": [1-9]");
        try (Stream<String> lines = Files.lines(out.resolve("series.csv"))) {
            assertThat(lines.filter(l -> l.startsWith("goodput,")).count()).isLessThanOrEqualTo(65536L);
        }
    }

    @Test
    void aPfcDeadlockIsNamedOnTheConsoleAndInTheSummary() throws IOException {
        file("ring.csv", "src,dst,bytes,start_ns\n0,2,10000000,0\n1,0,10000000,0\n2,1,10000000,0\n");
        Path f = file("ring.yaml", """
                name: ring
                topology:
                  type: custom
                  hosts: 3
                  switches: [s0, s1, s2]
                  links: [h0 s0, h1 s1, h2 s2, s0 s1, s1 s2, s2 s0]
                  linkRateGbps: 100
                  linkDelayNs: 1000
                  routes: [s0 h2 s1, s1 h0 s2, s2 h1 s0]
                switches: {pfc: {enabled: true, xoffBytes: 100000, xonBytes: 80000, headroomBytes: 60000, deadlockCheckUs: 50}}
                lossRecovery: {type: go-back-n}
                workload: {type: trace, file: ring.csv}
                limits: {maxTimeUs: 5000}
                """);
        Path out = dir.resolve("run");
        MainTest.Result r = lbsim("run", f.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("flows        0 of 3 finished").containsPattern("ending       pfc-deadlock: PFC deadlock at .* cycle of paused ports .*s0->s1");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"ending\": \"pfc-deadlock\"", "\"endingDetail\": \"PFC deadlock at ");
    }

    @Test
    void theWallClockLimitEndsARunAndSaysSo() throws IOException {
        Path f = file("s.yaml", SMALL);
        Path out = dir.resolve("run");
        // a deadline already past: the first check, before the first event, stops the run
        MainTest.Result r = lbsim("run", f.toString(), "--out", out.toString(), "--max-wall-seconds", "1e-9");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("flows        0 of 16 finished", "ending       wall-limit: wall-clock limit of 1.0E-9 s reached");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"ending\": \"wall-limit\"");
        assertThat(lbsim("run", f.toString(), "--max-wall-seconds", "-1").errorLine())
                .isEqualTo("lbsim: --max-wall-seconds -1.0: must be a number of seconds between 0 (exclusive) and 1000000000");
    }

    @Test
    void aCompletedRunSaysSoAndAGenerousWallLimitChangesNothing() throws IOException {
        Path f = file("s.yaml", SMALL);
        MainTest.Result a = lbsim("run", f.toString(), "--out", dir.resolve("a").toString());
        MainTest.Result b = lbsim("run", f.toString(), "--out", dir.resolve("b").toString(), "--max-wall-seconds", "600");
        assertThat(a.out()).contains("ending       completed\n".replace("\n", System.lineSeparator()));
        assertThat(Files.readString(dir.resolve("a/summary.json"))).contains("\"ending\": \"completed\",", "\"endingDetail\": \"\",")
                .isEqualTo(Files.readString(dir.resolve("b/summary.json")));
        assertThat(b.code()).isZero();
    }

    @Test
    void outOfMemorySaysHowToGiveMoreHeap() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = Failures.report(new OutOfMemoryError("Java heap space"), false, new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)).status();
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8).strip()).startsWith("lbsim: out of memory (this JVM may use ")
                .contains("LBSIM_OPTS=-Xmx16g").doesNotContain("\n");
    }

    // ---- sweeps

    @Test
    void aSweepSettingOneFieldThroughAPrefixIsRefused() throws IOException {
        Path s = file("sw.yaml", """
                base: {topology: {type: fat-tree, k: 4}, workload: {messageBytes: 65536}}
                grid:
                  topology: [{k: 4}]
                points:
                  - {topology.k: 6}
                """);
        assertThat(lbsim("sweep", s.toString(), "--out", dir.resolve("o").toString()).errorLine())
                .isEqualTo("lbsim: " + s + ":5:6: points[0].topology.k: overlaps grid key 'topology' (both set topology.k); set a field in the grid or in the points, not both");
        Path g = file("sg.yaml", """
                grid:
                  topology: [{k: 4}]
                  topology.k: [6]
                """);
        assertThat(lbsim("sweep", g.toString(), "--out", dir.resolve("o").toString()).errorLine())
                .contains("grid.topology.k: overlaps grid key 'topology'");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void duplicatePointsAreRefused() throws IOException {
        Path s = file("sw.yaml", """
                base: {topology: {type: fat-tree, k: 4}, workload: {messageBytes: 65536}}
                points:
                  - {loadBalancing.type: ecmp}
                  - {loadBalancing.type: host-spray}
                  - {loadBalancing: {type: ecmp}}
                """);
        assertThat(lbsim("sweep", s.toString(), "--out", dir.resolve("o").toString()).errorLine())
                .isEqualTo("lbsim: " + s + ":2:1: points: point 2 (loadBalancing={type: ecmp}) runs the same scenario as point 0 (loadBalancing.type=ecmp)"
                        + " (seed 1 in both); remove the duplicate");
        Path seeds = file("seeds.yaml", """
                base: {topology: {type: fat-tree, k: 4}, workload: {messageBytes: 65536}}
                grid: {seed: [1, 2]}
                seeds: 2
                """);
        assertThat(lbsim("sweep", seeds.toString(), "--out", dir.resolve("o").toString()).errorLine())
                .contains("grid: point 1 (seed=2) runs the same scenario as point 0 (seed=1) (seed 2 in both)");
    }

    @Test
    void theSummaryTableAveragesFinishedRunsOnly() throws Exception {
        Path s = file("sw.yaml", """
                name: avg
                base: {topology: {type: fat-tree, k: 4}, workload: {messageBytes: 65536}, limits: {maxTimeUs: 5000}}
                seeds: 2
                """);
        Path out = dir.resolve("o");
        MainTest.Result first = lbsim("sweep", s.toString(), "--out", out.toString(), "--jobs", "1");
        assertThat(first.code()).as(first.err()).isZero();
        long cct;
        // make seed 2 look unfinished, as a run stopped by its time limit is recorded
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + out.resolve("results.duckdb"));
             Statement st = c.createStatement()) {
            var rs = st.executeQuery("SELECT cct_ps FROM runs WHERE seed = 1");
            rs.next();
            cct = rs.getLong(1);
            st.execute("UPDATE runs SET cct_ps = -1, cct_increase_pct = NULL WHERE seed = 2");
        }
        MainTest.Result again = lbsim("sweep", s.toString(), "--out", out.toString());
        assertThat(again.code()).as(again.err()).isZero();
        String row = again.out().lines().filter(l -> l.trim().startsWith("0 ")).findFirst().orElseThrow();
        String[] cells = row.trim().split("\\s+");
        assertThat(cells).containsExactly("0", "2", cells[2], cells[3], "1");
        // printed to its precision: 14.79 for 14.790
        assertThat(Double.parseDouble(cells[2])).isEqualTo(Math.round(cct / 1e3) / 1e3);
    }

    @Test
    void aTraceEditedBetweenResumesIsDetected() throws IOException {
        Path trace = file("t.csv", "src,dst,bytes,start_ns\n0,1,65536,0\n1,0,65536,0\n");
        Path s = file("sw.yaml", """
                name: tr
                base: {topology: {type: fat-tree, k: 4}, workload: {type: trace, file: t.csv}, limits: {maxTimeUs: 5000}}
                seeds: 1
                """);
        Path out = dir.resolve("o");
        assertThat(lbsim("sweep", s.toString(), "--out", out.toString(), "--quiet").code()).isZero();
        assertThat(lbsim("sweep", s.toString(), "--out", out.toString(), "--seeds", "2", "--quiet").code()).as("unchanged trace resumes").isZero();
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,1,65536,0\n1,0,131072,0\n");
        assertThat(lbsim("sweep", s.toString(), "--out", out.toString(), "--seeds", "3").errorLine())
                .contains("run 'tr-p0-seed1' of sweep 'tr' was recorded with another version of its trace (workload.file t.csv changed since");
    }
}
