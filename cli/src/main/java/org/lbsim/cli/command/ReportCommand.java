package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.lbsim.cli.plot.PlotException;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.report.HtmlReport;
import org.lbsim.cli.report.RunData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.store.BuildInfo;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.errors.UserError;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write one self-contained HTML page (inline CSS and SVG figures, no script, nothing fetched; docs/reports.md); " +
                    "--interactive adds zoom and hover, still offline.",
                "For a run folder: the scenario, summary tables (CCT, bound, counters, queues and drops per " +
                    "layer) and figures (CDFs, queue, rate and goodput series).",
                "For a results database (or a sweep folder holding results.duckdb): one section per sweep " +
                    "with the CCT increase per scheme and a table per point, then the single runs.",
                "Beside the page, NAME-figures/ holds each figure as SVG (text as <text>) and the data drawn " +
                    "in it as CSV; each figure's caption links to both."},
        footer = {"",
                "Examples:",
                "  lbsim report sweeps/schemes/results.duckdb",
                "  lbsim report runs/quickstart --out quickstart.html",
                "  lbsim report sweeps/schemes --interactive"})
public final class ReportCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", paramLabel = "RUN_DIR|DB", description = "A run folder, a results database, or a folder holding results.duckdb.")
    Path input;

    @Option(names = "--out", paramLabel = "FILE.html",
            description = "Page to write (replaced if it exists). Default: report.html in the run folder, or next to the database.")
    Path out;

    @Option(names = "--quiet", description = "Print nothing on success.")
    boolean quiet;

    @Option(names = "--interactive",
            description = "Also draw every figure with zoom and hover (uPlot, about 50 KB, inlined: still offline, from file://), "
                    + "from the same CSV as the figure folder's; a checkbox in the page switches back to the static figures, which are what prints.")
    boolean interactive;

    @Override
    public Integer call() {
        ReportInputs in = ReportInputs.of(input);
        String generator = "lbsim " + BuildInfo.version();
        HtmlReport.Page page;
        Path target;
        try {
            if (in.isRun()) {
                target = out != null ? out : in.runFolder().resolve("report.html");
                page = HtmlReport.runPage(RunData.fromFolder(in.runFolder(), input.toString()), generator, figuresDir(target), interactive);
            } else {
                Path parent = in.database().toAbsolutePath().getParent();
                target = out != null ? out : parent.resolve("report.html");
                try (ResultsReader db = ResultsReader.open(in.database(), in.database().toString())) {
                    List<String> sweeps = db.sweeps();
                    String title = sweeps.size() == 1 && sweeps.get(0) != null ? "sweep " + sweeps.get(0) : in.database().getFileName().toString();
                    page = HtmlReport.databasePage(db, title, generator, "", figuresDir(target), interactive);
                }
            }
        } catch (PlotException e) {
            throw new UserError(e.getMessage());
        }
        ReportInputs.writeAtomically(target, page.html(), target.toString());
        writeFigures(page, target);
        if (!quiet) {
            main.out().println("report       " + ScenarioLoader.shownPath(target.toAbsolutePath().normalize()));
        }
        return ExitCode.OK.status();
    }

    /** The folder of a page's figure files (SVG and CSV), beside it: report.html -> report-figures. */
    static String figuresDir(Path page) {
        String n = page.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return (dot < 0 ? n : n.substring(0, dot)) + "-figures";
    }

    /** Each figure of the page as SVG and CSV in its figure folder. */
    static void writeFigures(HtmlReport.Page page, Path target) {
        Path parent = target.toAbsolutePath().getParent();
        Path dir = parent.resolve(figuresDir(target));
        try {
            page.writeFigures(dir);
        } catch (java.io.IOException e) {
            throw new UserError("cannot write the figures of " + target + " into " + dir + ": " + e.getMessage());
        }
    }
}
