package org.lbsim.cli.plot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.api.ScenarioText;
import org.lbsim.metrics.TimeSeries;

/**
 * Read-only queries over a results database (docs/results.md) for figures and reports. Figures
 * read the view {@code v}: every column of {@code runs} plus per-run aggregates of the other tables
 * ({@link #AGGREGATES}), so {@code --x}, {@code --by}, {@code --y} and {@code --where} can name any
 * of them.
 */
public final class ResultsReader implements AutoCloseable {
    /** Per-run aggregates available next to the columns of {@code runs}: name to meaning. */
    public static final Map<String, String> AGGREGATES;
    private static final Map<String, String> AGGREGATE_SQL = new LinkedHashMap<>();
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*(@.+)?");

    static {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("max_queue_bytes", "largest queue of any switch port (max over the layers)");
        a.put("mean_queue_bytes", "largest time-average queue of a layer");
        a.put("tx_packets", "frames sent by switch ports (sum over the layers)");
        a.put("paused_ps", "time switch ports spent paused by PFC (sum over the layers)");
        a.put("mean_fct_ps", "mean FCT of the finished flows");
        a.put("p50_fct_ps", "median FCT of the finished flows");
        a.put("p99_fct_ps", "99th percentile FCT of the finished flows");
        a.put("max_fct_ps", "largest FCT of the finished flows");
        AGGREGATES = java.util.Collections.unmodifiableMap(a);
        AGGREGATE_SQL.put("max_queue_bytes", "layers:MAX(max_queue_bytes)");
        AGGREGATE_SQL.put("mean_queue_bytes", "layers:MAX(mean_queue_bytes)");
        AGGREGATE_SQL.put("tx_packets", "layers:SUM(tx_packets)");
        AGGREGATE_SQL.put("paused_ps", "layers:SUM(paused_ps)");
        AGGREGATE_SQL.put("mean_fct_ps", "flows:AVG(fct_ps) FILTER (WHERE fct_ps >= 0)");
        AGGREGATE_SQL.put("p50_fct_ps", "flows:quantile_cont(fct_ps, 0.5) FILTER (WHERE fct_ps >= 0)");
        AGGREGATE_SQL.put("p99_fct_ps", "flows:quantile_cont(fct_ps, 0.99) FILTER (WHERE fct_ps >= 0)");
        AGGREGATE_SQL.put("max_fct_ps", "flows:MAX(fct_ps) FILTER (WHERE fct_ps >= 0)");
    }

    private final String shown;
    private final Connection conn;
    /** Columns of runs in table order: lower-case name to name and type. */
    private final Map<String, String[]> runColumns = new LinkedHashMap<>();
    private final Set<String> tables = new LinkedHashSet<>();
    private final Set<String> layerColumns = new LinkedHashSet<>();

    private ResultsReader(String shown, Connection conn) {
        this.shown = shown;
        this.conn = conn;
    }

