package org.lbsim.cli.store;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.LayerStats;
import org.lbsim.metrics.OutOfOrder;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;

/**
 * The results store: an embedded DuckDB database with the tables of docs/results.md ({@code runs},
 * {@code flows}, {@code layers}, {@code counters}, {@code series}, {@code ooo_histogram}, {@code jobs}, {@code job_phases},
 * {@code failure_events}).
 *
 * <p>Each {@link #write(RunRecord)} is one transaction: the {@code runs} row and all the rows of
 * the other tables for that run are committed together or not at all, so a run is in the database
 * iff its {@code runs} row is. DuckDB's write-ahead log makes a committed run survive a crash (even
 * SIGKILL) of the writing process, and an uncommitted one vanish. DuckDB allows one process to
 * have a database open for writing; a store is meant to be used by one thread.
 */
public final class ResultsStore implements AutoCloseable {
    /** The database file a sweep writes into its output folder. */
    public static final String DEFAULT_FILE = "results.duckdb";
    /** The tables, in the order of docs/results.md. */
    public static final List<String> TABLES = List.of("runs", "flows", "layers", "counters", "scheme_counters", "series", "ooo_histogram", "jobs",
            "job_phases", "failure_events");

    /**
     * The view of {@code runs} with SQL-friendly names (docs/results.md, its section {@code results}): every column of
     * {@code runs}, then {@link #friendlyColumns} (no quoted dotted names needed).
     */
    public static final String RESULTS_VIEW = "results";
    /** Short names for the scenario columns queries use most, before the snake_case name of every scenario column. */
    private static final List<Map.Entry<String, String>> SHORT_NAMES = List.of(Map.entry("lb", "loadBalancing.type"),
            Map.entry("cc", "congestionControl.type"), Map.entry("recovery", "lossRecovery.type"), Map.entry("topology", "topology.type"),
            Map.entry("workload", "workload.type"), Map.entry("message_bytes", "workload.messageBytes"));
    private static final String RUNS_FIXED = String.join(", ",
            "run_id VARCHAR PRIMARY KEY", "sweep VARCHAR", "point INTEGER", "seed BIGINT", "scenario_name VARCHAR", "scenario_yaml VARCHAR",
            "hosts INTEGER", "flows INTEGER", "flows_finished INTEGER", "cct_ps BIGINT", "lower_bound_ps BIGINT", "cct_increase_pct DOUBLE",
            "rho_max_mbps BIGINT", "simulated_ps BIGINT", "events BIGINT", "packet_hops BIGINT", "drops BIGINT", "link_loss BIGINT",
            "no_route_drops BIGINT", "ecn_marks BIGINT", "retransmissions BIGINT", "spurious_retransmissions BIGINT", "timeouts BIGINT",
            "pfc_pauses BIGINT", "pfc_deadlock VARCHAR", "ooo_max_degree BIGINT", "ooo_max_held BIGINT", "ooo_arrivals BIGINT",
            "wall_time_ms BIGINT", "lbsim_version VARCHAR", "git_commit VARCHAR", "ending VARCHAR", "ending_detail VARCHAR",
            "series_decimations BIGINT", "oversubscription DOUBLE", "lower_bound_basis VARCHAR", "kernel VARCHAR");
    private static final List<String> RUNS_FIXED_NAMES;
    /** The columns every {@code runs} table has (the scenario's columns come after them, one per field the runs set). */
    public static List<String> runColumns() {
        return RUNS_FIXED_NAMES;
    }

    /** What the lower bound of an oversubscribed fabric counts (summary.json {@code lowerBoundBasis}, runs {@code lower_bound_basis}). */
    public static final String OVERSUBSCRIBED_BOUND_BASIS = "NIC links and oversubscribed leaf / pod uplink cuts";
    /**
     * Why a job's ideal time on an oversubscribed fabric says nothing of the core (summary.json {@code jobsIdealNote}): it is
     * the job's critical path with every flow alone on the fabric (PRO V's "ideal"), and a flow alone never meets the
     * oversubscription.
     */
    public static final String JOBS_IDEAL_NOTE = "each job's idealPs is its critical path with every flow alone on the fabric:"
            + " it ignores the oversubscribed uplinks (lowerBoundPs counts them), so a job's slowdown includes the oversubscription";
    private static final Map<String, String> CHILD_TABLES = new LinkedHashMap<>();
    private static final Pattern WRAPPED = Pattern.compile("pending query result\\s*Error:\\s*");
    private static final Pattern LOCK_PID = Pattern.compile("Conflicting lock is held in .*\\(PID (\\d+)\\)");

