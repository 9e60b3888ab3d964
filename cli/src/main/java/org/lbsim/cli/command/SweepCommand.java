package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.cli.store.RunRecord;
import org.lbsim.cli.store.ScenarioColumns;
import org.lbsim.cli.store.StoreException;
import org.lbsim.cli.sweep.SweepEngine;
import org.lbsim.cli.sweep.SweepRun;
import org.lbsim.api.Lbsim;
import org.lbsim.api.Run;
import org.lbsim.api.RunOptions;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TraceFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.store.BuildInfo;
import org.lbsim.cli.files.RunFolder;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.sweep.PhaseProgress;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Run every point x seed of a sweep file (a base scenario, a grid and/or a list of " +
                    "points, seeds) in parallel into DIR/results.duckdb (docs/sweeps.md).",
                "Resumable: after an interruption (even kill -9) run the same command again; only the runs not yet recorded run."},
        footer = {"",
                "Examples:",
                "  lbsim sweep examples/sweep-schemes.yaml --jobs 2",
                "  lbsim sweep examples/sweep-schemes.yaml --quick --out /tmp/schemes",
                "  ./lbsim-spark sweep examples/sweep-schemes.yaml --engine spark --master 'local[2]'"})
public final class SweepCommand implements java.util.concurrent.Callable<Integer> {
    /** The most simulation threads (--jobs x --threads) per core; beyond it --jobs is lowered, with a notice. */
    static final int THREADS_PER_CORE = 4;

    /** Stack size of the simulation threads (as the launcher gives the main thread). */
    private static final long WORKER_STACK = 8L << 20;

    @ParentCommand
    Console main;

    @Parameters(index = "0", paramLabel = "FILE", description = "Sweep YAML file.")
    String file;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (created if missing; reused to resume). Default: sweeps/<name>.")
    Path out;

    @Option(names = "--jobs", paramLabel = "N", description = "Runs simulated at once (local engine), lowered with a notice to at most 4 simulation"
            + " threads (--jobs x --threads) per core. Default: the number of cores.")
    Integer jobs;

    @Option(names = "--engine", paramLabel = "NAME", defaultValue = LOCAL,
            description = "Where the runs execute: local (this process's threads, the default) or spark (each run a Spark task; "
                    + "needs the lbsim-spark module on the class path: ./lbsim-spark, docs/sweeps.md).")
    String engine;

    @Option(names = "--master", paramLabel = "URL",
            description = "The engine's master: for spark local[N] or spark://HOST:PORT. Default: spark.master as spark-submit sets it, else local[*].")
    String master;

    @Option(names = "--engine-conf", paramLabel = "KEY=VALUE",
            description = "A setting of the engine, repeatable (spark: any Spark property, e.g. spark.executor.memory=4g).")
    List<String> engineConf = new ArrayList<>();

    @Option(names = "--seeds", paramLabel = "N", description = "Seeds per point (overrides the file's seeds:).")
    Integer seeds;

    @Option(names = "--only", paramLabel = "KEY=VALUES",
            description = "Run only the points whose field KEY has one of the comma-separated VALUES (repeatable; e.g. --only topology.k=4,8)."
                    + " Run ids stay the full sweep's, so running without it later resumes.")
    List<String> only = new ArrayList<>();

    @Option(names = "--quick", description = "A quick version: the file's quick: overrides applied to the base, one seed (unless --seeds), sweep name <name>-quick.")
    boolean quick;

    @Option(names = "--keep-runs", description = "Also write a run folder per run: DIR/runs/<run_id>/.")
    boolean keepRuns;

    @Option(names = "--quiet", description = "Print nothing but errors.")
    boolean quiet;

    @Option(names = "--threads", paramLabel = "N",
            description = "Simulate each run with the partitioned kernel on N threads (1-64), as 'lbsim run --threads N': large fabrics run"
                    + " faster, even with N = 1; flows are identical to the sequential kernel's for every N, the fabric statistics frozen at the last"
                    + " completion may differ (recorded in runs.kernel; a folder's runs all use one kernel). Local engine only. Default: sequential.")
    Integer threadsPerRun;

