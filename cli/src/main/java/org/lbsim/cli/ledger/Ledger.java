package org.lbsim.cli.ledger;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.lbsim.cli.errors.UserError;

/**
 * A paper's results ledger, generated from committed results: the one-screen table of every figure
 * of the paper's evaluation (the paper's statement, its setting against ours, our numbers over n
 * seeds, the verdict, the command, size and wall time), then one section per figure. Nothing in
 * it is typed by hand: every number comes from {@code results/PAPER/FIGURE/*.csv} through the
 * reproduction's declared claims and tables.
 */
public final class Ledger {
    /** A figure's staleness when no probe was run to tell. */
    public static final String NOT_PROBED = "not checked (no probe run)";

    /** Where committed results live, relative to the repository. */
    public static final String RESULTS_DIR = "results";

    private Ledger() {
    }

    /** A claim's outcome under every reading and its verdict. */
    public record ClaimResult(FigureDef.ClaimDef claim, Map<String, Expectation.Outcome> byReading, String verdict, Status status) {
    }

    /** A claim's or a figure's verdict class. */
    public enum Status { MATCHES, SHAPE_MATCHES, DIFFERS, NOT_JUDGED, NOT_RUN, NOT_ATTEMPTED }

    /** What the runs behind a figure were. */
    public record Facts(long runs, long seeds, long points, long maxHosts, double wallHours, List<String> commits, List<String> kernels, String digest,
                        long ofFigure, long figureRuns) {
        /** Whether some of the figure's runs are not among the committed ones. */
        public boolean partial() {
            return ofFigure < figureRuns;
        }
    }

    /** A figure's row and section. */
    public record FigureResult(PaperDef.Entry entry, FigureDef def, String folder, Facts facts, List<ClaimResult> claims, Status status,
                               String verdict, String tables, String stale) {
    }

    /** The results folder of a reproduction: its own sweep's name, or that of the reproduction whose sweep it shares. */
    public static String folder(String paper, String reproduction, Map<String, Object> rawDefinition) {
        Object of = rawDefinition.get("sweepOf");
        return RESULTS_DIR + "/" + paper + "/" + (of instanceof String s ? s : reproduction);
    }

    /** The command that makes (or resumes) a figure's committed results. */
    public static String command(String reproduction, String folder) {
        return "lbsim reproduce " + reproduction + " --out " + folder;
    }

    /**
     * Evaluates one figure from the results under {@code repoRoot}.
     *
     * @param raw the reproduction's definition as read (for {@code sweepOf} and {@code tables})
     */
    public static FigureResult evaluate(PaperDef.Entry entry, String paper, Map<String, Object> raw, Path repoRoot,
                                        java.util.function.BiFunction<String, Map<String, Object>, Probe.Fingerprint> probe) {
        if (!entry.attempted()) {
            return new FigureResult(entry, null, null, null, List.of(), Status.NOT_ATTEMPTED, "not attempted: " + entry.notAttempted(), "", null);
        }
        String folder = folder(paper, entry.reproduction(), raw);
        Path dir = repoRoot.resolve(folder);
        return evaluateAt(entry, raw, folder, dir, ResultsCsv.present(dir) ? probe.apply(entry.reproduction(), raw) : null);
    }

