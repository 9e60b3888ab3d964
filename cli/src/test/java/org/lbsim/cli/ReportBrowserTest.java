package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.lbsim.cli.MainTest.lbsim;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.plot.TestResultsDb;

/**
 * Reports opened in a real browser (headless Chromium, Debian package {@code chromium}): the page
 * loads without a console message (there is no script, and the Content-Security-Policy turns any
 * attempt to fetch something into one), the DOM is complete, and the screenshot is not blank.
 * Without Chromium the test is skipped, unless the environment variable CI is set: .ci/run installs
 * it, and there a missing browser is a failure. Screenshots are kept in target/report-screenshots.
 */
class ReportBrowserTest {
    private static final int WIDTH = 1200;
    private static final int HEIGHT = 2000;
    /** Okabe-Ito blue, the first series colour of every figure. */
    private static final int[] BLUE = {0, 114, 178};

    @TempDir
    static Path shared;
    static Path runReport;
    static Path dbReport;
    static Path dbInteractive;
    static Path runInteractive;

    @TempDir
    Path dir;

    @BeforeAll
    static void reports() throws Exception {
        Path scenario = shared.resolve("sampled.yaml");
        Files.writeString(scenario, PlotReportTest.SAMPLED);
        Path run = shared.resolve("run");
        assertThat(lbsim("run", scenario.toString(), "--out", run.toString(), "--quiet").code()).isZero();
        runReport = shared.resolve("run-report.html");
        assertThat(lbsim("report", run.toString(), "--out", runReport.toString(), "--quiet").code()).isZero();
        Path db = TestResultsDb.create(shared.resolve("results.duckdb"));
        dbReport = shared.resolve("db-report.html");
        assertThat(lbsim("report", db.toString(), "--out", dbReport.toString(), "--quiet").code()).isZero();
        dbInteractive = shared.resolve("db-interactive.html");
        assertThat(lbsim("report", db.toString(), "--out", dbInteractive.toString(), "--interactive", "--quiet").code()).isZero();
        runInteractive = shared.resolve("run-interactive.html");
        assertThat(lbsim("report", run.toString(), "--out", runInteractive.toString(), "--interactive", "--quiet").code()).isZero();
    }