    static {
        List<String> names = new ArrayList<>();
        for (String col : RUNS_FIXED.split(", ")) {
            names.add(col.substring(0, col.indexOf(' ')));
        }
        RUNS_FIXED_NAMES = List.copyOf(names);
        CHILD_TABLES.put("flows", "run_id VARCHAR, flow INTEGER, src INTEGER, dst INTEGER, bytes BIGINT, start_ps BIGINT, fct_ps BIGINT,"
                + " receiver_done_ps BIGINT, packets_sent BIGINT, retransmissions BIGINT, spurious_retransmissions BIGINT,"
                + " duplicates_received BIGINT, timeouts BIGINT");
        CHILD_TABLES.put("layers", "run_id VARCHAR, layer VARCHAR, layer_index INTEGER, ports INTEGER, max_queue_bytes BIGINT,"
                + " mean_queue_bytes DOUBLE, drops BIGINT, link_loss BIGINT, ecn_marks BIGINT, tx_packets BIGINT, pauses BIGINT, paused_ps BIGINT,"
                + " max_port_tx_bytes BIGINT, mean_port_tx_bytes DOUBLE");
        CHILD_TABLES.put("counters", "run_id VARCHAR, name VARCHAR, value BIGINT");
        CHILD_TABLES.put("scheme_counters", "run_id VARCHAR, name VARCHAR, value DOUBLE");
        CHILD_TABLES.put("series", "run_id VARCHAR, series VARCHAR, unit VARCHAR, t_ps BIGINT, value DOUBLE");
        // min_degree and max_degree came later: at the end, so that the appender's column order holds in older databases too
        CHILD_TABLES.put("ooo_histogram", "run_id VARCHAR, bucket INTEGER, count BIGINT, min_degree BIGINT, max_degree BIGINT");
        CHILD_TABLES.put("jobs", "run_id VARCHAR, job INTEGER, name VARCHAR, collective VARCHAR, background BOOLEAN, ranks INTEGER,"
                + " bytes BIGINT, flows INTEGER, start_ps BIGINT, jct_ps BIGINT, ideal_ps BIGINT, slowdown DOUBLE, algbw_gbps DOUBLE,"
                + " busbw_gbps DOUBLE");
        CHILD_TABLES.put("job_phases", "run_id VARCHAR, job INTEGER, phase INTEGER, name VARCHAR, flows INTEGER, start_ps BIGINT, cct_ps BIGINT");
        // one row per failure event during the run (summary.json's failureEvents; event = index in failures.events, -1 random):
        // losses before it, from it to convergence, after
        CHILD_TABLES.put("failure_events", "run_id VARCHAR, event INTEGER, target VARCHAR, action VARCHAR, at_ps BIGINT, rate_mbps BIGINT,"
                + " converged_at_ps BIGINT, lost_at_event BIGINT, before_buffer_drops BIGINT, before_link_loss BIGINT, before_no_route BIGINT,"
                + " during_buffer_drops BIGINT, during_link_loss BIGINT, during_no_route BIGINT, after_buffer_drops BIGINT,"
                + " after_link_loss BIGINT, after_no_route BIGINT");
    }

    private final String shown;
    private final Connection conn;
    /** Columns of {@code runs} by lower-case name (DuckDB matches names case-insensitively): name and type. */
    private final Map<String, String[]> runColumns = new LinkedHashMap<>();
    private final Map<String, PreparedStatement> inserts = new HashMap<>();

    private ResultsStore(String shown, Connection conn) {
        this.shown = shown;
        this.conn = conn;
    }

