package org.lbsim.cli;

import org.lbsim.cli.errors.UserError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import java.util.TreeMap;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code lbsim reproduce}: fig1's quick version end to end, and every reproduction's definition without running it. */
class ReproduceTest {
    static final List<String> SCHEMES = List.of("ECMP", "SUBFLOW", "HOST FLOWLET AR", "HOST PKT", "SWITCH PKT, shared pointer", "SWITCH PKT, per-class pointers",
            "HOST PKT AR", "SWITCH PKT AR", "OFAN");
    static final Set<String> KEYS = Set.of("title", "paper", "notes", "files", "sweep", "sweepOf", "quickSweep", "claims", "tables", "plots", "ledger", "readings",
            "measures");
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
        // the sweep report's own figure is by the points' names, as the sweep names them (two SWITCH PKT points stay apart);
        // a name wrapped within its category is drawn line by line, one <text> a line, no word broken
        java.util.regex.Matcher texts = java.util.regex.Pattern.compile(">([^<]*)</text>").matcher(bars);
        StringBuilder drawn = new StringBuilder();
        while (texts.find()) {
            drawn.append(drawn.length() == 0 || drawn.charAt(drawn.length() - 1) == '-' ? "" : " ").append(texts.group(1).strip());
        }
        for (String scheme : List.of("ECMP", "SUBFLOW", "HOST FLOWLET AR", "HOST PKT", "SWITCH PKT, shared pointer", "SWITCH PKT, per-class pointers",
                "HOST PKT AR", "SWITCH PKT AR", "OFAN")) {
            assertThat(drawn.toString()).as("every point named on the grouped bars").contains(" " + scheme + " ");
        }

        String readme = Files.readString(out.resolve("README.md"));
        // the paper's statements with our numbers and a computed verdict, in the README and in the report
        assertThat(readme).containsPattern("\\| `pkt-beats-coarse` \\(shape\\) \\| 5\\.1: 'per-packet LB outperforming .*\\| every seed > 0 \\| "
                + "(permutation|all-to-all): -?\\d+\\.?\\d* \\[.*\\] \\(n=1\\).* \\| (matches|differs) \\|");
        assertThat(readme).doesNotContain("query failed").doesNotContain("not computed");
        assertThat(Files.readString(out.resolve("report.html"))).contains("The paper and lbsim").contains("<table>")
                .contains("per-packet LB outperforming flowlet-, subflows-, or flow-based LB");
        assertThat(readme).startsWith("# OFAN Fig. 1").contains("**The paper.**").contains("**Setting.**").contains("**Readings.**")
                .contains("**Notes.**").contains("![CCT increase over the bound (%)](cct-increase.png)").doesNotContain("table failed");
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

    @Test
    void threads_runs_the_figure_on_the_partitioned_kernel_and_the_readme_says_so() throws IOException {
        Path out = dir.resolve("fig1-threads");
        MainTest.Result r = lbsim("reproduce", "fig1", "--quick", "--out", out.toString(), "--jobs", "1", "--threads", "2",
                "--only", "loadBalancing.type=ofan", "--only", "workload.type=permutation");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isZero();
        assertThat(r.out()).contains("1 run on 1 job of 2 threads (partitioned kernel)");
        assertThat(Files.readString(out.resolve("README.md")))
                .contains("Reproduced by `lbsim reproduce fig1 --quick --only loadBalancing.type=ofan --only workload.type=permutation --threads 2`")
                .contains("Every run used the partitioned kernel (`--threads`)");
        assertThat(SweepTest.query(out.resolve("results.duckdb"), "SELECT kernel FROM runs")).containsExactly("kernel", "partitioned");
    }

