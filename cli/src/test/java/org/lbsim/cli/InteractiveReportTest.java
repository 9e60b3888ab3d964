package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.plot.TestResultsDb;

/**
 * {@code lbsim report --interactive} without a browser (ReportBrowserTest opens the pages in
 * Chromium): the page embeds exactly the CSV files of its figure folder, its CSP allows exactly
 * its two inline scripts, nothing outside the page is referenced, the same input gives the same
 * bytes, and the page stays small.
 */
class InteractiveReportTest {
    @TempDir
    static Path shared;
    static Path db;
    static Path run;

    @BeforeAll
    static void setUp() throws Exception {
        db = TestResultsDb.create(shared.resolve("results.duckdb"));
        Path scenario = shared.resolve("sampled.yaml");
        Files.writeString(scenario, PlotReportTest.SAMPLED);
        run = shared.resolve("run");
        assertThat(lbsim("run", scenario.toString(), "--out", run.toString(), "--quiet").code()).isZero();
    }

    private static String report(Path input, String name, String... more) throws Exception {
        Path page = shared.resolve(name);
        List<String> args = new ArrayList<>(List.of("report", input.toString(), "--out", page.toString(), "--quiet"));
        args.addAll(List.of(more));
        MainTest.Result r = lbsim(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        return Files.readString(page, StandardCharsets.UTF_8);
    }

    private static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    }

    @Test
    void the_page_embeds_each_figure_csv_and_a_spec_naming_its_columns() throws Exception {
        for (Path input : List.of(db, run)) {
            String name = input == db ? "db-i.html" : "run-i.html";
            String html = report(input, name, "--interactive");
            Path figures = shared.resolve(name.replace(".html", "-figures"));
            Matcher m = Pattern.compile("<figure id=\"(fig-\\d+)\" data-name=\"([^\"]+)\" data-chart=\"([^\"]+)\">.*?"
                    + "<pre class=\"figure-csv\" hidden>(.*?)</pre>", Pattern.DOTALL).matcher(html);
            int n = 0;
            while (m.find()) {
                n++;
                String stem = m.group(1) + "-" + m.group(2);
                String csv = unescape(m.group(4));
                assertThat(csv).as(stem + ": embedded CSV = the file beside the page").isEqualTo(Files.readString(figures.resolve(stem + ".csv")));
                JsonNode spec = new ObjectMapper().readTree(unescape(m.group(3)));
                List<String> header = List.of(csv.lines().findFirst().orElseThrow().replace("\"", "").split(","));
                for (String col : List.of("seriesColumn", "xColumn", "yColumn", "lowColumn", "highColumn")) {
                    if (!spec.get(col).isNull()) {
                        assertThat(header).as(stem + ": " + col + " is a CSV column").contains(spec.get(col).asText());
                    }
                }
                assertThat(spec.get("kind").asText()).isIn("LINE", "LINE_POINTS", "STEP", "BARS", "POINTS");
            }
            assertThat(n).as("figures with data in " + name).isEqualTo(count(html, "<figure "));
            assertThat(n).isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void the_csp_allows_exactly_the_two_inline_scripts_and_nothing_is_fetched() throws Exception {
        String html = report(db, "csp.html", "--interactive");
        Matcher csp = Pattern.compile("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ('sha256-[^']+') ('sha256-[^']+')\"")
                .matcher(html);
        assertThat(csp.find()).as("CSP with two script hashes").isTrue();
        Matcher scripts = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL).matcher(html);
        List<String> hashes = new ArrayList<>();
        while (scripts.find()) {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(scripts.group(1).getBytes(StandardCharsets.UTF_8));
            hashes.add("'sha256-" + Base64.getEncoder().encodeToString(d) + "'");
        }
        assertThat(hashes).containsExactly(csp.group(1), csp.group(2));
        assertThat(html).contains("Copyright (c)", "leeoniya", "MIT") // uPlot's licence travels with it
                .doesNotContain("<script src", "<link", "src=\"http", "url(http", "import(");
        assertThat(count(html, "<script")).isEqualTo(2);
    }

    @Test
    void without_the_option_the_page_has_no_script_and_the_same_figures() throws Exception {
        String plain = report(db, "plain.html");
        String live = report(db, "live.html", "--interactive");
        assertThat(plain).doesNotContain("<script", "script-src", "figure-csv", "data-chart");
        assertThat(count(live, "<svg ")).isEqualTo(count(plain, "<svg "));
        assertThat(report(db, "live2.html", "--interactive").replace("live2-figures/", "live-figures/")).as("same input, same bytes (but the figure folder's name)")
                .isEqualTo(live);
        // uPlot (~50 KB) and the figures' CSV: the interactive page is the static one plus that
        long csvBytes = 0;
        try (var files = Files.list(shared.resolve("live-figures"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".csv")).toList()) {
                csvBytes += Files.size(f);
            }
        }
        long extra = live.getBytes(StandardCharsets.UTF_8).length - plain.getBytes(StandardCharsets.UTF_8).length;
        assertThat(extra).as("bytes added by --interactive").isBetween(csvBytes, csvBytes + 90_000);
    }

    /**
     * Each interactive figure is given the axis titles its static figure draws, units and "(log scale)" included, and
     * whether the y title went above the plot: figures.js writes those titles as given.
     */
    @Test
    void each_interactive_figure_has_the_axis_titles_of_its_static_figure() throws Exception {
        List<String> yTitles = new ArrayList<>();
        for (Path input : List.of(db, run)) {
            String html = report(input, input == db ? "db-titles.html" : "run-titles.html", "--interactive");
            Matcher m = Pattern.compile("<figure id=\"(fig-\\d+)\" data-name=\"[^\"]+\" data-chart=\"([^\"]+)\">(<svg .*?</svg>)", Pattern.DOTALL)
                    .matcher(html);
            int n = 0;
            while (m.find()) {
                n++;
                JsonNode spec = new ObjectMapper().readTree(unescape(m.group(2)));
                List<String> texts = new ArrayList<>();
                Matcher t = Pattern.compile(">([^<]+)</text>").matcher(m.group(3));
                while (t.find()) {
                    texts.add(unescape(t.group(1)).strip());
                }
                String x = spec.path("xAxisTitle").asText(null);
                String y = spec.path("yAxisTitle").asText(null);
                assertThat(x).as(m.group(1) + ": x title").isNotBlank();
                assertThat(texts).as(m.group(1) + ": the static figure draws the x title given to the interactive one").contains(x);
                assertThat(y).as(m.group(1) + ": y title").isNotBlank();
                if (spec.path("yTitleAbove").asBoolean()) {
                    assertThat(String.join(" ", texts)).as(m.group(1) + ": the y title above the plot").contains(y);
                } else {
                    assertThat(texts).as(m.group(1) + ": the static figure draws the y title given to the interactive one").contains(y);
                }
                yTitles.add(y);
            }
            assertThat(n).as("figures in the report of " + input).isGreaterThanOrEqualTo(4);
        }
        // a unit and a log scale, as the static figures name them
        assertThat(yTitles).contains("CCT increase over the lower bound (%)", "largest switch queue (KB) (log scale)");
    }

    private static int count(String text, String literal) {
        int n = 0;
        for (int i = text.indexOf(literal); i >= 0; i = text.indexOf(literal, i + 1)) {
            n++;
        }
        return n;
    }
}