    /** The browser, or the test is skipped (outside CI) or failed (in CI). */
    static Path chromium() {
        Optional<Path> found = Optional.empty();
        String path = System.getenv("PATH");
        for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
            for (String d : path == null ? new String[0] : path.split(File.pathSeparator)) {
                Path p = Path.of(d, name);
                if (found.isEmpty() && Files.isExecutable(p) && !Files.isDirectory(p)) {
                    found = Optional.of(p);
                }
            }
        }
        if (found.isEmpty()) {
            String ci = System.getenv("CI");
            if (ci == null || ci.isEmpty()) {
                Assumptions.assumeTrue(false, "chromium is not installed (apt-get install chromium); set CI=true to make this a failure");
            }
            fail("CI is set but chromium is not on the PATH; .ci/run installs it (apt-get install -y chromium)");
        }
        return found.get();
    }

    record Browser(int exit, String stdout, List<String> console) {
    }

    /** Runs headless Chromium on a local page with a fresh profile and no network services; console lines from its log. */
    Browser open(Path page, String... mode) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(dir, "profile");
        Path log = Files.createTempFile(dir, "chromium", ".log");
        Path out = Files.createTempFile(dir, "chromium", ".out");
        List<String> cmd = new ArrayList<>(List.of(chromium().toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"));
        cmd.addAll(List.of(mode));
        cmd.add(page.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("chromium did not finish within 90 s: " + String.join(" ", cmd));
        }
        List<String> console = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.contains(":CONSOLE") || line.contains("Uncaught") || line.contains("Refused to")) {
                console.add(line);
            }
        }
        return new Browser(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), console);
    }

    /** Screenshot of the page; checks it loads silently and is not blank. Returns the image. */
    BufferedImage screenshot(Path page, String keepAs) throws Exception {
        return screenshot(page, keepAs, 0.05);
    }

    /** As {@link #screenshot(Path, String)}; {@code minInk}: the share of pixels that must not be (nearly) white. */
    BufferedImage screenshot(Path page, String keepAs, double minInk) throws Exception {
        Path png = dir.resolve(keepAs);
        Browser b = open(page, "--screenshot=" + png, "--window-size=" + WIDTH + "," + HEIGHT, "--hide-scrollbars");
        assertThat(b.exit()).as("chromium exit code").isZero();
        assertThat(b.console()).as("console messages while loading " + page.getFileName()).isEmpty();
        assertThat(png).exists();
        Path keep = Path.of("target", "report-screenshots");
        Files.createDirectories(keep);
        Files.copy(png, keep.resolve(keepAs), StandardCopyOption.REPLACE_EXISTING);
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img).as("the screenshot decodes").isNotNull();
        assertThat(img.getWidth()).isEqualTo(WIDTH);
        assertThat(img.getHeight()).isEqualTo(HEIGHT);
        Set<Integer> colours = new HashSet<>();
        long nonWhite = 0;
        long dark = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                int r = rgb >> 16;
                int g = (rgb >> 8) & 0xff;
                int bl = rgb & 0xff;
                if (r < 235 || g < 235 || bl < 235) {
                    nonWhite++;
                }
                if (r < 80 && g < 80 && bl < 80) {
                    dark++;
                }
            }
        }
        double pixels = (double) WIDTH * HEIGHT;
        assertThat(colours.size()).as("distinct colours").isGreaterThan(200);
        assertThat(nonWhite / pixels).as("share of pixels that are not (nearly) white").isGreaterThan(minInk);
        assertThat(dark / pixels).as("share of dark (text) pixels").isGreaterThan(0.003);
        return img;
    }

    private static long near(BufferedImage img, int[] rgb, int from, int to) {
        long n = 0;
        for (int y = from; y < Math.min(to, img.getHeight()); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int c = img.getRGB(x, y);
                if (Math.abs(((c >> 16) & 0xff) - rgb[0]) < 25 && Math.abs(((c >> 8) & 0xff) - rgb[1]) < 25 && Math.abs((c & 0xff) - rgb[2]) < 25) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void the_run_report_loads_without_console_errors_and_shows_tables_and_figures() throws Exception {
        BufferedImage img = screenshot(runReport, "run-report.png");
        assertThat(near(img, BLUE, HEIGHT / 2, HEIGHT)).as("figure lines (first series colour) in the lower half").isGreaterThan(300);

        Browser dom = open(runReport, "--dump-dom");
        assertThat(dom.exit()).isZero();
        assertThat(dom.console()).isEmpty();
        assertThat(dom.stdout()).contains("<title>lbsim report: run</title>", "<h2 id=\"figures\">Figures</h2>",
                "<h2 id=\"scenario\">Scenario</h2>", "</html>");
        assertThat(PlotReportTest.count(dom.stdout(), "<svg ")).as("inline figures in the rendered DOM").isEqualTo(6);
        assertThat(PlotReportTest.count(dom.stdout(), "<tr>")).as("table rows").isGreaterThan(30);
    }

    @Test
    void the_database_report_loads_without_console_errors() throws Exception {
        BufferedImage img = screenshot(dbReport, "db-report.png");
        assertThat(near(img, BLUE, 0, HEIGHT)).as("figure lines in the first screen").isGreaterThan(300);
    }

    /**
     * Interactive pages, opened from file:// with no network: the inline scripts run under the
     * page's CSP (a wrong hash or a script error would be a console message), every figure is drawn
     * (class "live", one uPlot canvas each), and each chart drew as many series as its CSV file in the
     * figure folder holds, with their names in its legend.
     */
    @Test
    void interactive_reports_draw_every_figure_from_its_csv() throws Exception {
        for (Path page : List.of(dbInteractive, runInteractive)) {
            // uPlot draws thinner than JFreeChart and fills no plot background: less ink than the static page
            BufferedImage img = screenshot(page, page.getFileName().toString().replace(".html", ".png"), 0.03);
            assertThat(near(img, BLUE, 0, HEIGHT)).as("chart lines or bars in the first series colour: " + page.getFileName()).isGreaterThan(300);
            Browser dom = open(page, "--dump-dom");
            assertThat(dom.exit()).isZero();
            assertThat(dom.console()).as("console messages of " + page.getFileName()).isEmpty();
            String html = dom.stdout();
            Path figuresDir = page.resolveSibling(page.getFileName().toString().replace(".html", "-figures"));
            List<String> figures = new ArrayList<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<figure id=\"(fig-\\d+)\" data-name=\"([^\"]+)\"([^>]*)>").matcher(html);
            while (m.find()) {
                String attrs = m.group(3);
                String stem = m.group(1) + "-" + m.group(2);
                figures.add(stem);
                assertThat(attrs).as(stem + " drawn interactively").contains("class=\"live\"");
                List<String> csv = Files.readAllLines(figuresDir.resolve(stem + ".csv"), StandardCharsets.UTF_8);
                Set<String> series = new java.util.LinkedHashSet<>();
                boolean named = csv.get(0).startsWith("series,") || csv.get(0).startsWith("group,");
                for (String line : csv.subList(1, csv.size())) {
                    series.add(named ? line.substring(0, line.indexOf(',')).replace("\"", "") : "");
                }
                assertThat(attrs).as(stem + ": series drawn").contains("data-drawn-series=\"" + series.size() + "\"");
                assertThat(attrs).as(stem + ": CSV rows read").contains("data-drawn-rows=\"" + (csv.size() - 1) + "\"");
                int start = m.end();
                int end = html.indexOf("</figure>", start);
                String figure = html.substring(start, end);
                assertThat(figure).as(stem + ": a uPlot chart with a canvas").contains("class=\"uplot", "<canvas");
                for (String name : series) {
                    if (!name.isEmpty()) {
                        String shown = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"); // as the DOM serialises text
                        assertThat(figure).as(stem + ": legend entry " + name).contains(">" + shown);
                    }
                }
            }
            assertThat(figures).as("figures of " + page.getFileName()).hasSizeGreaterThanOrEqualTo(page == dbInteractive ? 4 : 6);
            assertThat(PlotReportTest.count(html, "<canvas")).as("canvases").isGreaterThanOrEqualTo(figures.size());
        }
    }

    @Test
    void the_console_check_sees_a_script_error_and_a_blocked_fetch() throws Exception {
        Path bad = dir.resolve("bad.html");
        String page = Files.readString(runReport).replace("</main>",
                "<img src=\"https://example.invalid/x.png\" alt=\"\"></main><script>undefinedFunction();</script>");
        Files.writeString(bad, page);
        Browser b = open(bad, "--dump-dom");
        assertThat(b.console()).as("the CSP blocks both, and says so on the console").hasSizeGreaterThanOrEqualTo(2)
                .anyMatch(l -> l.contains("example.invalid")).anyMatch(l -> l.contains("inline script"));
        Path noCsp = dir.resolve("no-csp.html");
        Files.writeString(noCsp, "<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script></body></html>");
        assertThat(open(noCsp, "--dump-dom").console()).anyMatch(l -> l.contains("Uncaught ReferenceError"));
    }
}