    /** `reproduce --list`: every title starts in the same column, however long the names are (dlbf-sensitivity). */
    @Test
    void only_runs_part_of_a_figure_and_the_readme_says_how_much_is_recorded() throws IOException {
        Path out = dir.resolve("fig1-part");
        MainTest.Result r = lbsim("reproduce", "fig1", "--quick", "--out", out.toString(), "--jobs", "1",
                "--only", "loadBalancing.type=ecmp", "--only", "workload.type=permutation");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isZero();
        assertThat(r.out()).contains("sweep fig1-quick: 1 point x 1 seed = 1 run");
        String readme = Files.readString(out.resolve("README.md"));
        assertThat(readme).contains("Reproduced by `lbsim reproduce fig1 --quick --only loadBalancing.type=ecmp --only workload.type=permutation`")
                .contains("**Partial: 1 of the figure's 18 runs (1 seed per point) are recorded in this folder (1 run in all); the tables and"
                        + " claims below use every recorded run.** Running `lbsim reproduce fig1 --quick` with the same --out runs the rest.");
        // a second seed asked for: the figure's runs are counted at 2 seeds per point, the recorded one among them
        MainTest.Result more = lbsim("reproduce", "fig1", "--quick", "--seeds", "2", "--out", out.toString(), "--jobs", "1",
                "--only", "loadBalancing.type=ecmp", "--only", "workload.type=permutation");
        assertThat(more.code()).as("exit code; stderr: %s", more.err()).isZero();
        assertThat(Files.readString(out.resolve("README.md"))).contains("**Partial: 2 of the figure's 36 runs (2 seeds per point) are recorded in this"
                + " folder (2 runs in all);").contains("Running `lbsim reproduce fig1 --quick --seeds 2` with the same --out runs the rest.");

        Path refused = dir.resolve("fig1-refused");
        MainTest.Result bad = lbsim("reproduce", "fig1", "--quick", "--out", refused.toString(), "--only", "topology.k=3");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.errorLine()).isEqualTo("lbsim: --only topology.k=3: topology.k: no point of " + refused.resolve("sweep.yaml")
                + " has topology.k = '3' (its values: 4)");
        assertThat(refused).doesNotExist();
    }

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

    /** A reproduction answers to its paper-prefixed name too; its folders and sweep keep the file's name. */
    @Test
    void paper_prefixed_names_resolve_to_the_reproduction_and_the_list_shows_them() {
        assertThat(ReproduceCommand.aliases()).containsEntry("ofan-fig1", "fig1").containsEntry("ofan-fig17-19", "fig17-19")
                .containsEntry("conweave-fig12", "conweave-fig").containsEntry("fig1", "fig1").containsEntry("themis-fig1", "themis-fig1");
        for (String n : ReproduceCommand.names()) {
            if (ReproduceCommand.definition(n).get("ledger") instanceof Map<?, ?> ledger && ledger.get("paper") instanceof String paper) {
                List<String> all = new ArrayList<>(List.of(n));
                all.addAll(ReproduceCommand.otherNames(n));
                assertThat(all).as(n).anyMatch(a -> a.startsWith(paper + "-"));
            }
        }
        assertThat(lbsim("reproduce", "--list").out()).containsPattern("(?m)^fig1 +OFAN Fig\\. 1: .* \\(also: ofan-fig1\\)$");

        // resolved before anything runs: the refusal names fig1's quick sweep, written under the alias's --out
        Path refused = dir.resolve("alias-refused");
        MainTest.Result bad = lbsim("reproduce", "ofan-fig1", "--quick", "--out", refused.toString(), "--only", "topology.k=3");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.errorLine()).isEqualTo("lbsim: --only topology.k=3: topology.k: no point of " + refused.resolve("sweep.yaml")
                + " has topology.k = '3' (its values: 4)");
        MainTest.Result unknown = lbsim("reproduce", "ofan-fig2");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.errorLine()).startsWith("lbsim: reproduce: unknown reproduction 'ofan-fig2', did you mean 'ofan-fig");
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

    /** Every OFAN figure's report judges the paper's statements ("the paper / lbsim / verdict"), so each file has claims. */
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

    /** A reproduction file of one's own: two schemes on a 16-host fabric, one claim, one plot. */
    static final String OWN = """
            title: Two schemes on a small fabric
            paper: Spraying finishes a permutation no later than ECMP.
            sweep:
              name: own
              base:
                name: own
                topology: {type: fat-tree, k: 4}
                workload: {type: permutation, messageBytes: 65536}
              grid:
                loadBalancing.type: [ecmp, host-spray]
              seeds: 2
            tables: []
            ledger:
              paper: own
              setting: {paper: "a 16-host fat tree", ours: "the same"}
            measures:
              mean_fct: "(SELECT avg(fct_ps) FROM flows f WHERE f.run_id = runs.run_id)"
            claims:
              - id: spray-no-slower
                kind: shape
                paper: "spraying is no slower"
                metric: "SELECT seed, cct_increase_pct AS value FROM results WHERE {where}"
                expect: {atLeast: 0, in: every-seed}
            plots:
              - {file: cct.png, x: loadBalancing.type, y: cct_increase_pct}
            """;

    /** {@code line:column} of the first occurrence of {@code needle} in {@code text} (1-based, as errors give it). */
    static String position(String text, String needle) {
        int i = text.indexOf(needle);
        assertThat(i).as(needle).isNotNegative();
        String before = text.substring(0, i);
        return (before.lines().count() + (before.endsWith("\n") || before.isEmpty() ? 1 : 0)) + ":" + (i - before.lastIndexOf('\n'));
    }

    /**
     * A semantic error in a reproduction file is one line starting with file:line:column of the field at fault, exit code 2,
     * before anything is written or run: the claims, measures and plots, as the sweep and scenario files' errors are.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an unknown expect key | 'expect: {atLeast: 0, in: every-seed}' | 'expect: {atLeast: 0, in: every-seed, atMots: 3}' | atMots | claims[0].expect.atMots: unknown key; expected one of atLeast, atMost, above, below, between, ascending and in
            a measure that is not a text | 'mean_fct: "(SELECT' | 'mean_fct: [1, 2]\\n  other: "(SELECT' | mean_fct | measures.mean_fct: expected a non-empty text
            a plot of an unknown column | 'x: loadBalancing.type' | 'x: loadBalancng.type' | x: loadBalancng | plots[0].x: 'loadBalancng.type' is not a column of the figure's runs, did you mean 'loadBalancing.type'?
            an unknown plot key | 'y: cct_increase_pct}' | 'y: cct_increase_pct, logg: x}' | logg | plots[0].logg: unknown key, did you mean 'log'? (allowed keys: file, x, y, by, log, fit, where, title, ytitle)
            an unknown key of the file | 'tables: []' | 'tables: []\\nplotz: []' | plotz | plotz: unknown key, did you mean 'plots'?
            a claim's kind | 'kind: shape' | 'kind: shapely' | kind | claims[0].kind: expected shape (an order or a sign) or magnitude (the paper's numbers)
            a plot's y of an unknown column | 'y: cct_increase_pct}' | 'y: cct_increse_pct}' | y: cct_increse | plots[0].y: no such column in the figure's runs, did you mean 'cct_increase_pct'?
            a plot's y expression without its axis title | 'y: cct_increase_pct}' | 'y: "cct_ps / lower_bound_ps"}' | y: "cct_ps | plots[0].ytitle: missing: y is an expression, so its axis needs a title (the axis would show the SQL)
            a plot's y expression that does not bind | 'y: cct_increase_pct}' | 'y: "cct_ps / lower_bond_ps", ytitle: slowdown}' | y: "cct_ps | plots[0].y: the query fails on the figure's runs: Binder Error: Referenced column "lower_bond_ps" not found
            a plot's where that does not bind | 'y: cct_increase_pct}' | 'y: cct_increase_pct, where: "hots = 16"}' | 'where: "hots' | plots[0].where: the query fails on the figure's runs: Binder Error: Referenced column "hots" not found
            a measure that does not bind | 'avg(fct_ps)' | 'avg(fct_pz)' | mean_fct | measures.mean_fct: the query fails on the figure's runs: Binder Error: Referenced column "fct_pz" not found
            a claim's metric that does not bind | 'cct_increase_pct AS value' | 'cct_increase_pcz AS value' | metric | claims[0].metric: the metric failed: Binder Error: Referenced column "cct_increase_pcz" not found
            """)
    void a_reproduction_files_error_names_its_line_and_column(String what, String from, String to, String at, String message) throws IOException {
        String text = OWN.replace(from, to.replace("\\n", "\n"));
        assertThat(text).as(what).isNotEqualTo(OWN);
        Path file = dir.resolve("own.yaml");
        Files.writeString(file, text);
        Path out = dir.resolve("own-out");
        String line = lbsim("reproduce", file.toString(), "--quick", "--out", out.toString()).errorLine();
        assertThat(line).as(what).startsWith("lbsim: " + file + ":" + position(text, at) + ": " + message);
        assertThat(out).as("refused before anything is written").doesNotExist();
    }

    @Test
    void a_reproduction_file_of_ones_own_runs_as_a_built_in_one() throws IOException {
        Path file = dir.resolve("own.yaml");
        Files.writeString(file, OWN);
        Path out = dir.resolve("own-out");
        MainTest.Result r = lbsim("reproduce", file.toString(), "--quick", "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(out.resolve("README.md"))).contains("lbsim reproduce " + file + " --quick", "spraying is no slower");
        assertThat(out.resolve("cct.png")).isRegularFile();
        assertThat(query(out.resolve("results.duckdb"), "SELECT count(*) AS n FROM runs")).containsExactly("n", "2");
    }

    /**
     * A resume refused because the figure's definition changed since its runs were recorded leaves the folder
     * as it was: its sweep file, README, tables and probe are not rewritten from the old runs under the new definition.
     */
    @Test
    void a_refused_resume_leaves_the_folder_as_it_was() throws IOException {
        Path file = dir.resolve("own.yaml");
        Files.writeString(file, OWN);
        Path out = dir.resolve("own-refused-resume");
        assertThat(lbsim("reproduce", file.toString(), "--quick", "--out", out.toString()).code()).isZero();
        Map<Path, byte[]> before = new TreeMap<>();
        try (var files = Files.walk(out)) {
            for (Path p : files.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().startsWith("results.duckdb")).toList()) {
                before.put(p, Files.readAllBytes(p));
            }
        }
        assertThat(before).containsKeys(out.resolve("sweep.yaml"), out.resolve("README.md"), out.resolve("probe.csv"), out.resolve("runs.csv"));

        Files.writeString(file, OWN.replace("messageBytes: 65536", "messageBytes: 131072"));
        MainTest.Result r = lbsim("reproduce", file.toString(), "--quick", "--out", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.errorLine()).contains("was recorded with another scenario");
        try (var files = Files.walk(out)) {
            assertThat(files.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().startsWith("results.duckdb")).sorted().toList())
                    .containsExactlyElementsOf(before.keySet());
        }
        for (Map.Entry<Path, byte[]> f : before.entrySet()) {
            assertThat(Files.readAllBytes(f.getKey())).as(f.getKey().getFileName().toString()).isEqualTo(f.getValue());
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
            Map<String, Object> def = ReproduceCommand.definition(name); // a sweepOf resolved: the sweep below is the one that runs
            assertThat(def.keySet()).as(name).isSubsetOf(KEYS).contains("title", "paper", "sweep", "tables", "plots");
            // the README's runs are those of the sweep's name (the default, this reproduction's name, would differ from the sweep file's)
            assertThat(((Map<String, Object>) def.get("sweep")).get("name")).as(name + ": sweep.name").isInstanceOf(String.class);
            assertThat((String) def.get("title")).as(name).isNotBlank();
            assertThat(String.valueOf(def.get("paper"))).as(name).isNotBlank();
            assertThat(org.lbsim.cli.ledger.FigureDef.parse(name, def).claims()).as(name).isNotEmpty();
            org.lbsim.cli.command.ReproductionFile.check(def, f -> "reproduce/" + name + ".yaml"); // the checks lbsim reproduce makes first
            // figures drawn from the same runs agree on every measure they share
            assertThat(ReproduceCommand.sharedMeasures(name, def)).as(name).containsAllEntriesOf(org.lbsim.cli.ledger.FigureDef.parse(name, def).measures());
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
                if (quick) {
                    assertThat(s.seeds).as(name).isEqualTo(1);
                } else {
                    // the OFAN figures average at least the paper's 10 runs; every other figure runs at least 3 seeds
                    assertThat(s.seeds).as(name).isGreaterThanOrEqualTo(name.startsWith("fig") ? 10 : 3);
                }
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

    /** Every reproduction's measures, claims and plots prepare on its sweep's columns (full and quick), as lbsim reproduce checks them first. */
    @Test
    void every_reproductions_queries_prepare_on_the_columns_of_its_runs() {
        for (String name : ReproduceCommand.names()) {
            Map<String, Object> def = ReproduceCommand.definition(name);
            org.lbsim.cli.ledger.FigureDef figure = org.lbsim.cli.ledger.FigureDef.parse(name, def);
            for (boolean quick : new boolean[] {false, true}) {
                org.lbsim.cli.command.ReproductionFile.checkQueries(def, figure, quick, f -> "reproduce/" + name + ".yaml");
            }
        }
    }

    /**
     * {@code sweepOf: NAME}: pro-fig9, pro-fig12 and dlbf-fig5 run exactly their source's
     * sweep (files, sweep, quickSweep), with their own claims, tables and plots.
     */
    @ParameterizedTest
    @CsvSource({"pro-fig9, pro-table2", "pro-fig12, pro-table2", "dlbf-fig5, dlbf-fig4"})
    @SuppressWarnings("unchecked")
    void sweepOf_runs_the_named_reproductions_sweep_with_its_own_claims_and_tables(String name, String source) throws IOException {
        Map<String, Object> file = (Map<String, Object>) Yaml.parse(Files.readString(Path.of("src/main/resources/reproduce/" + name + ".yaml")), name);
        assertThat(file).containsEntry("sweepOf", source).doesNotContainKeys("sweep", "quickSweep", "files");
        Map<String, Object> def = ReproduceCommand.definition(name);
        Map<String, Object> of = ReproduceCommand.definition(source);
        for (String k : List.of("files", "sweep", "quickSweep")) {
            assertThat(def.get(k)).as(name + " " + k).isEqualTo(of.get(k));
        }
        assertThat(((Map<String, Object>) def.get("sweep")).get("name")).as("the runs keep the source's sweep name").isEqualTo(source);
        assertThat(def.get("tables")).as("its own tables").isEqualTo(file.get("tables")).isNotEqualTo(of.get("tables"));
        assertThat(def.get("claims")).as("its own claims").isEqualTo(file.get("claims")).isNotEqualTo(of.get("claims"));
    }

    /** Fig. 9's and Fig. 12's claims left pro-table2 for pro-fig9 and pro-fig12; each claim is in exactly one of the three. */
    @Test
    @SuppressWarnings("unchecked")
    void pro_table2s_claims_are_split_by_figure() {
        Map<String, List<String>> papers = new LinkedHashMap<>();
        for (String n : List.of("pro-table2", "pro-fig9", "pro-fig12")) {
            papers.put(n, ((List<Map<String, Object>>) ReproduceCommand.definition(n).get("claims")).stream().map(c -> String.valueOf(c.get("paper"))).toList());
        }
        assertThat(papers.get("pro-table2")).isNotEmpty().allSatisfy(p -> assertThat(p).contains("Table II").doesNotContain("Fig. 9", "Fig. 12"));
        assertThat(papers.get("pro-fig9")).isNotEmpty().allSatisfy(p -> assertThat(p).contains("Fig. 9").doesNotContain("Table II", "Fig. 12"));
        assertThat(papers.get("pro-fig12")).isNotEmpty().allSatisfy(p -> assertThat(p).contains("Fig. 12").doesNotContain("Table II", "Fig. 9"));
    }

    static Map<String, Object> reproduction(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    static final Map<String, Map<String, Object>> OTHERS = Map.of(
            "base", reproduction("title", "base", "files", Map.of("t.csv", "src,dst,bytes,start_ns\n"), "sweep", Map.of("name", "base", "grid", Map.of()),
                    "quickSweep", Map.of("grid", Map.of()), "claims", List.of(), "tables", List.of(Map.of("rows", "a"))),
            "nosweep", reproduction("title", "nosweep"),
            "derived", reproduction("title", "derived", "sweepOf", "base"));

    static Map<String, Object> resolve(Map<String, Object> def) {
        return ReproduceCommand.resolve("x", def, List.of("base", "nosweep", "derived", "x"), OTHERS::get);
    }

    @Test
    void sweepOf_takes_files_sweep_and_quickSweep_and_keeps_the_rest() {
        Map<String, Object> def = reproduction("title", "x", "sweepOf", "base", "tables", List.of(), "plots", List.of());
        Map<String, Object> r = resolve(def);
        assertThat(r).containsEntry("files", OTHERS.get("base").get("files")).containsEntry("sweep", OTHERS.get("base").get("sweep"))
                .containsEntry("quickSweep", OTHERS.get("base").get("quickSweep")).containsEntry("title", "x").containsEntry("tables", List.of())
                .containsEntry("sweepOf", "base").doesNotContainKey("claims");
        Map<String, Object> own = reproduction("title", "y", "sweep", Map.of("name", "y"));
        assertThat(resolve(own)).as("without sweepOf: as written").isSameAs(own);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "sweep      | base     | reproduce/x.yaml: sweepOf: a reproduction has either its own sweep or sweepOf (the files, sweep, quickSweep of another reproduction), not both: remove sweep or sweepOf",
            "quickSweep | base     | reproduce/x.yaml: sweepOf: a reproduction has either its own quickSweep or sweepOf",
            "files      | base     | reproduce/x.yaml: sweepOf: a reproduction has either its own files or sweepOf",
            "           | bsae     | reproduce/x.yaml: sweepOf: expected the name of a reproduction in reproduce/index.txt that has its own sweep, got 'bsae' (did you mean 'base'?)",
            "           | nowhere  | reproduce/x.yaml: sweepOf: expected the name of a reproduction in reproduce/index.txt that has its own sweep, got 'nowhere'",
            "           | derived  | reproduce/x.yaml: sweepOf: 'derived' takes its own sweep from 'base' (sweepOf); expected a reproduction with its own sweep (one level), e.g. sweepOf: base",
            "           | nosweep  | reproduce/x.yaml: sweepOf: 'nosweep' has no sweep; expected a reproduction with its own sweep",
            "           | x        | reproduce/x.yaml: sweepOf: names this reproduction itself; expected another reproduction with its own sweep"})
    void a_bad_sweepOf_is_one_line_naming_the_file_the_field_and_what_is_allowed(String alsoKey, String of, String message) {
        Map<String, Object> def = reproduction("title", "x", "sweepOf", of, "tables", List.of());
        if (alsoKey != null) {
            def.put(alsoKey, Map.of());
        }
        Map<String, Map<String, Object>> others = new java.util.HashMap<>(OTHERS);
        others.put("x", def); // naming itself: its file has no sweep of its own
        assertThatThrownBy(() -> ReproduceCommand.resolve("x", def, List.of("base", "nosweep", "derived", "x"), others::get))
                .isInstanceOf(UserError.class).hasMessageStartingWith(message).satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void a_sweepOf_that_is_not_a_name_is_refused() {
        assertThatThrownBy(() -> resolve(reproduction("title", "x", "sweepOf", List.of("base"))))
                .isInstanceOf(UserError.class).hasMessageStartingWith("reproduce/x.yaml: sweepOf: expected the name of a reproduction in reproduce/index.txt");
    }
}
