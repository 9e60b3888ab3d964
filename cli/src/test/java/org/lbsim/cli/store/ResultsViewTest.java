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
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code results} view: {@code runs} with SQL-friendly names, kept in step with the columns runs has. */
class ResultsViewTest {
    @TempDir
    Path dir;

    @Test
    void snake_case_names_split_dots_brackets_and_capitals() {
        assertThat(ResultsStore.snakeCase("workload.messageBytes")).isEqualTo("workload_message_bytes");
        assertThat(ResultsStore.snakeCase("topology.hostLink.rateGbps")).isEqualTo("topology_host_link_rate_gbps");
        assertThat(ResultsStore.snakeCase("switches.pfc.xoffBytes")).isEqualTo("switches_pfc_xoff_bytes");
        assertThat(ResultsStore.snakeCase("trafficClasses")).isEqualTo("traffic_classes");
        assertThat(ResultsStore.snakeCase("nic.qpsPerConnection")).isEqualTo("nic_qps_per_connection");
        assertThat(ResultsStore.snakeCase("cct_ps")).isEqualTo("cct_ps");
        assertThat(ResultsStore.snakeCase("9lives")).isEmpty();
    }

    @Test
    void a_name_taken_by_runs_or_the_caller_is_left_out() {
        List<String> cols = List.of("run_id", "cct_ps", "loadBalancing.type", "lb", "topology.k");
        List<String> items = ResultsStore.friendlyColumns(cols, Set.of("topology_k"));
        assertThat(items).anyMatch(i -> i.endsWith(" AS cct_us")).anyMatch(i -> i.endsWith(" AS scheme"))
                .anyMatch(i -> i.equals("\"loadBalancing.type\" AS load_balancing_type"))
                .noneMatch(i -> i.endsWith(" AS lb")).noneMatch(i -> i.endsWith(" AS topology_k")).noneMatch(i -> i.endsWith(" AS message_bytes"));
    }

    @Test
    void the_view_follows_new_and_widened_scenario_columns() throws SQLException {
        Path db = dir.resolve("r.duckdb");
        try (ResultsStore store = ResultsStore.open(db, "r.duckdb")) {
            assertThat(viewColumns(store)).contains("cct_us", "lower_bound_us", "simulated_us").doesNotContain("lb", "scheme");
            store.addColumns(List.of(Map.of("loadBalancing.type", "host-spray", "workload.messageBytes", 65536L)));
            assertThat(viewColumns(store)).contains("lb", "scheme", "message_bytes", "workload_message_bytes", "load_balancing_type");
            store.addColumns(List.of(Map.of("topology.k", 4L)));
            assertThat(viewColumns(store)).contains("topology_k");
            store.addColumns(List.of(Map.of("topology.k", 2.5)));
            assertThat(viewColumns(store)).contains("topology_k");
        }
        try (Connection c = ResultsStore.openReadOnly(db, "r.duckdb"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT data_type FROM information_schema.columns WHERE table_name = 'results' AND column_name = 'topology_k'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("DOUBLE");
        }
    }

    @Test
    void a_database_written_before_the_view_gets_it_for_the_session_and_is_left_unchanged() throws SQLException {
        Path db = dir.resolve("old.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE runs (run_id VARCHAR PRIMARY KEY, cct_ps BIGINT, \"loadBalancing.type\" VARCHAR)");
            s.execute("INSERT INTO runs VALUES ('a', 52786980, 'host-spray'), ('b', -1, 'ecmp')");
        }
        try (Connection c = ResultsStore.openReadOnly(db, "old.duckdb"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT run_id, cct_us, lb, scheme FROM results ORDER BY run_id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getDouble(2)).isEqualTo(52.78698);
            assertThat(rs.getString(3)).isEqualTo("host-spray");
            assertThat(rs.getString(4)).isEqualTo("HOST PKT");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject(2)).isNull();
            assertThat(rs.getString(4)).isEqualTo("ECMP");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'results'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    private static List<String> viewColumns(ResultsStore store) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = store.connection().createStatement(); ResultSet rs = s.executeQuery(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'results' ORDER BY ordinal_position")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        store.connection().commit();
        return out;
    }
}
