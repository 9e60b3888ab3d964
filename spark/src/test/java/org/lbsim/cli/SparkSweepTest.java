package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.store.ResultsStore;

/**
 * {@code lbsim sweep --engine spark} on {@code local[2]}: the same rows as the local engine for the same
 * sweep file (wall-clock columns aside), and resuming like a local sweep.
 */
class SparkSweepTest {
    /** 2 points x 2 seeds on a k=4 fat tree: runs of a few milliseconds. */
    static final String SWEEP = """
            name: sp
            base:
              name: small
              seed: 5
              topology: {type: fat-tree, k: 4}
              workload: {type: permutation, messageBytes: 65536}
              metrics: {sampleIntervalUs: 2}
            grid:
              loadBalancing.type: [ecmp, host-spray]
            seeds: 2
            """;

    /** Columns that measure the machine, not the simulation. */
    static final String WALL_COLUMNS = "wall_time_ms";

    static final String[] SPARK = {"--engine", "spark", "--master", "local[2]", "--engine-conf", "spark.ui.enabled=false",
            "--engine-conf", "spark.default.parallelism=2"};

    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

    static Result lbsim(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void spark_gives_the_local_engines_rows_and_resumes() throws IOException, SQLException {
        Path sweep = dir.resolve("s.yaml");
        Files.writeString(sweep, SWEEP);
        Path local = dir.resolve("local");
        Path spark = dir.resolve("spark");

        Result l = lbsim("sweep", sweep.toString(), "--out", local.toString(), "--jobs", "2");
        assertThat(l.code()).as(l.err()).isZero();
        Result s = lbsim(concat(new String[] {"sweep", sweep.toString(), "--out", spark.toString()}, SPARK));
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).startsWith("sweep sp: 2 points x 2 seeds = 4 runs on the spark engine (local[2]) -> ")
                .contains("sweep sp: 4 of 4 runs recorded (4 now in ");
        assertThat(s.out()).contains(System.lineSeparator() + "spark: 4 runs as tasks on local[2] (application local-");
        assertThat(s.err()).isEmpty();
        assertSameRows(local.resolve(ResultsStore.DEFAULT_FILE), spark.resolve(ResultsStore.DEFAULT_FILE), 4);

        // a second invocation runs nothing
        Result again = lbsim(concat(new String[] {"sweep", sweep.toString(), "--out", spark.toString()}, SPARK));
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).startsWith("sweep sp: 2 points x 2 seeds = 4 runs, all already recorded in ");
        assertThat(again.out()).doesNotContain("spark:");
        assertThat(again.err()).isEmpty();

        // a run lost (as if the sweep had been killed before recording it) is the only one run again
        String lost = "sp-p1-seed6";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + spark.resolve(ResultsStore.DEFAULT_FILE)); Statement st = c.createStatement()) {
            for (String table : ResultsStore.TABLES) {
                st.execute("DELETE FROM " + table + " WHERE run_id = '" + lost + "'");
            }
        }
        Result resumed = lbsim(concat(new String[] {"sweep", sweep.toString(), "--out", spark.toString()}, SPARK));
        assertThat(resumed.code()).as(resumed.err()).isZero();
        assertThat(resumed.out()).startsWith("sweep sp: 2 points x 2 seeds = 4 runs (3 already recorded, 1 to run) on the spark engine")
                .contains("sweep sp: 4 of 4 runs recorded (1 now in ");
        assertThat(resumed.out()).contains(System.lineSeparator() + "spark: 1 run as a task on local[2]");
        assertSameRows(local.resolve(ResultsStore.DEFAULT_FILE), spark.resolve(ResultsStore.DEFAULT_FILE), 4);
    }

    @Test
    void bad_engine_settings_are_one_line_errors() throws IOException {
        Path sweep = dir.resolve("s.yaml");
        Files.writeString(sweep, SWEEP);
        Result jobs = lbsim("sweep", sweep.toString(), "--engine", "spark", "--jobs", "2");
        assertThat(jobs.code()).isEqualTo(2);
        assertThat(jobs.err()).isEqualTo("lbsim: --jobs 2: is for --engine local; the spark engine runs as many runs at once as its executors"
                + " have cores (e.g. --master 'local[4]')" + System.lineSeparator());
        Result conf = lbsim("sweep", sweep.toString(), "--engine", "spark", "--engine-conf", "spark.ui.enabled");
        assertThat(conf.code()).isEqualTo(2);
        assertThat(conf.err()).startsWith("lbsim: --engine-conf spark.ui.enabled: expected KEY=VALUE");
        Result master = lbsim("sweep", sweep.toString(), "--out", dir.resolve("m").toString(), "--engine", "spark", "--master", "nowhere://x");
        assertThat(master.code()).isEqualTo(2);
        assertThat(master.err()).startsWith("lbsim: --engine spark --master nowhere://x: the engine did not start: SparkException:")
                .contains("nowhere://x").endsWith(System.lineSeparator());
        assertThat(master.err().strip().lines().count()).isEqualTo(1);
        Result unknown = lbsim("sweep", sweep.toString(), "--engine", "flink");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("lbsim: --engine flink: unknown engine; expected local or spark" + System.lineSeparator());
    }

    /**
     * Every table of the store holds the same rows in both databases, wall-clock columns aside (as
     * multisets: EXCEPT ALL both ways), and {@code runs} holds {@code runs} rows.
     */
    static void assertSameRows(Path a, Path b, int runs) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + a + "' AS a (READ_ONLY)");
            st.execute("ATTACH '" + b + "' AS b (READ_ONLY)");
            assertThat(count(st, "SELECT count(*) FROM b.runs")).isEqualTo(runs);
            assertThat(count(st, "SELECT count(*) FROM b.flows")).as("flows").isEqualTo(count(st, "SELECT count(*) FROM a.flows")).isPositive();
            assertThat(count(st, "SELECT count(*) FROM b.series")).as("series").isPositive();
            for (String table : ResultsStore.TABLES) {
                String cols = table.equals("runs") ? "* EXCLUDE (" + WALL_COLUMNS + ")" : "*";
                for (String[] order : List.of(new String[] {"a", "b"}, new String[] {"b", "a"})) {
                    String sql = "SELECT " + cols + " FROM " + order[0] + "." + table + " EXCEPT ALL SELECT " + cols + " FROM " + order[1] + "." + table;
                    assertThat(rows(st, sql)).as("rows of %s in %s only", table, order[0]).isEmpty();
                }
            }
        }
    }

    static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(i == 1 ? "" : ", ").append(rs.getString(i));
                }
                rows.add(sb.toString());
            }
        }
        return rows;
    }
}
