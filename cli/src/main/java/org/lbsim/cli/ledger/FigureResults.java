package org.lbsim.cli.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lbsim.cli.store.ResultsStore;

/**
 * A figure's committed results, loaded into an in-memory database with a {@code results} view:
 * every {@code runs} column, one column per declared measure, and the SQL-friendly names of a results
 * database's own {@code results} view ({@code lb}, {@code cct_us} ...: {@link ResultsStore#friendlyColumns}) where
 * no measure has taken the name. Claims and tables read it.
 */
public final class FigureResults implements AutoCloseable {
    private final Connection conn;
    private final FigureDef def;

    private FigureResults(Connection conn, FigureDef def) {
        this.conn = conn;
        this.def = def;
    }

    /** Loads {@code dir}'s files (see {@link ResultsCsv}); the caller closes the result. */
    public static FigureResults load(FigureDef def, Path dir) throws SQLException {
        return load(def, dir, List.of());
    }

    /**
     * As {@link #load(FigureDef, Path)}, with every column of {@code sweepColumns} (the scenario columns of the figure's
     * full sweep, {@link Probe#scenarioColumns}) that the committed runs lack added, empty: a part of the figure not run
     * yet may be the only one to set a field, and a reading's condition on it then selects no run instead of failing.
     */
    public static FigureResults load(FigureDef def, Path dir, List<Map<String, Object>> sweepColumns) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        try {
            ResultsCsv.load(c, dir);
            try (Statement s = c.createStatement()) {
                Set<String> present = new HashSet<>();
                try (ResultSet rs = s.executeQuery("SELECT lower(column_name) FROM information_schema.columns WHERE table_name = 'runs'")) {
                    while (rs.next()) {
                        present.add(rs.getString(1));
                    }
                }
                for (Map<String, Object> point : sweepColumns) {
                    for (Map.Entry<String, Object> col : point.entrySet()) {
                        String type = org.lbsim.cli.store.ScenarioColumns.sqlType(col.getValue());
                        if (type != null && present.add(col.getKey().toLowerCase(java.util.Locale.ROOT))) {
                            s.execute("ALTER TABLE runs ADD COLUMN " + ResultsCsv.ident(col.getKey()) + " " + type);
                        }
                    }
                }
            }
            return open(c, def);
        } catch (RuntimeException | SQLException e) {
            c.close();
            throw e;
        }
    }

    /** A view over an open connection whose tables are already there (a test's synthetic results). */
    public static FigureResults open(Connection c, FigureDef def) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + ResultsCsv.MEASURES + " (" + ResultsCsv.MEASURES_COLUMNS + ")");
            StringBuilder view = new StringBuilder("CREATE OR REPLACE VIEW results AS SELECT runs.*");
            Set<String> measures = new HashSet<>();
            for (String m : def.measures().keySet()) {
                view.append(", (SELECT max(value) FROM measures WHERE measures.run_id = runs.run_id AND measures.name = ")
                        .append(ResultsCsv.literal(m)).append(") AS ").append(ResultsCsv.ident(m));
                measures.add(m.toLowerCase(java.util.Locale.ROOT));
            }
            List<String> runColumns = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = 'runs' AND table_schema = 'main'"
                    + " ORDER BY ordinal_position")) {
                while (rs.next()) {
                    runColumns.add(rs.getString(1));
                }
            }
            for (String item : ResultsStore.friendlyColumns(runColumns, measures)) {
                view.append(", ").append(item);
            }
            s.execute(view.append(" FROM runs").toString());
        }
        return new FigureResults(c, def);
    }

    public Connection connection() {
        return conn;
    }

    /** Why a metric that ran has no values. */
    public static final String NO_RUNS = "no runs of this reading";

    /** A claim's metric under one reading: its values, or why there are none. */
    public record MetricRows(List<Expectation.Value> values, String error) {
    }

    /** Runs a claim's metric under a reading. */
    public MetricRows metric(FigureDef.ClaimDef claim, FigureDef.Reading reading) {
        String sql = claim.metric().replace("{where}", "(" + reading.where() + ")");
        List<Expectation.Value> values = new ArrayList<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            Set<String> cols = new HashSet<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                cols.add(md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT));
            }
            if (!cols.contains("seed") || !cols.contains("value")) {
                return new MetricRows(List.of(), "the metric must return the columns seed and value (and optionally key, item)");
            }
            int nulls = 0;
            while (rs.next()) {
                long seed = rs.getLong("seed");
                Object v = rs.getObject("value");
                if (!(v instanceof Number n) || Double.isNaN(n.doubleValue())) {
                    if (v != null && !(v instanceof Number)) {
                        return new MetricRows(List.of(), "the metric's value is not a number (" + v.getClass().getSimpleName() + ")");
                    }
                    nulls++;
                    continue;
                }
                values.add(new Expectation.Value(seed, cols.contains("key") ? rs.getString("key") : null,
                        cols.contains("item") ? rs.getString("item") : null, n.doubleValue()));
            }
            if (nulls > 0) {
                return new MetricRows(List.of(), nulls + (nulls == 1 ? " of its rows has no value" : " of its rows have no value"));
            }
            // a query's row order is not fixed (DuckDB runs in parallel): keys, items and seeds in one order
            values.sort(java.util.Comparator.comparing((Expectation.Value v) -> String.valueOf(v.key()))
                    .thenComparing(v -> String.valueOf(v.item())).thenComparingLong(Expectation.Value::seed));
            return new MetricRows(values, values.isEmpty() ? NO_RUNS : "");
        } catch (SQLException e) {
            return new MetricRows(List.of(), "the metric failed: " + ResultsStore.message(e));
        }
    }

    /** Judges a claim under a reading. */
    public Expectation.Outcome judge(FigureDef.ClaimDef claim, FigureDef.Reading reading) {
        MetricRows rows = metric(claim, reading);
        if (!rows.error().isEmpty()) {
            return Expectation.Outcome.notJudged(rows.error());
        }
        return claim.expect().judge(rows.values());
    }

    /** Rows of a query as strings. */
    public List<List<String>> rows(String sql) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    public FigureDef def() {
        return def;
    }

    /** Every measure's SQL as a row of the {@code measures} table, for the runs selected by {@code runCondition}. */
    public static void computeMeasures(Connection c, Map<String, String> measures, String runCondition) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + ResultsCsv.MEASURES + " (" + ResultsCsv.MEASURES_COLUMNS + ")");
            for (Map.Entry<String, String> m : measures.entrySet()) {
                s.execute("INSERT INTO measures SELECT run_id, " + ResultsCsv.literal(m.getKey()) + ", CAST((" + m.getValue() + ") AS DOUBLE) FROM runs"
                        + " WHERE (" + runCondition + ") AND run_id NOT IN (SELECT run_id FROM measures WHERE name = " + ResultsCsv.literal(m.getKey()) + ")");
            }
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
