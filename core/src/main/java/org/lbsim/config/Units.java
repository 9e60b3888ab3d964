package org.lbsim.config;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.lbsim.scenario.ScenarioException;

/**
 * Values with units in scenario files ({@code 1MiB}, {@code 400Gbps}, {@code 500ns}, {@code 80us}):
 * a field whose name ends in its unit ({@code messageBytes}, {@code rateGbps}, {@code delayNs},
 * {@code atUs}) also takes a quoted-free string of a number and a unit of the same dimension,
 * converted exactly into the field's unit. Strict: a unit of another dimension, an unknown unit, or
 * a value that is not whole where the field is an integer is an error naming what is allowed.
 */
final class Units {
    private static final Pattern VALUE = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\\s*([A-Za-z\u00b5/]+)\\s*");

    /** A dimension: its units in base units (bytes, bit/s, seconds), in the order error messages list them. */
    private enum Dimension {
        SIZE("a size", units("B", "1", "KB", "1e3", "KiB", "1024", "MB", "1e6", "MiB", "1048576", "GB", "1e9", "GiB", "1073741824",
                "TB", "1e12", "TiB", "1099511627776")),
        RATE("a rate", units("bps", "1", "Kbps", "1e3", "Mbps", "1e6", "Gbps", "1e9", "Tbps", "1e12")),
        TIME("a time", units("ps", "1e-12", "ns", "1e-9", "us", "1e-6", "\u00b5s", "1e-6", "ms", "1e-3", "s", "1"));

        final String label;
        final Map<String, BigDecimal> units;

        Dimension(String label, Map<String, BigDecimal> units) {
            this.label = label;
            this.units = units;
        }
    }

    /** Spelled-out units, lower case, for suggestions only: a value has to use the short unit. */
    private static final Map<String, String> SPELLINGS = Map.ofEntries(Map.entry("byte", "B"), Map.entry("bytes", "B"),
            Map.entry("sec", "s"), Map.entry("secs", "s"), Map.entry("second", "s"), Map.entry("seconds", "s"), Map.entry("msec", "ms"),
            Map.entry("usec", "us"), Map.entry("nsec", "ns"), Map.entry("psec", "ps"), Map.entry("gb/s", "Gbps"), Map.entry("gbit/s", "Gbps"),
            Map.entry("mb/s", "Mbps"), Map.entry("mbit/s", "Mbps"), Map.entry("tb/s", "Tbps"), Map.entry("kb/s", "Kbps"));

    /** The field-name suffixes that carry a unit, and that unit. */
    private static final Map<String, Object[]> SUFFIXES = new LinkedHashMap<>();

    static {
        SUFFIXES.put("Bytes", new Object[] {Dimension.SIZE, "B"});
        SUFFIXES.put("Gbps", new Object[] {Dimension.RATE, "Gbps"});
        SUFFIXES.put("Mbps", new Object[] {Dimension.RATE, "Mbps"});
        SUFFIXES.put("Ps", new Object[] {Dimension.TIME, "ps"});
        SUFFIXES.put("Ns", new Object[] {Dimension.TIME, "ns"});
        SUFFIXES.put("Us", new Object[] {Dimension.TIME, "us"});
        SUFFIXES.put("Ms", new Object[] {Dimension.TIME, "ms"});
    }

    private Units() {
    }

    private static Map<String, BigDecimal> units(String... pairs) {
        Map<String, BigDecimal> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], new BigDecimal(pairs[i + 1]));
        }
        return m;
    }

    /** The unit a field's name ends in ({@code messageBytes} -> B), or null. */
    static String unitOf(String path) {
        String field = path.substring(path.lastIndexOf('.') + 1).replaceAll("\\[\\d+]$", "");
        for (Map.Entry<String, Object[]> e : SUFFIXES.entrySet()) {
            if (field.endsWith(e.getKey()) && field.length() > e.getKey().length()) {
                return (String) e.getValue()[1];
            }
        }
        return null;
    }

    /** What a field with a unit takes, for error messages: "or a size such as 64KiB, 1MiB". */
    static String accepted(String path) {
        String unit = unitOf(path);
        if (unit == null) {
            return "";
        }
        Dimension d = dimension(unit);
        return " or " + d.label + " with a unit (" + String.join(", ", d.units.keySet()) + ")";
    }

    /** {@code text} in the field's unit, exactly; throws naming the field and what is allowed. */
    static BigDecimal convert(String text, String path, boolean integer, String describedValue) {
        String fieldUnit = unitOf(path);
        Dimension d = dimension(fieldUnit);
        Matcher m = VALUE.matcher(text);
        String allowed = d.label + " with a unit (" + String.join(", ", d.units.keySet()) + ")";
        if (!m.matches()) {
            throw new ScenarioException(path, "expected " + (integer ? "an integer" : "a number") + " or " + allowed + ", got " + describedValue);
        }
        BigDecimal factor = d.units.get(m.group(2));
        if (factor == null) {
            for (Dimension other : Dimension.values()) {
                if (other.units.containsKey(m.group(2))) {
                    throw new ScenarioException(path, "'" + text.strip() + "' is " + other.label + "; this field takes " + allowed);
                }
            }
            throw new ScenarioException(path, "unknown unit '" + m.group(2) + "'" + suggestion(m.group(2), d) + "; this field takes " + allowed);
        }
        if (m.group(1).matches("0[0-9].*")) {
            throw new ScenarioException(path, "'" + text.strip() + "' has a leading zero, which some readers take for octal; write the number"
                    + " in decimal without leading zeros, such as " + m.group(1).replaceFirst("^0+(?=[0-9])", "") + m.group(2));
        }
        BigDecimal v;
        try {
            v = new BigDecimal(m.group(1)).multiply(factor).divide(d.units.get(fieldUnit), MathContext.DECIMAL128);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new ScenarioException(path, "'" + text.strip() + "' is beyond the range of numbers lbsim reads");
        }
        if (integer && v.stripTrailingZeros().scale() > 0) {
            throw new ScenarioException(path, "'" + text.strip() + "' is not a whole number of " + fieldUnit + " (" + v.stripTrailingZeros().toPlainString()
                    + " " + fieldUnit + ")");
        }
        return v;
    }

    /** ", did you mean 'KiB'?" for a unit of the field's dimension, else what the unit is in another dimension, else "". */
    private static String suggestion(String unit, Dimension d) {
        String spelled = SPELLINGS.getOrDefault(unit.toLowerCase(Locale.ROOT), unit);
        if (d.units.containsKey(spelled)) {
            return ", did you mean '" + spelled + "'?";
        }
        String near = Suggestions.didYouMean(unit, d.units.keySet());
        if (!near.isEmpty()) {
            return near;
        }
        for (Dimension other : Dimension.values()) {
            for (String u : other.units.keySet()) {
                if (u.equalsIgnoreCase(spelled)) {
                    return " (" + u + " is " + other.label + ")";
                }
            }
        }
        return "";
    }

    private static Dimension dimension(String unit) {
        for (Dimension d : Dimension.values()) {
            if (d.units.containsKey(unit)) {
                return d;
            }
        }
        throw new IllegalStateException("no dimension for unit " + unit);
    }
}
