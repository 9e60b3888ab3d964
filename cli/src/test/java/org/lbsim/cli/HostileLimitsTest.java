package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cli.command.ReproduceCommand;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.sweep.PhaseProgress;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.Simulation;

/**
 * Inputs that ran away, hung or crashed on their size or their times: timers shorter than the fabric can
 * resolve, huge workloads, long lines and endless streams, times beyond the longest simulated time, more
 * sweep threads than the machine has, and files as spreadsheets and editors write them. Each gives one line
 * with exit code 2, or a correct run, quickly.
 */
class HostileLimitsTest {
    private static final Duration CAP = Duration.ofSeconds(60);
    /** b.yaml of the hostile-input probe, as {@link HostileWritesTest} has it. */
    static final String B = HostileWritesTest.B;

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private static MainTest.Result capped(String... args) {
        return assertTimeoutPreemptively(CAP, () -> lbsim(args));
    }

    // --- timers against the fabric (one frame at 800 Gb/s: 4096 + 62 + 20 bytes = 41.78 ns; links 500 ns) ---

    static Stream<Arguments> tooShortTimers() {
        String frame = "must be at least 0.04178 us, the time of one 4178-byte frame at 800 Gb/s";
        String hop = "must be at least 0.5 us, the propagation delay of the shortest link";
        return Stream.of(
                Arguments.of(List.of("lossRecovery.type=sack", "lossRecovery.rtoUs=0.000001"), "lossRecovery.rtoUs: " + frame),
                Arguments.of(List.of("lossRecovery.type=go-back-n", "lossRecovery.rtoUs=0.1"), "lossRecovery.rtoUs: " + hop),
                Arguments.of(List.of("lossRecovery.type=nic-sr", "lossRecovery.nackIntervalUs=0.01"), "lossRecovery.nackIntervalUs: " + frame),
                Arguments.of(List.of("lossRecovery.type=irn", "lossRecovery.rtoUs=0.3"), "lossRecovery.rtoUs: " + hop),
                Arguments.of(List.of("failures.mtbfUs=0.000001", "failures.mttrUs=10"), "failures.mtbfUs: " + frame),
                Arguments.of(List.of("failures.mtbfUs=100", "failures.mttrUs=0.000001"), "failures.mttrUs: " + frame),
                Arguments.of(List.of("switches.pfc.enabled=true", "switches.pfc.deadlockCheckUs=0.000001"), "switches.pfc.deadlockCheckUs: " + frame),
                Arguments.of(List.of("switches.pfc.enabled=true", "switches.pfc.deadlockCheckUs=0.2"), "switches.pfc.deadlockCheckUs: " + hop),
                Arguments.of(List.of("congestionControl.type=dcqcn", "congestionControl.rateIncreaseTimerUs=0.00001"),
                        "congestionControl.rateIncreaseTimerUs: " + frame),
                Arguments.of(List.of("congestionControl.type=dcqcn", "congestionControl.alphaUpdateUs=0.001"), "congestionControl.alphaUpdateUs: " + frame),
                Arguments.of(List.of("loadBalancing.type=ar", "loadBalancing.refreshUs=0.000001"), "loadBalancing.refreshUs: " + frame),
                Arguments.of(List.of("loadBalancing.type=letflow", "loadBalancing.flowletTimeoutUs=0.01"), "loadBalancing.flowletTimeoutUs: " + frame),
                Arguments.of(List.of("loadBalancing.type=conga", "loadBalancing.dreUs=0.000001"), "loadBalancing.dreUs: " + frame),
                Arguments.of(List.of("loadBalancing.type=host-pkt-ar", "loadBalancing.minRtoUs=0.1"), "loadBalancing.minRtoUs: " + hop),
                Arguments.of(List.of("loadBalancing.type=dlbf", "loadBalancing.thetaUs=0.01"), "loadBalancing.thetaUs: " + frame),
                Arguments.of(List.of("loadBalancing.type=pro", "loadBalancing.rtoUs=0.000001"), "loadBalancing.rtoUs: " + frame));
    }

