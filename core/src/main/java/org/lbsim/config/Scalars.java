package org.lbsim.config;

import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reading of an unquoted value, wherever lbsim takes one: a plain scalar of a scenario or
 * sweep file (YAML) and the value of {@code --set PATH=VALUE}.
 *
 * <ul>
 *   <li>integers in decimal ({@code 42}, {@code -7}, {@code +3}): Integer, Long or BigInteger by size;</li>
 *   <li>decimals with a point or an exponent ({@code 0.5}, {@code .5}, {@code 1.}, {@code 1.5e-3}, {@code 1E+6}): Double;</li>
 *   <li>{@code true}, {@code True}, {@code TRUE}, {@code false}, {@code False}, {@code FALSE}: Boolean;</li>
 *   <li>{@code null}, {@code Null}, {@code NULL}, {@code ~} and nothing: null;</li>
 *   <li>anything else: the text itself.</li>
 * </ul>
 *
 * Text that some reader takes for a number and another reads differently is refused rather than
 * guessed at: a leading zero ({@code 010}: octal 8 in YAML 1.1, 10 elsewhere), hexadecimal, octal
 * and binary forms ({@code 0x400}, {@code 0o17}, {@code 0b101}), digit separators ({@code 1_024}),
 * base 60 ({@code 1:30}), {@code .inf} and {@code .nan}, and decimals beyond the range of a double.
 * Quoting the value keeps it as text.
 */
public final class Scalars {
    /** What the refusals say is allowed. */
    public static final String ALLOWED = "numbers are written in decimal, such as 10, -3, 0.5 or 1.5e-3; quote a value to keep it as text";

    private static final Pattern INTEGER = Pattern.compile("[-+]?(0|[1-9][0-9]*)");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?((0|[1-9][0-9]*)(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
    private static final Pattern INFINITE = Pattern.compile("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
    private static final Pattern RADIX = Pattern.compile("([-+]?)0([xob])([0-9a-fA-F_]+)");
    private static final Pattern LEADING_ZERO = Pattern.compile("[-+]?0[0-9]+((\\.[0-9]*)?([eE][-+]?[0-9]+)?)");
    private static final Pattern BASE_60 = Pattern.compile("[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?");

    private Scalars() {
    }

    /** A value that is refused; the message says why and what is allowed, without naming the field. */
    public static final class Refused extends IllegalArgumentException {
        public Refused(String problem) {
            super(problem, null);
        }
    }

    /** The value of an unquoted scalar; throws {@link Refused} for text whose meaning as a number is ambiguous. */
    public static Object plain(String text) {
        switch (text) {
            case "", "~", "null", "Null", "NULL":
                return null;
            case "true", "True", "TRUE":
                return Boolean.TRUE;
            case "false", "False", "FALSE":
                return Boolean.FALSE;
            default:
                break;
        }
        if (INTEGER.matcher(text).matches()) {
            try {
                long v = Long.parseLong(text);
                return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (Object) (int) v : (Object) v;
            } catch (NumberFormatException e) {
                return new BigInteger(text);
            }
        }
        if (DECIMAL.matcher(text).matches()) {
            return decimal(text);
        }
        String problem = ambiguity(text);
        if (problem != null) {
            throw new Refused(problem);
        }
        return text;
    }

    /** Why {@code text} is not read as a number although it looks like one, or null when it is plain text. */
    private static String ambiguity(String text) {
        if (INFINITE.matcher(text).matches()) {
            return "must be a finite number; .nan, .inf and -.inf are not allowed";
        }
        String quoted = "'" + text + "'";
        Matcher radix = RADIX.matcher(text);
        if (radix.matches()) {
            String kind = switch (radix.group(2)) {
                case "x" -> "a hexadecimal";
                case "o" -> "an octal";
                default -> "a binary";
            };
            int base = switch (radix.group(2)) {
                case "x" -> 16;
                case "o" -> 8;
                default -> 2;
            };
            String value = inBase(radix.group(1) + radix.group(3).replace("_", ""), base);
            if (value != null) {
                return quoted + " is " + kind + " number (" + value + " in decimal); " + ALLOWED;
            }
        }
        if (BASE_60.matcher(text).matches()) {
            return quoted + " is a base-60 number in YAML 1.1 and text in other readers; " + ALLOWED;
        }
        if (text.indexOf('_') >= 0 && text.matches("[-+]?[0-9.].*")) {
            String without = text.replace("_", "");
            if (INTEGER.matcher(without).matches() || DECIMAL.matcher(without).matches() || LEADING_ZERO.matcher(without).matches()) {
                return quoted + " has '_' digit separators, which YAML 1.1 drops and other readers keep as text; " + ALLOWED;
            }
        }
        Matcher zero = LEADING_ZERO.matcher(text);
        if (zero.matches()) {
            String sign = text.startsWith("-") ? "-" : "";
            String decimal = sign + text.replaceFirst("^[-+]?0+(?=[0-9])", "");
            String octal = zero.group(1).isEmpty() ? inBase(sign + text.replaceFirst("^[-+]", ""), 8) : null;
            return quoted + " has a leading zero, which " + (octal != null ? "YAML 1.1 reads as octal (" + octal + ") and other readers as " + decimal
                    : "some readers take for octal, others for " + decimal + " or for text") + "; " + ALLOWED;
        }
        return null;
    }

    private static String inBase(String digits, int base) {
        try {
            return new BigInteger(digits, base).toString();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double decimal(String text) {
        double d = Double.parseDouble(text);
        if (Double.isInfinite(d)) {
            throw new Refused("'" + text + "' is beyond the largest number lbsim reads (about 1.8e308); " + ALLOWED);
        }
        if (d == 0 && text.replaceFirst("[eE].*", "").matches(".*[1-9].*")) {
            throw new Refused("'" + text + "' is too small to tell from 0 (the smallest is about 4.9e-324); write 0 or a larger number");
        }
        return d;
    }
}
