package org.lbsim.cli.ledger;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import org.lbsim.cli.store.ResultsStore;

/**
 * A reproduction's {@code tables} drawn from its committed results: per (rows, columns) cell the
 * mean over seeds of {@code value} (SQL over {@code results}, so a measure is a column), its
 * extremes and the number of runs.
 */
public final class LedgerTables {
    private LedgerTables() {
    }

    /** Every table, in the order declared. */
    public static String render(FigureResults r, List<Map<String, Object>> tables) {
        StringBuilder md = new StringBuilder();
        for (Map<String, Object> t : tables) {
            md.append(table(r, t)).append('\n');
        }
        return md.toString();
    }

    private static String table(FigureResults r, Map<String, Object> t) {
        String rows = (String) t.get("rows");
        String cols = (String) t.get("columns");
        String value = (String) t.getOrDefault("value", "cct_increase_pct");
        String unit = (String) t.getOrDefault("unit", "%");
        String filter = t.containsKey("where") ? "(" + t.get("where") + ")" : "TRUE";
        String colExpr = t.containsKey("columnsSql") ? "CAST((" + t.get("columnsSql") + ") AS VARCHAR)"
                : cols == null ? "'all'" : "CAST(" + ResultsCsv.ident(cols) + " AS VARCHAR)";
        String rowExpr = t.containsKey("rowsSql") ? "CAST((" + t.get("rowsSql") + ") AS VARCHAR)" : "CAST(" + ResultsCsv.ident(rows) + " AS VARCHAR)";
        String sql = "SELECT " + rowExpr + " AS r, " + colExpr + " AS c, avg(" + value + ") AS mean, min(" + value + ") AS lo, max(" + value
                + ") AS hi, count(*) AS n FROM results WHERE " + filter + " GROUP BY ALL ORDER BY min(point), 2, 1";
        List<List<String>> result;
        try {
            result = r.rows(sql);
        } catch (SQLException e) {
            return "(table '" + t.getOrDefault("title", value) + "' failed: " + ResultsStore.message(e) + ")\n";
        }
        LinkedHashSet<String> rowKeys = new LinkedHashSet<>();
        LinkedHashSet<String> colKeys = new LinkedHashSet<>();
        Map<String, String> cells = new LinkedHashMap<>();
        for (List<String> f : result) {
            rowKeys.add(f.get(0));
            colKeys.add(f.get(1));
            cells.put(f.get(0) + "\u0000" + f.get(1), tableCell(nz(f.get(2)), nz(f.get(3)), nz(f.get(4)), f.get(5)));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("**").append(t.getOrDefault("title", value + " by " + rows)).append("** — mean [min, max] over seeds, ").append(unit).append("\n\n");
        sb.append("| ").append(t.getOrDefault("rowsTitle", rows != null ? rows : "setting")).append(" |");
        for (String c : colKeys) {
            sb.append(' ').append(LedgerPage.cell(c)).append(" |");
        }
        sb.append("\n|---|").append("---|".repeat(colKeys.size())).append('\n');
        for (String row : rowKeys) {
            sb.append("| ").append(LedgerPage.cell(row)).append(" |");
            for (String c : colKeys) {
                sb.append(' ').append(cells.getOrDefault(row + "\u0000" + c, "")).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * One cell: mean [min, max] (n=runs), or "no value" when the value is NULL in every run of the cell (a
     * quantity of a job that did not finish by the time limit, for example).
     */
    static String tableCell(String mean, String lo, String hi, String n) {
        if (mean.isEmpty()) {
            return "no value (n=" + n + ")";
        }
        return String.format(Locale.ROOT, "%.2f [%.2f, %.2f] (n=%s)", Double.parseDouble(mean), Double.parseDouble(lo), Double.parseDouble(hi), n);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
