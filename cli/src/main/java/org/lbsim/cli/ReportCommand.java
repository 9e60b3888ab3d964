package org.lbsim.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.lbsim.cli.plot.PlotException;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.report.HtmlReport;
import org.lbsim.cli.report.RunData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write one self-contained HTML page (inline CSS and SVG figures, no script, nothing fetched; docs/reports.md).",
                "For a run folder: the scenario, summary tables (CCT, bound, counters, queues and drops per " +
                    "layer) and figures (CDFs, queue, rate and goodput series).",
                "For a results database (or a sweep folder holding results.duckdb): one section per sweep " +
                    "with the CCT increase per scheme and a table per point, then the single runs."},
        footer = {"",
                "Examples:",
                "  lbsim report sweeps/schemes/results.duckdb",
                "  lbsim report runs/quickstart --out quickstart.html"})
final class ReportCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "RUN_DIR|DB", description = "A run folder, a results database, or a folder holding results.duckdb.")
    Path input;

    @Option(names = "--out", paramLabel = "FILE.html",
            description = "Page to write (replaced if it exists). Default: report.html in the run folder, or next to the database.")
    Path out;

    @Option(names = "--quiet", description = "Print nothing on success.")
    boolean quiet;

    @Override
    public Integer call() {
        ReportInputs in = ReportInputs.of(input);
        String generator = "lbsim " + BuildInfo.version();
        String html;
        Path target;
        try {
            if (in.isRun()) {
                html = HtmlReport.forRun(RunData.fromFolder(in.runFolder(), input.toString()), generator);
                target = out != null ? out : in.runFolder().resolve("report.html");
            } else {
                try (ResultsReader db = ResultsReader.open(in.database(), in.database().toString())) {
                    html = HtmlReport.forDatabase(db, in.database().getFileName().toString(), generator);
                }
                Path parent = in.database().toAbsolutePath().getParent();
                target = out != null ? out : parent.resolve("report.html");
            }
        } catch (PlotException e) {
            throw new UserError(e.getMessage());
        }
        ReportInputs.writeAtomically(target, html, target.toString());
        if (!quiet) {
            main.out.println("report       " + ScenarioLoader.shownPath(target.toAbsolutePath().normalize()));
        }
        return Main.OK;
    }
}
