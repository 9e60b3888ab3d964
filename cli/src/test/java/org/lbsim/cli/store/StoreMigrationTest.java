package org.lbsim.cli.store;

import static org.assertj.core.api.Assertions.assertThat;

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

/** A database written before the renames of 0.1 (docs/results.md) is migrated when opened for writing, its rows kept. */
class StoreMigrationTest {
    @TempDir
    Path dir;

    /** The runs table's fixed columns as lbsim wrote them before 0.1. */
    private static final String OLD_RUNS = "run_id VARCHAR PRIMARY KEY, sweep VARCHAR, point INTEGER, seed BIGINT, scenario_name VARCHAR,"
            + " scenario_yaml VARCHAR, hosts INTEGER, flows INTEGER, flows_finished INTEGER, cct_ps BIGINT, lower_bound_ps BIGINT,"
            + " cct_increase_pct DOUBLE, rho_max_mbps BIGINT, simulated_ps BIGINT, events BIGINT, packet_hops BIGINT, drops BIGINT,"
            + " link_loss BIGINT, no_route_drops BIGINT, ecn_marks BIGINT, retransmissions BIGINT, spurious_retransmissions BIGINT,"
            + " timeouts BIGINT, pfc_pauses BIGINT, pfc_deadlock VARCHAR, ooo_max_degree BIGINT, ooo_max_held BIGINT, ooo_arrivals BIGINT,"
            + " wall_ms BIGINT, lbsim_version VARCHAR, git_commit VARCHAR, ending VARCHAR";

    @Test
    void wallMsBecomesWallTimeMsAndTheNewColumnsArriveEmptyForOldRuns() throws SQLException {
        Path db = dir.resolve("old.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE runs (" + OLD_RUNS + ")");
            s.execute("INSERT INTO runs (run_id, seed, cct_ps, wall_ms, ending) VALUES ('old-run', 1, 42, 1234, 'completed')");
            s.execute("CREATE TABLE ooo_histogram (run_id VARCHAR, bucket INTEGER, count BIGINT)");
            s.execute("INSERT INTO ooo_histogram VALUES ('old-run', 3, 7)");
        }
        ResultsStore.open(db, "old.duckdb").close();
        try (Connection c = ResultsStore.openReadOnly(db, "old.duckdb"); Statement s = c.createStatement()) {
            List<String> runs = columns(s, "runs");
            assertThat(runs).containsAll(ResultsStore.fixedRunColumns()).doesNotContain("wall_ms");
            try (ResultSet rs = s.executeQuery("SELECT wall_time_ms, cct_ps, ending_detail IS NULL, oversubscription IS NULL FROM runs")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1234);
                assertThat(rs.getLong(2)).isEqualTo(42);
                assertThat(rs.getBoolean(3)).isTrue();
                assertThat(rs.getBoolean(4)).isTrue();
            }
            assertThat(columns(s, "ooo_histogram")).containsExactly("run_id", "bucket", "count", "min_degree", "max_degree");
            try (ResultSet rs = s.executeQuery("SELECT bucket, count, min_degree IS NULL FROM ooo_histogram")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(3);
                assertThat(rs.getLong(2)).isEqualTo(7);
                assertThat(rs.getBoolean(3)).isTrue();
            }
        }
        // opening again changes nothing (the migration runs once)
        ResultsStore.open(db, "old.duckdb").close();
    }

    private static List<String> columns(Statement s, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = '" + table
                + "' ORDER BY ordinal_position")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