    @ParameterizedTest
    @MethodSource("tooShortTimers")
    void aTimerShorterThanTheFabricCanResolveIsRefusedBeforeAnythingIsBuilt(List<String> sets, String message) throws IOException {
        Path f = file("b.yaml", B);
        for (String command : List.of("validate", "run")) {
            List<String> args = new ArrayList<>(List.of(command, f.toString(), "--out", dir.resolve("run").toString()));
            if (command.equals("validate")) {
                args.subList(2, 4).clear();
            }
            for (String s : sets) {
                args.addAll(List.of("--set", s));
            }
            assertThat(capped(args.toArray(String[]::new)).errorLine()).contains(message);
            assertThat(dir.resolve("run")).doesNotExist();
        }
    }

    @Test
    void aTimerAtTheBoundRunsAndTheBoundFollowsTheLinkRate() throws IOException {
        Path f = file("b.yaml", B);
        MainTest.Result r = capped("validate", f.toString(), "--set", "lossRecovery.type=sack", "--set", "lossRecovery.rtoUs=0.5");
        assertThat(r.code()).as(r.err()).isZero();
        // at 100 Gb/s a frame takes 334.24 ns, above the 100 ns links
        String slow = B.replace("topology: {type: fat-tree, k: 4}", "topology: {type: fat-tree, k: 4, hostLink: {rateGbps: 100, delayNs: 100},"
                + " edgeAggLink: {rateGbps: 100, delayNs: 100}, aggCoreLink: {rateGbps: 100, delayNs: 100}}");
        Path s = file("slow.yaml", slow);
        assertThat(capped("validate", s.toString(), "--set", "loadBalancing.type=ar", "--set", "loadBalancing.refreshUs=0.3").errorLine())
                .contains("loadBalancing.refreshUs: must be at least 0.33424 us, the time of one 4178-byte frame at 100 Gb/s");
        r = capped("validate", s.toString(), "--set", "loadBalancing.type=ar", "--set", "loadBalancing.refreshUs=0.33424");
        assertThat(r.code()).as(r.err()).isZero();
    }