    /**
     * Records one run in the database {@code db} (created if missing) under {@code name}, made unique
     * with -2, -3 ... if taken, with this build's version and commit, and returns its {@code run_id};
     * waits up to a minute for another writer.
     *
     * @throws IllegalStateException when the database cannot be written (locked by a sweep, not a
     *     DuckDB file ...), with a one-line message naming it
     */
    public static String recordRun(Path db, String name, org.lbsim.scenario.Scenario scenario, String scenarioYaml, RunResult result,
            String kernel) {
        if (Files.isDirectory(db)) {
            throw new IllegalArgumentException(db + ": is a directory, expected a DuckDB database file");
        }
        try (ResultsStore store = open(db, db.toString(), 60_000)) {
            String runId = store.unusedRunId(name);
            store.write(new RunRecord(runId, null, null, scenario, scenarioYaml, result, BuildInfo.version(), BuildInfo.gitCommit(), kernel));
            return runId;
        } catch (StoreException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * Opens (creating it and its folder if needed) a results database for writing.
     *
     * @param shown the path as the user wrote it, for messages
     */
    public static ResultsStore open(Path file, String shown) {
        if (Files.isDirectory(file)) {
            throw new StoreException(shown + ": is a directory, expected a DuckDB database file");
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (java.io.IOException e) {
            throw new StoreException(shown + ": cannot create its folder: " + e.getMessage(), e);
        }
        Connection c = connect(file, shown, false, true, false);
        ResultsStore store = new ResultsStore(shown, c);
        try {
            store.createTables();
            c.setAutoCommit(false);
        } catch (SQLException e) {
            store.close();
            throw new StoreException(shown + ": cannot set up the results tables: " + message(e), e);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /**
     * Like {@link #open(Path, String)}, but while another process has the database open for writing,
     * tries again for up to {@code waitMs} milliseconds.
     */
    public static ResultsStore open(Path file, String shown, long waitMs) {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        while (true) {
            try {
                return open(file, shown);
            } catch (StoreException e) {
                if (!e.locked() || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(shown + ": interrupted while waiting for another process to close the database");
            }
        }
    }

    /**
     * A read-only connection to an existing database, for queries: the engine can neither change a table nor
     * reach any other file (no COPY TO, ATTACH or read_csv of a path), whatever SQL it is given.
     */
    public static Connection openReadOnly(Path file, String shown) {
        return openReadOnly(file, shown, false);
    }

    /**
     * A read-only connection to an existing database; with {@code fileAccess} its SQL may read and write
     * other files (COPY TO, read_csv): for {@code lbsim export}, whose SQL is lbsim's own, and for
     * {@code lbsim query --allow-files}.
     */
    public static Connection openReadOnly(Path file, String shown, boolean fileAccess) {
        return openReadOnly(file, shown, fileAccess, false);
    }

    /**
     * As {@link #openReadOnly(Path, String, boolean)}; with {@code streamResults} a result's rows come as the engine
     * produces them rather than all at once (any size fits), but an error while executing reads only "Invalid result set".
     */
    public static Connection openReadOnly(Path file, String shown, boolean fileAccess, boolean streamResults) {
        if (!Files.exists(file)) {
            throw new StoreException(shown + ": no such file");
        }
        if (Files.isDirectory(file)) {
            throw new StoreException(shown + ": is a directory, expected a DuckDB database file");
        }
        Connection c = connect(file, shown, true, fileAccess, streamResults);
        try {
            viewForOlderDatabase(c);
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing
            }
            throw new StoreException(shown + ": cannot read the database: " + message(e), e);
        }
        return c;
    }

    /** A database written before {@link #RESULTS_VIEW} existed gets it for this connection only (the file is not changed). */
    private static void viewForOlderDatabase(Connection c) throws SQLException {
        List<String> cols = new ArrayList<>();
        boolean hasView = false;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT table_name, column_name FROM information_schema.columns"
                + " WHERE table_schema = 'main' AND table_name IN ('runs', '" + RESULTS_VIEW + "') ORDER BY table_name, ordinal_position")) {
            while (rs.next()) {
                if (rs.getString(1).equals("runs")) {
                    cols.add(rs.getString(2));
                } else {
                    hasView = true;
                }
            }
        }
        if (!hasView && !cols.isEmpty()) {
            try (Statement s = c.createStatement()) {
                s.execute(resultsViewSql(cols, true));
            }
        }
    }

    private static Connection connect(Path file, String shown, boolean readOnly, boolean fileAccess, boolean streamResults) {
        Properties p = new Properties();
        if (readOnly) {
            p.setProperty("duckdb.read_only", "true");
        }
        if (streamResults) {
            p.setProperty("jdbc_stream_results", "true");
        }
        try {
            Class.forName("org.duckdb.DuckDBDriver");
            Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), p);
            try (Statement s = c.createStatement()) {
                // never reach out to the network for extensions (parquet and csv are built in)
                s.execute("SET autoinstall_known_extensions = false");
                if (!fileAccess) {
                    sealFiles(s);
                }
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return c;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the DuckDB JDBC driver is missing from the class path", e);
        } catch (SQLException e) {
            String m = message(e);
            Matcher lock = LOCK_PID.matcher(m);
            if (lock.find()) {
                throw new StoreException(shown + ": is open for writing in another process (PID " + lock.group(1)
                        + ", a running sweep?); DuckDB allows one writer and no readers meanwhile: try again when it has finished", e, true);
            }
            if (m.contains("not a valid DuckDB database file")) {
                throw new StoreException(shown + ": is not a DuckDB database file; choose another file (it was left unchanged)", e);
            }
            throw new StoreException(shown + ": cannot open the database: " + m, e);
        }
    }

    /** A DuckDB message on one line, without the "LINE 1: ..." excerpt that follows it. */
    public static String message(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        // a failed statement is sometimes reported wrapped: "Invalid Input Error: Attempting to execute an
        // unsuccessful or closed pending query result\nError: Catalog Error: ..."
        Matcher wrapped = WRAPPED.matcher(m);
        if (wrapped.find()) {
            m = m.substring(wrapped.end());
        }
        int line = m.indexOf("\nLINE ");
        if (line >= 0) {
            m = m.substring(0, line);
        }
        return m.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /**
     * Closes the engine of a connection to every file but its database, for good: {@code enable_external_access}
     * off, then the configuration locked so that no statement can turn it back on.
     */
    public static void sealFiles(Statement s) throws SQLException {
        s.execute("SET enable_external_access = false");
        s.execute("SET lock_configuration = true");
    }

    /**
     * Refuses, before anything is simulated, a database file that a later {@link #open} would refuse: not a
     * DuckDB file, or one whose tables are not lbsim's. Reads it read-only and changes nothing; a missing file
     * passes (it will be created), and so does one open for writing in another process (it is checked when
     * opened, before any change).
     */
    public static void checkBeforeWriting(Path file, String shown) {
        if (!Files.exists(file)) {
            return;
        }
        if (Files.isDirectory(file)) {
            throw new StoreException(shown + ": is a directory, expected a DuckDB database file");
        }
        Connection c;
        try {
            c = connect(file, shown, true, false, false);
        } catch (StoreException e) {
            if (e.locked()) {
                return;
            }
            throw e;
        }
        try (c) {
            foreignSchema(c, shown);
        } catch (SQLException e) {
            throw new StoreException(shown + ": cannot read the database: " + message(e), e);
        }
    }

    /** The columns of {@code runs} that every lbsim results database has had (later ones are added when it is opened). */
    private static final List<String> RUNS_FIRST_COLUMNS = List.of("run_id", "sweep", "point", "seed", "scenario_name", "scenario_yaml", "hosts",
            "flows", "flows_finished", "cct_ps", "lower_bound_ps", "cct_increase_pct", "rho_max_mbps", "simulated_ps", "events", "packet_hops",
            "drops", "link_loss", "no_route_drops", "ecn_marks", "retransmissions", "spurious_retransmissions", "timeouts", "pfc_pauses",
            "pfc_deadlock", "ooo_max_degree", "ooo_max_held", "ooo_arrivals", "lbsim_version", "git_commit");

    /**
     * Throws when the database holds tables but is not an lbsim results database (tables without {@code runs}, or a
     * {@code runs} without lbsim's columns): checked before any table is created or changed.
     */
    private static void foreignSchema(Connection c, String shown) throws SQLException {
        List<String> tables = new ArrayList<>();
        java.util.Set<String> runs = new java.util.HashSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name")) {
            while (rs.next()) {
                String t = rs.getString(1);
                if (!tables.contains(t)) {
                    tables.add(t);
                }
                if (t.equals("runs")) {
                    runs.add(rs.getString(2).toLowerCase(Locale.ROOT));
                }
            }
        }
        if (tables.isEmpty()) {
            return;
        }
        if (!tables.contains("runs")) {
            throw new StoreException(shown + ": is not an lbsim results database: it has tables (" + String.join(", ", tables.subList(0,
                    Math.min(5, tables.size()))) + (tables.size() > 5 ? ", ..." : "") + ") but no table 'runs'; choose another file");
        }
        List<String> lacking = new ArrayList<>(RUNS_FIRST_COLUMNS.stream().filter(col -> !runs.contains(col)).toList());
        if (!runs.contains("wall_time_ms") && !runs.contains("wall_ms")) {
            lacking.add("wall_time_ms");
        }
        if (!lacking.isEmpty()) {
            throw new StoreException(shown + ": is not an lbsim results database: its table 'runs' has no column '" + lacking.get(0)
                    + "'; choose another file (it was left unchanged)");
        }
    }

    private void createTables() throws SQLException {
        foreignSchema(conn, shown);
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS runs (" + RUNS_FIXED + ")");
            for (Map.Entry<String, String> t : CHILD_TABLES.entrySet()) {
                s.execute("CREATE TABLE IF NOT EXISTS " + t.getKey() + " (" + t.getValue() + ")");
            }
            // added after the first release of the schema: a database written before gets them (NULL for its runs)
            s.execute("ALTER TABLE layers ADD COLUMN IF NOT EXISTS max_port_tx_bytes BIGINT");
            s.execute("ALTER TABLE layers ADD COLUMN IF NOT EXISTS mean_port_tx_bytes DOUBLE");
            s.execute("ALTER TABLE runs ADD COLUMN IF NOT EXISTS ending VARCHAR");
            // renamed and added in 0.1 (docs/results.md, "Renamed"): one name per quantity across summary.json, flows.csv and here
            loadColumns();
            if (runColumns.containsKey("wall_ms") && !runColumns.containsKey("wall_time_ms")) {
                s.execute("ALTER TABLE runs RENAME COLUMN wall_ms TO wall_time_ms");
            }
            s.execute("ALTER TABLE runs ADD COLUMN IF NOT EXISTS ending_detail VARCHAR");
            s.execute("ALTER TABLE runs ADD COLUMN IF NOT EXISTS series_decimations BIGINT");
            s.execute("ALTER TABLE runs ADD COLUMN IF NOT EXISTS oversubscription DOUBLE");
            s.execute("ALTER TABLE runs ADD COLUMN IF NOT EXISTS lower_bound_basis VARCHAR");
            s.execute("ALTER TABLE runs ADD COLUMN IF NOT EXISTS kernel VARCHAR");
            s.execute("ALTER TABLE ooo_histogram ADD COLUMN IF NOT EXISTS min_degree BIGINT");
            s.execute("ALTER TABLE ooo_histogram ADD COLUMN IF NOT EXISTS max_degree BIGINT");
        }
        loadColumns();
        for (String name : RUNS_FIXED_NAMES) {
            if (!runColumns.containsKey(name)) {
                throw new StoreException(shown + ": is not an lbsim results database: its table 'runs' has no column '" + name + "'");
            }
        }
        refreshView();
    }

    /** (Re)creates {@link #RESULTS_VIEW} over the columns {@code runs} has now. */
    private void refreshView() throws SQLException {
        List<String> cols = runColumns.values().stream().map(c -> c[0]).toList();
        try (Statement s = conn.createStatement()) {
            s.execute(resultsViewSql(cols, false));
        }
    }

    /**
     * The statement that creates {@link #RESULTS_VIEW} over a {@code runs} table with these columns; {@code temporary}
     * for a connection that cannot change the database (one written before the view existed).
     */
    public static String resultsViewSql(List<String> runColumns, boolean temporary) {
        StringBuilder sql = new StringBuilder("CREATE OR REPLACE ").append(temporary ? "TEMPORARY " : "").append("VIEW ")
                .append(RESULTS_VIEW).append(" AS SELECT runs.*");
        for (String c : friendlyColumns(runColumns, java.util.Set.of())) {
            sql.append(", ").append(c);
        }
        return sql.append(" FROM runs").toString();
    }

    /**
     * The SQL-friendly columns of {@link #RESULTS_VIEW}, as select items over {@code runs} ({@code expr AS name}):
     * {@code cct_us}, {@code lower_bound_us} and {@code simulated_us} (NULL where the picoseconds are -1); {@code lb},
     * {@code cc}, {@code recovery}, {@code topology}, {@code workload}, {@code message_bytes} for the scenario columns
     * queries use most; {@code scheme}, the scheme's display name ({@code HOST PKT}); and every scenario column under
     * its snake_case name ({@code "topology.k"} as {@code topology_k}, {@code "switches.ecn.enabled"} as
     * {@code switches_ecn_enabled}). A name already taken by a column of {@code runs} or by {@code taken} (lower case)
     * is left out, and so is a column whose source is missing.
     */
    public static List<String> friendlyColumns(List<String> runColumns, java.util.Set<String> taken) {
        java.util.Set<String> used = new java.util.HashSet<>(taken);
        Map<String, String> present = new LinkedHashMap<>();
        for (String c : runColumns) {
            used.add(c.toLowerCase(Locale.ROOT));
            present.put(c.toLowerCase(Locale.ROOT), c);
        }
        List<String> out = new ArrayList<>();
        for (String[] us : new String[][] {{"cct_us", "cct_ps"}, {"lower_bound_us", "lower_bound_ps"}, {"simulated_us", "simulated_ps"}}) {
            if (present.containsKey(us[1]) && used.add(us[0])) {
                out.add("CASE WHEN " + us[1] + " < 0 THEN NULL ELSE " + us[1] + " / 1e6 END AS " + us[0]);
            }
        }
        for (Map.Entry<String, String> e : SHORT_NAMES) {
            String source = present.get(e.getValue().toLowerCase(Locale.ROOT));
            if (source != null && used.add(e.getKey())) {
                out.add(quote(source) + " AS " + e.getKey());
            }
        }
        String lb = present.get("loadbalancing.type");
        if (lb != null && used.add("scheme")) {
            StringBuilder cases = new StringBuilder("CASE ").append(quote(lb));
            for (org.lbsim.api.Catalog.Entry c : org.lbsim.api.Catalog.Kind.SCHEMES.entries()) {
                cases.append(" WHEN ").append(literal(c.name())).append(" THEN ").append(literal(c.displayName()));
            }
            out.add(cases.append(" ELSE ").append(quote(lb)).append(" END AS scheme").toString());
        }
        for (String c : runColumns) {
            if (RUNS_FIXED_NAMES.contains(c)) {
                continue;
            }
            String snake = snakeCase(c);
            if (!snake.isEmpty() && !snake.equals(c) && used.add(snake)) {
                out.add(quote(c) + " AS " + snake);
            }
        }
        return out;
    }

    /** {@code workload.messageBytes} as {@code workload_message_bytes}: words split at dots, brackets and capitals, lower case, joined by '_'. */
    public static String snakeCase(String column) {
        StringBuilder sb = new StringBuilder();
        char prev = '_';
        for (char ch : column.toCharArray()) {
            if (!Character.isLetterOrDigit(ch) || ch > 127) {
                if (prev != '_') {
                    sb.append('_');
                    prev = '_';
                }
                continue;
            }
            if (Character.isUpperCase(ch) && prev != '_' && !Character.isUpperCase(prev)) {
                sb.append('_');
            }
            sb.append(Character.toLowerCase(ch));
            prev = ch;
        }
        String s = sb.toString();
        while (s.endsWith("_")) {
            s = s.substring(0, s.length() - 1);
        }
        return s.isEmpty() || Character.isDigit(s.charAt(0)) ? "" : s;
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private void loadColumns() throws SQLException {
        runColumns.clear();
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' AND table_name = 'runs'"
                        + " ORDER BY ordinal_position");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String name = rs.getString(1);
                runColumns.put(name.toLowerCase(Locale.ROOT), new String[] {name, rs.getString(2)});
            }
        }
    }

    /** Whether a run with this id is in the database (committed). */
    public boolean contains(String runId) {
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM runs WHERE run_id = ?")) {
            ps.setString(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            } finally {
                conn.commit();
            }
        } catch (SQLException e) {
            throw new StoreException(shown + ": cannot read: " + message(e), e);
        }
    }

    /** {@code base}, or {@code base-2}, {@code base-3} ... whichever is not yet a run id. */
    public String unusedRunId(String base) {
        String id = base;
        for (int i = 2; contains(id); i++) {
            id = base + "-" + i;
        }
        return id;
    }

    /** The finished runs of a sweep: run id to the scenario YAML they were run with. */
    public Map<String, String> sweepRuns(String sweep) {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT run_id, scenario_yaml FROM runs WHERE sweep = ?")) {
            ps.setString(1, sweep);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
            conn.commit();
        } catch (SQLException e) {
            throw new StoreException(shown + ": cannot read: " + message(e), e);
        }
        return out;
    }

    /**
     * Adds the {@code runs} columns these flattened scenarios need, in one transaction (a sweep
     * calls it once before starting, so that the per-run transactions only insert).
     */
    public void addColumns(Iterable<Map<String, Object>> flattened) {
        try {
            for (Map<String, Object> cols : flattened) {
                ensureColumns(cols);
            }
            conn.commit();
        } catch (SQLException e) {
            rollback();
            throw new StoreException(shown + ": cannot add columns to runs: " + message(e), e);
        }
    }

    /**
     * Fills the scenario columns run {@code runId} left empty with {@code flattened}'s values: a run recorded before a
     * parameter existed ran with that parameter's default, which the scenario it binds to today spells out, so the
     * runs of one point do not differ in a column none of them set.
     */
    public void fillEmptyColumns(String runId, Map<String, Object> flattened) {
        try {
            ensureColumns(flattened);
            Map<String, Object> row = new java.util.HashMap<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT * FROM runs WHERE run_id = ?")) {
                ps.setString(1, runId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        conn.commit();
                        return;
                    }
                    java.sql.ResultSetMetaData md = rs.getMetaData();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.put(md.getColumnName(i).toLowerCase(Locale.ROOT), rs.getObject(i));
                    }
                }
            }
            for (Map.Entry<String, Object> e : flattened.entrySet()) {
                String key = e.getKey().toLowerCase(Locale.ROOT);
                if (e.getValue() == null || ScenarioColumns.sqlType(e.getValue()) == null || !row.containsKey(key) || row.get(key) != null) {
                    continue;
                }
                try (PreparedStatement ps = conn.prepareStatement("UPDATE runs SET " + quote(runColumns.get(key)[0]) + " = ? WHERE run_id = ?")) {
                    ps.setObject(1, e.getValue());
                    ps.setString(2, runId);
                    ps.executeUpdate();
                }
            }
            conn.commit();
        } catch (SQLException e) {
            rollback();
            throw new StoreException(shown + ": cannot complete run '" + runId + "': " + message(e), e);
        }
    }

    /** Writes one run in one transaction. */
    public void write(RunRecord r) {
        Map<String, Object> cols = ScenarioColumns.of(r.scenario());
        try {
            ensureColumns(cols);
            insertRun(r, cols);
            appendChildren(r);
            conn.commit();
        } catch (SQLException | RuntimeException e) {
            rollback();
            String m = e instanceof SQLException s ? message(s) : String.valueOf(e.getMessage());
            if (m.contains("Duplicate key") && m.contains("primary key")) {
                throw new StoreException(shown + ": run '" + r.runId() + "' is already recorded", e);
            }
            throw new StoreException(shown + ": cannot record run '" + r.runId() + "': " + m, e);
        }
    }

    private void rollback() {
        try {
            conn.rollback();
        } catch (SQLException ignored) {
            // the connection is unusable; the next statement will say so
        }
        inserts.values().forEach(ResultsStore::closeQuietly);
        inserts.clear();
        try {
            loadColumns();
            conn.commit();
        } catch (SQLException ignored) {
            // as above
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // nothing to do
        }
    }

    private void ensureColumns(Map<String, Object> cols) throws SQLException {
        boolean added = false; // a column added or widened: the view is made again
        for (Map.Entry<String, Object> e : cols.entrySet()) {
            String type = ScenarioColumns.sqlType(e.getValue());
            if (type == null) {
                continue;
            }
            String key = e.getKey().toLowerCase(Locale.ROOT);
            String[] existing = runColumns.get(key);
            if (existing == null) {
                alter("ALTER TABLE runs ADD COLUMN " + quote(e.getKey()) + " " + type);
                runColumns.put(key, new String[] {e.getKey(), type});
                added = true;
            } else if (!existing[1].equals(type) && !existing[1].equals("VARCHAR")
                    && !(existing[1].equals("DOUBLE") && type.equals("BIGINT"))) {
                // the same field with values of another type (two components with a parameter of the
                // same name): widen integers to decimals, anything else to text
                String wider = existing[1].equals("BIGINT") && type.equals("DOUBLE") ? "DOUBLE" : "VARCHAR";
                alter("ALTER TABLE runs ALTER COLUMN " + quote(existing[0]) + " SET DATA TYPE " + wider);
                existing[1] = wider;
                added = true; // a view keeps the types it was made with
            }
        }
        if (added) {
            refreshView();
        }
    }

    private void alter(String sql) throws SQLException {
        inserts.values().forEach(ResultsStore::closeQuietly);
        inserts.clear();
        try (Statement s = conn.createStatement()) {
            s.execute(sql);
        }
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private void insertRun(RunRecord r, Map<String, Object> cols) throws SQLException {
        List<String> dynamic = new ArrayList<>();
        for (Map.Entry<String, Object> e : cols.entrySet()) {
            if (e.getValue() != null) {
                dynamic.add(e.getKey());
            }
        }
        String key = String.join("\u0000", dynamic);
        PreparedStatement ps = inserts.get(key);
        if (ps == null) {
            StringBuilder sql = new StringBuilder("INSERT INTO runs (").append(String.join(", ", RUNS_FIXED_NAMES));
            for (String d : dynamic) {
                sql.append(", ").append(quote(runColumns.get(d.toLowerCase(Locale.ROOT))[0]));
            }
            sql.append(") VALUES (").append("?, ".repeat(RUNS_FIXED_NAMES.size() + dynamic.size() - 1)).append("?)");
            ps = conn.prepareStatement(sql.toString());
            inserts.put(key, ps);
        }
        RunResult res = r.result();
        RunResult.Counters c = res.counters();
        OutOfOrder o = res.outOfOrder();
        int i = 1;
        ps.setString(i++, r.runId());
        setNullable(ps, i++, r.sweep());
        if (r.point() == null) {
            ps.setNull(i++, Types.INTEGER);
        } else {
            ps.setInt(i++, r.point());
        }
        ps.setLong(i++, res.seed());
        ps.setString(i++, r.scenario().name());
        ps.setString(i++, r.scenarioYaml());
        ps.setInt(i++, res.hosts());
        ps.setInt(i++, res.flows());
        ps.setInt(i++, res.flowsFinished());
        ps.setLong(i++, res.cctPs());
        ps.setLong(i++, res.lowerBoundPs());
        double inc = res.cctIncreasePct();
        if (Double.isFinite(inc)) {
            ps.setDouble(i++, inc);
        } else {
            ps.setNull(i++, Types.DOUBLE);
        }
        if (res.rhoMaxMbps() == Long.MAX_VALUE) {
            ps.setNull(i++, Types.BIGINT);
        } else {
            ps.setLong(i++, res.rhoMaxMbps());
        }
        ps.setLong(i++, res.simulatedPs());
        ps.setLong(i++, c.events());
        ps.setLong(i++, c.packetHops());
        ps.setLong(i++, c.drops());
        ps.setLong(i++, c.linkLoss());
        ps.setLong(i++, c.noRouteDrops());
        ps.setLong(i++, c.ecnMarks());
        ps.setLong(i++, c.retransmissions());
        ps.setLong(i++, c.spuriousRetransmissions());
        ps.setLong(i++, c.timeouts());
        ps.setLong(i++, c.pfcPauses());
        ps.setString(i++, c.pfcDeadlock() == null ? "" : c.pfcDeadlock());
        ps.setLong(i++, o.maxDegree());
        ps.setLong(i++, o.maxHeld());
        ps.setLong(i++, o.arrivals());
        ps.setLong(i++, res.wallTimeMs());
        setNullable(ps, i++, r.lbsimVersion());
        setNullable(ps, i++, r.gitCommit());
        ps.setString(i++, res.ending());
        setNullable(ps, i++, res.endingDetail());
        ps.setLong(i++, res.seriesDecimations());
        if (res.oversubscribed()) {
            ps.setDouble(i++, res.oversubscription());
            ps.setString(i++, OVERSUBSCRIBED_BOUND_BASIS);
        } else {
            ps.setNull(i++, Types.DOUBLE);
            ps.setNull(i++, Types.VARCHAR);
        }
        ps.setString(i++, r.kernel());
        for (String d : dynamic) {
            Object v = cols.get(d);
            String type = runColumns.get(d.toLowerCase(Locale.ROOT))[1];
            if (type.equals("VARCHAR")) {
                ps.setString(i++, v.toString());
            } else if (v instanceof Long l) {
                if (type.equals("DOUBLE")) {
                    ps.setDouble(i++, l);
                } else {
                    ps.setLong(i++, l);
                }
            } else if (v instanceof Double d2) {
                ps.setDouble(i++, d2);
            } else if (v instanceof Boolean b) {
                ps.setBoolean(i++, b);
            } else {
                ps.setString(i++, v.toString());
            }
        }
        ps.executeUpdate();
    }

    private static void setNullable(PreparedStatement ps, int i, String v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.VARCHAR);
        } else {
            ps.setString(i, v);
        }
    }

    private void appendChildren(RunRecord r) throws SQLException {
        DuckDBConnection dc = conn.unwrap(DuckDBConnection.class);
        String id = r.runId();
        RunResult res = r.result();
        try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "flows")) {
            for (FlowResult f : res.flowResults()) {
                a.beginRow().append(id).append(f.flow()).append(f.src()).append(f.dst()).append(f.bytes()).append(f.startPs())
                        .append(f.fctPs()).append(f.receiverDonePs()).append(f.packetsSent()).append(f.retransmissions())
                        .append(f.spuriousRetransmissions()).append(f.duplicatesReceived()).append(f.timeouts()).endRow();
            }
        }
        try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "layers")) {
            int index = 0;
            for (LayerStats l : res.layers()) {
                a.beginRow().append(id).append(l.layer()).append(index++).append(l.ports()).append(l.maxQueueBytes())
                        .append(l.meanQueueBytes()).append(l.drops()).append(l.linkLoss()).append(l.ecnMarks()).append(l.txPackets())
                        .append(l.pauses()).append(l.pausedPs()).append(l.maxPortTxBytes()).append(l.meanPortTxBytes()).endRow();
            }
        }
        try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "counters")) {
            for (Map.Entry<String, Long> e : counters(res).entrySet()) {
                a.beginRow().append(id).append(e.getKey()).append(e.getValue().longValue()).endRow();
            }
        }
        if (!res.schemeCounters().isEmpty()) {
            try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "scheme_counters")) {
                for (Map.Entry<String, Number> e : res.schemeCounters().entrySet()) {
                    a.beginRow().append(id).append(e.getKey()).append(e.getValue().doubleValue()).endRow();
                }
            }
        }
        try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "series")) {
            for (TimeSeries s : res.series()) {
                long[] t = s.timesPs();
                double[] v = s.values();
                for (int k = 0; k < t.length; k++) {
                    a.beginRow().append(id).append(s.name()).append(s.unit()).append(t[k]).append(v[k]).endRow();
                }
            }
        }
        if (!res.jobs().isEmpty()) {
            try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "jobs")) {
                for (org.lbsim.metrics.JobResult j : res.jobs()) {
                    a.beginRow().append(id).append(j.job()).append(j.name()).append(j.collective()).append(j.background()).append(j.ranks())
                            .append(j.bytes()).append(j.flows()).append(j.startPs()).append(j.jctPs()).append(j.idealPs())
                            .append(j.slowdown()).append(j.algbwGBps()).append(j.busbwGBps()).endRow();
                }
            }
            try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "job_phases")) {
                for (org.lbsim.metrics.JobResult j : res.jobs()) {
                    for (org.lbsim.metrics.JobResult.Phase p : j.phases()) {
                        a.beginRow().append(id).append(j.job()).append(p.phase()).append(p.name()).append(p.flows()).append(p.startPs())
                                .append(p.cctPs()).endRow();
                    }
                }
            }
        }
        if (!res.failureEvents().isEmpty()) {
            try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "failure_events")) {
                for (org.lbsim.metrics.FailureEventStats e : res.failureEvents()) {
                    a.beginRow().append(id).append(e.event()).append(e.target()).append(e.action()).append(e.atPs()).append(e.rateMbps())
                            .append(e.convergedAtPs()).append(e.lostAtEvent())
                            .append(e.before().bufferDrops()).append(e.before().linkLoss()).append(e.before().noRoute())
                            .append(e.during().bufferDrops()).append(e.during().linkLoss()).append(e.during().noRoute())
                            .append(e.after().bufferDrops()).append(e.after().linkLoss()).append(e.after().noRoute()).endRow();
                }
            }
        }
        try (DuckDBAppender a = dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "ooo_histogram")) {
            long[] h = res.outOfOrder().log2Histogram();
            for (int b = 0; h != null && b < h.length; b++) {
                if (h[b] != 0) {
                    // bucket 0 = in order, bucket b = degrees [2^(b-1), 2^b - 1] (as ooo.csv)
                    a.beginRow().append(id).append(b).append(h[b]).append(b == 0 ? 0L : 1L << (b - 1)).append(b == 0 ? 0L : (1L << b) - 1).endRow();
                }
            }
        }
    }

    /**
     * Every counter of a run in long form: the numeric {@code RunResult.Counters} (snake_case, as
     * the columns of {@code runs}: {@code events}, {@code packet_hops} ...) and the reordering
     * figures ({@code ooo_samples}, {@code ooo_arrivals}, {@code ooo_max_degree}, {@code ooo_max_held}).
     */
    static Map<String, Long> counters(RunResult res) {
        Map<String, Long> m = new LinkedHashMap<>();
        RunResult.Counters c = res.counters();
        for (RecordComponent rc : RunResult.Counters.class.getRecordComponents()) {
            Object v;
            try {
                v = rc.getAccessor().invoke(c);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (v instanceof Number n) {
                m.put(snake(rc.getName()), n.longValue());
            }
        }
        OutOfOrder o = res.outOfOrder();
        m.put("ooo_samples", o.samples());
        m.put("ooo_arrivals", o.arrivals());
        m.put("ooo_max_degree", o.maxDegree());
        m.put("ooo_max_held", o.maxHeld());
        return m;
    }

    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    /** The fixed columns of {@code runs}, in order; the flattened scenario fields follow them. */
    public static List<String> fixedRunColumns() {
        return RUNS_FIXED_NAMES;
    }

    /** Whether {@code runs} has a column of this name (a flattened scenario field such as {@code topology.k}). */
    public boolean hasRunColumn(String name) {
        return runColumns.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** The connection, for read queries by the thread that owns the store; commit after reading. */
    public Connection connection() {
        return conn;
    }

    /** Commits what is pending and closes the database; closing twice is harmless. */
    @Override
    public synchronized void close() {
        try {
            if (conn.isClosed()) {
                return;
            }
        } catch (SQLException ignored) {
            return;
        }
        inserts.values().forEach(ResultsStore::closeQuietly);
        inserts.clear();
        try {
            if (!conn.getAutoCommit()) {
                conn.commit();
            }
        } catch (SQLException ignored) {
            // closing anyway
        }
        try {
            conn.close();
        } catch (SQLException e) {
            throw new StoreException(shown + ": cannot close the database: " + message(e), e);
        }
    }
}
