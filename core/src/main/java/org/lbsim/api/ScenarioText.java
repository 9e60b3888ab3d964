package org.lbsim.api;

import java.util.Collection;
import java.util.Optional;
import org.lbsim.config.Overrides;
import org.lbsim.config.Scalars;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.Suggestions;

/**
 * How lbsim reads the text of its inputs and words its messages, for readers of scenario, sweep and
 * reproduction files and of flags that must agree with it: the one reading of an unquoted value, a
 * value described in an error, the closest allowed name of a "did you mean".
 */
public final class ScenarioText {
    /** What a refused value's message says is allowed (the end of every {@link Refused} message). */
    public static final String ALLOWED = Scalars.ALLOWED;

    private ScenarioText() {
    }

    /** A value whose meaning as a number is ambiguous ({@code 010}, {@code 0x400}); the message says why, without a field. */
    public static final class Refused extends IllegalArgumentException {
        Refused(String problem) {
            super(problem, null);
        }
    }

    /**
     * The value of an unquoted scalar of a scenario or sweep file: decimal Integer, Long, BigInteger or Double,
     * Boolean, null, else the text. @throws Refused for text some reader would take for another number
     */
    public static Object plain(String text) {
        try {
            return Scalars.plain(text);
        } catch (Scalars.Refused e) {
            throw new Refused(e.getMessage());
        }
    }

    /** The value of {@code --set PATH=VALUE}'s VALUE: quoted text as it is, nothing as "", else {@link #plain}. @throws Refused */
    public static Object setValue(String text) {
        try {
            return Overrides.scalar(text);
        } catch (Scalars.Refused e) {
            throw new Refused(e.getMessage());
        }
    }

    /** A value as error messages show what was found instead: {@code the string "x"}, {@code the integer 8}, {@code a map} ... */
    public static String describe(Object value) {
        return ScenarioBinder.describe(value);
    }

    /** The allowed name closest to {@code given}, if one is close enough to be a likely misspelling. */
    public static Optional<String> closest(String given, Collection<String> allowed) {
        return Suggestions.closest(given, allowed);
    }
}
