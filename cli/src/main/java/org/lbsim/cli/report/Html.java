package org.lbsim.cli.report;

import java.util.List;
import java.util.Locale;

/** HTML text helpers: escaping and the number formats of reports. */
final class Html {
    private Html() {
    }

    static String esc(Object o) {
        String s = String.valueOf(o);
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** An anchor id from free text. */
    static String id(String s) {
        String x = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return x.isEmpty() ? "x" : x;
    }

    static Double dbl(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }

    /** Picoseconds as microseconds (or milliseconds from 10 ms on); "unfinished" for a negative time. */
    static String ps(Object o) {
        Double v = dbl(o);
        if (v == null) {
            return "\u2013";
        }
        if (v < 0) {
            return "unfinished";
        }
        if (v >= 1e10) {
            return String.format(Locale.ROOT, "%,.3f ms", v / 1e9);
        }
        return String.format(Locale.ROOT, "%,.3f \u00b5s", v / 1e6);
    }

    static String kb(Object o) {
        Double v = dbl(o);
        return v == null ? "\u2013" : String.format(Locale.ROOT, "%,.1f KB", v / 1e3);
    }

    static String pct(Object o) {
        Double v = dbl(o);
        return v == null || v.isNaN() ? "\u2013" : String.format(Locale.ROOT, "%+.2f %%", v);
    }

    /**
     * Integers with thousands separators; other numbers by their size, so a column reads alike:
     * from 100 on one decimal (26,402.5), from 1 on two, below 1 three significant digits.
     */
    static String num(Object o) {
        if (o == null) {
            return "\u2013";
        }
        if (o instanceof Long || o instanceof Integer || o instanceof Short) {
            return String.format(Locale.ROOT, "%,d", ((Number) o).longValue());
        }
        if (o instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) {
                return "\u2013";
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.format(Locale.ROOT, "%,d", (long) d);
            }
            double m = Math.abs(d);
            return m >= 100 ? String.format(Locale.ROOT, "%,.1f", d) : m >= 1 ? String.format(Locale.ROOT, "%,.2f", d)
                    : String.format(Locale.ROOT, "%.3g", d);
        }
        return esc(o);
    }

    /** A table cell by its column name, the unit being in the header ({@link #header}): _ps in µs, _bytes in KB, _pct in percent. */
    static String cell(String column, Object v) {
        if (v instanceof String str) {
            return esc(str.isEmpty() ? "\u2013" : str);
        }
        Double d = dbl(v);
        if (d != null && !d.isNaN()) {
            if (column.endsWith("_ps")) {
                return d < 0 ? "unfinished" : String.format(Locale.ROOT, "%,.3f", d / 1e6);
            }
            if (column.endsWith("_bytes")) {
                return String.format(Locale.ROOT, "%,.1f", d / 1e3);
            }
            if (column.endsWith("_pct") || column.endsWith("_percent")) {
                return String.format(Locale.ROOT, "%+.2f", d);
            }
        }
        return num(v);
    }

    /** A column name as a header: underscores to spaces, the unit of {@link #cell} in parentheses. */
    static String header(String column) {
        String h = column;
        String unit = "";
        if (h.endsWith("_ps")) {
            h = h.substring(0, h.length() - 3);
            unit = " (\u00b5s)";
        } else if (h.endsWith("_bytes")) {
            h = h.substring(0, h.length() - 6);
            unit = " (KB)";
        } else if (h.endsWith("_pct")) {
            h = h.substring(0, h.length() - 4);
            unit = " (%)";
        } else if (h.endsWith("_percent")) {
            h = h.substring(0, h.length() - 8);
            unit = " (%)";
        }
        return esc(h.replace('_', ' ') + unit);
    }

    static void row(StringBuilder sb, List<String> cells, boolean header) {
        sb.append("<tr>");
        for (String c : cells) {
            sb.append(header ? "<th>" : "<td>").append(c).append(header ? "</th>" : "</td>");
        }
        sb.append("</tr>\n");
    }
}
