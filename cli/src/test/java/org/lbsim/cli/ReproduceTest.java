package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;
import static org.lbsim.cli.SweepTest.query;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.Simulation;
import org.lbsim.cli.command.ReproduceCommand;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.cli.files.Yaml;

/** {@code lbsim reproduce}: fig1's quick version end to end, and every reproduction's definition without running it. */
class ReproduceTest {
    static final List<String> SCHEMES = List.of("ECMP", "SUBFLOW", "HOST FLOWLET AR", "HOST PKT", "SWITCH PKT, shared pointer", "SWITCH PKT, per-class pointers",
            "HOST PKT AR", "SWITCH PKT AR", "OFAN");
    static final Set<String> KEYS = Set.of("title", "paper", "notes", "files", "sweep", "quickSweep", "claims", "tables", "plots");
    static final Set<String> CLAIM_KEYS = Set.of("paper", "ours", "holds", "ifHolds", "otherwise");
    static final Set<String> TABLE_KEYS = Set.of("title", "rows", "rowsTitle", "columns", "value", "unit", "where", "rowsSql", "columnsSql");
    static final Set<String> PLOT_KEYS = Set.of("file", "x", "y", "by", "log", "fit", "where", "title", "ytitle");

    @TempDir
    Path dir;

    @Test
    void fig1_quick_writes_the_readme_the_plot_and_the_report_with_9_scheme_readings_by_2_workloads() throws IOException {
        Path out = dir.resolve("fig1");
        MainTest.Result r = lbsim("reproduce", "fig1", "--quick", "--seeds", "1", "--out", out.toString());
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isZero();
        assertThat(r.out()).contains("sweep fig1-quick: 18 points x 1 seed = 18 runs").contains("reproduce fig1: ");

        assertThat(out.resolve("README.md")).isRegularFile();
        assertThat(out.resolve("cct-increase.png")).isRegularFile();
        assertThat(out.resolve("report.html")).isRegularFile();
        assertThat(out.resolve("sweep.yaml")).isRegularFile();
        byte[] png = Files.readAllBytes(out.resolve("cct-increase.png"));
        assertThat(png).hasSizeGreaterThan(1000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(Files.readString(out.resolve("report.html"))).startsWith("<!DOCTYPE html>").contains("<svg");
        // the data behind the figure beside it; the report's figures as SVG and CSV in report-figures/
        assertThat(Files.readAllLines(out.resolve("cct-increase.csv")).get(0)).startsWith("group,scenario,runs,mean,");
        String report = Files.readString(out.resolve("report.html"));
        assertThat(report).contains("<a href=\"report-figures/fig-1-cct-increase.csv\">");
        String bars = Files.readString(out.resolve("report-figures/fig-1-cct-increase.svg"));
        // the sweep report's own figure is by scheme type (the README's plot by the points' names)
        for (String scheme : List.of("ecmp", "subflow", "host-flowlet-ar", "host-spray", "switch-pkt", "host-pkt-ar", "switch-pkt-ar", "ofan")) {
            assertThat(bars).as("every scheme named on the grouped bars").contains(">" + scheme + "</text>");
        }

        String readme = Files.readString(out.resolve("README.md"));
        // the paper's statements with our numbers and a computed verdict, in the README and in the report
        assertThat(readme).contains("## The paper's statements against ours").containsPattern(
                "\\| all-to-all: packet-based schemes within 1% of the lower bound .*\\| HOST PKT -?\\d+\\.\\d\\d%, .* \\| (matches|differs) \\|");
        assertThat(readme).doesNotContain("query failed").doesNotContain("not computed");
        assertThat(Files.readString(out.resolve("report.html"))).contains("The paper and lbsim").contains("<table>")
                .contains("all-to-all: packet-based schemes within 1% of the lower bound");
        assertThat(readme).startsWith("# OFAN Fig. 1").contains("## What the paper reports").contains("## What lbsim measures")
                .contains("## Notes").contains("![CCT increase over the bound (%)](cct-increase.png)").doesNotContain("table failed");
        // the table: a header with the two workloads, then one row per scheme with a number in each cell
        List<String> lines = readme.lines().toList();
        int header = lines.indexOf("| scheme | all-to-all | permutation |");
        assertThat(header).as("table header in%n%s", readme).isPositive();
        assertThat(lines.get(header + 1)).isEqualTo("|---|---|---|");
        List<String> rows = lines.subList(header + 2, header + 2 + SCHEMES.size());
        for (int i = 0; i < SCHEMES.size(); i++) {
            assertThat(rows.get(i)).matches("\\| " + java.util.regex.Pattern.quote(SCHEMES.get(i)) + " \\| -?\\d+\\.\\d\\d \\[.*\\] \\(n=1\\) \\| -?\\d+\\.\\d\\d \\[.*\\] \\(n=1\\) \\|");
        }
        assertThat(lines.get(header + 2 + SCHEMES.size())).isEmpty();

        // the database: every scheme x workload once, all finished
        Path db = out.resolve("results.duckdb");
        assertThat(query(db, "SELECT count(*) AS n, count(DISTINCT (scenario_name, \"workload.type\")) AS pairs,"
                + " count(*) FILTER (WHERE cct_ps > 0) AS finished FROM runs WHERE sweep = 'fig1-quick'"))
                .containsExactly("n,pairs,finished", "18,18,18");

        // running it again resumes: nothing to run, the same files
        MainTest.Result again = lbsim("reproduce", "fig1", "--quick", "--seeds", "1", "--out", out.toString());
        assertThat(again.code()).isZero();
        assertThat(again.out()).contains("all already recorded");
    }

    /** `reproduce --list`: every title starts in the same column, however long the names are (dlbf-sensitivity). */
    @Test
    void the_list_aligns_every_title() {
        MainTest.Result r = lbsim("reproduce", "--list");
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSizeGreaterThan(20);
        Set<Integer> titleColumns = new TreeSet<>();
        for (String line : lines) {
            int end = line.indexOf(' ');
            int title = end;
            while (title < line.length() && line.charAt(title) == ' ') {
                title++;
            }
            assertThat(title - end).as(line).isGreaterThanOrEqualTo(2);
            titleColumns.add(title);
        }
        assertThat(titleColumns).as("title columns").hasSize(1);
    }

    /** The index and the resource folder list the same reproductions. */
    @Test
    void the_index_lists_every_reproduction_file() throws IOException {
        Path folder = Path.of("src/main/resources/reproduce");
        Set<String> files = new TreeSet<>();
        try (Stream<Path> s = Files.list(folder)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).forEach(n -> files.add(n.substring(0, n.length() - 5)));
        }
        assertThat(new TreeSet<>(ReproduceCommand.names())).isEqualTo(files);
        assertThat(ReproduceCommand.names()).contains("fig1", "fig3", "fig4", "fig5", "fig6", "fig7", "fig8", "fig9", "fig10", "fig11", "fig12",
                "themis-fig1", "themis-fig5");
    }

