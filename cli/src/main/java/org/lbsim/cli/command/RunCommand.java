package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.lbsim.api.Lbsim;
import org.lbsim.api.Run;
import org.lbsim.api.RunOptions;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.TypeName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.store.BuildInfo;
import org.lbsim.cli.errors.ControlCharacters;
import org.lbsim.cli.files.Json;
import org.lbsim.cli.files.RunFolder;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.cli.store.RunRecord;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.store.StoreException;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Simulate a scenario and write a run folder: scenario.yaml (the effective scenario), " +
                    "summary.json and flows.csv (deterministic for a scenario and seed), meta.json (version, commit, wall time)."},
        footer = {"",
                "Examples:",
                "  lbsim run examples/quickstart.yaml",
                "  lbsim run examples/quickstart.yaml --seed 2 --set loadBalancing.type=ofan --out runs/ofan"})
public final class RunCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    private boolean debugRequested;

    @Mixin
    ScenarioOptions scenario;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Run folder to create (must not exist). Default: runs/<name>-seed<N>-<yyyyMMdd-HHmmss> in the current directory.")
    Path out;

    @Option(names = "--quiet", description = "Print nothing on success.")
    boolean quiet;

    /** How the summary is printed: for people, or for scripts. */
    public enum Format { text, csv, json }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (the summary for people), csv (a header line and one row) or json (one object): the numbers of summary.json,"
                    + " the run folder (output) and, with --db, the database and run_id, for scripts. Default: ${DEFAULT-VALUE}.")
    Format format = Format.text;

    @Option(names = "--db", paramLabel = "PATH",
            description = "Also record the run in this DuckDB results database (created if missing; docs/results.md), run_id = the run folder's name.")
    Path db;

    @Option(names = "--threads", paramLabel = "N|auto", converter = ThreadsConverter.class,
            description = "Simulate as a conservative parallel run on N threads (1-64), the fabric cut into partitions of about 16 hosts"
                    + " that stay in cache (large fabrics run about twice as fast even with N = 1); 0 = the sequential kernel. Every N"
                    + " gives the same flows to the picosecond (docs/architecture.md). Default: auto, every core for fabrics of 1,024"
                    + " hosts or more that a partitioned run supports, else sequential.")
    Integer threads;

    /** {@code --threads auto} is {@link RunOptions#AUTO_THREADS}; numbers read as every numeric flag does. */
    static final class ThreadsConverter implements picocli.CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return threadsOf(value);
        }
    }

    static Integer threadsOf(String value) {
        if (value.equals("auto")) {
            return RunOptions.AUTO_THREADS;
        }
        Integer n = FlagNumbers.parse(value, Integer.class);
        if (n < 0) {
            throw new picocli.CommandLine.TypeConversionException("'" + value + "' is neither auto nor a thread count (0-64)");
        }
        return n;
    }

    @Option(names = "--max-wall-seconds", paramLabel = "S",
            description = "Stop after S seconds of wall-clock time, reading and building the run included: a simulation still running is then"
                    + " reported as ended by the wall limit; a run still being built after S (and at least 1 s) is refused, nothing written."
                    + " Default: no limit.")
    Double maxWallSeconds;

    /**
     * The options {@link #plain} reads; {@code --debug} is the {@code lbsim} command's, inherited. Every other option of
     * {@code run} (its help and version) goes to picocli. RunCommandPlainArgsTest checks this list against
     * picocli's model of the command.
     */
    static final List<String> PLAIN_OPTIONS = List.of("--out", "--quiet", "--db", "--threads", "--max-wall-seconds", "--set", "--seed", "--debug", "--format");

    /** Whether a line read by {@link #plain} asked for {@code --debug} (the {@code lbsim} command's option, which picocli would set). */
    public boolean debugRequested() {
        return debugRequested;
    }

    /**
     * A plain {@code run FILE [--out DIR] [--quiet] [--db PATH] [--threads N] [--max-wall-seconds S] [--set X]... [--seed N] [--debug] [--format F]}
     * read without picocli, as picocli reads it (the same conversions: {@code Path.of} and {@link FlagNumbers#parse}); null for anything else (help, version, an {@code @argument}
     * file, {@code --opt=value}, {@code --}, an unknown or repeated option, a missing or dash-led value, a value
     * picocli would refuse), which picocli then parses and reports. Why: picocli builds its
     * model by reflection from Java 5 class files that class-data sharing cannot keep, ~0.2 s of CPU in a
     * 128-host run whose simulation takes 0.4 s.
     */
    public static RunCommand plain(String[] args, Console main) {
        if (args.length < 2 || !args[0].equals("run")) {
            return null;
        }
        RunCommand c = new RunCommand();
        c.main = main;
        c.scenario = new ScenarioOptions();
        Set<String> seen = new HashSet<>();
        try {
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                if (a.startsWith("@")) {
                    return null; // picocli reads an argument file
                }
                if (!a.startsWith("-")) {
                    if (c.scenario.file != null) {
                        return null;
                    }
                    c.scenario.file = a;
                    continue;
                }
                if (!PLAIN_OPTIONS.contains(a) || (!a.equals("--set") && !seen.add(a))) {
                    return null;
                }
                if (a.equals("--quiet")) {
                    c.quiet = true;
                    continue;
                }
                if (a.equals("--debug")) {
                    c.debugRequested = true;
                    continue;
                }
                if (i + 1 >= args.length || args[i + 1].startsWith("-") || args[i + 1].startsWith("@")) {
                    return null;
                }
                String v = args[++i];
                switch (a) {
                    case "--out" -> c.out = Path.of(v);
                    case "--db" -> c.db = Path.of(v);
                    case "--threads" -> c.threads = threadsOf(v);
                    case "--max-wall-seconds" -> c.maxWallSeconds = FlagNumbers.parse(v, Double.class);
                    case "--set" -> c.scenario.sets.add(v);
                    case "--seed" -> c.scenario.seed = FlagNumbers.parse(v, Long.class);
                    case "--format" -> {
                        if (java.util.Arrays.stream(Format.values()).noneMatch(f -> f.name().equals(v))) {
                            return null; // picocli names the allowed values
                        }
                        c.format = Format.valueOf(v);
                    }
                    default -> {
                        return null;
                    }
                }
            }
        } catch (picocli.CommandLine.TypeConversionException | InvalidPathException e) {
            return null; // picocli names the bad value
        }
        return c.scenario.file == null ? null : c;
    }

    @Override
    public Integer call() {
        long wallStart = System.nanoTime();
        double wall = wallLimit(maxWallSeconds);
        if (threads != null && threads != RunOptions.AUTO_THREADS && (threads < 0 || threads > 64)) {
            throw UserError.at("--threads " + threads, "", "must be auto or between 0 and 64");
        }
        int threadsAsked = threads == null ? RunOptions.AUTO_THREADS : threads;
        ScenarioLoader.Loaded loaded;
        // on the process's own stderr only: a caller that passed its streams reads what it asked for
        try (BuildTicker ticker = BuildTicker.start(main.err(), !quiet && main.err() == System.err, scenario.file)) {
            loaded = withinWallLimit(wall, wallStart, () -> scenario.load(threadsAsked));
        }
        Scenario s = loaded.scenario();
        if (out != null && Files.exists(out)) {
            throw UserError.at(out.toString(), "", "already exists; choose another --out or remove it");
        }
        if (db != null && Files.isDirectory(db)) {
            throw UserError.at(db.toString(), "", "is a directory, expected a DuckDB database file");
        }
        Instant started = Instant.now();
        FutureTask<BuildInfo.Source> source = BuildInfo.sourceInBackground();
        Path target = out != null ? out
                : RunFolder.defaultDir(Path.of("").toAbsolutePath(), s.name(), s.seed(), LocalDateTime.now());
        // found now rather than after simulating, when the result would be lost
        RunFolder.checkWritable(target, out != null ? "--out " + out : "the run folder " + ScenarioLoader.shownPath(target));
        if (db != null) {
            if (Files.exists(db) && !Files.isWritable(db)) {
                throw UserError.at("--db " + db, "", "the database file is not writable");
            }
            if (!Files.exists(db)) {
                RunFolder.checkWritable(db, "--db " + db);
            }
            try {
                ResultsStore.checkBeforeWriting(db, "--db " + db);
            } catch (StoreException e) {
                throw new UserError(e.getMessage());
            }
        }
        RunResult result;
        // on a terminal only: nothing with --quiet or when the output goes to a pipe or a file
        try (RunProgress progress = RunProgress.start(loaded.prepared(), main.out(), !quiet && format == Format.text && Progress.stdoutIsTerminal()
                && org.lbsim.cli.errors.ControlCharacters.isStdout(main.out()))) {
            result = loaded.prepared().run(wall, wallStart);
        } catch (ScenarioException e) {
            throw loaded.blame(e); // nothing is written
        }
        Run run = loaded.prepared();
        Path written = RunFolder.write(target, out == null, s, loaded.baseDir(), result, meta(result, run, started, BuildInfo.await(source)));
        String runId = db == null ? null : record(written, s, result, run.partitioned() ? RunRecord.PARTITIONED : RunRecord.SEQUENTIAL);
        if (!quiet && format != Format.text) {
            Map<String, Object> m = new LinkedHashMap<>(RunFolder.summary(result));
            m.put("output", ScenarioLoader.shownPath(written));
            if (runId != null) {
                m.put("database", ScenarioLoader.shownPath(db));
                m.put("runId", runId);
            }
            main.out().print(format == Format.json ? Json.write(m) : ResultTable.csvRow(m));
        } else if (!quiet) {
            printSummary(main.out(), loaded.prepared(), result, ScenarioLoader.shownPath(written));
            if (runId != null) {
                main.out().printf(Locale.ROOT, "database     %s (run_id %s)%n", ScenarioLoader.shownPath(db), runId);
            }
        }
        return ExitCode.OK.status();
    }

    /**
     * Reads, checks and builds the run within the wall-clock limit {@code wall} counted from {@code startNanos}
     * (0 = no limit), but never less than {@link #MIN_BUILD_SECONDS}: when that passes first, the build is
     * interrupted and the run refused with one line, before anything is written. The simulation then gets
     * what is left of the limit (none when a limit shorter than a quick build has passed: the run ends at its
     * first check, reported as ended by the wall limit).
     */
    static <T> T withinWallLimit(double wall, long startNanos, Callable<T> build) {
        if (wall == 0) {
            try {
                return build.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        FutureTask<T> task = new FutureTask<>(build);
        Thread builder = new Thread(null, task, "lbsim-build", BUILD_STACK_BYTES);
        builder.setDaemon(true);
        builder.start();
        long left = startNanos + (long) Math.min(Math.max(wall, MIN_BUILD_SECONDS) * 1e9, Long.MAX_VALUE / 4.0) - System.nanoTime();
        try {
            return task.get(Math.max(0, left), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            builder.interrupt();
            throw UserError.at("--max-wall-seconds " + fmtSeconds(wall), "", "the wall-clock limit passed while the run was being read, checked"
                    + " and built, before simulating; nothing was written (raise the limit, or make the run smaller)");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            builder.interrupt();
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while the run was being built");
        }
    }

    /** The least time reading and building get before --max-wall-seconds stops them: a quick build always completes. */
    static final double MIN_BUILD_SECONDS = 1;

    /** The building thread's stack, as the launcher gives the main thread (-Xss8m). */
    private static final long BUILD_STACK_BYTES = 8L << 20;

    private static String fmtSeconds(double s) {
        return s == Math.rint(s) && s < 1e15 ? Long.toString((long) s) : Double.toString(s);
    }

    /** The --max-wall-seconds value checked: 0 when not given. */
    static double wallLimit(Double seconds) {
        if (seconds == null) {
            return 0;
        }
        if (!(seconds > 0) || seconds > 1e9) {
            throw UserError.at("--max-wall-seconds " + seconds, "", "must be a number of seconds between 0 (exclusive) and 1000000000");
        }
        return seconds;
    }

    /** Records the run under its folder's name (with -2, -3 ... if taken); waits up to a minute for another writer. */
    private String record(Path folder, Scenario s, RunResult result, String kernelName) {
        try {
            return ResultsStore.recordRun(db, folder.getFileName().toString(), s, Yaml.write(Lbsim.tree(s)), result, kernelName);
        } catch (IllegalStateException e) {
            throw new UserError(e.getMessage() + " (the run folder " + ScenarioLoader.shownPath(folder) + " was written)");
        }
    }

    private static Map<String, Object> meta(RunResult r, Run run, Instant started, BuildInfo.Source source) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kernel", run.partitioned() ? RunRecord.PARTITIONED : RunRecord.SEQUENTIAL);
        m.put("threads", run.threadCount());
        m.put("lbsimVersion", BuildInfo.version());
        m.put("gitCommit", source.commit());
        m.put("gitDirty", source.dirty());
        m.put("seed", r.seed());
        m.put("javaVersion", System.getProperty("java.version"));
        m.put("javaVendor", System.getProperty("java.vendor"));
        m.put("startedAt", started.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC).toString());
        m.put("wallTimeMs", r.wallTimeMs());
        m.put("events", r.counters().events());
        m.put("eventsPerSecond", r.wallTimeMs() <= 0 ? null : r.counters().events() * 1000 / r.wallTimeMs());
        return m;
    }

    static void printSummary(PrintStream o, Run prepared, RunResult r, String folder) {
        Scenario s = prepared.scenario();
        RunResult.Counters c = r.counters();
        o.printf(Locale.ROOT, "scenario     %s (seed %d)%n", ControlCharacters.escape(s.name()), s.seed());
        o.printf(Locale.ROOT, "fabric       %s%n", fabric(s.topology()));
        o.printf(Locale.ROOT, "scheme       %s / %s / %s%n", s.loadBalancing().type(), s.congestionControl().type(), s.lossRecovery().type());
        o.printf(Locale.ROOT, "flows        %d of %d finished%n", r.flowsFinished(), r.flows());
        o.printf(Locale.ROOT, "ending       %s%s%n", r.ending(), r.endingDetail().isEmpty() ? "" : ": " + r.endingDetail());
        o.printf(Locale.ROOT, "CCT          %s%n", Run.formatPs(r.cctPs()));
        double inc = r.cctIncreasePct();
        o.printf(Locale.ROOT, "lower bound  %s%s%s%n", Run.formatPs(r.lowerBoundPs()),
                Double.isNaN(inc) ? "" : String.format(Locale.ROOT, " (CCT %+.3f %%)", inc),
                r.oversubscribed() ? ", counts the " + ratio(r) + ":1 oversubscribed uplinks" : "");
        for (org.lbsim.metrics.JobResult j : r.jobs()) {
            o.printf(Locale.ROOT, "job %-8s %s, %d ranks: JCT %s, ideal %s (x%.4f)%s%n", ControlCharacters.escape(j.name()), j.collective(), j.ranks(),
                    Run.formatPs(j.jctPs()), Run.formatPs(j.idealPs()), j.slowdown(),
                    j.background() || j.jctPs() <= 0 ? "" : String.format(Locale.ROOT, ", algbw %.2f GB/s, busbw %.2f GB/s", j.algbwGBps(), j.busbwGBps()));
        }
        if (r.oversubscribed() && !r.jobs().isEmpty()) {
            // PRO V's ideal is each flow alone on the fabric: the core's capacity never enters it, unlike the bound above
            o.printf(Locale.ROOT, "             (ideal: every flow alone on the fabric, so it ignores the %s:1 oversubscribed uplinks)%n", ratio(r));
        }
        o.printf(Locale.ROOT, "drops        %d (buffer %d, failed links %d, no route %d)%n", c.dropped(), c.drops(), c.linkLoss(), c.noRouteDrops());
        if (!r.failureEvents().isEmpty()) {
            long lostAt = 0;
            for (org.lbsim.metrics.FailureEventStats e : r.failureEvents()) {
                lostAt += e.lostAtEvent();
            }
            o.printf(Locale.ROOT, "failures     %d events during the run, %d packets lost at them (per event in summary.json;"
                    + " bound and rho_max are the fabric's before them)%n", r.failureEvents().size(), lostAt);
        }
        o.printf(Locale.ROOT, "retransmits  %d (spurious %d, timeouts %d)%n", c.retransmissions(), c.spuriousRetransmissions(), c.timeouts());
        if (!r.schemeCounters().isEmpty()) {
            // every named counter of the run's schemes and switch mechanisms, whatever its name (switch.trimmed, themis.nacksBlocked ...)
            StringBuilder named = new StringBuilder();
            r.schemeCounters().forEach((k, v) -> named.append(named.length() == 0 ? "" : ", ").append(ControlCharacters.escape(k)).append(' ')
                    .append(v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d) : v.toString()));
            o.printf(Locale.ROOT, "counters     %s%n", named);
        }
        StringBuilder queues = new StringBuilder();
        for (LayerStats l : r.layers()) {
            if (queues.length() > 0) {
                queues.append(", ");
            }
            queues.append(l.layer()).append(' ').append(String.format(Locale.ROOT, "%.1f", l.maxQueueBytes() / 1000.0));
        }
        o.printf(Locale.ROOT, "max queue    %s (KB)%n", queues);
        long ms = r.wallTimeMs();
        o.printf(Locale.ROOT, "wall time    %.2f s (%s events/s)%n", ms / 1000.0,
                ms <= 0 ? "-" : String.format(Locale.ROOT, "%.2f M", c.events() / (ms / 1000.0) / 1e6));
        o.printf(Locale.ROOT, "output       %s%n", folder);
    }

    /** The oversubscription as "2.5" (4 decimals at most). */
    private static String ratio(RunResult r) {
        return java.math.BigDecimal.valueOf(r.oversubscription()).setScale(4, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    static String fabric(TopologySpec t) {
        return t.match(new TopologySpec.Cases<>() {
            @Override
            public String fatTree(TopologySpec.FatTree f) {
                return String.format(Locale.ROOT, "fat-tree k=%d, %d hosts%s, %s Gb/s host links", f.k(), f.hostCount(), servers(t),
                        gbps(f.hostLink().rateGbps()));
            }

            @Override
            public String leafSpine(TopologySpec.LeafSpine l) {
                return String.format(Locale.ROOT, "leaf-spine %d leaves x %d spines%s, %d hosts%s, %s Gb/s host links", l.leaves(), l.spines(),
                        parallel(l.linksPerLeafSpine()), l.hostCount(), servers(t), gbps(l.hostLink().rateGbps()));
            }

            @Override
            public String railLeafSpine(TopologySpec.RailLeafSpine r) {
                return String.format(Locale.ROOT, "rail-leaf-spine %d rail leaves x %d spines%s, %d hosts%s, %s Gb/s host links", r.leaves(),
                        r.spines(), parallel(r.linksPerLeafSpine()), r.hostCount(), servers(t), gbps(r.hostLink().rateGbps()));
            }

            @Override
            public String custom(TopologySpec.Custom c) {
                return c.getClass().getAnnotation(TypeName.class).value() + ", " + c.hostCount() + " hosts" + servers(t);
            }
        });
    }

    /** " (x8 links)" for parallel links between a leaf and a spine; nothing for one. */
    private static String parallel(int linksPerLeafSpine) {
        return linksPerLeafSpine > 1 ? " (x" + linksPerLeafSpine + " links)" : "";
    }

    /** " (8 servers x 2 NICs)" when servers have several NICs; nothing otherwise. */
    private static String servers(TopologySpec t) {
        int n = t.nicsPerServer();
        return n == 1 ? "" : String.format(Locale.ROOT, " (%d servers x %d NICs)", t.hostCount() / n, n);
    }

    private static String gbps(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
