package org.lbsim.cli.command;

import org.lbsim.cli.errors.Failures;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.cli.files.Json;

/** A query result held in memory and written as an aligned text table, CSV or JSON. */
final class ResultTable {
    /** Table cells longer than this are shortened (CSV and JSON keep everything). */
    static final int MAX_CELL = 60;

    enum Format { table, csv, json }

    final List<String> columns;
    final boolean[] numeric;
    final List<Object[]> rows;

    private ResultTable(List<String> columns, boolean[] numeric, List<Object[]> rows) {
        this.columns = columns;
        this.numeric = numeric;
        this.rows = rows;
    }

    static ResultTable read(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> columns = columns(md);
        boolean[] numeric = new boolean[n];
        for (int i = 0; i < n; i++) {
            numeric[i] = isNumeric(md.getColumnType(i + 1)) || md.getColumnTypeName(i + 1).matches("(?i)U?(HUGE|BIG|SMALL|TINY)?INT(EGER)?|DECIMAL.*");
        }
        List<Object[]> rows = new ArrayList<>();
        while (rs.next()) {
            rows.add(row(rs, n));
        }
        return new ResultTable(columns, numeric, rows);
    }

    private static List<String> columns(ResultSetMetaData md) throws SQLException {
        List<String> columns = new ArrayList<>(md.getColumnCount());
        for (int i = 0; i < md.getColumnCount(); i++) {
            columns.add(md.getColumnLabel(i + 1));
        }
        return columns;
    }

