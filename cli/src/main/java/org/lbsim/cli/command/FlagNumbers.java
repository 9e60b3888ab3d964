package org.lbsim.cli.command;

import picocli.CommandLine;
import org.lbsim.api.ScenarioText;

/** Numbers given in flags, read as in scenario files and {@code --set}: 010, 0x10 or 1_000 are refused, not read one way. */
public final class FlagNumbers {
    private FlagNumbers() {
    }

    /**
     * A flag's number, read as {@link ScenarioText#plain} reads an unquoted value in a file: decimal only;
     * a leading zero, another radix or digit separators are refused (picocli reports the flag and the value).
     */
    public static <T> T parse(String text, Class<T> type) {
        Object v;
        try {
            v = ScenarioText.plain(text.strip());
        } catch (ScenarioText.Refused e) {
            throw new CommandLine.TypeConversionException(e.getMessage().replace("; " + ScenarioText.ALLOWED, "; " + FLAG_NUMBERS));
        }
        if (type == Double.class && v instanceof Number n) {
            return type.cast(n.doubleValue());
        }
        if (v instanceof Integer || v instanceof Long) {
            long x = ((Number) v).longValue();
            if (type == Long.class) {
                return type.cast(x);
            }
            if (x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE) {
                return type.cast((int) x);
            }
        }
        throw new CommandLine.TypeConversionException("'" + text + "' is not " + (type == Double.class ? "a number" : "a whole number")
                + (type == Integer.class ? " of at most " + Integer.MAX_VALUE : "") + "; " + FLAG_NUMBERS);
    }

    static final String FLAG_NUMBERS = "write a decimal number, such as 10, -3 or 1.5e-3";
}
