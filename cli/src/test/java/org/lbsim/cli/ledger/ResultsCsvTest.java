package org.lbsim.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.errors.UserError;

class ResultsCsvTest {
    @TempDir
    Path dir;

    /** A small results database: awkward doubles, NULLs, empty and multi-line strings, booleans, a dotted scenario column. */
    private static Connection sample(long seed) throws Exception {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Random rng = new Random(seed);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE runs (run_id VARCHAR, sweep VARCHAR, point INTEGER, seed BIGINT, scenario_yaml VARCHAR, cct_ps BIGINT,"
                    + " cct_increase_pct DOUBLE, \"loadBalancing.type\" VARCHAR, \"switches.pfc.enabled\" BOOLEAN)");
            s.execute("CREATE TABLE layers (run_id VARCHAR, layer VARCHAR, mean_queue_bytes DOUBLE)");
            s.execute("CREATE TABLE measures (run_id VARCHAR, name VARCHAR, value DOUBLE)");
            for (int i = 0; i < 20; i++) {
                double d = i == 0 ? 0.1 + 0.2 : i == 1 ? 1e-300 : i == 2 ? Double.MIN_VALUE : rng.nextGaussian() * Math.pow(10, rng.nextInt(30) - 15);
                String yaml = i == 3 ? "" : "name: \"r" + i + "\"\nlist: [a, b]\nquote: 'x,y'";
                s.execute("INSERT INTO runs VALUES ('fig-" + i + "', " + (i == 5 ? "'other'" : "'fig'") + ", " + (i % 3) + ", " + (i + 1) + ", "
                        + (i == 4 ? "NULL" : "'" + yaml.replace("'", "''") + "'") + ", " + (i == 6 ? "NULL" : Long.toString(rng.nextLong())) + ", " + d
                        + ", " + (i % 2 == 0 ? "'ecmp'" : "'host-spray'") + ", " + (i == 7 ? "NULL" : Boolean.toString(i % 2 == 0)) + ")");
                s.execute("INSERT INTO layers VALUES ('fig-" + i + "', 'H->E', " + rng.nextDouble() + "), ('fig-" + i + "', 'E->A', NULL)");
                s.execute("INSERT INTO measures VALUES ('fig-" + i + "', 'p99', " + rng.nextDouble() * 1e6 + ")");
            }
        }
        return c;
    }

    @Test
    void valuesRoundTripBitForBitAndFilesAreStable() throws Exception {
        try (Connection c = sample(1)) {
            ResultsCsv.export(c, "sweep = 'fig'", dir);
            String runs = Files.readString(dir.resolve("runs.csv"));
            assertThat(runs).contains("0.30000000000000004").contains("1.0E-300").contains("4.9E-324");
            assertThat(runs).doesNotContain("fig-5"); // another sweep's run
            try (Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
                ResultsCsv.load(d, dir);
                try (Statement s = d.createStatement()) {
                    s.execute("ATTACH ':memory:' AS unused"); // the loaded tables live in d's own catalog
                }
                for (String t : new String[] {"runs", "layers", "measures"}) {
                    String filter = t.equals("runs") ? "sweep = 'fig'" : "run_id <> 'fig-5'";
                    assertThat(count(c, d, t, filter)).as(t).isZero();
                }
                Path again = dir.resolve("again");
                ResultsCsv.export(d, "TRUE", again);
                for (String f : new String[] {"runs.csv", "layers.csv", "measures.csv", "columns.csv"}) {
                    assertThat(Files.readAllBytes(again.resolve(f))).as(f).isEqualTo(Files.readAllBytes(dir.resolve(f)));
                }
            }
        }
    }

    /** Rows of {@code t} in one database and not the other, both ways, compared through a CSV-free copy. */
    private static long count(Connection a, Connection b, String t, String filter) throws Exception {
        long n = 0;
        java.util.List<String> ra = rows(a, "SELECT * FROM " + t + " WHERE " + filter + " ORDER BY ALL");
        java.util.List<String> rb = rows(b, "SELECT * FROM " + t + " ORDER BY ALL");
        assertThat(rb).hasSameSizeAs(ra);
        for (int i = 0; i < ra.size(); i++) {
            n += ra.get(i).equals(rb.get(i)) ? 0 : 1;
        }
        return n;
    }

    private static java.util.List<String> rows(Connection c, String sql) throws Exception {
        java.util.List<String> out = new java.util.ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    Object o = rs.getObject(i);
                    row.append(o instanceof Double x ? Double.doubleToRawLongBits(x) : o == null ? "<null>" : "[" + o + "]").append('|');
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    @Test
    void aDeletedNumberOrAChangedHeaderIsRefusedNamingTheFile() throws Exception {
        try (Connection c = sample(2)) {
            ResultsCsv.export(c, "TRUE", dir);
        }
        Path layers = dir.resolve("layers.csv");
        String text = Files.readString(layers, StandardCharsets.UTF_8);
        // one field fewer on the second line: a number deleted with its comma
        String[] lines = text.split("\n");
        lines[1] = lines[1].substring(0, lines[1].lastIndexOf(','));
        Files.writeString(layers, String.join("\n", lines) + "\n");
        try (Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> ResultsCsv.load(d, dir)).isInstanceOf(UserError.class).hasMessageContaining("layers.csv");
        }
        Files.writeString(layers, text.replaceFirst("mean_queue_bytes", "mean_queue"));
        try (Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> ResultsCsv.load(d, dir)).isInstanceOf(UserError.class).hasMessageContaining("layers.csv")
                    .hasMessageContaining("header");
        }
        assertThat(text).containsPattern("\n\"fig-[0-9]+\",\"H->E\",[0-9.E-]+");
        Files.writeString(layers, text.replaceFirst("\n(\"fig-[0-9]+\"),\"H->E\",[0-9.E-]+", "\n$1,\"H->E\",not-a-number"));
        try (Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> ResultsCsv.load(d, dir)).isInstanceOf(UserError.class).hasMessageContaining("layers.csv");
        }
    }

    @Test
    void aFolderWithoutColumnTypesIsNotResults() throws Exception {
        assertThat(ResultsCsv.present(dir)).isFalse();
        try (Connection c = sample(3)) {
            ResultsCsv.export(c, "TRUE", dir);
        }
        assertThat(ResultsCsv.present(dir)).isTrue();
        Files.delete(dir.resolve("columns.csv"));
        assertThat(ResultsCsv.present(dir)).isFalse();
    }
}
