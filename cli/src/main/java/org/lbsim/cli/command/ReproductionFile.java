package org.lbsim.cli.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.ledger.FigureDef;
import org.lbsim.cli.ledger.FigureResults;
import org.lbsim.cli.ledger.Probe;
import org.lbsim.cli.plot.PlotException;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.cli.store.ScenarioColumns;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioText;
import org.lbsim.scenario.ScenarioException;

/**
 * What {@code lbsim reproduce} checks of a reproduction's own keys before anything runs (docs/reproductions.md, "The
 * reproduction files"): the keys it knows, the files it writes, its sweep's shape and its plots, each error one line
 * starting with {@code file:line:column} of the field at fault, as the positions of {@link Yaml#parseWithPositions} give it.
 * Its claims, readings and measures are {@link org.lbsim.cli.ledger.FigureDef}'s to check.
 */
public final class ReproductionFile {
    static final List<String> KEYS = List.of("title", "paper", "notes", "files", "sweep", "quickSweep", "sweepOf", "ledger", "readings",
            "measures", "claims", "tables", "plots");
    static final List<String> PLOT_KEYS = List.of("file", "x", "y", "by", "log", "fit", "where", "title", "ytitle");
    /** A y that names a column or a layer's metric (max_queue_bytes@E->A), which can be its own axis title. */
    private static final java.util.regex.Pattern PLAIN_METRIC = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*(@\\S+)?");
    private static final List<String> LOG_AXES = List.of("x", "y", "xy", "yx", "both", "none");
    /** A file a reproduction writes into its folder: a plain name, never a path out of it. */
    private static final java.util.regex.Pattern FILE_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,200}");

    private ReproductionFile() {
    }

    /** A reproduction file's tree: a map of its keys. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> tree(Yaml.Document doc, String file) {
        if (doc.tree() instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw UserError.at(doc.where(file, ""), "", "expected a reproduction: a map of " + String.join(", ", KEYS)
                + " (docs/reproductions.md), got " + ScenarioText.describe(doc.tree()));
    }

    /**
     * Checks the keys of definition {@code def} ({@code sweepOf} already resolved) that are not the ledger's: known keys, a
     * title, {@code files} as plain names with texts, {@code sweep} and {@code quickSweep} as maps, and every plot (its keys,
     * their types, {@code x} and {@code by} a column its runs will have).
     */
    public static void check(Map<String, Object> def, UnaryOperator<String> at) {
        for (String k : def.keySet()) {
            if (!KEYS.contains(k)) {
                throw UserError.at(at.apply(k), k, "unknown key" + ScenarioText.closest(k, KEYS).map(s -> ", did you mean '" + s + "'?").orElse("")
                        + " (allowed keys: " + String.join(", ", KEYS) + ")");
            }
        }
        text(def.get("title"), at, "title");
        if (!(def.get("sweep") instanceof Map<?, ?>)) {
            throw UserError.at(at.apply("sweep"), "sweep", "expected the sweep the figure runs (a map of name, base, grid, points, seeds, quick:"
                    + " docs/sweeps.md), got " + ScenarioText.describe(def.get("sweep")));
        }
        if (def.containsKey("quickSweep") && !(def.get("quickSweep") instanceof Map<?, ?>)) {
            throw UserError.at(at.apply("quickSweep"), "quickSweep", "expected a map of the sweep's keys that --quick replaces, got "
                    + ScenarioText.describe(def.get("quickSweep")));
        }
        if (def.containsKey("files")) {
            if (!(def.get("files") instanceof Map<?, ?> files)) {
                throw UserError.at(at.apply("files"), "files", "expected a map of file name -> content, got " + ScenarioText.describe(def.get("files")));
            }
            for (Map.Entry<?, ?> f : files.entrySet()) {
                String field = "files." + f.getKey();
                if (!FILE_NAME.matcher(String.valueOf(f.getKey())).matches()) {
                    throw UserError.at(at.apply(field), field, "a file of the reproduction's folder: letters, digits, '.', '_' and '-', no folder");
                }
                if (!(f.getValue() instanceof String)) {
                    throw UserError.at(at.apply(field), field, "expected the file's text, got " + ScenarioText.describe(f.getValue()));
                }
            }
        }
        if (!def.containsKey("plots")) {
            return;
        }
        if (!(def.get("plots") instanceof List<?> plots)) {
            throw UserError.at(at.apply("plots"), "plots", "expected a list of plots such as {file: cct.png, x: loadBalancing.type, y: cct_increase_pct},"
                    + " got " + ScenarioText.describe(def.get("plots")));
        }
        Set<String> columns = null;
        for (int i = 0; i < plots.size(); i++) {
            String p = "plots[" + i + "]";
            if (!(plots.get(i) instanceof Map<?, ?> plot)) {
                throw UserError.at(at.apply(p), p, "expected a map of " + String.join(", ", PLOT_KEYS) + ", got " + ScenarioText.describe(plots.get(i)));
            }
            for (Object k : plot.keySet()) {
                if (!PLOT_KEYS.contains(String.valueOf(k))) {
                    String field = p + "." + k;
                    throw UserError.at(at.apply(field), field, "unknown key" + ScenarioText.closest(String.valueOf(k), PLOT_KEYS)
                            .map(s -> ", did you mean '" + s + "'?").orElse("") + " (allowed keys: " + String.join(", ", PLOT_KEYS) + ")");
                }
            }
            String file = text(plot.get("file"), at, p + ".file");
            if (!FILE_NAME.matcher(file).matches() || !file.toLowerCase(Locale.ROOT).matches(".*\\.(png|svg)")) {
                throw UserError.at(at.apply(p + ".file"), p + ".file", "expected a file name of the reproduction's folder ending in .png or .svg, got '"
                        + file + "'");
            }
            String y = text(plot.get("y"), at, p + ".y");
            if (!plot.containsKey("ytitle") && !PLAIN_METRIC.matcher(y).matches()) {
                throw UserError.at(at.apply(p + ".y"), p + ".ytitle", "missing: y is an expression, so its axis needs a title (the axis would show the SQL)");
            }
            for (String k : List.of("where", "title", "ytitle")) {
                if (plot.containsKey(k)) {
                    text(plot.get(k), at, p + "." + k);
                }
            }
            if (plot.containsKey("log") && !LOG_AXES.contains(String.valueOf(plot.get("log")))) {
                throw UserError.at(at.apply(p + ".log"), p + ".log", "expected x, y, xy or none, got " + ScenarioText.describe(plot.get("log")));
            }
            if (plot.containsKey("fit") && !(plot.get("fit") instanceof Boolean)) {
                throw UserError.at(at.apply(p + ".fit"), p + ".fit", "expected true or false, got " + ScenarioText.describe(plot.get("fit")));
            }
            String x = text(plot.get("x"), at, p + ".x");
            columns = columns != null ? columns : runColumns(def);
            column(x, columns, at, p + ".x");
            if (plot.containsKey("by")) {
                for (String b : text(plot.get("by"), at, p + ".by").split(",")) {
                    column(b.strip(), columns, at, p + ".by");
                }
            }
        }
    }

    /**
     * Prepares every query of definition {@code def} before anything runs, on an empty results database with the
     * columns its sweep's runs will have (quick or full): each measure, each claim's metric under each reading, and
     * each plot's {@code y} and {@code where} as {@code lbsim plot} builds its query. A query that does not bind (an
     * unknown column or function, a syntax error) is a {@link UserError} at the field holding it. Nothing is checked
     * when the sweep does not load: the sweep says why when it is run.
     */
    @SuppressWarnings("unchecked")
    public static void checkQueries(Map<String, Object> def, FigureDef figure, boolean quick, UnaryOperator<String> at) {
        List<Map<String, Object>> columns = Probe.scenarioColumns(def, quick);
        if (columns.isEmpty()) {
            return;
        }
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("lbsim-reproduce-check-");
            Path db = tmp.resolve(ResultsStore.DEFAULT_FILE);
            String shown = "the figure's runs";
            try (ResultsStore store = ResultsStore.open(db, shown)) {
                store.addColumns(columns);
            }
            List<Map<String, Object>> plots = def.get("plots") instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
            try (ResultsReader r = ResultsReader.open(db, shown)) {
                for (int i = 0; i < plots.size(); i++) {
                    checkPlot(r, plots.get(i), "plots[" + i + "]", at);
                }
            }
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath())) {
                for (Map.Entry<String, String> m : figure.measures().entrySet()) {
                    try {
                        FigureResults.computeMeasures(c, Map.of(m.getKey(), m.getValue()), "true");
                    } catch (SQLException e) {
                        String field = "measures." + m.getKey();
                        throw UserError.at(at.apply(field), field, "the query fails on the figure's runs: " + ResultsStore.message(e));
                    }
                }
                FigureResults results = FigureResults.open(c, figure);
                for (int i = 0; i < figure.claims().size(); i++) {
                    FigureDef.ClaimDef claim = figure.claims().get(i);
                    for (FigureDef.Reading reading : figure.readings()) {
                        String error = results.metric(claim, reading).error();
                        if (!error.isEmpty() && !error.equals(FigureResults.NO_RUNS)) {
                            String field = "claims[" + i + "].metric";
                            throw UserError.at(at.apply(field), field, error + (figure.readings().size() > 1 ? " (reading " + reading.name() + ")" : ""));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("an empty results database for the reproduction's queries: " + ResultsStore.message(e), e);
        } finally {
            if (tmp != null) {
                delete(tmp);
            }
        }
    }

    /** A plot's y and where as {@code lbsim plot} queries them, on the empty database {@code r}. */
    private static void checkPlot(ResultsReader r, Map<String, Object> plot, String p, UnaryOperator<String> at) {
        String y = (String) plot.get("y");
        ResultsReader.Metric metric;
        String x;
        List<String> by = new ArrayList<>();
        try {
            metric = r.metric(y, true); // the layers are the runs' own
            x = r.resolveColumn((String) plot.get("x"), "--x");
            if (plot.get("by") instanceof String b) {
                for (String one : b.split(",")) {
                    by.add(r.resolveColumn(one.strip(), "--by"));
                }
            }
            r.rows(x, metric, by, null);
        } catch (PlotException e) {
            throw UserError.at(at.apply(p + ".y"), p + ".y", plotProblem(e, "--y " + y.strip() + ": ", QUERY_FAILED + ": "));
        }
        if (plot.get("where") instanceof String where) {
            try {
                r.rows(x, metric, by, where);
            } catch (PlotException e) {
                throw UserError.at(at.apply(p + ".where"), p + ".where", plotProblem(e, "--where " + where + ": ",
                        QUERY_FAILED + " (--where " + where + "): "));
            }
        }
    }

    /** How {@link ResultsReader#rows} starts the message of a query that failed, on the database {@link #checkQueries} names so. */
    private static final String QUERY_FAILED = "the figure's runs: query failed";

    /** {@code lbsim plot}'s message without the option it names (the field does here). */
    private static String plotProblem(PlotException e, String option, String failed) {
        String m = String.valueOf(e.getMessage());
        if (m.startsWith(failed)) {
            return "the query fails on the figure's runs: " + m.substring(failed.length());
        }
        return m.startsWith(option) ? m.substring(option.length()) : m;
    }

    private static void delete(Path dir) {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path f : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }

    /**
     * The columns {@code lbsim plot} finds in the figure's runs: those of {@code runs}, the per-run aggregates, and every
     * scenario field of the sweep's base, grid, points and quick overrides (and the defaults' fields).
     */
    @SuppressWarnings("unchecked")
    static Set<String> runColumns(Map<String, Object> def) {
        Set<String> out = new LinkedHashSet<>(ResultsStore.runColumns());
        out.addAll(ResultsReader.AGGREGATES.keySet());
        out.addAll(ScenarioColumns.of(Lbsim.bind(Map.of())).keySet());
        List<Map<String, Object>> sweeps = new ArrayList<>();
        sweeps.add((Map<String, Object>) def.get("sweep"));
        if (def.get("quickSweep") instanceof Map<?, ?> q) {
            sweeps.add((Map<String, Object>) q);
        }
        for (Map<String, Object> sweep : sweeps) {
            if (sweep.get("base") instanceof Map<?, ?> base) {
                paths("", base, out);
                try {
                    out.addAll(ScenarioColumns.of(Lbsim.bind(base)).keySet());
                } catch (ScenarioException e) {
                    // a base its points complete: its fields as written are counted above; the sweep says what is wrong with it
                }
            }
            for (String k : List.of("grid", "quick")) {
                if (sweep.get(k) instanceof Map<?, ?> m) {
                    m.forEach((field, values) -> {
                        if (values instanceof List<?> l && k.equals("grid")) {
                            l.forEach(v -> paths(String.valueOf(field), v, out));
                        } else {
                            paths(String.valueOf(field), values, out);
                        }
                    });
                }
            }
            if (sweep.get("points") instanceof List<?> points) {
                points.forEach(p -> paths("", p, out));
            }
        }
        return out;
    }

    /** The field paths a value written at {@code path} sets ({@code loadBalancing: {type: ofan}} sets {@code loadBalancing.type}). */
    private static void paths(String path, Object value, Set<String> out) {
        if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> paths(path.isEmpty() ? String.valueOf(k) : path + "." + k, v, out));
        } else if (!path.isEmpty()) {
            out.add(path);
        }
    }

    /** A column as {@code lbsim plot --x} resolves it: an exact (case-insensitive) name, or the one column it ends. */
    private static void column(String given, Set<String> columns, UnaryOperator<String> at, String field) {
        String lower = given.toLowerCase(Locale.ROOT);
        if (columns.stream().anyMatch(c -> c.equalsIgnoreCase(given) || c.toLowerCase(Locale.ROOT).endsWith("." + lower))) {
            return;
        }
        throw UserError.at(at.apply(field), field, "'" + given + "' is not a column of the figure's runs"
                + ScenarioText.closest(given, List.copyOf(columns)).map(c -> ", did you mean '" + c + "'?").orElse("")
                + " (a scenario field such as loadBalancing.type, or a column of runs such as scenario_name; docs/results.md)");
    }

    private static String text(Object o, UnaryOperator<String> at, String field) {
        if (o instanceof String s && !s.isBlank()) {
            return s;
        }
        throw UserError.at(at.apply(field), field, "expected a non-empty text, got " + ScenarioText.describe(o));
    }
}
