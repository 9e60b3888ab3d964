package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.plot.TestResultsDb;

/** {@code lbsim plot} and {@code lbsim report} on a run folder and on a results database. */
class PlotReportTest {
    /** A scenario with sampling on, some reordering (spraying) and losses (ECMP collisions on small buffers). */
    static final String SAMPLED = """
            name: sampled
            seed: 5
            topology: {type: fat-tree, k: 4}
            loadBalancing: {type: host-spray}
            workload: {type: permutation, messageBytes: 262144}
            metrics: {sampleIntervalUs: 0.5, rateSeriesQps: 3}
            """;

    @TempDir
    static Path shared;
    static Path run;
    static Path db;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp() throws Exception {
        Path scenario = shared.resolve("sampled.yaml");
        Files.writeString(scenario, SAMPLED);
        run = shared.resolve("run");
        MainTest.Result r = lbsim("run", scenario.toString(), "--out", run.toString(), "--quiet");
        assertThat(r.code()).as(r.err()).isZero();
        Files.createDirectory(shared.resolve("sweep"));
        db = TestResultsDb.create(shared.resolve("sweep").resolve("results.duckdb"));
    }

    static void ok(MainTest.Result r) {
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isZero();
        assertThat(r.err()).isEmpty();
    }

    static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static void parseSvg(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        assertThat(f.newDocumentBuilder().parse(file.toFile()).getDocumentElement().getNodeName()).isEqualTo("svg");
    }

    @Test
    void a_run_folder_keeps_series_and_reordering_for_the_report() throws IOException {
        List<String> series = Files.readAllLines(run.resolve("series.csv"));
        assertThat(series.get(0)).isEqualTo("series,unit,t_ps,value");
        assertThat(series).anyMatch(l -> l.startsWith("queue.max E->A,bytes,500000,"))
                .anyMatch(l -> l.startsWith("goodput,Gb/s,")).anyMatch(l -> l.startsWith("rate qp2,Gb/s,"));
        List<String> ooo = Files.readAllLines(run.resolve("ooo.csv"));
        assertThat(ooo.get(0)).isEqualTo("bucket,min_degree,max_degree,count");
        assertThat(ooo.get(1)).startsWith("0,0,0,");
        assertThat(ooo).anyMatch(l -> l.startsWith("3,4,7,"));
        assertThat(Files.readString(run.resolve("summary.json"))).contains("\"outOfOrder\": {\n    \"samples\": ");
    }

    @Test
    void report_of_a_run_folder_is_one_self_contained_deterministic_page() throws IOException {
        Path out = dir.resolve("r.html");
        MainTest.Result r = lbsim("report", run.toString(), "--out", out.toString());
        ok(r);
        assertThat(r.out()).startsWith("report       ").contains("r.html");
        String html = Files.readString(out);
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
                .contains("<title>lbsim report: run</title>", "id=\"summary\"", "id=\"layers\"", "id=\"figures\"", "id=\"scenario\"",
                        "<caption>Counters</caption>", "<td>E-&gt;A</td>", "host-spray / fixed-rate / erasure", "messageBytes: 262144",
                        "Content-Security-Policy")
                .doesNotContain("<script", "<link", "src=\"http", "href=\"http", "url(http", "Not drawn");
        assertThat(count(html, "<figure ")).isEqualTo(6);
        assertThat(count(html, "<svg ")).isEqualTo(6);
        assertThat(html.length()).isLessThan(1_500_000);
        assertThat(html).contains("<a href=\"r-figures/fig-1-fct-cdf.csv\">data (CSV)</a>");
        assertThat(Files.readAllLines(dir.resolve("r-figures/fig-1-fct-cdf.csv")).get(0)).isEqualTo("series,FCT (\u00b5s),fraction_at_most_x");
        assertThat(Files.readString(dir.resolve("r-figures/fig-1-fct-cdf.svg"))).contains(">Flow completion time</text>");
        ok(lbsim("report", run.toString(), "--out", dir.resolve("again.html").toString(), "--quiet"));
        assertThat(Files.readString(dir.resolve("again.html")).replace("again-figures/", "r-figures/")).as("same run, same page").isEqualTo(html);
    }