    /**
     * Evaluates one figure from the results in {@code dir}, shown as {@code folder}; {@code today}
     * is the figure's probe run with today's code (null: no results to compare).
     */
    public static FigureResult evaluateAt(PaperDef.Entry entry, Map<String, Object> raw, String folder, Path dir, Probe.Fingerprint today) {
        FigureDef def = FigureDef.parse(entry.reproduction(), raw);
        if (!ResultsCsv.present(dir)) {
            List<ClaimResult> claims = def.claims().stream().map(c -> new ClaimResult(c, Map.of(), "not run", Status.NOT_RUN)).toList();
            return new FigureResult(entry, def, folder, null, claims, Status.NOT_RUN, "not run: no committed results in " + folder, "", null);
        }
        try (FigureResults r = FigureResults.load(def, dir, Probe.scenarioColumns(raw, false))) {
            Facts facts = facts(r, ResultsCsv.digest(dir), Probe.expectedRunIds(raw));
            List<ClaimResult> claims = new ArrayList<>();
            for (FigureDef.ClaimDef c : def.claims()) {
                Map<String, Expectation.Outcome> byReading = new LinkedHashMap<>();
                for (FigureDef.Reading reading : def.readings()) {
                    byReading.put(reading.name(), r.judge(c, reading));
                }
                claims.add(claimResult(def, c, byReading));
            }
            Status status = figureStatus(claims);
            long matching = claims.stream().filter(c -> c.status() == Status.MATCHES).count();
            long unjudged = claims.stream().filter(c -> !judged(c)).count();
            String verdict = switch (status) {
                case MATCHES -> "matches";
                case SHAPE_MATCHES -> "shape matches";
                case DIFFERS -> "differs";
                default -> "not judged";
            } + String.format(Locale.ROOT, " (%d of %d claims match under the default reading%s%s)", matching, claims.size(),
                    // a default chosen after results is said in the figure's verdict, not only in its claims'
                    def.defaultReading().madeDefaultAfterResults()
                            ? " " + def.defaultReading().name() + ", made the default after another reading's results were seen" : "",
                    unjudged == 0 ? "" : String.format(Locale.ROOT, "; %d not judged", unjudged));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> tables = (List<Map<String, Object>>) raw.getOrDefault("tables", List.of());
            if (facts.partial()) {
                verdict = String.format(Locale.ROOT, "partial results (%d of the figure's %d runs): ", facts.ofFigure(), facts.figureRuns()) + verdict;
            }
            if (def.readingOf() != null) {
                verdict = "a reading of " + def.readingOf() + " added after its default reading differed: " + verdict;
            }
            String stale = today == null ? NOT_PROBED : Probe.staleness(dir, today);
            return new FigureResult(entry, def, folder, facts, claims, status, today != null && stale != null ? "stale results: " + verdict : verdict,
                    LedgerTables.render(r, tables), stale);
        } catch (SQLException e) {
            throw new UserError(dir + ": cannot read the committed results: " + e.getMessage());
        }
    }

    /** A claim's verdict: the default reading's, and which other reading matches when the default does not. */
    static ClaimResult claimResult(FigureDef def, FigureDef.ClaimDef c, Map<String, Expectation.Outcome> byReading) {
        FigureDef.Reading dflt = def.defaultReading();
        Expectation.Outcome d = byReading.get(dflt.name());
        if (d.judged() && d.holds() && def.readingOf() != null) {
            return new ClaimResult(c, byReading, "matches only under this reading of " + def.readingOf() + ", added after its default differed",
                    Status.MATCHES);
        }
        if (d.judged() && d.holds()) {
            return new ClaimResult(c, byReading, dflt.madeDefaultAfterResults()
                    ? "matches under the default reading " + dflt.name() + ", made the default after another reading's results were seen"
                    : "matches", Status.MATCHES);
        }
        String base = d.judged() ? "differs" : "not judged: " + d.why();
        for (FigureDef.Reading other : def.readings()) {
            Expectation.Outcome o = byReading.get(other.name());
            if (!other.isDefault() && o.judged() && o.holds()) {
                base += "; matches only under reading " + other.name()
                        + (other.addedAfterDefaultDiffered() ? ", added after the default differed" : ", declared with the default");
                break;
            }
        }
        return new ClaimResult(c, byReading, base, d.judged() ? Status.DIFFERS : Status.NOT_JUDGED);
    }