    /** The examples, benchmark scenarios and every point of every reproduction (full and quick) pass the checks made before building. */
    @Test
    void everyShippedScenarioAndReproductionPointPassesTheChecksBeforeBuilding() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String folder : List.of("../examples", "../bench/scenarios")) {
            try (Stream<Path> files = Files.list(Path.of(folder))) {
                for (Path p : files.filter(x -> x.toString().endsWith(".yaml")).sorted().toList()) {
                    Object tree = Yaml.read(p, p.toString());
                    List<Scenario> scenarios = tree instanceof Map<?, ?> m && (m.containsKey("grid") || m.containsKey("points"))
                            ? SweepFile.load(p.toString(), null, false).points.stream().map(SweepFile.Point::scenario).toList()
                            : List.of(ScenarioBinder.bind(tree));
                    for (Scenario s : scenarios) {
                        checked += check(p.toString(), s, problems);
                    }
                }
            }
        }
        for (String name : ReproduceCommand.names()) {
            Map<String, Object> def = ReproduceCommand.definition(name);
            for (boolean quick : new boolean[] {false, true}) {
                Path folder = Files.createDirectories(dir.resolve(name + (quick ? "-quick" : "")));
                @SuppressWarnings("unchecked")
                Map<String, Object> files = (Map<String, Object>) def.getOrDefault("files", Map.of());
                for (Map.Entry<String, Object> f : files.entrySet()) {
                    Files.writeString(folder.resolve(f.getKey()), String.valueOf(f.getValue()), StandardCharsets.UTF_8);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> sweep = new LinkedHashMap<>((Map<String, Object>) def.get("sweep"));
                if (quick && def.get("quickSweep") instanceof Map<?, ?> q) {
                    q.forEach((k, v) -> sweep.put(String.valueOf(k), v));
                }
                Path sweepFile = folder.resolve("sweep.yaml");
                Files.writeString(sweepFile, Yaml.write(sweep), StandardCharsets.UTF_8);
                for (SweepFile.Point p : SweepFile.load(sweepFile.toString(), null, quick).points) {
                    checked += check(name + (quick ? " --quick " : " ") + p.describe(), p.scenario(), problems);
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).isGreaterThan(500);
    }

    /** 1 when the scenario passes; its problem added otherwise (a refusal for this JVM's heap alone depends on the machine). */
    private static int check(String where, Scenario s, List<String> problems) {
        try {
            Simulation.checkBeforeBuilding(s);
        } catch (RuntimeException e) {
            if (!e.getMessage().contains("of heap")) {
                problems.add(where + ": " + e.getMessage());
            }
        }
        return 1;
    }

    // --- the wall-clock limit covers reading and building too ---

    @Test
    void theWallClockLimitStopsARunStillBeingBuilt() throws IOException {
        // a k = 48 fat tree (27,648 hosts) takes several seconds to build on any machine; the build gets at least 1 s
        // (a k = 40 build finished within that second on an idle machine)
        Path f = file("big.yaml", B.replace("k: 4", "k: 48").replace("65536", "4096"));
        Path out = dir.resolve("run");
        MainTest.Result r = capped("run", f.toString(), "--max-wall-seconds", "0.2", "--out", out.toString());
        assertThat(r.errorLine()).isEqualTo("lbsim: --max-wall-seconds 0.2: the wall-clock limit passed while the run was being read, checked"
                + " and built, before simulating; nothing was written (raise the limit, or make the run smaller)");
        assertThat(out).doesNotExist();
    }

    @Test
    void aWallClockLimitThatDoesNotTriggerChangesNothing() throws IOException {
        Path f = file("b.yaml", B);
        MainTest.Result with = capped("run", f.toString(), "--max-wall-seconds", "600", "--out", dir.resolve("with").toString());
        MainTest.Result without = capped("run", f.toString(), "--out", dir.resolve("without").toString());
        assertThat(with.code()).as(with.err()).isZero();
        assertThat(without.code()).as(without.err()).isZero();
        assertThat(Files.readString(dir.resolve("with/summary.json"))).isEqualTo(Files.readString(dir.resolve("without/summary.json")));
        assertThat(with.out()).contains("ending       completed");
    }

    // --- sizes from the spec, before building ---

    static Stream<Arguments> hugeWorkloads() {
        return Stream.of(
                Arguments.of("workload: {type: collective, op: all-reduce, bytes: 65536, iterations: 1000000}",
                        "workload.iterations: ", "1000000 iterations x 480 flows of all-reduce/ring on 16 ranks"),
                Arguments.of("workload: {type: jobs, jobs: [{op: all-to-all, algorithm: parallel, bytes: 65536, hosts: 8, iterations: 1000000}]}",
                        "workload.jobs[0].iterations: ", "1000000 iterations x 56 flows of all-to-all/parallel on 8 ranks"),
                Arguments.of("workload: {type: jobs, jobs: [{op: all-reduce, bytes: 65536, hosts: 8}],"
                                + " background: [{type: long-lived, flows: 2000000000, bytes: 1000, bothWays: true}]}",
                        "workload.background[0].flows: the workload would have about 4000000112 flows (4000000000 long-lived flows), more than"
                                + " a run can hold (2^30 = 1073741824)", ""),
                Arguments.of("workload: {type: jobs, jobs: [{op: all-reduce, bytes: 65536, hosts: 8}],"
                                + " background: [{type: poisson, cdf: hadoop, load: 0.9, durationUs: 1000000000}]}",
                        "workload.background[0].durationUs: the workload would have about ", "Poisson arrivals (8 hosts x 1000000000 us at load 0.9"));
    }

    /**
     * {@code :line:column} of the field that {@code message} starts with, where {@code yaml} replaced the workload line
     * of {@link #B} (line 4): the column of the field's last key in the first line of {@code yaml}.
     */
    static String at(String yaml, String message) {
        String field = message.substring(0, message.indexOf(": "));
        String key = field.substring(field.lastIndexOf('.') + 1).replaceAll("\\[\\d+\\]$", "");
        int column = yaml.lines().findFirst().orElseThrow().indexOf(key + ":");
        assertThat(column).as(key + " in " + yaml).isNotNegative();
        return ":4:" + (column + 1);
    }

    @ParameterizedTest
    @MethodSource("hugeWorkloads")
    void aWorkloadTooLargeToBuildIsRefusedFromItsSpecAtOnce(String workload, String start, String detail) throws IOException {
        Path f = file("w.yaml", B.replace("workload: {type: permutation, messageBytes: 65536}", workload));
        for (String command : List.of("validate", "run")) {
            String line = capped(command, f.toString()).errorLine();
            assertThat(line).startsWith("lbsim: " + f + at(workload, start) + ": " + start).contains(detail);
        }
    }

    // --- long lines, huge and endless files ---

    @Test
    void aHugeSingleLineValueIsRefusedAtOnce() throws IOException {
        Path f = dir.resolve("long.yaml");
        try (OutputStream o = Files.newOutputStream(f)) {
            o.write(B.getBytes(StandardCharsets.UTF_8));
            o.write("metrics: {sampleIntervalUs: 1}\nx: ".getBytes(StandardCharsets.UTF_8));
            byte[] chunk = "a".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 50; i++) {
                o.write(chunk);
            }
            o.write('\n');
        }
        assertThat(capped("validate", f.toString()).errorLine()).isEqualTo("lbsim: " + f + ": is larger than 3 MiB; a scenario or sweep file is"
                + " at most 3145728 bytes (is this the right file?)");
        Path m = file("mega.yaml", B + "name2: " + "a".repeat(1 << 20) + "\n");
        assertThat(capped("validate", m.toString()).errorLine()).isEqualTo("lbsim: " + m + ":6: the line is 1048583 characters long, more than"
                + " the 65536 a scenario or sweep file may have on one line");
        Path sweep = file("s.yaml", "name: s\nbase: {topology: {type: fat-tree, k: 4}}\ngrid: {seed: [" + "1, ".repeat(40000) + "2]}\n");
        assertThat(capped("sweep", sweep.toString(), "--out", dir.resolve("o").toString()).errorLine()).contains(sweep + ":3: the line is");
    }

    @Test
    void anEndlessStreamAsScenarioSweepBaseFileOrTraceIsOneLine() throws IOException {
        Path zero = Path.of("/dev/zero");
        if (!Files.exists(zero)) {
            return; // not a Unix-like system
        }
        assertThat(capped("validate", zero.toString()).errorLine()).isEqualTo("lbsim: /dev/zero: is larger than 3 MiB; a scenario or sweep file"
                + " is at most 3145728 bytes (is this the right file?)");
        assertThat(capped("run", zero.toString()).errorLine()).startsWith("lbsim: /dev/zero: is larger than 3 MiB");
        assertThat(capped("sweep", zero.toString(), "--out", dir.resolve("o").toString()).errorLine()).startsWith("lbsim: /dev/zero: is larger than 3 MiB");
        Path base = file("base.yaml", "name: s\nbaseFile: /dev/zero\ngrid: {seed: [1, 2]}\n");
        assertThat(capped("sweep", base.toString(), "--out", dir.resolve("o").toString()).errorLine()).contains("is larger than 3 MiB");
        Path trace = file("t.yaml", "name: t\ntopology: {type: fat-tree, k: 4}\nworkload: {type: trace, file: /dev/zero}\n");
        assertThat(capped("run", trace.toString()).errorLine()).isEqualTo("lbsim: /dev/zero:1: the line is longer than 1048576 characters;"
                + " expected CSV rows (is this a trace file?)");
        Path dag = file("d.yaml", "name: d\ntopology: {type: fat-tree, k: 4}\nworkload: {type: dag-trace, file: /dev/zero}\n");
        assertThat(capped("validate", dag.toString()).errorLine()).contains("/dev/zero:1: the line is longer than 1048576 characters");
        Path sweepTrace = file("st.yaml", "name: st\nbase: {topology: {type: fat-tree, k: 4}, workload: {type: trace, file: /dev/zero}}\n"
                + "grid: {seed: [1, 2]}\n");
        assertThat(capped("sweep", sweepTrace.toString(), "--out", dir.resolve("o2").toString()).errorLine())
                .contains("/dev/zero:1: the line is longer than 1048576 characters");
    }

    @Test
    void aLongTitleOrSweepNameIsRefusedNotWrapped() throws IOException {
        Path sweep = file("s.yaml", "name: " + "n".repeat(30_000) + "\nbase: {topology: {type: fat-tree, k: 4}}\ngrid: {seed: [1, 2]}\n");
        assertThat(capped("sweep", sweep.toString(), "--out", dir.resolve("o").toString()).errorLine())
                .isEqualTo("lbsim: " + sweep + ":1:1: name: must be at most 100 characters (it names the runs and their folder), got 30000");
        assertThat(dir.resolve("o")).doesNotExist();
        Path db = dir.resolve("none.duckdb");
        assertThat(capped("plot", db.toString(), "--title", "t".repeat(30_000)).errorLine())
                .isEqualTo("lbsim: --title: must be at most 200 characters, got 30000");
        assertThat(capped("plot", db.toString(), "--y-title", "t".repeat(201)).errorLine())
                .isEqualTo("lbsim: --y-title: must be at most 200 characters, got 201");
    }

    // --- times within the longest simulated time ---

    static Stream<Arguments> timesBeyondTheLongestRun() {
        String us = "must be at most 1000000000 us (1000 s, the longest simulated time)";
        String ns = "must be at most 1000000000000 ns (1000 s, the longest simulated time)";
        return Stream.of(
                Arguments.of("workload: {type: collective, op: all-reduce, bytes: 65536, gapNs: 1e300}", "workload.gapNs: " + ns + ", got 1.0E300"),
                Arguments.of("workload: {type: jobs, jobs: [{op: all-reduce, bytes: 65536, gapNs: 9.3e15}]}", "workload.jobs[0].gapNs: " + ns),
                Arguments.of("workload: {type: jobs, jobs: [{op: all-reduce, bytes: 65536, startUs: 1e12}]}", "workload.jobs[0].startUs: " + us),
                Arguments.of("workload: {type: fsdp, gpusPerServer: 2, gapNs: 1e16}", "workload.gapNs: " + ns),
                Arguments.of("workload: {type: jobs, jobs: [{op: all-reduce, bytes: 65536, hosts: 8}], background: [{type: poisson, durationUs: 1e300}]}",
                        "workload.background[0].durationUs: " + us),
                Arguments.of("failures: {detectionDelayNs: 1e300}\nworkload: {type: permutation}", "failures.detectionDelayNs: " + ns),
                Arguments.of("failures: {events: [{atUs: 1e300, link: {a: e0, b: a0}, action: down}]}\nworkload: {type: permutation}",
                        "failures.events[0].atUs: " + us),
                Arguments.of("failures: {mtbfUs: 1e300, mttrUs: 1}\nworkload: {type: permutation}", "failures.mtbfUs: " + us),
                Arguments.of("metrics: {portLoadsFromUs: 1e300}\nworkload: {type: permutation}", "metrics.portLoadsFromUs: " + us));
    }

    @ParameterizedTest
    @MethodSource("timesBeyondTheLongestRun")
    void aTimeBeyondTheLongestSimulatedTimeIsOneLineNotACrash(String yaml, String message) throws IOException {
        Path f = file("t.yaml", B.replace("workload: {type: permutation, messageBytes: 65536}", yaml));
        assertThat(capped("run", f.toString(), "--out", dir.resolve("run").toString()).errorLine()).startsWith("lbsim: " + f + at(yaml, message) + ": "
                + message);
        assertThat(dir.resolve("run")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gap_ns", "start_ns"})
    void aDagTraceTimeBeyondTheLongestSimulatedTimeIsOneLine(String column) throws IOException {
        String gap = column.equals("gap_ns") ? "1e300" : "0";
        String start = column.equals("start_ns") ? "9.3e15" : "0";
        file("d.csv", "id,src,dst,bytes,deps,gap_ns,start_ns\n0,0,1,1000,," + gap + "," + start + "\n1,1,2,1000,0,0,0\n");
        Path f = file("d.yaml", "name: d\ntopology: {type: fat-tree, k: 4}\nworkload: {type: dag-trace, file: d.csv}\n");
        assertThat(capped("run", f.toString()).errorLine()).startsWith("lbsim: " + dir.resolve("d.csv") + ":2: " + column
                + ": must be a number of nanoseconds between 0 and 1000000000000, got ");
    }

    @Test
    void aDegradedRateBelowOneMegabitNamesTheSmallestRate() throws IOException {
        Path f = file("f.yaml", B.replace("limits:", "failures: {events: [{atUs: 1, link: {a: e0, b: a0}, action: degrade, rateGbps: 0.0005}]}\nlimits:"));
        assertThat(capped("validate", f.toString()).errorLine()).isEqualTo("lbsim: " + f + ":5:70: failures.events[0].rateGbps: must be at least 0.001"
                + " Gb/s for degrade (rates are kept in whole Mb/s), got 0.0005");
        Path g = file("g.yaml", B.replace("limits:", "failures: {events: [{atUs: 1, link: {a: e0, b: a0}, action: degrade, rateGbps: 900}]}\nlimits:"));
        assertThat(capped("validate", g.toString()).errorLine()).isEqualTo("lbsim: " + g + ":5:70: failures.events[0].rateGbps: must be between 0.001"
                + " Gb/s and the link's 800.0 Gb/s, got 900");
    }

    /** A k = 4 all-to-all of rho_max senders on links of {@code rateGbps}, with {@code failures} (rho_max is refused from line 3). */
    private Path rhoMaxRun(String name, double rateGbps, String failures) throws IOException {
        return file(name, "name: rho-max\n"
                + "topology: {type: fat-tree, k: 4, hostLink: {rateGbps: " + rateGbps + "}, edgeAggLink: {rateGbps: " + rateGbps + "},"
                + " aggCoreLink: {rateGbps: " + rateGbps + "}}\n"
                + "congestionControl: {type: fixed-rate, rhoMax: true}\n"
                + "lossRecovery: {type: erasure, endOfMessage: rto, rtoUs: 100000}\n"
                + "workload: {type: all-to-all, messageBytes: 4096}\n"
                + failures
                + "limits: {maxTimeUs: 10000000}\n");
    }

    @ParameterizedTest(name = "--threads {0}")
    @ValueSource(strings = {"0", "2"})
    void aRhoMaxBelowOneMegabitBeforeOrWhileRunningIsOneLineAndWritesNothing(String threads) throws IOException {
        // 15 flows and their ACKs on each 10 Mb/s host link: rho_max 0.6 Mb/s from the start
        Path start = rhoMaxRun("start.yaml", 0.01, "");
        assertThat(capped("run", start.toString(), "--threads", threads, "--out", dir.resolve("run").toString()).errorLine())
                .isEqualTo("lbsim: " + start + ":3:39: congestionControl.rhoMax: rho_max of this fabric and workload is below 1 Mb/s (too many"
                        + " flows share one link for its rate; rates are kept in whole Mb/s): pace at rateGbps instead, or use faster links or"
                        + " fewer flows");
        // 20 Mb/s: rho_max 1 Mb/s on the healthy fabric; with edge 0's uplink to a0 down, its other uplink carries 28 flows
        Path midRun = rhoMaxRun("mid.yaml", 0.02, "failures: {events: [{atUs: 5, link: {a: e0, b: a0}, action: down}]}\n");
        assertThat(capped("run", midRun.toString(), "--threads", threads, "--out", dir.resolve("run").toString()).errorLine())
                .isEqualTo("lbsim: " + midRun + ":3:1: congestionControl.recomputeRhoMax: routing converged at 5 us around the failures to a"
                        + " fabric whose rho_max is below 1 Mb/s (rates are kept in whole Mb/s): set recomputeRhoMax: false to keep the rate of"
                        + " the fabric before them");
        assertThat(dir.resolve("run")).doesNotExist();
        Path kept = file("kept.yaml", Files.readString(midRun).replace("rhoMax: true", "rhoMax: true, recomputeRhoMax: false"));
        assertThat(capped("run", kept.toString(), "--threads", threads, "--out", dir.resolve("run").toString()).code()).isZero();
    }

    @Test
    void aSweepPointThatMeetsARhoMaxBelowOneMegabitWhileRunningFailsAloneAsBadInput() throws IOException {
        rhoMaxRun("mid.yaml", 0.02, "failures: {events: [{atUs: 5, link: {a: e0, b: a0}, action: down}]}\n");
        Path sweep = file("rho.yaml", "name: rho\nbaseFile: mid.yaml\ngrid:\n  congestionControl.recomputeRhoMax: [true, false]\n");
        Path out = dir.resolve("rho-out");
        MainTest.Result r = capped("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "1");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(r.err().lines().toList()).containsExactly(
                "lbsim: " + sweep + ":4:39: point 0 (congestionControl.recomputeRhoMax=true), seed 1: congestionControl.recomputeRhoMax: routing"
                        + " converged at 5 us around the failures to a fabric whose rho_max is below 1 Mb/s (rates are kept in whole Mb/s): set"
                        + " recomputeRhoMax: false to keep the rate of the fabric before them",
                "lbsim: sweep rho: 1 of 2 runs failed (see above); the others are recorded: fix the cause and run the same command again to"
                        + " run the failed ones");
        assertThat(r.out()).contains("sweep rho: 1 of 2 runs recorded");
        assertThat(out.resolve("results.duckdb")).exists();
    }

    // --- files as spreadsheets and editors write them ---

    private static final String BOM = "\uFEFF";

    @Test
    void aScenarioAndASweepWithAByteOrderMarkAndCrlfReadAsWithout() throws IOException {
        Path plain = file("plain.yaml", B);
        Path excel = file("excel.yaml", BOM + B.replace("\n", "\r\n"));
        MainTest.Result a = capped("run", plain.toString(), "--out", dir.resolve("a").toString());
        MainTest.Result b = capped("run", excel.toString(), "--out", dir.resolve("b").toString());
        assertThat(b.code()).as(b.err()).isZero();
        assertThat(Files.readString(dir.resolve("b/summary.json"))).isEqualTo(Files.readString(dir.resolve("a/summary.json")));
        assertThat(a.out().lines().filter(l -> l.startsWith("CCT"))).isEqualTo(b.out().lines().filter(l -> l.startsWith("CCT")).toList());
        Path sweep = file("sw.yaml", BOM + "name: sw\r\nbaseFile: excel.yaml\r\ngrid:\r\n  \"seed\": [1, 2]\r\n");
        MainTest.Result s = capped("sweep", sweep.toString(), "--out", dir.resolve("sw").toString());
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).contains("sweep sw: 2 points x 1 seed = 2 runs");
    }

    @Test
    void aTraceAsASpreadsheetExportsItRunsAsThePlainTrace() throws IOException {
        String rows = "src,dst,bytes,start_ns\n0,5,100000,0\n5,9,200000,1000\n9,0,300000,2000.5\n";
        file("plain.csv", rows);
        file("excel.csv", BOM + "\"src\",\"dst\",\"bytes\",\"start_ns\"\r\n\"0\",\"5\",\"100000\",\"0\"\r\n5,9,\"200000\",1000\r\n"
                + "\"9\" , \"0\",300000,\"2000.5\"\r\n");
        file("mac.csv", rows.replace("\n", "\r"));
        String scenario = "name: t\nseed: 3\ntopology: {type: fat-tree, k: 4}\nworkload: {type: trace, file: FILE}\n";
        List<String> summaries = new ArrayList<>();
        for (String csv : List.of("plain.csv", "excel.csv", "mac.csv")) {
            Path f = file(csv + ".yaml", scenario.replace("FILE", csv));
            Path out = dir.resolve("run-" + csv);
            MainTest.Result r = capped("run", f.toString(), "--out", out.toString());
            assertThat(r.code()).as(csv + ": " + r.err()).isZero();
            assertThat(r.out()).contains("flows        3 of 3 finished");
            summaries.add(Files.readString(out.resolve("summary.json")).replace(csv, "FILE"));
        }
        assertThat(summaries.get(1)).isEqualTo(summaries.get(0));
        assertThat(summaries.get(2)).isEqualTo(summaries.get(0));
    }

    @Test
    void aDagTraceAsASpreadsheetExportsItRunsAsThePlainOne() throws IOException {
        String rows = "id,src,dst,bytes,deps,gap_ns\n0,0,1,100000,,0\n1,1,2,100000,0,500\n2,2,3,100000,0;1,0\n";
        file("plain.csv", rows);
        file("excel.csv", BOM + "id,src,dst,bytes,deps,gap_ns\r\n0,0,1,100000,\"\",0\r\n1,1,2,\"100000\",\"0\",500\r\n2,2,3,100000,\"0;1\",0\r\n");
        String scenario = "name: d\nseed: 3\ntopology: {type: fat-tree, k: 4}\nworkload: {type: dag-trace, file: FILE}\n";
        List<String> summaries = new ArrayList<>();
        for (String csv : List.of("plain.csv", "excel.csv")) {
            Path f = file(csv + ".yaml", scenario.replace("FILE", csv));
            Path out = dir.resolve("run-" + csv);
            MainTest.Result r = capped("run", f.toString(), "--out", out.toString());
            assertThat(r.code()).as(csv + ": " + r.err()).isZero();
            summaries.add(Files.readString(out.resolve("summary.json")).replace(csv, "FILE"));
        }
        assertThat(summaries.get(1)).isEqualTo(summaries.get(0));
    }

    @Test
    void aSpreadsheetsThousandsSeparatorOrAnUnclosedQuoteIsOneLine() throws IOException {
        file("sep.csv", "src,dst,bytes,start_ns\n0,1,\"1,024\",0\n");
        Path f = file("sep.yaml", "name: t\ntopology: {type: fat-tree, k: 4}\nworkload: {type: trace, file: sep.csv}\n");
        assertThat(capped("validate", f.toString()).errorLine()).startsWith("lbsim: " + dir.resolve("sep.csv") + ":2: bytes: must be an integer"
                + " between 1 and ").endsWith(", got '1,024'");
        file("open.csv", "src,dst,bytes,start_ns\n0,1,\"1024,0\n");
        Path g = file("open.yaml", "name: t\ntopology: {type: fat-tree, k: 4}\nworkload: {type: trace, file: open.csv}\n");
        assertThat(capped("validate", g.toString()).errorLine()).isEqualTo("lbsim: " + dir.resolve("open.csv") + ":2: a quoted value is not"
                + " closed (a '\"' is missing)");
    }

    // --- sweeps: threads by the machine, progress, and SIGTERM ---

    @Test
    void moreSweepThreadsThanTheMachineRunsAreCappedWithANotice() throws IOException {
        Path sweep = file("s.yaml", "name: s\nbase:\n  topology: {type: fat-tree, k: 4}\n  workload: {type: permutation, messageBytes: 65536}\n"
                + "grid: {seed: [1, 2]}\n");
        MainTest.Result r = capped("sweep", sweep.toString(), "--out", dir.resolve("o").toString(), "--jobs", "4096", "--threads", "64");
        assertThat(r.code()).as(r.err()).isZero();
        int cores = Runtime.getRuntime().availableProcessors();
        assertThat(r.err().lines().toList()).containsExactly(String.format("lbsim: --jobs 4096 x --threads 64 is 262144 simulation threads on %d"
                + " core%s; running 1 job at once (at most 4 threads per core)", cores, cores == 1 ? "" : "s"));
        assertThat(r.out()).contains("on 1 job of 64 threads (partitioned kernel)");
        MainTest.Result quiet = capped("sweep", sweep.toString(), "--out", dir.resolve("q").toString(), "--jobs", "4096", "--quiet");
        assertThat(quiet.code()).as(quiet.err()).isZero();
        assertThat(quiet.err()).isEmpty();
    }

    @Test
    void aLongPhaseSaysHowFarItIsOnStderr() throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.PrintStream err = new java.io.PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            PhaseProgress everyStep = new PhaseProgress(err, "sweep big", 0, 0);
            everyStep.step("binding points", 0, 3);
            everyStep.step("binding points", 1, 3);
            everyStep.step("checking points", 0, 3);
            PhaseProgress usual = new PhaseProgress(err, "sweep quick");
            usual.step("binding points", 0, 3); // a phase younger than 3 s says nothing
            PhaseProgress.silent().step("binding points", 0, 3);
        }
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly("sweep big: binding points 0 of 3 ...",
                "sweep big: binding points 1 of 3 ...", "sweep big: checking points 0 of 3 ...");
    }

    @Test
    void aSweepStopsPromptlyOnSigtermAndSaysWhatIsRecorded() throws Exception {
        Path sweep = file("term.yaml", """
                name: term
                base:
                  topology: {type: fat-tree, k: 4}
                  workload: {type: permutation, messageBytes: 262144}
                grid:
                  loadBalancing.type: [ecmp, host-spray, ofan, switch-pkt-ar, drill]
                  seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
                """);
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "sweep", sweep.toString(), "--out", dir.resolve("o").toString(),
                "--jobs", "4096");
        pb.redirectError(dir.resolve("stderr.txt").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        Pattern progress = Pattern.compile("sweep term: (\\d+)/100 runs.*");
        boolean signalled = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m = progress.matcher(line);
                if (m.matches() && Integer.parseInt(m.group(1)) >= 2) {
                    p.destroy(); // SIGTERM
                    signalled = true;
                    break;
                }
            }
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the sweep ends within a minute of SIGTERM").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertThat(signalled).as("stderr: %s", err).isTrue();
        assertThat(p.exitValue()).as(err).isEqualTo(143); // 128 + SIGTERM
        assertThat(err).contains("running " + Math.min(4096, 4 * Runtime.getRuntime().availableProcessors()) + " jobs at once")
                .containsPattern("lbsim: sweep term interrupted: \\d+ of 100 runs recorded in .*results.duckdb; run the same command again to resume");
    }
}
