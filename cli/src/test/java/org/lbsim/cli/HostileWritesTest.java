package org.lbsim.cli;

import org.lbsim.cli.errors.ControlCharacters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.cli.plot.PlotException;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.plot.TestResultsDb;

/**
 * No write the user did not ask for: options that become SQL cannot make the engine write a file or change a
 * table, files beside the output are not replaced, foreign folders and databases are refused before anything
 * changes; names never reach the terminal raw; output that cannot be written is an error.
 */
class HostileWritesTest {
    static final String B = """
            name: b
            topology: {type: fat-tree, k: 4}
            loadBalancing: {type: host-spray}
            workload: {type: permutation, messageBytes: 65536}
            limits: {maxTimeUs: 2000}
            """;

    @TempDir
    Path dir;

    Path victim;

    @BeforeEach
    void victim() throws IOException {
        victim = Files.writeString(dir.resolve("victim.txt"), "the user's own file\n");
    }

    /** Every file under the folder with its SHA-256: what a command must leave as it was. */
    Map<String, String> snapshot() throws IOException {
        return snapshotOf(dir);
    }

    /** Every file under {@code root} with its SHA-256. */
    static Map<String, String> snapshotOf(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(root.relativize(p).toString(), sha(p));
            }
        }
        return m;
    }

    static String sha(Path p) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SQL that would write a file, change a table or reopen the engine's access to files, each as a fragment of an option. */
    static Stream<String> injections() {
        List<String> statements = List.of(
                "COPY (SELECT 'overwritten' AS x) TO '%s' (HEADER false)",
                "COPY runs TO '%s'",
                "ATTACH '%s.db' AS other",
                "CREATE TABLE evil AS SELECT 1",
                "DROP TABLE runs",
                "DELETE FROM runs",
                "UPDATE runs SET seed = 0",
                "INSERT INTO runs (run_id) VALUES ('evil')",
                "SET enable_external_access = true",
                "PRAGMA enable_profiling");
        List<String> out = new ArrayList<>();
        for (String st : statements) {
            out.add("1=1); " + st + "; SELECT 1 FROM runs WHERE (1=1");
            out.add(st);
        }
        out.add("1=1); COPY runs TO '%s' --");
        out.add("1=1)\n; COPY runs TO '%s';\n SELECT (1");
        out.add("(SELECT count(*) FROM read_csv('%s')) > 0");
        out.add("1 = (SELECT 1 FROM read_text('%s'))");
        out.add("1=1) UNION ALL SELECT * FROM runs WHERE (1=1");
        out.add("1=1) ORDER BY (1");
        out.add("1 /* unclosed");
        return out.stream();
    }

    Path database() throws SQLException {
        return TestResultsDb.create(dir.resolve("results.duckdb"));
    }

    @ParameterizedTest
    @MethodSource("injections")
    void no_plot_option_makes_the_engine_write_a_file_or_change_a_table(String injection) throws Exception {
        Path db = database();
        String sql = injection.replace("%s", victim.toString().replace("'", "''"));
        Path png = dir.resolve("p.png");
        List<String[]> commands = List.of(
                new String[] {"plot", db.toString(), "--others", "split", "--x", "messageBytes", "--where", sql, "--out", png.toString()},
                new String[] {"plot", db.toString(), "--others", "split", "--x", "messageBytes", "--y", sql, "--out", png.toString()},
                new String[] {"plot", db.toString(), "--others", "split", "--x", sql, "--out", png.toString()},
                new String[] {"plot", db.toString(), "--others", "split", "--x", "messageBytes", "--by", sql, "--out", png.toString()},
                new String[] {"plot", db.toString(), "--others", "split", "--x", "messageBytes", "--y", "max_queue_bytes@" + sql, "--out", png.toString()});
        for (String[] args : commands) {
            Map<String, String> before = snapshot();
            MainTest.Result r = lbsim(args);
            assertThat(r.code()).as("%s: %s", List.of(args), r.err()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(snapshot()).as("files after %s", List.of(args)).isEqualTo(before);
        }
    }

    @ParameterizedTest
    @MethodSource("injections")
    void query_reaches_no_file_and_changes_no_table(String injection) throws Exception {
        Path db = database();
        String sql = injection.replace("%s", victim.toString().replace("'", "''"));
        Map<String, String> before = snapshot();
        MainTest.Result r = lbsim("query", db.toString(), sql.startsWith("1") || sql.startsWith("(") ? "SELECT " + sql : sql, "--format", "csv");
        assertThat(r.code()).as(r.err()).isIn(0, 2);
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void the_engine_of_a_reader_is_closed_to_files_whatever_sql_it_is_given() throws Exception {
        Path db = database();
        String path = victim.toString().replace("'", "''");
        try (ResultsReader r = ResultsReader.open(db, "results.duckdb")) {
            for (String sql : List.of("COPY (SELECT 1) TO '" + path + "'", "SELECT * FROM read_csv('" + path + "')", "ATTACH '" + path + ".db'",
                    "SET enable_external_access = true", "SET lock_configuration = false", "CREATE TABLE evil (x INT)")) {
                assertThatThrownBy(() -> r.query(sql)).as(sql).isInstanceOf(PlotException.class);
            }
            assertThat(r.query("SELECT count(*) AS n FROM runs")).hasSize(1);
        }
        assertThat(Files.readString(victim)).isEqualTo("the user's own file\n");
    }

    @Test
    void a_where_and_a_y_expression_that_are_one_expression_still_draw() throws Exception {
        Path db = database();
        Path png = dir.resolve("q.png");
        MainTest.Result r = lbsim("plot", db.toString(), "--others", "split", "--x", "messageBytes", "--y", "cct_ps / lower_bound_ps",
                "--where", "\"loadBalancing.type\" IN ('ecmp', 'ofan') -- a comment", "--out", png.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(png).isRegularFile();
        assertThat(dir.resolve("q.csv")).isRegularFile();
    }

    @Test
    void a_reader_and_a_database_hostile_in_its_names_write_nothing() throws Exception {
        Path db = database();
        String evil = "x'); COPY (SELECT 1) TO '" + victim + "'; --";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE runs ADD COLUMN \"" + evil.replace("\"", "\"\"") + "\" VARCHAR");
            s.execute("UPDATE runs SET \"" + evil.replace("\"", "\"\"") + "\" = 'v\u001b[2J'");
            s.execute("INSERT INTO layers (run_id, layer, max_queue_bytes) SELECT run_id, '" + evil.replace("'", "''") + "', 1 FROM runs");
        }
        Map<String, String> before = snapshot();
        before.remove("results.duckdb");
        MainTest.Result report = lbsim("report", db.toString(), "--out", dir.resolve("r/report.html").toString());
        assertThat(report.code()).as(report.err()).isZero();
        MainTest.Result plot = lbsim("plot", db.toString(), "--others", "split", "--x", "messageBytes", "--by", evil, "--y", "max_queue_bytes@" + evil,
                "--out", dir.resolve("r/p.png").toString());
        assertThat(plot.code()).as(plot.err()).isZero();
        Map<String, String> after = snapshot();
        after.keySet().removeIf(k -> k.startsWith("r/") || k.startsWith("r\\") || k.equals("results.duckdb"));
        assertThat(after).isEqualTo(before);
    }

    @Test
    void reproduce_refuses_an_existing_folder_it_did_not_make() throws IOException {
        Path mine = Files.createDirectories(dir.resolve("mine"));
        Files.writeString(mine.resolve("README.md"), "my notes\n");
        Files.writeString(mine.resolve("sweep.yaml"), "name: mine\n");
        Map<String, String> before = snapshot();
        assertThat(lbsim("reproduce", "fig1", "--quick", "--out", mine.toString()).errorLine())
                .isEqualTo("lbsim: --out " + mine + ": already exists and holds no earlier reproduction (no sweep.yaml written by lbsim reproduce);"
                        + " choose another --out or remove it");
        assertThat(snapshot()).isEqualTo(before);

        // a folder an earlier reproduction made is resumed: the refusal here is the sweep's, about --only
        Path earlier = Files.createDirectories(dir.resolve("earlier"));
        Files.writeString(earlier.resolve("sweep.yaml"), "# written by lbsim reproduce fig1\nname: fig1\n");
        Files.writeString(earlier.resolve("README.md"), "an earlier reproduction\n");
        assertThat(lbsim("reproduce", "fig1", "--quick", "--out", earlier.toString(), "--only", "topology.k=3").errorLine())
                .startsWith("lbsim: --only topology.k=3: topology.k: no point of ");
        // a figure's committed results (no sweep.yaml in a fresh clone) too
        Path committed = Files.createDirectories(dir.resolve("committed"));
        Files.writeString(committed.resolve("runs.csv"), "run_id\n");
        Files.writeString(committed.resolve("columns.csv"), "table,column,type\nruns,run_id,VARCHAR\n");
        assertThat(lbsim("reproduce", "fig1", "--quick", "--out", committed.toString(), "--only", "topology.k=3").errorLine())
                .startsWith("lbsim: --only topology.k=3: ");
        // an empty folder too
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThat(lbsim("reproduce", "fig1", "--quick", "--out", empty.toString(), "--only", "topology.k=3").errorLine())
                .startsWith("lbsim: --only topology.k=3: ");
    }

    /** A DuckDB file of someone else's: a table runs with other columns. */
    Path foreignDatabase(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE runs (id INTEGER, name VARCHAR)");
            s.execute("INSERT INTO runs VALUES (1, 'mine')");
        }
        return file;
    }

    @Test
    void a_foreign_database_is_refused_before_simulating_and_left_byte_identical() throws Exception {
        Path scenario = Files.writeString(dir.resolve("b.yaml"), B);
        Path db = foreignDatabase(dir.resolve("mine.duckdb"));
        String before = sha(db);
        Path out = dir.resolve("run");
        assertThat(lbsim("run", scenario.toString(), "--out", out.toString(), "--db", db.toString()).errorLine())
                .isEqualTo("lbsim: --db " + db + ": is not an lbsim results database: its table 'runs' has no column 'run_id'; choose another file"
                        + " (it was left unchanged)");
        assertThat(out).doesNotExist();
        assertThat(sha(db)).isEqualTo(before);
        assertThat(Path.of(db + ".wal")).doesNotExist();

        // tables, but none called runs
        Path other = dir.resolve("other.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + other); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE measurements (t DOUBLE)");
        }
        String otherBefore = sha(other);
        assertThat(lbsim("run", scenario.toString(), "--out", out.toString(), "--db", other.toString()).errorLine())
                .startsWith("lbsim: --db " + other + ": is not an lbsim results database: it has tables (measurements) but no table 'runs'");
        assertThat(sha(other)).isEqualTo(otherBefore);

        // not a DuckDB file at all: refused before the run, not after it
        Path text = Files.writeString(dir.resolve("notes.duckdb"), "my notes\n");
        assertThat(lbsim("run", scenario.toString(), "--out", out.toString(), "--db", text.toString()).errorLine())
                .isEqualTo("lbsim: --db " + text + ": is not a DuckDB database file; choose another file (it was left unchanged)");
        assertThat(out).doesNotExist();
        assertThat(Files.readString(text)).isEqualTo("my notes\n");
    }

    @Test
    void a_sweep_into_a_folder_with_a_foreign_results_database_changes_nothing() throws Exception {
        Files.writeString(dir.resolve("b.yaml"), B);
        Path sweep = Files.writeString(dir.resolve("s.yaml"), "name: s\nbaseFile: b.yaml\ngrid: {workload.messageBytes: [65536]}\n");
        Path out = Files.createDirectories(dir.resolve("sweep"));
        Path db = foreignDatabase(out.resolve("results.duckdb"));
        Map<String, String> before = snapshot();
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString()).errorLine())
                .contains("results.duckdb: is not an lbsim results database: its table 'runs' has no column 'run_id'");
        assertThat(snapshot()).isEqualTo(before);
        assertThat(Path.of(db + ".wal")).doesNotExist();
    }

    @Test
    void plot_never_replaces_a_file_beside_the_figure_that_is_not_its_data() throws Exception {
        Path db = database();
        Path trace = Files.writeString(dir.resolve("mytrace.csv"), "flow,src,dst,bytes\n0,0,1,4096\n");
        Path png = dir.resolve("mytrace.png");
        assertThat(lbsim("plot", db.toString(), "--others", "split", "--x", "messageBytes", "--out", png.toString()).errorLine())
                .isEqualTo("lbsim: --out " + png + ": " + trace + " exists and is not figure data written by lbsim plot, and the figure's data goes"
                        + " there; move it or choose another --out");
        assertThat(Files.readString(trace)).isEqualTo("flow,src,dst,bytes\n0,0,1,4096\n");
        assertThat(png).doesNotExist();

        // its own data is replaced: drawing the same figure again works
        Path fig = dir.resolve("fig.png");
        assertThat(lbsim("plot", db.toString(), "--others", "split", "--x", "messageBytes", "--out", fig.toString()).code()).isZero();
        assertThat(lbsim("plot", db.toString(), "--others", "split", "--x", "messageBytes", "--by", "loadBalancing.type", "--out", fig.toString()).code()).isZero();
        assertThat(Files.readString(dir.resolve("fig.csv"))).startsWith("group,");
    }

    Path runFolder() throws IOException {
        Path scenario = Files.writeString(dir.resolve("b.yaml"), B);
        Path run = dir.resolve("run");
        assertThat(lbsim("run", scenario.toString(), "--out", run.toString(), "--quiet").code()).isZero();
        return run;
    }

    @Test
    void plot_of_a_run_folder_replaces_only_its_own_figures() throws IOException {
        Path run = runFolder();
        Path plots = Files.createDirectories(dir.resolve("plots"));
        Path mine = Files.writeString(plots.resolve("fct-cdf.csv"), "my,own\n1,2\n");
        assertThat(lbsim("plot", run.toString(), "--out", plots.toString()).errorLine()).contains("fct-cdf.csv exists and is not figure data");
        assertThat(Files.readString(mine)).isEqualTo("my,own\n1,2\n");
        try (Stream<Path> s = Files.list(plots)) {
            assertThat(s).hasSize(1);
        }
        Files.delete(mine);
        Path png = Files.writeString(plots.resolve("queue-cdf.png"), "my picture");
        assertThat(lbsim("plot", run.toString(), "--out", plots.toString()).errorLine()).contains("queue-cdf.png exists and was not written by lbsim plot");
        assertThat(Files.readString(png)).isEqualTo("my picture");
        Files.delete(png);
        assertThat(lbsim("plot", run.toString(), "--out", plots.toString()).code()).isZero();
        assertThat(lbsim("plot", run.toString(), "--out", plots.toString()).code()).as("again, over its own figures").isZero();
    }

    @Test
    void a_run_folder_without_flows_csv_says_so_rather_than_no_flow_finished() throws IOException {
        Path run = runFolder();
        Files.delete(run.resolve("flows.csv"));
        MainTest.Result r = lbsim("plot", run.toString(), "--out", dir.resolve("plots").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("not drawn    flow FCT CDF: the source has no flow completion times of its 16 finished flows (a run folder without"
                + " flows.csv)").doesNotContain("no flow finished");
        MainTest.Result report = lbsim("report", run.toString(), "--out", dir.resolve("r.html").toString());
        assertThat(report.code()).as(report.err()).isZero();
        assertThat(Files.readString(dir.resolve("r.html"))).contains("the folder has no flows.csv").doesNotContain("no flow finished");
    }

    @Test
    void a_truncated_summary_is_one_line_naming_the_file_and_the_place() throws IOException {
        Path run = runFolder();
        byte[] summary = Files.readAllBytes(run.resolve("summary.json"));
        Files.write(run.resolve("summary.json"), java.util.Arrays.copyOf(summary, summary.length / 2));
        String line = lbsim("report", run.toString(), "--out", dir.resolve("r.html").toString()).errorLine();
        assertThat(line).startsWith("lbsim: " + run + "/summary.json:").contains(": not valid JSON (").endsWith("); the file is damaged or truncated");
        assertThat(lbsim("plot", run.toString(), "--out", dir.resolve("p").toString()).errorLine()).isEqualTo(line);
        assertThat(dir.resolve("r.html")).doesNotExist();
        assertThat(dir.resolve("p")).doesNotExist();
    }

    @Test
    void a_query_may_start_with_a_comment() throws Exception {
        Path db = database();
        MainTest.Result r = lbsim("query", db.toString(), "-- how many runs\nSELECT count(*) AS n FROM runs", "--format", "csv");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("n\n").isEqualTo(lbsim("query", db.toString(), "SELECT count(*) AS n FROM runs", "--format", "csv").out());
        assertThat(lbsim("query", db.toString(), "--format", "csv", "--nonsense", "SELECT 1").errorLine()).startsWith("lbsim: ");
    }

    @Test
    void query_with_allow_files_may_write_the_file_it_names() throws Exception {
        Path db = database();
        String copy = "SELECT count(*) AS n FROM read_csv('" + victim.toString().replace("'", "''") + "', header = false)";
        assertThat(lbsim("query", db.toString(), copy).errorLine()).contains("file system operations are disabled").endsWith("--allow-files lets it)");
        MainTest.Result r = lbsim("query", db.toString(), copy, "--allow-files", "--format", "csv");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("n\n1\n");
    }

    static Stream<Arguments> hostileNames() {
        return Stream.of(Arguments.of("x\u001b[2J\u001b]0;pwned\u0007"), Arguments.of("two\nlines"), Arguments.of("nul\u0000here"),
                Arguments.of("back\rspace\b\u007f"), Arguments.of("c1\u009b31m"), Arguments.of("bidi\u202eevil"));
    }

    /** Every character printed is text, a tab or a line end. */
    static void printable(String s) {
        for (char c : s.toCharArray()) {
            assertThat(c == '\n' || c == '\t' || !ControlCharacters.escaped(c, false)).as("U+%04X in %s", (int) c, s).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("hostileNames")
    void names_are_never_printed_raw(String name) throws Exception {
        Path scenario = Files.writeString(dir.resolve("b.yaml"), B);
        MainTest.Result run = lbsim("run", scenario.toString(), "--out", dir.resolve("run").toString(), "--set", "name=" + name);
        assertThat(run.code()).as(run.err()).isZero();
        printable(run.out());
        assertThat(run.out().lines().filter(l -> l.startsWith("scenario "))).singleElement()
                .isEqualTo("scenario     " + ControlCharacters.escape(name) + " (seed 1)");

        // in errors: the value of a bad --set, a missing file's name, a --where
        String bad = lbsim("run", scenario.toString(), "--set", "topology.k=" + name).errorLine();
        printable(bad);
        String missing = lbsim("run", dir + "/" + name + ".yaml").errorLine();
        printable(missing);
        assertThat(missing).contains(ControlCharacters.escape(name));
        Path db = TestResultsDb.create(dir.resolve("db-" + Math.abs(name.hashCode()) + ".duckdb"));
        printable(lbsim("plot", db.toString(), "--others", "split", "--x", "messageBytes", "--where", "'" + name + "' = 1").errorLine());
        printable(lbsim("plot", db.toString(), "--others", "split", "--x", name).errorLine());
        printable(lbsim(name).errorLine());
    }

    @Test
    void query_results_show_control_characters_escaped() throws Exception {
        Path db = database();
        for (String format : List.of("table", "csv", "json")) {
            MainTest.Result r = lbsim("query", db.toString(), "SELECT chr(27) || '[2J' || chr(7) AS x, 'a' || chr(0) || 'b' AS y", "--format", format);
            assertThat(r.code()).as(r.err()).isZero();
            printable(r.out());
        }
    }

    /** An output that fails once {@code limit} bytes have gone through it, as a pipe whose reader left or a full disk. */
    static final class Failing extends OutputStream {
        final int limit;
        long attempted;

        Failing(int limit) {
            this.limit = limit;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            attempted += len;
            if (attempted > limit) {
                throw new IOException("Broken pipe");
            }
        }
    }

    @Test
    void output_that_cannot_be_written_is_an_error_and_stops_the_query() throws Exception {
        Path db = database();
        Failing pipe = new Failing(100);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.execute(new String[] {"query", db.toString(), "SELECT range AS x, range * 2 AS y FROM range(3000000)", "--format", "csv"},
                new PrintStream(pipe, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("lbsim: standard output: cannot write (closed, e.g. a pipe into head, or its disk"
                + " is full); the output is incomplete" + System.lineSeparator());
        // about 40 MB of CSV; it stopped at the first piece that could not be written
        assertThat(pipe.attempted).isLessThan(1 << 20);

        for (String[] args : List.of(new String[] {"list", "schemes"}, new String[] {"query", db.toString(), "SELECT 1 AS x"},
                new String[] {"plot", db.toString(), "--others", "split", "--x", "messageBytes", "--out", dir.resolve("f.png").toString()})) {
            ByteArrayOutputStream e = new ByteArrayOutputStream();
            assertThat(Main.execute(args, new PrintStream(new Failing(0), true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8)))
                    .as(List.of(args).toString()).isEqualTo(2);
            assertThat(e.toString(StandardCharsets.UTF_8).lines()).singleElement().asString().startsWith("lbsim: standard output: cannot write");
        }
    }
}
