package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.lbsim.cli.plot.Charts;
import org.lbsim.cli.plot.Charts.ErrorBars;
import org.lbsim.cli.plot.Figure;
import org.lbsim.cli.plot.Grouped;
import org.lbsim.cli.plot.Labels;
import org.lbsim.cli.plot.PlotException;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.report.RunData;
import org.lbsim.cli.report.RunFigures;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.errors.UserError;

@Command(name = "plot", mixinStandardHelpOptions = true,
        description = {"Draw a figure, PNG or SVG by the --out extension (docs/reports.md).",
                "",
                "On a results database: METRIC against FIELD, one series per --by value; each point is the " +
                    "mean of the runs that share it (n, the number of runs, is in the caption). Its whisker: " +
                    "none for one run, the runs themselves (min to max) for two, from three runs on the 95 %% " +
                    "confidence interval of the mean (Student t; --error), cut at what the metric can take " +
                    "(>= 0, a queue <= the buffer). A scenario field other than FIELD and --by that differs " +
                    "among the runs of a point is refused (--others). The figure's data is written beside it as CSV.",
                "FIELD: any runs column (workload.messageBytes, loadBalancing.type, seed ...; a unique last " +
                    "part such as messageBytes will do).",
                "METRIC: a runs column (cct_increase_pct, cct_ps, drops ...), a per-run aggregate " +
                    "(max_queue_bytes, mean_queue_bytes, tx_packets, paused_ps, mean_fct_ps, p50_fct_ps, " +
                    "p99_fct_ps, max_fct_ps), one layer's value (max_queue_bytes@A->C) or an SQL expression " +
                    "over those. Times (_ps) are shown in microseconds, sizes (_bytes) in KB.",
                "",
                "On a run folder: its six standard figures (CDFs of FCT, queue depth and out-of-order degree; " +
                    "queue, rate and goodput series) into --out DIR."},
        footer = {"",
                "Examples:",
                "  lbsim plot sweeps/schemes/results.duckdb --x workload.messageBytes --by loadBalancing.type --log x",
                "  lbsim plot runs/quickstart --out runs/quickstart/plots"})