    private static Object[] row(ResultSet rs, int n) throws SQLException {
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
            Object v = rs.getObject(i + 1);
            if (v != null && !(v instanceof Number || v instanceof Boolean || v instanceof String)) {
                v = rs.getString(i + 1); // dates, lists, structs ... as DuckDB spells them
            }
            row[i] = v;
        }
        return row;
    }

    /** Characters of CSV gathered before they are printed (the stream is written in pieces of about this size). */
    private static final int CSV_CHUNK = 1 << 16;

    /**
     * The result as CSV ({@link #csv()}), written to {@code out} row by row as the engine produces them: no row is
     * kept, so any number of rows fits. Stops with {@link Failures#outputLost} when {@code out} can no longer be written
     * (a closed pipe, a full disk). {@code printed[0]} counts the rows printed so far.
     */
    static void streamCsv(ResultSet rs, java.io.PrintStream out, long[] printed) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        StringBuilder sb = new StringBuilder(CSV_CHUNK + 1024);
        csvLine(sb, columns(md).toArray());
        long rows = 0;
        while (rs.next()) {
            csvLine(sb, row(rs, n));
            rows++;
            if (sb.length() >= CSV_CHUNK) {
                out.print(sb);
                printed[0] = rows;
                sb.setLength(0);
                if (out.checkError()) {
                    throw Failures.outputLost();
                }
            }
        }
        out.print(sb);
    }

    private static boolean isNumeric(int sqlType) {
        return switch (sqlType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.FLOAT, Types.REAL, Types.DOUBLE, Types.DECIMAL,
                    Types.NUMERIC -> true;
            default -> false;
        };
    }

    String format(Format f) {
        return switch (f) {
            case table -> table();
            case csv -> csv();
            case json -> json();
        };
    }

    /** Columns padded to their widest cell, numbers right-aligned, then "(N rows)". */
    String table() {
        int n = columns.size();
        String[][] cells = new String[rows.size()][n];
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            width[i] = columns.get(i).length();
        }
        for (int r = 0; r < rows.size(); r++) {
            for (int i = 0; i < n; i++) {
                Object v = rows.get(r)[i];
                String s = v == null ? "NULL" : text(v).replace("\r", "").replace("\n", "\\n").replace("\t", " ");
                if (s.length() > MAX_CELL) {
                    s = s.substring(0, MAX_CELL - 3) + "...";
                }
                cells[r][i] = s;
                width[i] = Math.max(width[i], s.length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, columns.toArray(String[]::new), width, numeric);
        String[] rule = new String[n];
        for (int i = 0; i < n; i++) {
            rule[i] = "-".repeat(width[i]);
        }
        line(sb, rule, width, new boolean[n]);
        for (String[] row : cells) {
            line(sb, row, width, numeric);
        }
        sb.append('(').append(rows.size()).append(rows.size() == 1 ? " row)" : " rows)").append('\n');
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] width, boolean[] right) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                l.append("  ");
            }
            String pad = " ".repeat(width[i] - cells[i].length());
            l.append(right[i] ? pad + cells[i] : cells[i] + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    /** RFC 4180: a header line, fields quoted when they hold a comma, quote or line break; NULL is empty. */
    String csv() {
        StringBuilder sb = new StringBuilder();
        csvLine(sb, columns.toArray());
        for (Object[] row : rows) {
            csvLine(sb, row);
        }
        return sb.toString();
    }

    private static void csvLine(StringBuilder sb, Object[] values) {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (values[i] == null) {
                continue;
            }
            String s = text(values[i]);
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                sb.append('"').append(s.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(s);
            }
        }
        sb.append('\n');
    }

    /**
     * A map as CSV: a header line and one row. Nested maps and lists are flattened, their keys joined with '.'
     * ({@code counters.dropped}, {@code layers.0.maxQueueBytes}: a list's elements by index).
     */
    static String csvRow(Map<String, Object> m) {
        Map<String, Object> flat = new LinkedHashMap<>();
        flatten("", m, flat);
        StringBuilder sb = new StringBuilder();
        csvLine(sb, flat.keySet().toArray());
        csvLine(sb, flat.values().toArray());
        return sb.toString();
    }

    private static void flatten(String prefix, Object v, Map<String, Object> into) {
        if (v instanceof Map<?, ?> map) {
            map.forEach((k, x) -> flatten(prefix + k + ".", x, into));
        } else if (v instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(prefix + i + ".", list.get(i), into);
            }
        } else {
            into.put(prefix.substring(0, prefix.length() - 1), v);
        }
    }

    /** An array of objects, one per row, keys in column order. */
    String json() {
        List<Object> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                m.put(columns.get(i), jsonValue(row[i]));
            }
            out.add(m);
        }
        return Json.write(out);
    }

    private static Object jsonValue(Object v) {
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? significant(v) : null;
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof Number && !(v instanceof BigDecimal || v instanceof Integer || v instanceof Long || v instanceof Short
                || v instanceof Byte)) {
            return new BigDecimal(v.toString());
        }
        return v;
    }

    /** Significant decimal digits a DOUBLE holds (C's DBL_DIG): every decimal of this many digits survives the trip through one. */
    static final int DOUBLE_DIGITS = 15;
    /** The same for a REAL (FLT_DIG). */
    static final int FLOAT_DIGITS = 6;

    /**
     * A finite floating-point value to the digits its type holds, trailing zeros dropped: an average of whole
     * picoseconds stored as 564050411.1999999 (binary rounding) reads 564050411.2.
     */
    static BigDecimal significant(Object v) {
        int digits = v instanceof Float ? FLOAT_DIGITS : DOUBLE_DIGITS;
        BigDecimal b = new BigDecimal(((Number) v).doubleValue()).round(new MathContext(digits, RoundingMode.HALF_EVEN)).stripTrailingZeros();
        return b.scale() < 0 ? b.setScale(0) : b;
    }

    /**
     * A value as text: floating-point values to the digits their type holds ({@link #significant}), without an
     * exponent for everyday magnitudes; decimals at their scale.
     */
    static String text(Object v) {
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (!Double.isFinite(d)) {
                return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
            }
            BigDecimal b = significant(v);
            double a = Math.abs(d);
            return a == 0 || a >= 1e-6 && a < 1e16 ? b.toPlainString() : b.stripTrailingZeros().toString();
        }
        if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        return String.valueOf(v);
    }
}