    /** Issue 19: every OFAN figure's report judges the paper's statements ("the paper / lbsim / verdict"), so each file has claims. */
    @Test
    @SuppressWarnings("unchecked")
    void every_ofan_figure_judges_the_papers_statements_in_claims() {
        List<String> ofan = ReproduceCommand.names().stream().filter(n -> n.matches("fig[0-9].*")).toList();
        assertThat(ofan).containsExactlyInAnyOrder("fig1", "fig3", "fig4", "fig5", "fig6", "fig7", "fig8", "fig9", "fig10", "fig11", "fig12", "fig13",
                "fig14", "fig17-19", "fig18");
        for (String name : ofan) {
            List<Map<String, Object>> claims = (List<Map<String, Object>>) ReproduceCommand.definition(name).getOrDefault("claims", List.of());
            assertThat(claims).as(name + ": claims").isNotEmpty();
            for (Map<String, Object> c : claims) {
                assertThat(String.valueOf(c.get("paper"))).as(name + ": a claim states the paper's statement").isNotBlank();
            }
        }
    }

    /**
     * Every reproduction's YAML parses, has only known keys, and its sweep (full and quick) binds
     * every point; points on fabrics of up to 128 hosts are also prepared (fabric, failed links of
     * the first seed, trace files), as {@code lbsim sweep} does before it runs anything. Nothing is
     * simulated.
     */
    @Test
    @SuppressWarnings("unchecked")
    void every_reproduction_parses_and_its_sweeps_validate_without_running() throws IOException {
        for (String name : ReproduceCommand.names()) {
            Map<String, Object> def = ReproduceCommand.definition(name);
            assertThat(def.keySet()).as(name).isSubsetOf(KEYS).contains("title", "paper", "sweep", "tables", "plots");
            assertThat((String) def.get("title")).as(name).isNotBlank();
            assertThat(String.valueOf(def.get("paper"))).as(name).isNotBlank();
            for (Map<String, Object> c : (List<Map<String, Object>>) def.getOrDefault("claims", List.of())) {
                assertThat(c.keySet()).as(name + " claim " + c).isSubsetOf(CLAIM_KEYS).contains("paper", "ours", "holds");
                assertThat(String.valueOf(c.get("ours")) + c.get("holds")).as(name + ": claims query the sweep's runs").contains("{where}");
            }
            for (Map<String, Object> t : (List<Map<String, Object>>) def.get("tables")) {
                assertThat(t.keySet()).as(name + " table " + t).isSubsetOf(TABLE_KEYS).containsAnyOf("rows", "rowsSql");
            }
            Set<String> plotFiles = new TreeSet<>();
            for (Map<String, Object> p : (List<Map<String, Object>>) def.get("plots")) {
                assertThat(p.keySet()).as(name + " plot " + p).isSubsetOf(PLOT_KEYS).contains("file", "x", "y");
                assertThat((String) p.get("file")).as(name).matches("[A-Za-z0-9-]+\\.(png|svg)");
                assertThat(plotFiles.add((String) p.get("file"))).as(name + ": plot file names are distinct").isTrue();
            }

            for (boolean quick : new boolean[] {false, true}) {
                Path folder = Files.createDirectories(dir.resolve(name + (quick ? "-quick" : "")));
                Map<String, Object> files = (Map<String, Object>) def.getOrDefault("files", Map.of());
                for (Map.Entry<String, Object> f : files.entrySet()) {
                    Files.writeString(folder.resolve(f.getKey()), String.valueOf(f.getValue()), StandardCharsets.UTF_8);
                }
                Map<String, Object> sweep = new LinkedHashMap<>((Map<String, Object>) def.get("sweep"));
                if (quick && def.get("quickSweep") instanceof Map<?, ?> q) {
                    q.forEach((k, v) -> sweep.put(String.valueOf(k), v));
                }
                Path sweepFile = folder.resolve("sweep.yaml");
                Files.writeString(sweepFile, Yaml.write(sweep), StandardCharsets.UTF_8);
                SweepFile s = SweepFile.load(sweepFile.toString(), null, quick);
                assertThat(s.points).as(name).isNotEmpty();
                assertThat(s.seeds).as(name).isEqualTo(quick ? 1 : name.startsWith("fig") ? 10 : s.seeds);
                List<String> problems = new ArrayList<>();
                Set<String> prepared = new java.util.HashSet<>();
                for (SweepFile.Point p : s.points) {
                    Scenario sc = p.scenario();
                    if (sc.topology() instanceof TopologySpec.FatTree ft && ft.k() > 8) {
                        continue; // k = 12, 16: building the all-to-all's million flows takes too long for a unit test
                    }
                    // points that differ only in the scheme prepare alike (fabric, failed links, flows, bounds)
                    if (!prepared.add(sc.topology() + " " + sc.packets() + " " + sc.switches() + " " + sc.congestionControl() + " "
                            + sc.lossRecovery() + " " + sc.workload() + " " + sc.failures() + " " + sc.nic() + " " + sc.seed())) {
                        continue;
                    }
                    try {
                        Simulation.prepare(sc, folder);
                    } catch (RuntimeException e) {
                        problems.add(name + (quick ? " --quick" : "") + ": " + p.describe() + ": " + e.getMessage());
                    }
                }
                assertThat(problems).isEmpty();
            }
        }
    }
}
