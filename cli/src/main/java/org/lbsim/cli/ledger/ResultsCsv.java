package org.lbsim.cli.ledger;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.store.ResultsStore;

/**
 * A figure's results as text files that git can hold: one CSV per results table except the two
 * that grow with the fabric ({@code flows}, {@code series}), plus {@code measures.csv}, the per-run
 * numbers a reproduction computes from those two before they are left out, and {@code columns.csv},
 * the SQL type of every column, so that reading the files back gives the same values bit for bit.
 *
 * <p>Values are written exactly: doubles in Java's shortest round-trip form (DuckDB's own CSV
 * writer rounds them), NULL as an empty field and the empty string as {@code ""}. Rows are sorted
 * by every column, so the same results give the same bytes.
 */
public final class ResultsCsv {
    /** The tables a results folder holds, in docs/results.md's order, then the reproduction's measures. */
    public static final List<String> TABLES;
    /** The file naming every column's type. */
    public static final String COLUMNS_FILE = "columns.csv";
    /** Per-run numbers a reproduction computes (its {@code measures}): one row per run and measure. */
    public static final String MEASURES = "measures";
    public static final String MEASURES_COLUMNS = "run_id VARCHAR, name VARCHAR, value DOUBLE";

    static {
        List<String> t = new ArrayList<>();
        for (String name : ResultsStore.TABLES) {
            if (!name.equals("flows") && !name.equals("series")) {
                t.add(name);
            }
        }
        t.add(MEASURES);
        TABLES = List.copyOf(t);
    }

    private ResultsCsv() {
    }

    /**
     * Writes the rows of {@code runIds}' runs (a SQL condition on {@code runs}, e.g. {@code sweep = 'fig1'})
     * of every table to {@code dir}, replacing the files there; tables without rows get no file.
     */
    public static void export(Connection c, String runCondition, Path dir) throws SQLException {
        try {
            Files.createDirectories(dir);
            List<String[]> columns = new ArrayList<>();
            for (String table : TABLES) {
                Path file = dir.resolve(table + ".csv");
                if (!tableExists(c, table)) {
                    Files.deleteIfExists(file);
                    continue;
                }
                String sql = table.equals("runs") ? "SELECT * FROM runs WHERE " + runCondition
                        : "SELECT * FROM " + table + " WHERE run_id IN (SELECT run_id FROM runs WHERE " + runCondition + ")";
                List<String[]> typed = new ArrayList<>();
                int rows = write(c, sql + " ORDER BY ALL", file, typed);
                if (rows == 0) {
                    Files.deleteIfExists(file);
                    continue;
                }
                for (String[] t : typed) {
                    columns.add(new String[] {table, t[0], t[1]});
                }
            }
            try (BufferedWriter w = Files.newBufferedWriter(dir.resolve(COLUMNS_FILE), StandardCharsets.UTF_8)) {
                w.write("table,column,type\n");
                for (String[] col : columns) {
                    w.write(field(col[0]) + "," + field(col[1]) + "," + field(col[2]) + "\n");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a query's rows as CSV; returns the row count and adds each column's name and SQL type to {@code typed}. */
    private static int write(Connection c, String sql, Path file, List<String[]> typed) throws SQLException, IOException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql);
             BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            StringBuilder line = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                line.append(i > 1 ? "," : "").append(field(md.getColumnName(i)));
                typed.add(new String[] {md.getColumnName(i), sqlType(md, i)});
            }
            w.write(line.append('\n').toString());
            int rows = 0;
            while (rs.next()) {
                line.setLength(0);
                for (int i = 1; i <= n; i++) {
                    line.append(i > 1 ? "," : "").append(value(rs, md.getColumnType(i), i));
                }
                w.write(line.append('\n').toString());
                rows++;
            }
            return rows;
        }
    }

    private static String sqlType(ResultSetMetaData md, int i) throws SQLException {
        return switch (md.getColumnType(i)) {
            case Types.BIGINT -> "BIGINT";
            case Types.INTEGER -> "INTEGER";
            case Types.SMALLINT, Types.TINYINT -> "INTEGER";
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> "DOUBLE";
            case Types.BOOLEAN -> "BOOLEAN";
            default -> "VARCHAR";
        };
    }

    private static String value(ResultSet rs, int type, int i) throws SQLException {
        return switch (type) {
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> {
                double v = rs.getDouble(i);
                yield rs.wasNull() ? "" : Double.toString(v);
            }
            case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT -> {
                long v = rs.getLong(i);
                yield rs.wasNull() ? "" : Long.toString(v);
            }
            case Types.BOOLEAN -> {
                boolean v = rs.getBoolean(i);
                yield rs.wasNull() ? "" : Boolean.toString(v);
            }
            default -> {
                String v = rs.getString(i);
                yield v == null ? "" : quoted(v);
            }
        };
    }