    @Test
    void report_writes_next_to_its_input_by_default() throws IOException {
        Path copy = dir.resolve("copy");
        Files.createDirectory(copy);
        try (Stream<Path> s = Files.list(run)) {
            for (Path p : s.toList()) {
                if (!p.getFileName().toString().equals("report.html")) {
                    Files.copy(p, copy.resolve(p.getFileName()));
                }
            }
        }
        Files.delete(copy.resolve("series.csv")); // a folder written before series.csv existed
        ok(lbsim("report", copy.toString(), "--quiet"));
        String html = Files.readString(copy.resolve("report.html"));
        assertThat(html).contains("the folder has no series.csv", "Not drawn: queue time series");
        assertThat(count(html, "<figure ")).isEqualTo(2);

        Path sweepDir = dir.resolve("sweep");
        Files.createDirectory(sweepDir);
        Files.copy(db, sweepDir.resolve("results.duckdb"));
        ok(lbsim("report", sweepDir.toString(), "--quiet"));
        assertThat(sweepDir.resolve("report.html")).exists();
    }

    @Test
    void report_of_a_database_has_a_section_per_sweep_and_the_single_runs() throws IOException {
        Path out = dir.resolve("db.html");
        ok(lbsim("report", db.toString(), "--out", out.toString(), "--quiet"));
        String html = Files.readString(out);
        assertThat(html).contains("<title>lbsim report: results.duckdb</title>", "id=\"sweep-msg\"", "Sweep msg", "id=\"single-runs\"",
                        "varying: loadBalancing.type, workload.messageBytes<", "<td>single-seed1</td>")
                .doesNotContain("varying: loadBalancing.type, loadBalancing.weighted");
        // the sweep: CCT increase by message size per scheme, and max queue against message size
        assertThat(html).contains("data-name=\"cct-increase\"", "data-name=\"max-queue-vs-message\"");
        assertThat(count(html, "<tr><td>OFAN</td>")).as("the scheme by its display name").isEqualTo(TestResultsDb.SIZES.length);
        assertThat(html).contains("<td>+32.00 [+29.52, +34.48] 95 % CI</td>"); // ecmp: 30 % + seed, seeds 1 to 3: 32 +- t(0.975, 2) / sqrt(3)
        // each figure says what its whiskers are and over how many runs, and links its SVG and CSV, written beside the page
        assertThat(html).contains("Mean of 3 runs per point (n = 3); whiskers: 95 % confidence interval of the mean",
                "<figcaption><a href=\"db-figures/fig-1-cct-increase.csv\">data (CSV)</a>", "<th>n (runs)</th>",
                "<th>CCT increase (%): mean [interval]</th>");
        assertThat(Files.readString(dir.resolve("db-figures/fig-1-cct-increase.csv"))).startsWith("group,message size (");
        assertThat(Files.readString(dir.resolve("db-figures/fig-1-cct-increase.svg"))).contains("</text>");
        // the schemes overlaid: the flows' completion times, one curve per scheme
        assertThat(html).contains("data-name=\"fct-cdf-by-scheme\"");
    }

    @Test
    void plot_draws_a_metric_against_a_field_from_a_database() throws Exception {
        Path svg = dir.resolve("q.svg");
        MainTest.Result r = lbsim("plot", db.toString(), "--x", "messageBytes", "--y", "max_queue_bytes", "--by", "loadBalancing.type",
                "--log", "xy", "--fit", "--where", "sweep = 'msg'", "--out", svg.toString());
        ok(r);
        assertThat(r.out()).startsWith("figure       ").contains("data         ");
        parseSvg(svg);
        assertThat(Files.readAllLines(dir.resolve("q.csv")).get(0)).isEqualTo("group,message size (MiB),runs,mean,low,high,interval,stddev,min,max");
        assertThat(Files.readString(svg)).contains(">message size (MiB) (log scale)</text>", ">OFAN (slope ");
        Path png = dir.resolve("cct.png");
        ok(lbsim("plot", db.getParent().toString(), "--x", "loadBalancing.type", "--others", "split", "--error", "stddev", "--size", "640x400", "--out",
                png.toString(), "--quiet"));
        var img = ImageIO.read(new ByteArrayInputStream(Files.readAllBytes(png)));
        assertThat(img.getWidth()).isEqualTo(640);
        assertThat(img.getHeight()).isEqualTo(400);
        ok(lbsim("plot", db.toString(), "--x", "seed", "--y", "p99_fct_ps", "--by", "loadBalancing.type,messageBytes", "--out",
                dir.resolve("fct.png").toString(), "--quiet"));
        ok(lbsim("plot", db.toString(), "--x", "loadBalancing.type", "--y", "max_queue_bytes@A->C", "--by", "messageBytes", "--out",
                dir.resolve("l.png").toString(), "--quiet"));
    }