public final class PlotCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", paramLabel = "DB|RUN_DIR", description = "A results database (or a folder holding results.duckdb), or a run folder.")
    Path input;

    @Option(names = "--x", paramLabel = "FIELD", description = "Column on the x axis; numbers give a numeric axis, anything else categories.")
    String x;

    @Option(names = "--y", paramLabel = "METRIC", description = "Metric on the y axis (default: cct_increase_pct).")
    String y;

    @Option(names = "--by", paramLabel = "FIELD", split = ",", description = "One series per value of these columns (comma-separated or repeated).")
    List<String> by = new ArrayList<>();

    @Option(names = "--where", paramLabel = "SQL", description = "Only the runs for which this SQL condition over the columns holds, e.g. \"sweep = 'msg'\".")
    String where;

    @Option(names = "--error", paramLabel = "KIND", defaultValue = "ci95",
            description = "Whiskers of the points with at least 3 runs: ci95 (default: 95 %% confidence interval of the mean, Student t),"
                    + " stddev or none. Points of 2 runs show their range (min to max), points of 1 run none.")
    String error;

    @Option(names = "--log", paramLabel = "AXES",
            description = "Logarithmic axes: x, y, xy or none (default none: both linear; --log x leaves y linear).")
    String log;

    @Option(names = "--others", paramLabel = "refuse|split", defaultValue = "refuse",
            description = "A scenario field other than --x and --by that differs among the runs of a point: refuse (default: say which,"
                    + " pin it with --where) or split (one series per value, as if it were in --by).")
    String others;

    @Option(names = "--fit", description = "Fit y = a x^b per series by least squares on log-log (series with at least 4 x values) and give the slope b in the legend.")
    boolean fit;

    @Option(names = "--title", description = "Figure title (default: METRIC by FIELD).")
    String title;

    @Option(names = "--y-title", paramLabel = "TEXT", description = "Title of the y axis (default: the metric's name and unit).")
    String yTitle;

    @Option(names = "--size", paramLabel = "WxH", defaultValue = "800x460", description = "Figure size in pixels (default 800x460).")
    String size;

    @Option(names = "--out", paramLabel = "FILE|DIR",
            description = {"Database: the figure file, .png or .svg (default: <METRIC>-vs-<FIELD>.png next to the database).",
                    "Run folder: the folder for the figures (default: RUN_DIR/plots)."})
    Path out;

    @Option(names = "--format", paramLabel = "png|svg", defaultValue = "png", description = "Run folder: file format of the figures (default png).")
    String format;

    @Option(names = "--quiet", description = "Print nothing on success.")
    boolean quiet;

    /** The longest --title or --y-title: a title is one or two lines of a figure, and wrapping a much longer one takes minutes. */
    static final int MAX_TITLE_CHARS = 200;

    @Override
    public Integer call() {
        checkLength("--title", title);
        checkLength("--y-title", yTitle);
        ReportInputs in = ReportInputs.of(input);
        try {
            return in.isRun() ? runFigures(in.runFolder()) : databaseFigure(in.database());
        } catch (PlotException e) {
            throw new UserError(e.getMessage());
        }
    }

    private static void checkLength(String option, String text) {
        if (text != null && text.length() > MAX_TITLE_CHARS) {
            throw UserError.at(option, "", "must be at most " + MAX_TITLE_CHARS + " characters, got " + text.length());
        }
    }

    private int runFigures(Path dir) {
        if (x != null || y != null || !by.isEmpty() || where != null || fit || log != null) {
            throw UserError.at(input.toString(), "", "is a run folder: --x, --y, --by, --where, --log and --fit need a results database"
                    + " (a run folder gets its standard figures; 'lbsim report' shows them with the tables)");
        }
        Figure.Format f = switch (format.toLowerCase(Locale.ROOT)) {
            case "png" -> Figure.Format.PNG;
            case "svg" -> Figure.Format.SVG;
            default -> throw UserError.at("--format " + format, "", "must be png or svg");
        };
        Path target = out != null ? out : dir.resolve("plots");
        RunFigures.Result r = RunFigures.of(RunData.fromFolder(dir, input.toString()), Charts.Size.DEFAULT);
        for (Figure fig : r.figures()) {
            Path file = target.resolve(fig.name() + "." + f.extension());
            refuseForeign(Figure.csvBeside(file), out != null ? "--out " + out : ScenarioLoader.shownPath(target));
            if (Files.exists(file) && !Files.exists(Figure.csvBeside(file))) {
                throw UserError.at(out != null ? "--out " + out : ScenarioLoader.shownPath(target), "", ScenarioLoader.shownPath(file)
                        + " exists and was not written by lbsim plot (no figure data beside it); move it or choose another folder");
            }
        }
        for (Figure fig : r.figures()) {
            Path file = target.resolve(fig.name() + "." + f.extension());
            ReportInputs.writeAtomically(file, f == Figure.Format.PNG ? fig.png() : fig.svg().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    file.toString());
            Path data = Figure.csvBeside(file);
            ReportInputs.writeAtomically(data, fig.csv(), data.toString());
            if (!quiet) {
                main.out().println("figure       " + ScenarioLoader.shownPath(file));
            }
        }
        if (!quiet) {
            for (String m : r.missing()) {
                main.out().println("not drawn    " + m);
            }
            for (String n : r.notes()) {
                main.out().println("note         " + n);
            }
        }
        return ExitCode.OK.status();
    }

    private int databaseFigure(Path dbFile) {
        if (x == null) {
            throw UserError.at("plot", "", "--x FIELD is required for a results database (e.g. --x loadBalancing.type)");
        }
        boolean logX = false;
        boolean logY = false;
        if (log != null) {
            switch (log.toLowerCase(Locale.ROOT)) {
                case "x" -> logX = true;
                case "y" -> logY = true;
                case "xy", "yx", "both" -> {
                    logX = true;
                    logY = true;
                }
                case "none" -> {
                    // both linear, the default
                }
                default -> throw UserError.at("--log " + log, "", "must be x, y, xy or none");
            }
        }
        boolean split = switch (others.toLowerCase(Locale.ROOT)) {
            case "refuse" -> false;
            case "split" -> true;
            default -> throw UserError.at("--others " + others, "", "must be refuse or split");
        };
        ErrorBars bars = switch (error.toLowerCase(Locale.ROOT)) {
            case "ci95" -> ErrorBars.CI95;
            case "stddev" -> ErrorBars.STDDEV;
            case "none" -> ErrorBars.NONE;
            case "minmax" -> throw UserError.at("--error " + error, "", "is no longer drawn: use ci95 (95 % confidence interval of the mean,"
                    + " the default), stddev or none; the CSV beside the figure has each point's min and max");
            default -> throw UserError.at("--error " + error, "", "must be ci95, stddev or none");
        };
        int[] wh = size(size);
        if (out != null) {
            try {
                Figure.Format.of(out);
            } catch (IllegalArgumentException e) {
                throw UserError.at("--out " + out, "", e.getMessage());
            }
        }
        String metricName = y == null ? "cct_increase_pct" : y;
        Path target;
        Figure figure;
        try (ResultsReader db = ResultsReader.open(dbFile, dbFile.toString())) {
            String xCol = db.resolveColumn(x, "--x");
            List<String> byCols = new ArrayList<>();
            for (String b : by) {
                byCols.add(db.resolveColumn(b.strip(), "--by"));
            }
            ResultsReader.Metric metric = db.metric(metricName);
            List<Grouped.Row> rows = db.rows(xCol, metric, byCols, where);
            if (rows.isEmpty()) {
                throw UserError.at(dbFile.toString(), "", "no run has a value of " + metricName + (where == null ? "" : " where " + where));
            }
            // a point is the mean of runs that differ in the seed only, unless the user chose to split by the other fields
            List<String> unpinned = db.unpinned(xCol, metric, byCols, where);
            if (!unpinned.isEmpty() && !split) {
                String f = unpinned.get(0);
                throw UserError.at(dbFile.toString(), "", (unpinned.size() == 1 ? f + " differs" : String.join(", ", unpinned) + " differ")
                        + " among the runs of a point, and a mean over them would mix settings the figure does not name: pin it with"
                        + " --where '\"" + f + "\" = VALUE', add it to --by, or pass --others split");
            }
            if (!unpinned.isEmpty()) {
                byCols.addAll(unpinned);
                rows = db.rows(xCol, metric, byCols, where);
            }
            String yAxis = yTitle != null ? yTitle : metric.title();
            String t = title != null ? title : yAxis + " by " + Labels.title(xCol)
                    + (byCols.isEmpty() ? "" : " and " + String.join(", ", byCols.stream().map(Labels::title).toList()));
            Charts.GroupedOptions options = Charts.GroupedOptions.of(t).withErrorBars(bars).withLog(logX, logY).withFit(fit).withSize(wh[0], wh[1])
                    .withFloor(floor(metricName));
            double cap = bufferCap(db, metricName, metric, where);
            if (!Double.isNaN(cap)) {
                options = options.withCap(cap, "buffer cap (" + Labels.number(cap) + " KB per port)");
            }
            figure = Charts.grouped("plot", Grouped.ofColumn(xCol, yAxis, rows, false), options);
            if (figure == null) {
                throw UserError.at(dbFile.toString(), "", "nothing to draw" + (logX || logY ? " (log axes leave out values <= 0)" : ""));
            }
            // next to the database, as lbsim report writes its page, never into the current folder unasked
            target = out != null ? out : dbFile.toAbsolutePath().normalize().resolveSibling(safe(metricName) + "-vs-" + safe(xCol) + (byCols.isEmpty() ? "" : "-by-" + safe(String.join("-", byCols))) + ".png");
        }
        Figure.Format f;
        try {
            f = Figure.Format.of(target);
        } catch (IllegalArgumentException e) {
            throw UserError.at("--out " + target, "", e.getMessage());
        }
        refuseForeign(Figure.csvBeside(target), out != null ? "--out " + target : ScenarioLoader.shownPath(target));
        ReportInputs.writeAtomically(target, f == Figure.Format.PNG ? figure.png() : figure.svg().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                target.toString());
        Path data = Figure.csvBeside(target);
        ReportInputs.writeAtomically(data, figure.csv(), data.toString());
        if (!quiet) {
            main.out().println("figure       " + ScenarioLoader.shownPath(target));
            main.out().println("data         " + ScenarioLoader.shownPath(data));
        }
        return ExitCode.OK.status();
    }

    /**
     * The least value a metric can take: 0 for lbsim's own metrics (times, sizes, counts and the
     * CCT increase over a lower bound), none for a scenario field or an SQL expression.
     */
    private static double floor(String metricName) {
        String m = metricName.strip();
        return m.matches("[A-Za-z_][A-Za-z0-9_]*(@.*)?") ? 0 : Double.NaN;
    }

    /**
     * For a queue metric in KB (max_queue_bytes, also at one layer): the per-port buffer in KB when
     * every run drawn has the same one, so the figure can mark it; NaN otherwise.
     */
    private static double bufferCap(ResultsReader db, String metricName, ResultsReader.Metric metric, String where) {
        if (!metricName.startsWith("max_queue_bytes")) {
            return Double.NaN;
        }
        String col;
        try {
            col = db.resolveColumn("switches.buffer.bytesPerPort", "--y");
        } catch (PlotException e) {
            return Double.NaN; // a database without that scenario field
        }
        List<Object> buffers = db.rows(col, metric, List.of(), where).stream().map(Grouped.Row::x).distinct().toList();
        return buffers.size() == 1 && buffers.get(0) instanceof Number n && n.doubleValue() > 0 ? n.doubleValue() / 1e3 : Double.NaN;
    }

    /**
     * The data of a figure goes beside it as CSV, a file the user did not name: it may replace only the data of an
     * earlier figure ({@link Figure#isFigureData}), never another file. Checked before anything is written.
     */
    private static void refuseForeign(Path data, String option) {
        if (Files.exists(data) && !Figure.isFigureData(data)) {
            throw UserError.at(option, "", ScenarioLoader.shownPath(data) + " exists and is not figure data written by lbsim plot, and the figure's"
                    + " data goes there; move it or choose another --out");
        }
    }

    private static int[] size(String s) {
        String[] p = s.toLowerCase(Locale.ROOT).split("x");
        try {
            int w = Integer.parseInt(p[0].strip());
            int h = Integer.parseInt(p[1].strip());
            if (p.length == 2 && w >= 200 && h >= 150 && w <= 8000 && h <= 8000) {
                return new int[] {w, h};
            }
        } catch (RuntimeException e) {
            // below
        }
        throw UserError.at("--size " + s, "", "must be WIDTHxHEIGHT in pixels, between 200x150 and 8000x8000");
    }

    private static String safe(String s) {
        String r = s.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^[._]+", "");
        return r.isEmpty() ? "plot" : r.length() > 60 ? r.substring(0, 60) : r;
    }
}