    /** A header or type field: quoted only when it needs to be. */
    private static String field(String s) {
        return s.isEmpty() || s.chars().anyMatch(ch -> ch == ',' || ch == '"' || ch == '\n' || ch == '\r') ? quoted(s) : s;
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /**
     * The column types of a results folder ({@code columns.csv}) by table, in file order.
     *
     * @throws UserError naming the file when it is missing or malformed
     */
    public static Map<String, LinkedHashMap<String, String>> columns(Path dir) {
        Path file = dir.resolve(COLUMNS_FILE);
        Map<String, LinkedHashMap<String, String>> out = new LinkedHashMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(file + ": cannot read the results' column types: " + e.getMessage());
        }
        if (lines.isEmpty() || !lines.get(0).equals("table,column,type")) {
            throw new UserError(file + ": expected the header 'table,column,type'");
        }
        for (int i = 1; i < lines.size(); i++) {
            List<String> f = splitFields(lines.get(i));
            if (f.size() != 3 || !TABLES.contains(f.get(0)) || !List.of("BIGINT", "INTEGER", "DOUBLE", "BOOLEAN", "VARCHAR").contains(f.get(2))) {
                throw new UserError(file + ":" + (i + 1) + ": expected 'table,column,type' with a results table and one of BIGINT, INTEGER,"
                        + " DOUBLE, BOOLEAN, VARCHAR");
            }
            out.computeIfAbsent(f.get(0), k -> new LinkedHashMap<>()).put(f.get(1), f.get(2));
        }
        return out;
    }

    /**
     * The first 16 hex digits of the SHA-256 of a results folder's files (each committed file's name
     * and bytes, in name order): a ledger page shows it, so any change to the files changes the page.
     */
    public static String digest(Path dir) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            List<String> names = new ArrayList<>();
            for (String t : TABLES) {
                names.add(t + ".csv");
            }
            names.add(COLUMNS_FILE);
            names.add(Probe.FILE);
            java.util.Collections.sort(names);
            for (String n : names) {
                Path f = dir.resolve(n);
                if (Files.isRegularFile(f)) {
                    sha.update((n + "\n").getBytes(StandardCharsets.UTF_8));
                    sha.update(Files.readAllBytes(f));
                }
            }
            return java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code dir} holds a figure's committed results. */
    public static boolean present(Path dir) {
        return Files.isRegularFile(dir.resolve(COLUMNS_FILE)) && Files.isRegularFile(dir.resolve("runs.csv"));
    }

    /**
     * Creates the tables of a results folder in {@code c} (which must not have them yet, or have
     * them empty with the same columns) and loads every file's rows, typed by {@code columns.csv}.
     *
     * @throws UserError naming the file when a file does not match its declared columns
     */
    public static void load(Connection c, Path dir) throws SQLException {
        Map<String, LinkedHashMap<String, String>> columns = columns(dir);
        if (!columns.containsKey("runs")) {
            throw new UserError(dir.resolve(COLUMNS_FILE) + ": no columns of table runs");
        }
        try (Statement s = c.createStatement()) {
            for (Map.Entry<String, LinkedHashMap<String, String>> t : columns.entrySet()) {
                Path file = dir.resolve(t.getKey() + ".csv");
                StringBuilder create = new StringBuilder();
                StringBuilder types = new StringBuilder();
                for (Map.Entry<String, String> col : t.getValue().entrySet()) {
                    create.append(create.length() > 0 ? ", " : "").append(ident(col.getKey())).append(' ').append(col.getValue());
                    types.append(types.length() > 0 ? ", " : "").append(literal(col.getKey())).append(": ").append(literal(col.getValue()));
                }
                s.execute("CREATE TABLE IF NOT EXISTS " + ident(t.getKey()) + " (" + create + ")");
                if (!Files.isRegularFile(file)) {
                    throw new UserError(file + ": missing (" + COLUMNS_FILE + " names its columns)");
                }
                checkHeader(file, t.getValue().keySet());
                try {
                    s.execute("INSERT INTO " + ident(t.getKey()) + " BY NAME SELECT * FROM read_csv(" + literal(file.toString())
                            + ", header = true, allow_quoted_nulls = false, auto_detect = false, strict_mode = true, columns = {" + types + "})");
                } catch (SQLException e) {
                    throw new UserError(file + ": does not match the columns " + COLUMNS_FILE + " declares: " + ResultsStore.message(e));
                }
            }
        }
    }

    private static void checkHeader(Path file, java.util.Set<String> expected) {
        String header;
        try (var r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            header = r.readLine();
        } catch (IOException e) {
            throw new UserError(file + ": cannot read: " + e.getMessage());
        }
        if (header == null || !splitFields(header).equals(new ArrayList<>(expected))) {
            throw new UserError(file + ": its header is not the columns " + COLUMNS_FILE + " declares for it");
        }
    }

    /** The fields of one CSV line (RFC 4180 quoting, no line break inside a field; a CR outside quotes is dropped). */
    public static List<String> splitFields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cur.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else if (ch != '\r') {
                cur.append(ch);
            }
        }
        out.add(cur.toString());
        return out;
    }

    static String ident(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT count(*) FROM information_schema.tables WHERE table_name = ?")) {
            p.setString(1, table);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }
}