    @Option(names = "--max-wall-seconds", paramLabel = "S",
            description = "Stop each run after S seconds of wall-clock time, its build included (recorded as ended by the wall limit). Default: no limit.")
    Double maxWallSeconds;

    static final String LOCAL = "local";
    static final String SPARK_HINT = "the Spark engine is not on the class path: run the sweep with ./lbsim-spark (it builds the spark module),"
            + " or spark-submit as docs/sweeps.md 'Sweeps on Spark' shows";

    private double wallSeconds;
    /** {@link RunRecord#SEQUENTIAL} or {@link RunRecord#PARTITIONED} (--threads). */
    private String kernel;
    /** The engine named by --engine, null for the local thread pool. */
    private SweepEngine remote;

    /** One (point, seed). */
    record Job(SweepFile.Point point, long seed, String runId, Scenario scenario, String yaml) {
    }

    /** What a worker hands the writer: a result or the error that stopped the run. */
    record Done(Job job, RunResult result, Throwable error) {
    }

    @Override
    public Integer call() {
        wallSeconds = RunCommand.wallLimit(maxWallSeconds);
        remote = engine(engine);
        if (remote == null && (master != null || !engineConf.isEmpty())) {
            throw UserError.at(master != null ? "--master " + master : "--engine-conf " + engineConf.get(0), "",
                    "is for another engine than local; add --engine spark");
        }
        if (remote != null && jobs != null) {
            throw UserError.at("--jobs " + jobs, "", "is for --engine local; the " + remote.name()
                    + " engine runs as many runs at once as its executors have cores (e.g. --master 'local[4]')");
        }
        if (threadsPerRun != null && (threadsPerRun < 1 || threadsPerRun > 64)) {
            throw UserError.at("--threads " + threadsPerRun, "", "must be between 1 and 64");
        }
        if (remote != null && threadsPerRun != null) {
            throw UserError.at("--threads " + threadsPerRun, "", "is for --engine local; the " + remote.name() + " engine runs the sequential kernel");
        }
        kernel = RunRecord.kernelOf(threadsPerRun);
        Map<String, String> conf = engineConf(engineConf);
        // each run takes threadsPerRun cores: by default as many runs at once as that leaves
        int cores = Runtime.getRuntime().availableProcessors();
        int perRun = threadsPerRun == null ? 1 : threadsPerRun;
        int threads = jobs != null ? jobs : Math.max(1, cores / perRun);
        if (threads < 1 || threads > 4096) {
            throw UserError.at("--jobs " + threads, "", "must be between 1 and 4096");
        }
        if ((long) threads * perRun > (long) THREADS_PER_CORE * cores && threads > 1) {
            // more simulation threads than the machine runs at once only adds memory (a built run each) and switching
            int capped = Math.max(1, THREADS_PER_CORE * cores / perRun);
            if (!quiet) {
                main.err().printf(Locale.ROOT, "lbsim: --jobs %d%s is %d simulation threads on %d core%s; running %d job%s at once (at most %d"
                        + " threads per core)%n", threads, threadsPerRun == null ? "" : " x --threads " + perRun, (long) threads * perRun, cores,
                        cores == 1 ? "" : "s", capped, capped == 1 ? "" : "s", THREADS_PER_CORE);
            }
            threads = capped;
        }
        // the process's own stderr only: a caller that passed its streams (tests, the Java API) reads what it asked for
        java.io.PrintStream phaseLines = quiet || main.err() != System.err ? null : main.err();
        SweepFile sweep = SweepFile.load(file, seeds, quick, phaseLines).only(only);
        PhaseProgress phases = new PhaseProgress(phaseLines, "sweep " + sweep.name);
        Path dir = out != null ? out : Path.of("sweeps", sweep.name);
        Path dbFile = dir.resolve(ResultsStore.DEFAULT_FILE);
        String shownDb = ScenarioLoader.shownPath(dbFile);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw UserError.at(dir.toString(), "", "is a file, expected the sweep's output folder");
        }