    /** All claims match: matches; every shape claim matches and a magnitude claim does not: shape matches; else differs. */
    /**
     * A figure's verdict from its claims' under the default reading. A claim not judged (no runs of
     * its reading, a row without a value) never counts as holding: the figure matches only when
     * every claim is judged and holds, shape-matches only when every shape claim is judged and
     * holds; a judged shape claim that fails makes it differ whatever is still unjudged.
     */
    static Status figureStatus(List<ClaimResult> claims) {
        List<ClaimResult> judged = claims.stream().filter(Ledger::judged).toList();
        if (judged.isEmpty()) {
            return Status.NOT_JUDGED;
        }
        boolean anyShape = claims.stream().anyMatch(c -> c.claim().kind() == FigureDef.ClaimKind.SHAPE);
        boolean judgedShapeFails = judged.stream().anyMatch(c -> c.claim().kind() == FigureDef.ClaimKind.SHAPE && c.status() != Status.MATCHES);
        boolean judgedFails = judged.stream().anyMatch(c -> c.status() != Status.MATCHES);
        if (judgedShapeFails || (!anyShape && judgedFails)) {
            return Status.DIFFERS;
        }
        if (judged.size() == claims.size()) {
            return judgedFails ? Status.SHAPE_MATCHES : Status.MATCHES;
        }
        boolean shapeUnjudged = claims.stream().anyMatch(c -> !judged(c) && c.claim().kind() == FigureDef.ClaimKind.SHAPE);
        return shapeUnjudged || !anyShape ? Status.NOT_JUDGED : Status.SHAPE_MATCHES;
    }

    private static boolean judged(ClaimResult c) {
        return c.status() != Status.NOT_JUDGED && c.status() != Status.NOT_RUN;
    }

    private static Facts facts(FigureResults r, String digest, java.util.Set<String> expected) throws SQLException {
        List<List<String>> row = r.rows("SELECT count(*), count(DISTINCT seed), count(DISTINCT point), max(hosts), coalesce(sum(wall_time_ms), 0) FROM runs");
        List<String> f = row.get(0);
        List<String> commits = new ArrayList<>();
        for (List<String> c : r.rows("SELECT DISTINCT coalesce(git_commit, 'unknown') FROM runs ORDER BY 1")) {
            commits.add(c.get(0).length() > 12 ? c.get(0).substring(0, 12) : c.get(0));
        }
        List<String> kernels = new ArrayList<>();
        for (List<String> k : r.rows("SELECT DISTINCT coalesce(kernel, 'sequential') FROM runs ORDER BY 1")) {
            kernels.add(k.get(0));
        }
        return new Facts(Long.parseLong(f.get(0)), Long.parseLong(f.get(1)), Long.parseLong(f.get(2)), f.get(3) == null ? 0 : Long.parseLong(f.get(3)),
                Double.parseDouble(f.get(4)) / 3.6e6, commits, kernels, digest, r.rows("SELECT run_id FROM runs").stream().filter(x -> expected.contains(x.get(0))).count(),
                expected.size());
    }

    /**
     * The markdown page of one paper; {@code probe} runs a figure's probe with today's code
     * ({@link Probe#run}, or a memo of it where one process draws many pages).
     */
    public static String page(PaperDef paper, Function<String, Map<String, Object>> definitions, Path repoRoot,
                              java.util.function.BiFunction<String, Map<String, Object>, Probe.Fingerprint> probe) {
        List<FigureResult> figures = new ArrayList<>();
        for (PaperDef.Entry e : paper.entries()) {
            figures.add(evaluate(e, paper.name(), e.attempted() ? definitions.apply(e.reproduction()) : Map.of(), repoRoot, probe));
        }
        return LedgerPage.render(paper, figures);
    }

    /** Counts of figures by status, in the order of {@link Status}, for a summary line. */
    public static Map<Status, Integer> counts(List<FigureResult> figures) {
        Map<Status, Integer> n = new java.util.EnumMap<>(Status.class);
        for (FigureResult f : figures) {
            n.merge(f.status(), 1, Integer::sum);
        }
        return n;
    }
}