    /** Without --out the figure goes next to the database, as report's page does, never into the current folder. */
    @Test
    void plot_without_out_writes_next_to_the_database() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("elsewhere"));
        Path copy = folder.resolve("results.duckdb");
        Files.copy(db, copy);
        MainTest.Result r = lbsim("plot", copy.toString(), "--x", "loadBalancing.type", "--where",
                "sweep = 'msg' AND \"workload.messageBytes\" = 65536");
        ok(r);
        Path figure = folder.resolve("cct_increase_pct-vs-loadBalancing.type.png");
        assertThat(figure).isRegularFile();
        assertThat(folder.resolve("cct_increase_pct-vs-loadBalancing.type.csv")).isRegularFile();
        assertThat(r.out()).contains(figure.getFileName().toString());
        assertThat(Path.of("cct_increase_pct-vs-loadBalancing.type.png").toAbsolutePath()).as("the current folder").doesNotExist();
    }

    /** --log x makes x logarithmic and nothing else: the largest queue spans more than two decades here, and y stays linear. */
    @Test
    void log_x_leaves_the_y_axis_linear() throws Exception {
        Path svg = dir.resolve("logx.svg");
        ok(lbsim("plot", db.toString(), "--x", "workload.messageBytes", "--y", "max_queue_bytes", "--by", "loadBalancing.type", "--log", "x",
                "--where", "sweep = 'msg'", "--out", svg.toString(), "--quiet"));
        String text = Files.readString(svg);
        assertThat(text).contains(">message size (MiB) (log scale)</text>", ">largest switch queue (KB)</text>")
                .doesNotContain("queue (KB) (log scale)");
        ok(lbsim("plot", db.toString(), "--x", "workload.messageBytes", "--y", "max_queue_bytes", "--by", "loadBalancing.type", "--log", "xy",
                "--where", "sweep = 'msg'", "--out", svg.toString(), "--quiet"));
        assertThat(Files.readString(svg)).as("a log y when asked").contains("queue (KB) (log scale)");
    }

    /** A point is the mean of runs that differ in the seed only: a field left out of --x and --by is refused by name, or split on. */
    @Test
    void plot_refuses_to_average_over_a_field_it_does_not_name() throws Exception {
        assertThat(lbsim("plot", db.toString(), "--x", "loadBalancing.type", "--where", "sweep = 'msg'").errorLine())
                .isEqualTo("lbsim: " + db + ": workload.messageBytes differs among the runs of a point, and a mean over them would mix settings"
                        + " the figure does not name: pin it with --where '\"workload.messageBytes\" = VALUE', add it to --by, or pass --others split");
        ok(lbsim("plot", db.toString(), "--x", "loadBalancing.type", "--where", "sweep = 'msg' AND \"workload.messageBytes\" = 65536",
                "--out", dir.resolve("pinned.png").toString(), "--quiet"));
        assertThat(Files.readAllLines(dir.resolve("pinned.csv"))).as("one point per scheme, three seeds each").hasSize(1 + TestResultsDb.SCHEMES.size())
                .allMatch(l -> l.startsWith("group,") || l.contains(",3,"));
        ok(lbsim("plot", db.toString(), "--x", "loadBalancing.type", "--where", "sweep = 'msg'", "--others", "split",
                "--out", dir.resolve("split.png").toString(), "--quiet"));
        assertThat(Files.readAllLines(dir.resolve("split.csv"))).as("one series per message size").hasSize(1 + TestResultsDb.SCHEMES.size()
                * TestResultsDb.SIZES.length).anyMatch(l -> l.startsWith("64 KiB,OFAN,3,"));
        assertThat(lbsim("plot", db.toString(), "--x", "loadBalancing.type", "--others", "average").errorLine())
                .isEqualTo("lbsim: --others average: must be refuse or split");
    }

    @Test
    void plot_reports_bad_input_on_one_line() {
        assertThat(lbsim("plot", db.toString(), "--x", "loadBalancng.type").errorLine())
                .startsWith("lbsim: --x loadBalancng.type: no such column in " + db + ", did you mean 'loadBalancing.type'? (columns: ");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--y", "cct_increse_pct").errorLine())
                .startsWith("lbsim: --y cct_increse_pct: no such column in " + db + ", did you mean 'cct_increase_pct'?");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--where", "sweep = ").errorLine())
                .startsWith("lbsim: " + db + ": query failed (--where sweep = ): Parser Error: ");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--where", "sweep = 'none'").errorLine())
                .isEqualTo("lbsim: " + db + ": no run has a value of cct_increase_pct where sweep = 'none'");
        assertThat(lbsim("plot", db.toString(), "--y", "drops").errorLine())
                .isEqualTo("lbsim: plot: --x FIELD is required for a results database (e.g. --x loadBalancing.type)");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--out", dir.resolve("a.pdf").toString()).errorLine())
                .isEqualTo("lbsim: --out " + dir.resolve("a.pdf") + ": the file name must end in .png or .svg, got a.pdf");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--log", "z").errorLine()).isEqualTo("lbsim: --log z: must be x, y, xy or none");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--error", "minmax").errorLine()).startsWith("lbsim: --error minmax: is no longer drawn: use ci95");
        assertThat(lbsim("plot", db.toString(), "--x", "seed", "--size", "10x10").errorLine())
                .isEqualTo("lbsim: --size 10x10: must be WIDTHxHEIGHT in pixels, between 200x150 and 8000x8000");
        assertThat(lbsim("plot", run.toString(), "--x", "seed").errorLine()).startsWith("lbsim: " + run + ": is a run folder: --x, --y");
        assertThat(lbsim("report", dir.resolve("nothing").toString()).errorLine()).isEqualTo("lbsim: " + dir.resolve("nothing") + ": no such file or folder");
        assertThat(lbsim("report", dir.toString()).errorLine())
                .isEqualTo("lbsim: " + dir + ": neither a run folder (no summary.json) nor a sweep folder (no results.duckdb)");
    }

    /**
     * The help formats cleanly: picocli formats each description with String.format, and a lone %
     * ("95 % confidence") is a format specifier to it, which it warns about on the process's
     * standard error instead of printing the text (so that stream is watched here).
     */
    @Test
    void plot_help_has_no_format_warnings() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        MainTest.Result r;
        System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            r = lbsim("plot", "--help");
        } finally {
            System.setErr(stderr);
        }
        assertThat(warnings.toString(java.nio.charset.StandardCharsets.UTF_8)).as("picocli's warnings").isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("95 % confidence interval of the mean", "--others", "default none: both linear");
    }

    @Test
    void plot_of_a_run_folder_writes_its_standard_figures() throws Exception {
        Path out = dir.resolve("figs");
        MainTest.Result r = lbsim("plot", run.toString(), "--out", out.toString(), "--format", "svg");
        ok(r);
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("fct-cdf.svg", "queue-cdf.svg", "ooo-cdf.svg",
                    "queue-series.svg", "rate-series.svg", "goodput-series.svg", "fct-cdf.csv", "queue-cdf.csv", "ooo-cdf.csv",
                    "queue-series.csv", "rate-series.csv", "goodput-series.csv");
        }
        parseSvg(out.resolve("queue-series.svg"));
        assertThat(count(r.out(), "figure       ")).isEqualTo(6);
    }
}