        ThreadPoolExecutor pool = pool(threads);
        try {
            // first, so that a trace is read (and an endless one refused) before it is fingerprinted
            validate(sweep, pool, phases);
            List<Job> all = new ArrayList<>(sweep.runs());
            Map<Path, String> fingerprints = new LinkedHashMap<>();
            for (SweepFile.Point p : sweep.points) {
                phases.step("listing runs", all.size(), sweep.runs());
                String fingerprint = traceFingerprint(sweep, p, fingerprints);
                for (int i = 0; i < sweep.seeds; i++) {
                    long seed = p.scenario().seed() + i;
                    Scenario s = p.scenario().withSeed(seed);
                    all.add(new Job(p, seed, sweep.runId(p, seed), s, Yaml.write(Lbsim.tree(s)) + fingerprint
                            + (threadsPerRun == null ? "" : PARTITIONED_MARK)));
                }
            }
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw UserError.at(dir.toString(), "", "cannot create the folder: " + e.getMessage());
            }
            ResultsStore store;
            try {
                store = ResultsStore.open(dbFile, shownDb);
            } catch (StoreException e) {
                throw new UserError(e.getMessage());
            }
            try {
                return run(sweep, all, pool, threads, store, dir, shownDb, conf);
            } catch (StoreException e) {
                throw new UserError(e.getMessage());
            } finally {
                try {
                    store.close();
                } catch (StoreException ignored) {
                    // already reported or closed by the interrupt handler
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The engine of this name found on the class path, null for the local engine; a {@link UserError} if there is none. */
    static SweepEngine engine(String name) {
        if (LOCAL.equals(name)) {
            return null;
        }
        List<String> known = new ArrayList<>(List.of(LOCAL));
        for (SweepEngine e : java.util.ServiceLoader.load(SweepEngine.class)) {
            if (e.name().equals(name)) {
                return e;
            }
            known.add(e.name());
        }
        if (name.equals("spark")) {
            throw UserError.at("--engine spark", "", SPARK_HINT);
        }
        throw UserError.at("--engine " + name, "", "unknown engine; expected " + String.join(" or ", known)
                + (known.contains("spark") ? "" : " (spark with ./lbsim-spark)"));
    }

    private static Map<String, String> engineConf(List<String> settings) {
        Map<String, String> conf = new LinkedHashMap<>();
        for (String kv : settings) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw UserError.at("--engine-conf " + kv, "", "expected KEY=VALUE, e.g. spark.executor.memory=4g");
            }
            conf.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return conf;
    }

    private static ThreadPoolExecutor pool(int threads) {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(null, r, "lbsim-sweep-" + n.incrementAndGet(), WORKER_STACK);
            t.setDaemon(true);
            return t;
        });
    }

    private static final String TRACE_SHA = "# workload.file sha256: ";
    /** Ends the stored scenario of a run of the partitioned kernel: a folder resumed with the other kernel is then refused. */
    private static final String PARTITIONED_MARK = "# kernel: partitioned (--threads)\n";

    /**
     * For a trace workload, a YAML comment with the SHA-256 of the trace file, appended to the stored
     * scenario: a trace edited between two invocations then no longer matches its recorded runs.
     */
    private static String traceFingerprint(SweepFile sweep, SweepFile.Point p, Map<Path, String> cache) {
        Optional<String> file = p.scenario().workload().sourceFile();
        if (file.isEmpty()) {
            return "";
        }
        Path f = sweep.baseDir.resolve(file.get()).toAbsolutePath().normalize();
        String hex = cache.get(f);
        if (hex == null) {
            try {
                java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
                try (java.io.InputStream in = Files.newInputStream(f)) {
                    byte[] buffer = new byte[1 << 16];
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        sha.update(buffer, 0, n);
                    }
                }
                hex = java.util.HexFormat.of().formatHex(sha.digest());
            } catch (IOException e) {
                throw UserError.at(sweep.shown + ": " + p.describe(), "workload.file", "cannot read " + ScenarioLoader.shownPath(f) + ": " + e.getMessage());
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            cache.put(f, hex);
        }
        return TRACE_SHA + hex + "\n";
    }

    /** A run of this sweep, prepared on the kernel --threads asks for. */
    private Run prepare(Scenario scenario, Path baseDir) {
        return Lbsim.prepare(scenario, RunOptions.of(baseDir, threadsPerRun));
    }

    /**
     * Prepares every point with its first seed (fabric, failed links, trace), in parallel; every distinct error at once, each
     * with the first point (in point order) that shows it.
     */
    private void validate(SweepFile sweep, ExecutorService pool, PhaseProgress phases) {
        List<Future<?>> checks = new ArrayList<>();
        for (SweepFile.Point p : sweep.points) {
            checks.add(pool.submit(() -> {
                Lbsim.check(p.scenario(), RunOptions.of(sweep.baseDir, threadsPerRun));
                return null;
            }));
        }
        Map<String, String> errors = new LinkedHashMap<>();
        for (int i = 0; i < checks.size(); i++) {
            phases.step("checking points", i, checks.size());
            try {
                checks.get(i).get();
            } catch (ExecutionException e) {
                Throwable t = e.getCause();
                String key = t instanceof ScenarioException x ? x.field() + "\u0000" + x.problem() : String.valueOf(t.getMessage());
                if (!errors.containsKey(key)) {
                    errors.put(key, String.join(System.lineSeparator(), runError(sweep, sweep.points.get(i), null, t).lines()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserError(sweep.shown + ": interrupted");
            }
        }
        if (!errors.isEmpty()) {
            throw UserError.lines(errors.values().stream().flatMap(String::lines).toList());
        }
    }

    /** A run's bad-input error as a {@link UserError} naming the point (and seed); null if it is not bad input. */
    private static UserError runError(SweepFile sweep, SweepFile.Point p, Long seed, Throwable t) {
        String point = ": " + p.describe() + (seed == null ? "" : ", seed " + seed);
        String where = sweep.shown + point;
        if (t instanceof ScenarioException e) {
            return UserError.at(sweep.where(p, e.field()) + point, e.field(), Yaml.oneLine(e.problem()));
        }
        if (t instanceof TraceFormatException e) {
            return UserError.at(where + ": " + ScenarioLoader.shownPath(sweep.baseDir.resolve(e.file())) + ":" + e.line(), e.column(),
                    Yaml.oneLine(e.problem()));
        }
        if (t instanceof UncheckedIOException e) {
            return UserError.at(sweep.where(p, "workload.file") + point, "workload.file", "cannot read: " + e.getCause().getMessage());
        }
        if (t instanceof UserError e) {
            return e;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    /**
     * Whether a run's stored scenario, read by today's binder, is the scenario this invocation would run: a run
     * recorded before a parameter existed spells out every field but that one, which then takes its default, and
     * a new parameter's default keeps what was simulated before. Text compared first, so this reads only such runs.
     */
    static boolean bindsToSame(String recordedYaml, Scenario scenario) {
        return scenario.equals(boundToday(recordedYaml));
    }

    /** A run's stored scenario as today's binder reads it; null if a field was since removed or renamed, or a value is no longer allowed. */
    private static Scenario boundToday(String recordedYaml) {
        String text = recordedYaml.endsWith(PARTITIONED_MARK)
                ? recordedYaml.substring(0, recordedYaml.length() - PARTITIONED_MARK.length()) : recordedYaml;
        try {
            return new SweepRun("recorded", text, ".", 0).scenario();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Fills the empty parameter columns of the sweep's recorded runs that this invocation's --only leaves out: a run
     * recorded before a parameter existed ran with its default, so a later report over the whole folder finds no point
     * whose runs differ in a column only the newer runs set. A run whose stored text today's writer spells the same
     * way has every column set already and is skipped; trace-driven runs keep their columns as recorded.
     */
    private static void fillOutsideSelection(Map<String, String> recorded, List<Job> selected, ResultsStore store) {
        Set<String> inSelection = new HashSet<>();
        for (Job j : selected) {
            inSelection.add(j.runId());
        }
        for (Map.Entry<String, String> r : recorded.entrySet()) {
            String yaml = r.getValue();
            if (inSelection.contains(r.getKey()) || yaml.contains(TRACE_SHA)) {
                continue;
            }
            Scenario today = boundToday(yaml);
            String text = yaml.endsWith(PARTITIONED_MARK) ? yaml.substring(0, yaml.length() - PARTITIONED_MARK.length()) : yaml;
            if (today != null && !text.equals(Yaml.write(Lbsim.tree(today)))) {
                store.fillEmptyColumns(r.getKey(), ScenarioColumns.of(today));
            }
        }
    }

    private int run(SweepFile sweep, List<Job> all, ThreadPoolExecutor pool, int threads, ResultsStore store, Path dir, String shownDb,
                    Map<String, String> conf) {
        Map<String, String> recorded = store.sweepRuns(sweep.name);
        List<Job> pending = new ArrayList<>();
        List<Job> rebound = new ArrayList<>();
        for (Job j : all) {
            String yaml = recorded.get(j.runId());
            int sha = j.yaml().indexOf(TRACE_SHA);
            if (yaml == null) {
                pending.add(j);
            } else if (yaml.endsWith(PARTITIONED_MARK) != j.yaml().endsWith(PARTITIONED_MARK)) {
                String was = yaml.endsWith(PARTITIONED_MARK) ? RunRecord.PARTITIONED : RunRecord.SEQUENTIAL;
                throw UserError.at(shownDb, "", "run '" + j.runId() + "' of sweep '" + sweep.name + "' was recorded with the " + was
                        + " kernel and this invocation runs the " + kernel + " one (--threads), whose fabric statistics at completion differ; resume "
                        + (was.equals(RunRecord.PARTITIONED) ? "with --threads" : "without --threads") + ", or use another --out");
            } else if (sha >= 0 && !yaml.contains(TRACE_SHA) && yaml.equals(j.yaml().substring(0, sha))) {
                continue; // recorded before traces were fingerprinted: nothing to compare the trace with
            } else if (sha >= 0 && yaml.contains(TRACE_SHA) && yaml.substring(0, yaml.indexOf(TRACE_SHA)).equals(j.yaml().substring(0, sha))
                    && !yaml.equals(j.yaml())) {
                throw UserError.at(shownDb, "", "run '" + j.runId() + "' of sweep '" + sweep.name + "' was recorded with another version of its"
                        + " trace (workload.file " + j.scenario().workload().sourceFile().orElseThrow() + " changed since; its SHA-256 differs);"
                        + " restore the trace, or use another --out or another name: in the sweep file");
            } else if (!yaml.equals(j.yaml()) && !(sha < 0 && bindsToSame(yaml, j.scenario()))) {
                throw UserError.at(shownDb, "", "run '" + j.runId() + "' of sweep '" + sweep.name + "' was recorded with another scenario"
                        + " (did the sweep file change?); use another --out, or another name: in the sweep file");
            } else if (!yaml.equals(j.yaml()) && sha < 0) {
                rebound.add(j); // recorded before a parameter existed: it ran with the default today's scenario spells out
            }
        }
        int already = all.size() - pending.size();
        List<Map<String, Object>> columnSets = new ArrayList<>();
        for (SweepFile.Point p : sweep.points) {
            columnSets.add(ScenarioColumns.of(p.scenario()));
        }
        store.addColumns(columnSets);
        for (Job j : rebound) {
            store.fillEmptyColumns(j.runId(), ScenarioColumns.of(j.scenario()));
        }
        fillOutsideSelection(recorded, all, store);

        boolean terminal = Progress.stdoutIsTerminal() && org.lbsim.cli.errors.ControlCharacters.isStdout(main.out());
        Progress progress = new Progress(quiet ? nullStream() : main.out(), terminal && !quiet, "sweep " + sweep.name, all.size(), already);
        if (!quiet) {
            String counts = String.format(Locale.ROOT, "sweep %s: %d point%s x %d seed%s = %d run%s", sweep.name, sweep.points.size(),
                    sweep.points.size() == 1 ? "" : "s", sweep.seeds, sweep.seeds == 1 ? "" : "s", all.size(), all.size() == 1 ? "" : "s");
            if (pending.isEmpty()) {
                main.out().printf(Locale.ROOT, "%s, all already recorded in %s%n", counts, shownDb);
                summary(sweep, store, shownDb);
                return ExitCode.OK.status();
            }
            String where = remote != null ? " on the " + remote.name() + " engine" + (master == null ? "" : " (" + master + ")")
                    : String.format(Locale.ROOT, " on %d job%s%s", Math.min(threads, pending.size()), Math.min(threads, pending.size()) == 1 ? "" : "s",
                            threadsPerRun == null ? "" : String.format(Locale.ROOT, " of %d thread%s (partitioned kernel)", threadsPerRun,
                                    threadsPerRun == 1 ? "" : "s"));
            main.out().printf(Locale.ROOT, "%s%s%s -> %s%n", counts,
                    already == 0 ? "" : " (" + already + " already recorded, " + pending.size() + " to run)", where, shownDb);
        } else if (pending.isEmpty()) {
            return ExitCode.OK.status();
        }
        long started = System.nanoTime();
        String version = BuildInfo.version();
        String commit = BuildInfo.gitCommit();

        BlockingQueue<Done> results = remote != null ? new LinkedBlockingQueue<>() : new ArrayBlockingQueue<>(2 * threads);
        SweepEngine.Execution execution = remote != null ? startRemote(sweep, pending, conf, results) : null;
        for (Job j : remote != null ? List.<Job>of() : pending) {
            pool.execute(() -> {
                Done d;
                progress.runStarted(j.runId());
                try {
                    long began = System.nanoTime(); // --max-wall-seconds counts the build too
                    RunResult r = prepare(j.scenario(), sweep.baseDir).run(wallSeconds, began);
                    if (keepRuns) {
                        writeRunFolder(sweep, dir, j, r, version, commit);
                    }
                    d = new Done(j, r, null);
                } catch (Throwable t) {
                    d = new Done(j, null, t);
                }
                progress.runEnded(j.runId());
                try {
                    results.put(d);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        progress.startTicker();
        // the one writer: this thread. A shutdown hook (Ctrl-C, kill) lets the transaction in progress finish.
        ReentrantLock writing = new ReentrantLock();
        boolean[] stopped = {false};
        int[] written = {0};
        Thread hook = new Thread(() -> {
            boolean locked = false;
            try {
                locked = writing.tryLock(20, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
            stopped[0] = true;
            if (locked) {
                try {
                    store.close();
                } catch (RuntimeException ignored) {
                    // the write-ahead log keeps what was committed
                }
            }
            main.err().println("lbsim: sweep " + sweep.name + " interrupted: " + (already + written[0]) + " of " + all.size()
                    + " runs recorded in " + shownDb + "; run the same command again to resume");
            main.err().flush();
        }, "lbsim-sweep-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        List<Done> failures = new ArrayList<>();
        try {
            for (int n = 0; n < pending.size(); n++) {
                Done d;
                try {
                    d = results.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UserError("sweep " + sweep.name + ": interrupted");
                }
                if (d.job() == null) {
                    main.err().println("lbsim: sweep " + sweep.name + ": the " + remote.name() + " engine failed: " + firstLine(d.error())
                            + "; " + (already + written[0]) + " of " + all.size() + " runs are recorded in " + shownDb
                            + ": run the same command again to resume");
                    return ExitCode.INTERNAL_ERROR.status();
                }
                if (d.error() != null) {
                    failures.add(d);
                    progress.message(main.err(), failureLine(sweep, d));
                    progress.runFailed(d.job().runId(), d.job().point().describe());
                    continue;
                }
                writing.lock();
                try {
                    if (stopped[0]) {
                        break;
                    }
                    if (remote != null && keepRuns) {
                        writeRunFolder(sweep, dir, d.job(), d.result(), version, commit);
                    }
                    store.write(new RunRecord(d.job().runId(), sweep.name, d.job().point().index(), d.job().scenario(), d.job().yaml(),
                            d.result(), version, commit, kernel));
                    written[0]++;
                } finally {
                    writing.unlock();
                }
                progress.runDone(d.job().runId(), d.job().point().describe(), d.result().wallTimeMs());
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // the JVM is shutting down: the hook is running
            }
            if (execution != null) {
                execution.close();
            }
        }
        progress.finish();
        double seconds = (System.nanoTime() - started) / 1e9;
        if (!quiet) {
            main.out().printf(Locale.ROOT, "sweep %s: %d of %d runs recorded (%d now in %.1f s%s) -> %s%n", sweep.name, already + written[0],
                    all.size(), written[0], seconds, written[0] == 0 ? "" : String.format(Locale.ROOT, ", %.2f runs/s", written[0] / seconds),
                    shownDb);
            summary(sweep, store, shownDb);
        }
        if (!failures.isEmpty()) {
            boolean allBadInput = failures.stream().allMatch(f -> f.error() instanceof ScenarioException || f.error() instanceof TraceFormatException
                    || f.error() instanceof UncheckedIOException || f.error() instanceof UserError);
            main.err().println("lbsim: sweep " + sweep.name + ": " + failures.size() + " of " + pending.size()
                    + " runs failed (see above); the others are recorded: fix the cause and run the same command again to run the failed ones");
            return allBadInput ? ExitCode.BAD_INPUT.status() : ExitCode.INTERNAL_ERROR.status();
        }
        return ExitCode.OK.status();
    }

    /**
     * Hands the pending runs to the engine; its outcomes arrive in {@code results} like the local
     * workers' (an engine failure as a {@link Done} without a job).
     */
    private SweepEngine.Execution startRemote(SweepFile sweep, List<Job> pending, Map<String, String> conf, BlockingQueue<Done> results) {
        Map<String, Job> byId = new java.util.HashMap<>();
        List<SweepRun> runs = new ArrayList<>();
        for (Job j : pending) {
            SweepRun r = new SweepRun(j.runId(), j.yaml(), sweep.baseDir.toString(), wallSeconds);
            // the worker rebuilds the scenario from this text: it must be the very scenario of the job
            String again = Yaml.write(Lbsim.tree(r.scenario()));
            int sha = j.yaml().indexOf(TRACE_SHA);
            if (!again.equals(sha < 0 ? j.yaml() : j.yaml().substring(0, sha))) {
                throw new IllegalStateException("run " + j.runId() + ": its scenario reads back from YAML as another scenario:\n" + again);
            }
            byId.put(j.runId(), j);
            runs.add(r);
        }
        SweepEngine.Listener listener = new SweepEngine.Listener() {
            @Override
            public void ended(SweepRun.Outcome o) {
                Job j = byId.get(o.runId());
                Done d;
                if (o.error() != null) {
                    d = new Done(j, null, o.error());
                } else {
                    try {
                        d = new Done(j, o.decode(), null);
                    } catch (RuntimeException e) {
                        d = new Done(j, null, e);
                    }
                }
                results.add(d);
            }

            @Override
            public void failed(Throwable cause) {
                results.add(new Done(null, null, cause));
            }
        };
        try {
            return remote.start(runs, new SweepEngine.Settings(sweep.name, master, conf, quiet ? nullStream() : main.out()), listener);
        } catch (Exception e) { // SparkException is checked in Java's eyes, thrown undeclared from Scala
            // nearly always a setting: a master URL Spark cannot parse or reach, a bad property
            throw UserError.at("--engine " + remote.name() + (master == null ? "" : " --master " + master), "", "the engine did not start: "
                    + firstLine(e));
        }
    }

    /** {@code Class: the first line of the message} (an engine's messages may carry a remote stack trace), at most 400 characters. */
    private static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? "" : t.getMessage().strip();
        int nl = m.indexOf('\n');
        String line = t.getClass().getSimpleName() + (m.isEmpty() ? "" : ": " + (nl < 0 ? m : m.substring(0, nl)).strip());
        return line.length() <= 400 ? line : line.substring(0, 397) + "...";
    }

    private String failureLine(SweepFile sweep, Done d) {
        Throwable t = d.error();
        UserError bad;
        try {
            bad = runError(sweep, d.job().point(), d.job().seed(), t);
        } catch (RuntimeException | Error internal) {
            bad = null;
        }
        if (bad != null) {
            return "lbsim: " + bad.getMessage();
        }
        StringBuilder sb = new StringBuilder("lbsim: internal error in run " + d.job().runId() + " (" + d.job().point().describe() + "): "
                + t.getClass().getName() + (t.getMessage() == null ? "" : ": " + Yaml.oneLine(t.getMessage())));
        if (main.debug()) {
            java.io.StringWriter w = new java.io.StringWriter();
            t.printStackTrace(new java.io.PrintWriter(w));
            sb.append(System.lineSeparator()).append(w.toString().stripTrailing());
        } else {
            sb.append(" (run with --debug for the stack trace)");
        }
        return sb.toString();
    }

    private void writeRunFolder(SweepFile sweep, Path dir, Job j, RunResult r, String version, String commit) {
        Path target = dir.resolve("runs").resolve(j.runId());
        RunFolder.deleteRecursively(target); // left by an interrupted earlier invocation: its run is not recorded
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("lbsimVersion", version);
        meta.put("gitCommit", commit);
        meta.put("sweep", sweep.name);
        meta.put("point", j.point().index());
        meta.put("runId", j.runId());
        meta.put("seed", r.seed());
        meta.put("javaVersion", System.getProperty("java.version"));
        meta.put("wallTimeMs", r.wallTimeMs());
        meta.put("events", r.counters().events());
        meta.put("kernel", kernel);
        RunFolder.write(target, false, j.scenario(), sweep.baseDir, r, meta);
    }

    /** Mean CCT per point over its seeds (n in seeds), with the points' names and the fields the sweep varies; only for sweeps of up to 60 points. */
    private void summary(SweepFile sweep, ResultsStore store, String shownDb) {
        String hint = "lbsim query " + shownDb + " \"SELECT point, seed, cct_ps FROM runs WHERE sweep = '" + sweep.name + "' ORDER BY point, seed\"";
        if (sweep.points.size() > 60) {
            main.out().println("query it: " + hint);
            return;
        }
        StringBuilder sql = new StringBuilder("SELECT point");
        Set<String> columns = new LinkedHashSet<>();
        if (sweep.varied.contains("name")) {
            columns.add("scenario_name"); // the points' names first: two points of one scheme type are told apart as the sweep names them
        }
        for (String v : sweep.varied) {
            // a field, or the type of a component or variant set as a whole map ({loadBalancing: {type: sack, ...}})
            String column = store.hasRunColumn(v) ? v : store.hasRunColumn(v + ".type") ? v + ".type" : null;
            if (column != null && !v.equals("seed") && !v.equals("name")) {
                columns.add(column);
            }
        }
        for (String c : columns) {
            sql.append(", ").append('"').append(c.replace("\"", "\"\"")).append('"');
        }
        // the means are over finished runs only: an unfinished run's cct_ps is the marker -1
        sql.append(", count(*) AS seeds, round(avg(cct_ps) FILTER (WHERE cct_ps >= 0) / 1e6, 3) AS mean_cct_us,"
                + " round(avg(cct_increase_pct) FILTER (WHERE cct_ps >= 0), 2) AS mean_vs_bound_pct,"
                + " count(*) FILTER (WHERE cct_ps < 0) AS unfinished FROM runs WHERE sweep = ? GROUP BY ALL ORDER BY point");
        try (PreparedStatement ps = store.connection().prepareStatement(sql.toString())) {
            ps.setString(1, sweep.name);
            try (ResultSet rs = ps.executeQuery()) {
                main.out().print(ResultTable.read(rs).table());
            }
            store.connection().commit();
        } catch (SQLException e) {
            main.out().println("query it: " + hint);
        }
    }

    private static java.io.PrintStream nullStream() {
        return new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
    }
}
