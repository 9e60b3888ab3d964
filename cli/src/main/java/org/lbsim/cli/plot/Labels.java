package org.lbsim.cli.plot;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Column names and values as a person reads them on a figure: {@code loadBalancing.type} is
 * "scheme", {@code workload.messageBytes} is "message size" in MiB, 2097152 of it is "2 MiB", a
 * seed is 3 rather than 3.0. One number format for every tick, legend and table of a figure.
 */
public final class Labels {
    private static final long KIB = 1024;
    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB"};

    /** Titles of the scenario fields and run columns that figures use most. */
    private static final Map<String, String> TITLES = Map.ofEntries(
            Map.entry("loadBalancing.type", "scheme"),
            Map.entry("congestionControl.type", "congestion control"),
            Map.entry("lossRecovery.type", "loss recovery"),
            Map.entry("transport.type", "transport"),
            Map.entry("workload.type", "workload"),
            Map.entry("workload.messageBytes", "message size"),
            Map.entry("topology.type", "topology"),
            Map.entry("topology.k", "fat-tree k"),
            Map.entry("scenario_name", "scenario"),
            Map.entry("seed", "seed"));

    private Labels() {
    }

    /** Whether a column holds a size in bytes (shown in binary units: KiB, MiB ...). */
    public static boolean isBytes(String column) {
        String last = last(column);
        return last.endsWith("Bytes") || last.endsWith("_bytes") || last.equals("bytes");
    }

    /** The axis title of a column without its unit: "message size", "scheme", "link rate". */
    public static String title(String column) {
        String known = TITLES.get(column);
        if (known != null) {
            return known;
        }
        if (!column.contains(".") && column.contains("_")) {
            return column.replace('_', ' ');
        }
        String last = last(column);
        for (String unit : List.of("Bytes", "Gbps", "Us", "Ns", "Ps", "Pct")) {
            if (last.endsWith(unit) && last.length() > unit.length()) {
                last = last.substring(0, last.length() - unit.length());
                break;
            }
        }
        if (last.equals("type") && column.contains(".")) {
            String owner = column.substring(0, column.lastIndexOf('.'));
            return words(last(owner));
        }
        String w = words(last);
        return w.equals("message") ? "message size" : w;
    }

    /** "message size (MiB)" for a numeric axis whose largest value is {@code maxAbs}, with the factor to apply to the values. */
    public static Scaled numericAxis(String column, double maxAbs) {
        String t = title(column);
        if (isBytes(column)) {
            int u = binaryUnit(maxAbs);
            return new Scaled(t + " (" + BINARY[u] + ")", 1.0 / Math.pow(KIB, u));
        }
        String last = last(column);
        if (last.endsWith("Gbps")) {
            return new Scaled(t + " (Gb/s)", 1);
        }
        if (last.endsWith("Us")) {
            return new Scaled(t + " (\u00b5s)", 1);
        }
        if (last.endsWith("Ns")) {
            return new Scaled(t + " (ns)", 1);
        }
        if (last.endsWith("Pct") || last.endsWith("_pct")) {
            return new Scaled(t + " (%)", 1);
        }
        return new Scaled(t, 1);
    }

    /** An axis title with the factor that turns the column's values into the axis' values. */
    public record Scaled(String title, double factor) {
    }

    /**
     * A value of a column as a category or legend entry: "2 MiB", "3", and for a column naming a registered
     * component its display name, as its paper writes it ("HOST PKT" for {@code loadBalancing.type} host-spray).
     */
    public static String value(String column, Object v) {
        if (v instanceof String s) {
            java.util.Optional<String> shown = org.lbsim.api.Catalog.displayName(column, s);
            if (shown.isPresent()) {
                return shown.get();
            }
        }
        if (v instanceof Number n && isBytes(column)) {
            return bytes(n.doubleValue());
        }
        if (v instanceof Number n) {
            return number(n.doubleValue());
        }
        return v == null ? "(default)" : String.valueOf(v); // a scenario column is empty where the run left the field at its default
    }

    /** Bytes in the largest binary unit that keeps the value >= 1: "2 MiB", "1.5 KiB", "800 B". */
    public static String bytes(double b) {
        int u = binaryUnit(Math.abs(b));
        return number(b / Math.pow(KIB, u)) + " " + BINARY[u];
    }

    private static int binaryUnit(double maxAbs) {
        int u = 0;
        while (u + 1 < BINARY.length && maxAbs >= Math.pow(KIB, u + 1)) {
            u++;
        }
        return u;
    }

    /**
     * The one number format of figures: integers without decimals and with thousands separators
     * (216,500), others with at most three significant decimals and no trailing zeros (26,402.5,
     * 0.125); below 0.001 or from a million on, m x 10^k (2.5 x 10^-5, 10^9).
     */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "\u2013";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "\u221e" : "-\u221e";
        }
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        if (a >= 1e6 || a < 1e-3) {
            int e = (int) Math.floor(Math.log10(a));
            double m = v / Math.pow(10, e);
            if (Math.abs(Math.abs(m) - 10) < 1e-9) {
                m /= 10;
                e++;
            }
            String mant = trim(BigDecimal.valueOf(m).round(new java.math.MathContext(3)));
            return (mant.equals("1") ? "" : mant.equals("-1") ? "-" : mant + "\u00d7") + "10" + superscript(e);
        }
        int decimals = a >= 100 ? 1 : a >= 1 ? 2 : 3 + (int) Math.floor(-Math.log10(a));
        BigDecimal d = BigDecimal.valueOf(v).setScale(Math.min(decimals, 6), java.math.RoundingMode.HALF_EVEN);
        String plain = trim(d);
        int dot = plain.indexOf('.');
        String whole = dot < 0 ? plain : plain.substring(0, dot);
        String frac = dot < 0 ? "" : plain.substring(dot);
        boolean neg = whole.startsWith("-");
        String digits = neg ? whole.substring(1) : whole;
        StringBuilder g = new StringBuilder();
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && (digits.length() - i) % 3 == 0) {
                g.append(',');
            }
            g.append(digits.charAt(i));
        }
        return (neg ? "-" : "") + g + frac;
    }

    private static String trim(BigDecimal d) {
        String s = d.stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }

    private static String superscript(int e) {
        String digits = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
        StringBuilder sb = new StringBuilder();
        for (char c : Integer.toString(e).toCharArray()) {
            sb.append(c == '-' ? '\u207b' : digits.charAt(c - '0'));
        }
        return sb.toString();
    }

    private static String last(String column) {
        int dot = column.lastIndexOf('.');
        return dot < 0 ? column : column.substring(dot + 1);
    }

    /** camelCase to lower-case words: "messageBytes" -> "message bytes". */
    private static String words(String camel) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c) && cur.length() > 0 && !Character.isUpperCase(cur.charAt(cur.length() - 1))) {
                parts.add(cur.toString());
                cur.setLength(0);
            }
            cur.append(c);
        }
        parts.add(cur.toString());
        List<String> out = new ArrayList<>();
        for (String p : parts) {
            out.add(p.length() > 1 && p.chars().allMatch(Character::isUpperCase) ? p : p.toLowerCase(Locale.ROOT));
        }
        return String.join(" ", out);
    }
}
