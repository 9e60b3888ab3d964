package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.store.BuildInfo;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.ledger.FigureDef;
import org.lbsim.cli.ledger.Ledger;
import org.lbsim.cli.ledger.LedgerPage;
import org.lbsim.cli.ledger.LedgerRuns;
import org.lbsim.cli.ledger.PaperDef;
import org.lbsim.cli.ledger.Probe;
import org.lbsim.cli.ledger.ResultsCsv;
import org.lbsim.api.ScenarioText;

/**
 * {@code lbsim reproduce NAME}: one command per paper figure. A reproduction is a resource file
 * ({@code reproduce/NAME.yaml}) holding a sweep, the tables and plots to draw from its database,
 * and what the paper reports; this command runs the sweep (resumable), then writes the table, the
 * plots, an HTML report and a README.md with our numbers next to the paper's.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"Reproduce a figure of one of the papers: run its sweep, then write table, plots, " +
                    "report and the paper's statements side by side into the output folder. 'lbsim reproduce --list' lists them."},
        footer = {"",
                "Examples:",
                "  lbsim reproduce --list",
                "  lbsim reproduce fig1 --quick --out /tmp/fig1",
                "  lbsim reproduce fig1 --quick --interactive"})
public final class ReproduceCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "Figure to reproduce, e.g. fig1 (also named ofan-fig1) or themis-fig1; or a reproduction file FILE.yaml of one's own"
                    + " (docs/reproductions.md).")
    String name;

    @Option(names = "--list", description = "List the reproductions.")
    boolean list;

    @Option(names = "--quick", description = "A small, fast version (smaller fabric or messages, one seed).")
    boolean quick;

    @Option(names = "--seeds", paramLabel = "N", description = "Seeds per point (default: the figure's, 10 for OFAN figures; 1 with --quick).")
    Integer seeds;

    @Option(names = "--only", paramLabel = "KEY=VALUES",
            description = "Run only the figure's points whose field KEY has one of the comma-separated VALUES (repeatable; e.g. --only"
                    + " topology.k=4,8): the part of a large figure there is time for. The report uses every run recorded in --out.")
    List<String> only = new ArrayList<>();

    @Option(names = "--jobs", paramLabel = "N", description = "Runs at once (default: the number of cores).")
    Integer jobs;

    @Option(names = "--threads", paramLabel = "N",
            description = "Each run on the partitioned kernel with N threads (1-64), as 'lbsim sweep --threads N': faster for large fabrics;"
                    + " the same flows as the default sequential kernel (runs.kernel). Default: sequential.")
    Integer threads;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: reproductions/NAME or NAME-quick); reused to resume.")
    Path out;

    @Option(names = "--interactive", description = "report.html also draws its figures with zoom and hover (as 'lbsim report --interactive').")
    boolean interactive;

    public static List<String> names() {
        return List.copyOf(aliases().values().stream().distinct().toList());
    }

    /**
     * Every name {@code lbsim reproduce} accepts, each with the reproduction it stands for: a reproduction's own
     * name (its file and results folder, {@code fig1}) and the other names index.txt gives it after that name,
     * such as the paper-prefixed {@code ofan-fig1}.
     */
    public static Map<String, String> aliases() {
        String index = resource("reproduce/index.txt").orElse("");
        Map<String, String> names = new LinkedHashMap<>();
        for (String line : index.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] words = line.strip().split("\\s+");
            for (String w : words) {
                String earlier = names.putIfAbsent(w, words[0]);
                if (earlier != null) {
                    throw new IllegalStateException("reproduce/index.txt names '" + w + "' twice");
                }
            }
        }
        return names;
    }

    /** The other names of reproduction {@code n} (the paper-prefixed {@code ofan-fig1} of {@code fig1}), in index.txt's order. */
    public static List<String> otherNames(String n) {
        return aliases().entrySet().stream().filter(e -> e.getValue().equals(n) && !e.getKey().equals(n)).map(Map.Entry::getKey).toList();
    }

    /**
     * The measures of every reproduction in ledger form drawn from the same runs as {@code name} (its own
     * sweep's, or the sweep it takes with {@code sweepOf}): a run's measures are computed while its flows are
     * at hand, whichever of those figures is reproduced first.
     *
     * @throws UserError when two of them give one measure name two definitions
     */
    public static Map<String, String> sharedMeasures(String name, Map<String, Object> def) {
        String owner = def.get("sweepOf") instanceof String o ? o : name;
        Map<String, String> measures = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(names());
        if (!all.contains(name)) {
            all.add(name); // a reproduction file of one's own
        }
        for (String n : all) {
            Map<String, Object> other = n.equals(name) ? def : definition(n);
            if (!(n.equals(owner) || owner.equals(other.get("sweepOf")))) {
                continue;
            }
            for (Map.Entry<String, String> m : FigureDef.parse(n, other).measures().entrySet()) {
                String earlier = measures.putIfAbsent(m.getKey(), m.getValue());
                if (earlier != null && !earlier.equals(m.getValue())) {
                    throw UserError.at("reproduce/" + n + ".yaml", "measures." + m.getKey(), "reproduce/" + from.get(m.getKey())
                            + ".yaml, drawn from the same runs, defines it otherwise; give one of them another name");
                }
                from.putIfAbsent(m.getKey(), n);
            }
        }
        return measures;
    }

    /** A resource's text; a missing one is a packaging fault. */
    public static String resourceText(String path) {
        return resource(path).orElseThrow(() -> new IllegalStateException("missing resource " + path));
    }

    private static Optional<String> resource(String path) {
        try (InputStream in = ReproduceCommand.class.getClassLoader().getResourceAsStream(path)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Integer call() throws Exception {
        List<String> names = names();
        if (list || name == null) {
            int width = names.stream().mapToInt(String::length).max().orElse(0);
            for (String n : names) {
                Map<String, Object> r = definition(n);
                List<String> other = otherNames(n);
                main.out().printf(Locale.ROOT, "%-" + width + "s  %s%s%n", n, r.get("title"), other.isEmpty() ? "" : " (also: " + String.join(", ", other) + ")");
            }
            return name == null && !list ? ExitCode.BAD_INPUT.status() : ExitCode.OK.status();
        }
        String defFile;
        Yaml.Document doc;
        String ownFile = isFile(name) ? name : null; // the file the README names as the command's argument
        if (isFile(name)) {
            // a reproduction of one's own, written as docs/reproductions.md describes the built-in ones
            defFile = name;
            doc = Yaml.readWithPositions(Path.of(name), name);
            String stem = Path.of(name).getFileName().toString().replaceFirst("\\.ya?ml$", "");
            if (!stem.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,100}")) {
                throw UserError.at(name, "", "the file's name names the reproduction, its runs and its folder: letters, digits, '.', '_' and '-'");
            }
            name = stem;
        } else {
            Map<String, String> aliases = aliases();
            if (!aliases.containsKey(name)) {
                throw new UserError("reproduce: unknown reproduction '" + name + "'"
                        + ScenarioText.closest(name, List.copyOf(aliases.keySet())).map(x -> ", did you mean '" + x + "'?").orElse("")
                        + " (available: " + String.join(", ", names) + "; or a reproduction file NAME.yaml)");
            }
            name = aliases.get(name);
            defFile = "reproduce/" + name + ".yaml";
            doc = document(name);
        }
        UnaryOperator<String> at = field -> doc.where(defFile, field);
        Map<String, Object> def = resolve(name, ReproductionFile.tree(doc, defFile), names, ReproduceCommand::parsed, at);
        // the definition's own keys, plots, claims and readings, checked before anything is written or runs
        ReproductionFile.check(def, at);
        FigureDef figureDef = FigureDef.parse(name, def, at);
        ReproductionFile.checkQueries(def, figureDef, quick, at);
        Map<String, Object> sweep = Probe.sweepTree(def, quick);
        // sweepOf: the runs are the named reproduction's, under its sweep name
        String sweepName = (String) sweep.getOrDefault("name", def.getOrDefault("sweepOf", name));
        Path dir = out != null ? out : Path.of("reproductions", quick ? name + "-quick" : name);
        boolean fresh = !Files.exists(dir);
        refuseForeignFolder(dir, out != null ? "--out " + out : ScenarioLoader.shownPath(dir));
        Files.createDirectories(dir);
        Path sweepFile = dir.resolve(SWEEP_FILE);
        Map<Path, byte[]> overwritten = contents(dir, def, sweepFile);
        Probe.writeFiles(def, dir);
        Files.writeString(sweepFile, MARKER + name + "\n" + Yaml.write(sweep), StandardCharsets.UTF_8);

        List<String> sweepArgs = new ArrayList<>(List.of("sweep", sweepFile.toString(), "--out", dir.toString()));
        if (quick) {
            sweepArgs.add("--quick");
        }
        if (seeds != null) {
            sweepArgs.addAll(List.of("--seeds", seeds.toString()));
        }
        if (jobs != null) {
            sweepArgs.addAll(List.of("--jobs", jobs.toString()));
        }
        if (threads != null) {
            sweepArgs.addAll(List.of("--threads", threads.toString()));
        }
        for (String o : only) {
            sweepArgs.addAll(List.of("--only", o));
        }
        Path db = dir.resolve("results.duckdb");
        String sweepId = quick ? sweepName + "-quick" : sweepName;
        String where = "sweep = '" + sweepId + "'";
        if (ResultsCsv.present(dir) && !Files.exists(db)) {
            LedgerRuns.importCommitted(dir, db);
        }
        Set<String> recordedBefore = Files.isRegularFile(db) ? recordedRunIds(db, sweepId) : Set.of();
        int rc = main.runCommandLine(sweepArgs.toArray(String[]::new), main.out(), main.err());
        String missing = "";
        Set<String> recordedIds = Files.isRegularFile(db) ? recordedRunIds(db, sweepId) : Set.of();
        if (rc != ExitCode.OK.status() && recordedIds.equals(recordedBefore)) {
            // refused before running (a resume of runs recorded with another definition, say), or every run it tried
            // failed: nothing new to draw, so the folder is left as it was, and none is left behind that this command made
            if (fresh) {
                removeRefused(dir);
            } else {
                restore(overwritten);
            }
            return rc;
        }
        SweepFile figure = SweepFile.load(sweepFile.toString(), seeds, quick); // valid: the sweep ran
        if (rc != ExitCode.OK.status()) {
            // Some runs failed. Exit code 2 also covers seed-dependent scenario errors (random link
            // failures that disconnect a host pair): the figure is drawn from the recorded runs and says so.
            SweepFile asked = figure.only(only);
            long expected = asked.runs();
            long recorded = recordedOf(asked, recordedIds);
            missing = String.format(Locale.ROOT, "**%d of %d runs failed and are left out of the tables and plots** (the sweep printed"
                    + " why; running the same command again retries them).%n%n", expected - recorded, expected);
            main.err().printf(Locale.ROOT, "lbsim: reproduce %s: %d of %d runs failed (see above); the figure uses the %d that finished%n", name,
                    expected - recorded, expected, recorded);
        }

        LedgerRuns.exportCommitted(db, sharedMeasures(name, def), where, dir);
        String commit = BuildInfo.gitCommit();
        if (commit.equals("unknown") || !Boolean.FALSE.equals(BuildInfo.gitDirty())) {
            // results to commit must name the code that made them
            main.err().println("lbsim: reproduce " + name + ": " + (commit.equals("unknown") ? "the jar is not in a git work tree, so the runs record no commit"
                    : "the work tree has uncommitted changes, so the runs' commit " + commit.substring(0, 12) + " is not all of their code")
                    + ": results committed from them cannot be traced to one commit");
        }
        Probe.Fingerprint today = Probe.run(name, def);
        Probe.record(dir, commit, today);
        Ledger.FigureResult figureResult = Ledger.evaluateAt(new PaperDef.Entry(name, name, null), def, ScenarioLoader.shownPath(dir), dir, today);

        StringBuilder md = new StringBuilder();
        md.append("# ").append(def.get("title")).append("\n\n");
        md.append("Reproduced by `lbsim reproduce ").append(ownFile != null ? ownFile : name).append(quick ? " --quick" : "").append(seeds != null ? " --seeds " + seeds : "")
                .append(only.stream().map(o -> " --only " + o).reduce("", String::concat)).append(threads != null ? " --threads " + threads : "")
                .append("` (lbsim ").append(BuildInfo.version()).append(", commit ").append(BuildInfo.gitCommit()).append(").")
                .append(quick ? " **Quick version: a smaller setting than the paper's; the numbers are indicative only.**" : "")
                .append(threads != null ? " Every run used the partitioned kernel (`--threads`): the same flows as the default sequential kernel;"
                        + " the fabric statistics frozen at the last completion are read at the end of that synchronisation window." : "")
                .append("\n\n");
        long figureRuns = figure.runs();
        long ofFigure = recordedOf(figure, recordedIds);
        if (ofFigure < figureRuns) {
            md.append(String.format(Locale.ROOT, "**Partial: %d of the figure's %d runs (%d seed%s per point) are recorded in this folder (%d run%s"
                    + " in all); the tables and claims below use every recorded run.** Running `lbsim reproduce %s` with the same --out runs the"
                    + " rest.%n%n", ofFigure, figureRuns, figure.seeds, figure.seeds == 1 ? "" : "s", recordedIds.size(), recordedIds.size() == 1 ? "" : "s",
                    (ownFile != null ? ownFile : name) + (quick ? " --quick" : "") + (seeds != null ? " --seeds " + seeds : "")));
        }
        md.append(missing).append(LedgerPage.section(figureResult).replaceFirst("^## [^\n]*\n\n", ""));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> plots = (List<Map<String, Object>>) def.getOrDefault("plots", List.of());
        for (Map<String, Object> p : plots) {
            String file = (String) p.get("file");
            List<String> args = new ArrayList<>(List.of("plot", db.toString(), "--x", (String) p.get("x"), "--y", (String) p.get("y"),
                    "--where", p.containsKey("where") ? where + " AND (" + p.get("where") + ")" : where, "--out", dir.resolve(file).toString()));
            if (p.containsKey("by")) {
                args.addAll(List.of("--by", (String) p.get("by")));
            }
            if (p.containsKey("log")) {
                args.addAll(List.of("--log", (String) p.get("log")));
            }
            if (Boolean.TRUE.equals(p.get("fit"))) {
                args.add("--fit");
            }
            if (p.containsKey("title")) {
                args.addAll(List.of("--title", (String) p.get("title")));
            }
            if (p.containsKey("ytitle")) {
                args.addAll(List.of("--y-title", (String) p.get("ytitle")));
            }
            int prc = main.runCommandLine(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), main.err());
            if (prc == ExitCode.OK.status()) {
                md.append("![").append(p.getOrDefault("title", file)).append("](").append(file).append(")\n\n");
            }
        }
        md.append("Everything is in `results.duckdb` (tables: docs/results.md); `report.html` shows it all.\n");
        Files.writeString(dir.resolve("README.md"), md.toString(), StandardCharsets.UTF_8);
        writeReport(dir, db, String.valueOf(def.get("title")), md.toString());
        main.out().println("reproduce " + name + ": " + ScenarioLoader.shownPath(dir.resolve("README.md")) + ", report.html, "
                + plots.size() + " plot(s)");
        return rc;
    }

    /**
     * The report of the sweep with the README's text (paper, verdicts, tables, notes) before it; the
     * README's images are left out (the report draws its own figures). A report that cannot be
     * written is said on stderr; the README stands.
     */
    private void writeReport(Path dir, Path db, String title, String readme) {
        String preface = readme.lines().skip(1).filter(l -> !l.startsWith("![")).collect(java.util.stream.Collectors.joining("\n"));
        try (org.lbsim.cli.plot.ResultsReader r = org.lbsim.cli.plot.ResultsReader.open(db, db.toString())) {
            Path page = dir.resolve("report.html");
            org.lbsim.cli.report.HtmlReport.Page html = org.lbsim.cli.report.HtmlReport.databasePage(r, title, "lbsim " + BuildInfo.version(),
                    preface, ReportCommand.figuresDir(page), interactive);
            ReportInputs.writeAtomically(page, html.html(), page.toString());
            ReportCommand.writeFigures(html, page);
        } catch (RuntimeException e) {
            main.err().println("lbsim: reproduce: report.html not written: " + e.getMessage());
        }
    }

    /** The sweep file of a reproduction's folder; its first line, {@link #MARKER} and the name, marks the folder as one. */
    static final String SWEEP_FILE = "sweep.yaml";
    static final String MARKER = "# written by lbsim reproduce ";

    /**
     * A reproduction writes README.md, report.html, tables and plots into its folder, replacing what is there: it
     * does so only in a folder it made (one whose sweep.yaml starts with {@link #MARKER}, of any reproduction, since
     * figures can share runs, or one holding a figure's committed results) or an empty one. Any other existing folder is refused, before anything is written.
     */
    static void refuseForeignFolder(Path dir, String shown) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw UserError.at(shown, "", "is a file, expected a folder for the reproduction");
        }
        if (ResultsCsv.present(dir)) {
            return; // a figure's committed results (a fresh clone has only those): resumed from them
        }
        Path sweepFile = dir.resolve(SWEEP_FILE);
        if (Files.isRegularFile(sweepFile)) {
            try (java.io.BufferedReader r = Files.newBufferedReader(sweepFile, StandardCharsets.UTF_8)) {
                String first = r.readLine();
                if (first != null && first.startsWith(MARKER)) {
                    return;
                }
            } catch (java.nio.charset.CharacterCodingException e) {
                // not lbsim's: refused below
            }
        }
        try (var entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                return;
            }
        }
        throw UserError.at(shown, "", "already exists and holds no earlier reproduction (no " + SWEEP_FILE + " written by lbsim reproduce);"
                + " choose another --out or remove it");
    }

    /** A folder this command created for a sweep that was refused before running: left as it was found (absent). */
    /** The files of {@code dir} that the definition's {@code files:} and the sweep file would replace, as they are (null: absent). */
    @SuppressWarnings("unchecked")
    private static Map<Path, byte[]> contents(Path dir, Map<String, Object> def, Path sweepFile) throws IOException {
        Map<Path, byte[]> was = new LinkedHashMap<>();
        for (String f : ((Map<String, Object>) def.getOrDefault("files", Map.of())).keySet()) {
            was.put(dir.resolve(f), null);
        }
        was.put(sweepFile, null);
        for (Map.Entry<Path, byte[]> e : was.entrySet()) {
            e.setValue(Files.isRegularFile(e.getKey()) ? Files.readAllBytes(e.getKey()) : null);
        }
        return was;
    }

    private static void restore(Map<Path, byte[]> was) throws IOException {
        for (Map.Entry<Path, byte[]> e : was.entrySet()) {
            if (e.getValue() == null) {
                Files.deleteIfExists(e.getKey());
            } else {
                Files.write(e.getKey(), e.getValue());
            }
        }
    }

    private static void removeRefused(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** How many of {@code sweep}'s runs are among {@code recorded}. */
    private static long recordedOf(SweepFile sweep, Set<String> recorded) {
        long n = 0;
        for (SweepFile.Point p : sweep.points) {
            for (int i = 0; i < sweep.seeds; i++) {
                n += recorded.contains(sweep.runId(p, p.scenario().seed() + i)) ? 1 : 0;
            }
        }
        return n;
    }

    /** The run ids of the sweep recorded in the database. */
    private Set<String> recordedRunIds(Path db, String sweepId) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc = main.runCommandLine(new String[] {"query", db.toString(), "SELECT run_id FROM runs WHERE sweep = '" + sweepId + "'", "--format", "csv"},
                new PrintStream(buf, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<String> lines = buf.toString(StandardCharsets.UTF_8).strip().lines().toList();
        return rc == ExitCode.OK.status() && !lines.isEmpty() ? new HashSet<>(lines.subList(1, lines.size())) : Set.of();
    }

    /** Reproduction {@code n}'s definition, a {@code sweepOf} replaced by the named reproduction's sweep (see {@link #resolve}). */
    public static Map<String, Object> definition(String n) {
        return resolve(n, parsed(n), names(), ReproduceCommand::parsed);
    }

    /** Reproduction {@code n}'s definition as its file says. */
    private static Map<String, Object> parsed(String n) {
        return ReproductionFile.tree(document(n), "reproduce/" + n + ".yaml");
    }

    /** Reproduction {@code n}'s file read with where each of its fields is ({@link Yaml.Document}). */
    static Yaml.Document document(String n) {
        String file = "reproduce/" + n + ".yaml";
        String text = resource(file).orElseThrow(() -> new IllegalStateException("missing " + file));
        return Yaml.parseWithPositions(text, file);
    }

    /** Whether {@code lbsim reproduce} was given a reproduction file rather than a reproduction's name. */
    static boolean isFile(String given) {
        return given.endsWith(".yaml") || given.endsWith(".yml");
    }

    /** The keys that {@code sweepOf} takes from the named reproduction. */
    static final List<String> SHARED_KEYS = List.of("files", "sweep", "quickSweep");

    /**
     * {@code sweepOf: NAME}: two figures drawn from the same runs share one sweep. The definition
     * {@code def} of reproduction {@code n} takes {@code files}, {@code sweep} and {@code quickSweep}
     * from reproduction NAME (one of {@code known}, read by {@code load}), which must have its own
     * sweep: one level, no chain. Its runs then carry NAME's sweep name, so {@code --out} pointing
     * at NAME's folder reuses NAME's runs. A definition without {@code sweepOf} is returned as is.
     *
     * @throws UserError naming the file and the field: {@code sweepOf} beside one of the shared keys,
     *                   not a known reproduction's name, naming this reproduction itself, one with a
     *                   sweepOf of its own, or one without a sweep ({@code lbsim reproduce} then exits with 2)
     */
    public static Map<String, Object> resolve(String n, Map<String, Object> def, List<String> known,
                                              Function<String, Map<String, Object>> load) {
        String file = "reproduce/" + n + ".yaml";
        return resolve(n, def, known, load, field -> file);
    }

    /** As {@link #resolve(String, Map, List, Function)}, each error starting with {@code at} of the field at fault (file:line:column). */
    public static Map<String, Object> resolve(String n, Map<String, Object> def, List<String> known,
                                              Function<String, Map<String, Object>> load, UnaryOperator<String> at) {
        if (!def.containsKey("sweepOf")) {
            return def;
        }
        String file = at.apply("sweepOf");
        for (String k : SHARED_KEYS) {
            if (def.containsKey(k)) {
                throw UserError.at(file, "sweepOf", "a reproduction has either its own " + k + " or sweepOf (the " + String.join(", ", SHARED_KEYS)
                        + " of another reproduction), not both: remove " + k + " or sweepOf");
            }
        }
        if (!(def.get("sweepOf") instanceof String of) || !known.contains(of)) {
            String given = def.get("sweepOf") instanceof String s ? "'" + s + "'" : ScenarioText.describe(def.get("sweepOf"));
            throw UserError.at(file, "sweepOf", "expected the name of a reproduction in reproduce/index.txt that has its own sweep, got " + given
                    + (def.get("sweepOf") instanceof String s ? ScenarioText.closest(s, known).map(x -> " (did you mean '" + x + "'?)").orElse("") : ""));
        }
        if (of.equals(n)) {
            throw UserError.at(file, "sweepOf", "names this reproduction itself; expected another reproduction with its own sweep");
        }
        Map<String, Object> source = load.apply(of);
        if (source.containsKey("sweepOf")) {
            throw UserError.at(file, "sweepOf", "'" + of + "' takes its own sweep from '" + source.get("sweepOf") + "' (sweepOf); expected a reproduction"
                    + " with its own sweep (one level), e.g. sweepOf: " + source.get("sweepOf"));
        }
        if (!(source.get("sweep") instanceof Map<?, ?>)) {
            throw UserError.at(file, "sweepOf", "'" + of + "' has no sweep; expected a reproduction with its own sweep");
        }
        Map<String, Object> resolved = new LinkedHashMap<>(def);
        for (String k : SHARED_KEYS) {
            if (source.containsKey(k)) {
                resolved.put(k, source.get(k));
            }
        }
        return resolved;
    }
}