    /**
     * Opens a database read-only.
     *
     * @param shown the path as the user wrote it, for messages
     */
    public static ResultsReader open(Path file, String shown) {
        if (!Files.isRegularFile(file)) {
            throw new PlotException(shown + ": no such file");
        }
        Properties p = new Properties();
        p.setProperty("duckdb.read_only", "true");
        Connection c;
        try {
            Class.forName("org.duckdb.DuckDBDriver");
            c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), p);
            try (Statement s = c.createStatement()) {
                s.execute("SET autoinstall_known_extensions = false");
                // options such as --where become SQL: whatever they say, the engine reaches no file but this database
                ResultsStore.sealFiles(s);
            }
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the DuckDB JDBC driver is missing from the class path", e);
        } catch (SQLException e) {
            String m = oneLine(e);
            if (m.contains("Conflicting lock")) {
                throw new PlotException(shown + ": is open for writing in another process (a running sweep?); try again when it has finished", e);
            }
            throw new PlotException(shown + ": cannot open the database: " + m, e);
        }
        ResultsReader r = new ResultsReader(shown, c);
        try {
            r.loadSchema();
        } catch (SQLException e) {
            r.close();
            throw new PlotException(shown + ": cannot read the database: " + oneLine(e), e);
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
        return r;
    }

    private void loadSchema() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String table = rs.getString(1);
                tables.add(table);
                if (table.equals("runs")) {
                    runColumns.put(rs.getString(2).toLowerCase(Locale.ROOT), new String[] {rs.getString(2), rs.getString(3)});
                } else if (table.equals("layers")) {
                    layerColumns.add(rs.getString(2));
                }
            }
        }
        if (!runColumns.containsKey("run_id")) {
            throw new PlotException(shown + ": is not an lbsim results database (no table 'runs' with a column 'run_id')");
        }
    }

    /** A DuckDB message on one line, without its "LINE 1:" excerpt. */
    static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int line = m.indexOf("\nLINE ");
        if (line >= 0) {
            m = m.substring(0, line);
        }
        return m.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    public String shown() {
        return shown;
    }

    /** Column names of {@code runs} in table order. */
    public List<String> runColumns() {
        return runColumns.values().stream().map(c -> c[0]).toList();
    }

    /** Columns of the view: runs columns, then the aggregates that do not clash with one. */
    public List<String> viewColumns() {
        List<String> out = new ArrayList<>(runColumns());
        for (String a : availableAggregates()) {
            out.add(a);
        }
        return out;
    }

    private List<String> availableAggregates() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> a : AGGREGATE_SQL.entrySet()) {
            String table = a.getValue().substring(0, a.getValue().indexOf(':'));
            if (tables.contains(table) && !runColumns.containsKey(a.getKey())) {
                out.add(a.getKey());
            }
        }
        return out;
    }

    /** Whether a column of runs holds numbers. */
    public boolean isNumeric(String column) {
        String[] c = runColumns.get(column.toLowerCase(Locale.ROOT));
        if (c == null) {
            return AGGREGATE_SQL.containsKey(column);
        }
        String t = c[1].toUpperCase(Locale.ROOT);
        return t.contains("INT") || t.equals("DOUBLE") || t.equals("FLOAT") || t.equals("REAL") || t.startsWith("DECIMAL");
    }

    /**
     * The column a user means: an exact (case-insensitive) name of the view, or the one column
     * whose last dotted part matches ({@code messageBytes} for {@code workload.messageBytes}).
     *
     * @param option the option that gave it, for messages ({@code --x})
     */
    public String resolveColumn(String given, String option) {
        List<String> columns = viewColumns();
        for (String c : columns) {
            if (c.equalsIgnoreCase(given)) {
                return c;
            }
        }
        List<String> suffix = columns.stream().filter(c -> c.toLowerCase(Locale.ROOT).endsWith("." + given.toLowerCase(Locale.ROOT))).toList();
        if (suffix.size() == 1) {
            return suffix.get(0);
        }
        if (suffix.size() > 1) {
            throw new PlotException(option + " " + given + ": ambiguous, could be " + String.join(", ", suffix));
        }
        Optional<String> close = ScenarioText.closest(given, columns);
        throw new PlotException(option + " " + given + ": no such column in " + shown
                + close.map(c -> ", did you mean '" + c + "'?").orElse("")
                + " (columns: the scenario fields such as " + columns.stream().filter(c -> c.contains(".")).limit(3).toList()
                + ", " + String.join(", ", columns.stream().filter(c -> !c.contains(".")).toList()) + ")");
    }

    /** A y metric: an SQL expression over the view, its axis title and the factor applied for display. */
    public record Metric(String sql, String title, double scale, boolean dropNegative) {
    }

    /**
     * A metric by name: a column of the view ({@code cct_increase_pct}, {@code max_queue_bytes}),
     * a column of {@code layers} at one layer ({@code max_queue_bytes@A->C}), or any other SQL
     * expression over the view ({@code "cct_ps / lower_bound_ps"}). Columns in picoseconds are shown
     * in microseconds and columns in bytes in kilobytes; their negative values (-1 = unfinished)
     * are left out.
     */
    public Metric metric(String given) {
        return metric(given, false);
    }

    /**
     * As {@link #metric(String)}; with {@code anyLayer} a layer is not looked up among the runs' (a database whose
     * runs have not run yet has none), only the column of {@code layers}.
     */
    public Metric metric(String given, boolean anyLayer) {
        String g = given.strip();
        if (!IDENTIFIER.matcher(g).matches()) {
            requireExpression(g, "--y");
            return new Metric("(\n" + g + "\n)", g, 1, false);
        }
        int at = g.indexOf('@');
        if (at >= 0) {
            String col = g.substring(0, at);
            String layer = g.substring(at + 1);
            String c = layerColumns.stream().filter(x -> x.equalsIgnoreCase(col)).findFirst().orElseThrow(() -> new PlotException(
                    "--y " + given + ": layers has no column '" + col + "'" + ScenarioText.closest(col, layerColumns)
                            .map(x -> ", did you mean '" + x + "'?").orElse("") + " (columns: " + String.join(", ", layerColumns) + ")"));
            List<String> layers = anyLayer ? List.of(layer) : layers();
            if (!layers.contains(layer)) {
                throw new PlotException("--y " + given + ": no layer '" + layer + "' in " + shown + " (layers: " + String.join(", ", layers) + ")");
            }
            String sql = "(SELECT la." + quote(c) + " FROM layers la WHERE la.run_id = v.run_id AND la.layer = " + literal(layer) + ")";
            return unitMetric(sql, c, c + " at " + layer);
        }
        String c = resolveColumn(g, "--y");
        return unitMetric("v." + quote(c), c, c);
    }

    /** Axis titles of the common metrics, without their unit. */
    private static final Map<String, String> METRIC_TITLES = Map.ofEntries(
            Map.entry("cct_increase_pct", "CCT increase over the lower bound"),
            Map.entry("cct_ps", "CCT"),
            Map.entry("lower_bound_ps", "lower bound of the CCT"),
            Map.entry("max_queue_bytes", "largest switch queue"),
            Map.entry("mean_queue_bytes", "largest time-average queue of a layer"),
            Map.entry("mean_fct_ps", "mean FCT"),
            Map.entry("p50_fct_ps", "median FCT"),
            Map.entry("p99_fct_ps", "99th percentile FCT"),
            Map.entry("max_fct_ps", "largest FCT"),
            Map.entry("paused_ps", "time paused (PFC)"),
            Map.entry("tx_packets", "packets sent"));

    private static Metric unitMetric(String sql, String column, String title) {
        String known = METRIC_TITLES.get(title);
        String t = known != null ? known : title.contains(".") ? title : title.replace('_', ' ');
        if (known != null) {
            String unit = column.endsWith("_ps") ? " (\u00b5s)" : column.endsWith("_bytes") ? " (KB)" : column.endsWith("_pct") ? " (%)" : "";
            return new Metric(sql, t + unit, column.endsWith("_ps") ? 1e-6 : column.endsWith("_bytes") ? 1e-3 : 1,
                    column.endsWith("_ps") || column.endsWith("_bytes"));
        }
        if (column.endsWith("_ps")) {
            return new Metric(sql, t.replace(" ps", "").replace("_ps", "") + " (\u00b5s)", 1e-6, true);
        }
        if (column.endsWith("_bytes")) {
            return new Metric(sql, t.replace(" bytes", "").replace("_bytes", "") + " (KB)", 1e-3, true);
        }
        if (column.endsWith("_pct")) {
            return new Metric(sql, t.replace(" pct", "").replace("_pct", "") + " (%)", 1, false);
        }
        return new Metric(sql, t, 1, false);
    }

    /** The layer names present, in path order. */
    public List<String> layers() {
        if (!tables.contains("layers")) {
            return List.of();
        }
        String order = layerColumns.contains("layer_index") ? "MIN(layer_index)" : "MIN(rowid)";
        List<String> out = new ArrayList<>();
        try (Statement s = conn.createStatement();
             ResultSet rs = s.executeQuery("SELECT layer FROM layers GROUP BY layer ORDER BY " + order)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new PlotException(shown + ": cannot read layers: " + oneLine(e), e);
        }
        return out;
    }

    /** The view as a FROM clause. */
    private String view() {
        StringBuilder sql = new StringBuilder("(SELECT r.*");
        List<String> aggs = availableAggregates();
        for (String a : aggs) {
            sql.append(", ").append(a.contains("fct") ? "f." : "l.").append(a);
        }
        sql.append(" FROM runs r");
        StringBuilder l = new StringBuilder();
        StringBuilder f = new StringBuilder();
        for (String a : aggs) {
            String def = AGGREGATE_SQL.get(a);
            String expr = def.substring(def.indexOf(':') + 1) + " AS " + a;
            (def.startsWith("layers:") ? l : f).append(", ").append(expr);
        }
        if (l.length() > 0) {
            sql.append(" LEFT JOIN (SELECT run_id").append(l).append(" FROM layers GROUP BY run_id) l ON l.run_id = r.run_id");
        }
        if (f.length() > 0) {
            sql.append(" LEFT JOIN (SELECT run_id").append(f).append(" FROM flows GROUP BY run_id) f ON f.run_id = r.run_id");
        }
        return sql.append(") v").toString();
    }

    /**
     * The rows of a figure: x, group ({@code by} values joined by " / ", "" without grouping) and the
     * metric (scaled for display) of every run that passes {@code where} (SQL over the view, or null).
     */
    public List<Grouped.Row> rows(String x, Metric y, List<String> by, String where) {
        StringBuilder sql = new StringBuilder("SELECT v.").append(quote(x)).append(", ").append(y.sql());
        for (String b : by) {
            sql.append(", v.").append(quote(b));
        }
        sql.append(" FROM ").append(view());
        if (where != null && !where.isBlank()) {
            requireExpression(where, "--where");
            // on lines of its own: a trailing -- comment ends with its line
            sql.append(" WHERE (\n").append(where).append("\n)");
        }
        sql.append(" ORDER BY v.sweep NULLS FIRST, v.point NULLS FIRST, v.seed, v.run_id");
        List<Grouped.Row> out = new ArrayList<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            while (rs.next()) {
                Object xv = value(rs.getObject(1));
                Object yv = rs.getObject(2);
                if (!(yv instanceof Number n)) {
                    if (yv != null) {
                        throw new PlotException("--y: values must be numbers, got '" + yv + "'");
                    }
                    continue;
                }
                double d = n.doubleValue();
                if (Double.isNaN(d) || (y.dropNegative() && d < 0)) {
                    continue;
                }
                List<String> group = new ArrayList<>();
                for (int i = 0; i < by.size(); i++) {
                    group.add(Labels.value(by.get(i), value(rs.getObject(3 + i))));
                }
                out.add(new Grouped.Row(xv, String.join(" / ", group), d * y.scale()));
            }
        } catch (SQLException e) {
            String where2 = where == null || where.isBlank() ? "" : " (--where " + where + ")";
            throw new PlotException(shown + ": query failed" + where2 + ": " + oneLine(e), e);
        }
        return out;
    }

    /**
     * The scenario fields (dotted columns) other than {@code x} and {@code by} whose value differs
     * among the runs behind one point of {@link #rows} (same x, same {@code by} values, a value of
     * the metric): averaging over them would mix settings the figure does not name. The seed is
     * no scenario field here: runs of one point differ in it by design.
     */
    public List<String> unpinned(String x, Metric y, List<String> by, String where) {
        List<String> candidates = runColumns().stream().filter(c -> c.contains(".") && !c.equals(x) && !by.contains(c)).toList();
        if (candidates.isEmpty()) {
            return List.of();
        }
        StringBuilder keys = new StringBuilder("v.").append(quote(x));
        for (String b : by) {
            keys.append(", v.").append(quote(b));
        }
        StringBuilder inner = new StringBuilder("SELECT ");
        StringBuilder outer = new StringBuilder("SELECT ");
        for (int i = 0; i < candidates.size(); i++) {
            String c = "v." + quote(candidates.get(i));
            // a null (a field some runs lack) counts as one more value
            inner.append(i == 0 ? "" : ", ").append("count(DISTINCT ").append(c).append(") + max(CASE WHEN ").append(c)
                    .append(" IS NULL THEN 1 ELSE 0 END) AS k").append(i);
            outer.append(i == 0 ? "" : ", ").append("max(k").append(i).append(')');
        }
        inner.append(" FROM ").append(view()).append(" WHERE ").append(y.sql()).append(" IS NOT NULL");
        if (y.dropNegative()) {
            inner.append(" AND ").append(y.sql()).append(" >= 0");
        }
        if (where != null && !where.isBlank()) {
            requireExpression(where, "--where");
            inner.append(" AND (\n").append(where).append("\n)");
        }
        inner.append(" GROUP BY ").append(keys);
        List<String> out = new ArrayList<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(outer + " FROM (" + inner + ")")) {
            if (rs.next()) {
                for (int i = 0; i < candidates.size(); i++) {
                    if (rs.getLong(i + 1) > 1) {
                        out.add(candidates.get(i));
                    }
                }
            }
        } catch (SQLException e) {
            throw new PlotException(shown + ": query failed: " + oneLine(e), e);
        }
        return out;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * Refuses SQL from an option that is not exactly one expression (several statements, a closing
     * parenthesis followed by clauses of its own, an unclosed comment or string): DuckDB's parser reads it as the
     * only item of {@code SELECT (...)}, which must then have nothing else, no FROM, WHERE, ORDER BY or second statement.
     *
     * @param option the option that gave it, for messages ({@code --where})
     */
    public void requireExpression(String sql, String option) {
        String json;
        try (PreparedStatement ps = conn.prepareStatement("SELECT json_serialize_sql(?)")) {
            ps.setString(1, "SELECT (\n" + sql + "\n)");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                json = rs.getString(1);
            }
        } catch (SQLException e) {
            throw new PlotException(option + " " + sql + ": cannot check the SQL: " + oneLine(e), e);
        }
        com.fasterxml.jackson.databind.JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new PlotException(option + " " + sql + ": cannot check the SQL: " + e.getMessage(), e);
        }
        String error = n.path("error_message").asText("").strip().replaceAll("\\s*\\R\\s*", " ");
        if (n.path("error").asBoolean(false) && n.path("error_type").asText().equals("parser")) {
            throw new PlotException(shown + ": query failed (" + option + " " + sql + "): Parser Error: " + error);
        }
        com.fasterxml.jackson.databind.JsonNode statements = n.path("statements");
        com.fasterxml.jackson.databind.JsonNode node = statements.path(0).path("node");
        // an error other than the parser's: a statement that is not a SELECT (COPY, ATTACH ...)
        boolean one = !n.path("error").asBoolean(false) && statements.size() == 1 && node.path("type").asText().equals("SELECT_NODE") && node.path("select_list").size() == 1
                && node.path("from_table").path("type").asText().equals("EMPTY") && node.path("where_clause").isNull()
                && node.path("group_expressions").isEmpty() && node.path("having").isNull() && node.path("qualify").isNull()
                && node.path("sample").isNull() && node.path("modifiers").isEmpty() && node.path("cte_map").path("map").isEmpty();
        if (!one) {
            throw new PlotException(option + " " + sql + ": must be one SQL expression (a condition or a value over the columns),"
                    + " not several statements or clauses");
        }
    }

    /** Any query, each row as an ordered column map (values as JDBC returns them, decimals as Double). */
    public List<Map<String, Object>> query(String sql, Object... params) {
        List<Map<String, Object>> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int c = 1; c <= md.getColumnCount(); c++) {
                        row.put(md.getColumnLabel(c), value(rs.getObject(c)));
                    }
                    out.add(row);
                }
            }
        } catch (SQLException e) {
            throw new PlotException(shown + ": query failed: " + oneLine(e), e);
        }
        return out;
    }

    /** Rows of the view ({@code runs} plus aggregates) that pass an SQL condition, in sweep order. */
    public List<Map<String, Object>> viewRows(String where, Object... params) {
        return query("SELECT * FROM " + view() + (where == null ? "" : " WHERE " + where)
                + " ORDER BY v.sweep NULLS FIRST, v.point NULLS FIRST, v.seed, v.run_id", params);
    }

    /** Sweep names in alphabetical order, then null for the single runs (if any). */
    public List<String> sweeps() {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> r : query("SELECT sweep FROM runs GROUP BY sweep ORDER BY sweep NULLS LAST")) {
            out.add((String) r.get("sweep"));
        }
        return out;
    }

    public boolean hasTable(String table) {
        return tables.contains(table);
    }

    /** The sampled series of a run, in the order they were stored. */
    public List<TimeSeries> series(String runId) {
        if (!hasTable("series")) {
            return List.of();
        }
        Map<String, String> units = new LinkedHashMap<>();
        Map<String, long[]> times = new LinkedHashMap<>();
        Map<String, double[]> values = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT series, unit, t_ps, value FROM series WHERE run_id = ? ORDER BY rowid")) {
            ps.setString(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    units.putIfAbsent(name, rs.getString(2));
                    int n = counts.getOrDefault(name, 0);
                    long[] t = times.computeIfAbsent(name, k -> new long[256]);
                    double[] v = values.computeIfAbsent(name, k -> new double[256]);
                    if (n == t.length) {
                        t = java.util.Arrays.copyOf(t, 2 * n);
                        v = java.util.Arrays.copyOf(v, 2 * n);
                        times.put(name, t);
                        values.put(name, v);
                    }
                    t[n] = rs.getLong(3);
                    v[n] = rs.getDouble(4);
                    counts.put(name, n + 1);
                }
            }
        } catch (SQLException e) {
            throw new PlotException(shown + ": cannot read series: " + oneLine(e), e);
        }
        List<TimeSeries> out = new ArrayList<>();
        for (String name : units.keySet()) {
            int n = counts.get(name);
            out.add(new TimeSeries(name, units.get(name), java.util.Arrays.copyOf(times.get(name), n), java.util.Arrays.copyOf(values.get(name), n)));
        }
        return out;
    }

    /** The out-of-order log2 histogram of a run (missing buckets are 0). */
    public long[] outOfOrderHistogram(String runId) {
        if (!hasTable("ooo_histogram")) {
            return new long[0];
        }
        Map<Integer, Long> buckets = new LinkedHashMap<>();
        int max = -1;
        for (Map<String, Object> r : query("SELECT bucket, count FROM ooo_histogram WHERE run_id = ? ORDER BY bucket", runId)) {
            int b = ((Number) r.get("bucket")).intValue();
            buckets.put(b, ((Number) r.get("count")).longValue());
            max = Math.max(max, b);
        }
        long[] h = new long[max + 1];
        buckets.forEach((b, c) -> h[b] = c);
        return h;
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static Object value(Object o) {
        if (o instanceof java.math.BigDecimal d) {
            return d.doubleValue();
        }
        if (o instanceof java.math.BigInteger i) {
            return i.doubleValue();
        }
        return o;
    }

    /** A value as a label: integral numbers without decimals, others compactly. */
    public static String format(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
            return String.format(Locale.ROOT, "%.6g", d).replaceAll("(\\.\\d*?)0+(e|$)", "$1$2").replace(".e", "e").replaceAll("\\.$", "");
        }
        return String.valueOf(v);
    }

    @Override
    public void close() {
        try {
            conn.close();
        } catch (SQLException e) {
            // read-only: nothing to lose
        }
    }
}
