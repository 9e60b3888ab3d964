package org.lbsim.cli.errors;

/**
 * Bad input (a file, a scenario value, an argument): reported as one line {@code lbsim: <message>}
 * per error (every error of a scenario or sweep file at once) with exit code 2 and no stack trace. The message starts with where the problem is: the file,
 * {@code --set ARG}, or a CSV trace's {@code file:line}.
 */
public final class UserError extends RuntimeException {
    /** The errors, one line each when printed (a line break inside one is shown escaped). */
    private final java.util.List<String> lines;

    public UserError(String message) {
        super(message, null, false, false);
        this.lines = java.util.List.of(String.valueOf(message));
    }

    private UserError(java.util.List<String> messages) {
        super(String.join(System.lineSeparator() + "lbsim: ", messages), null, false, false);
        this.lines = java.util.List.copyOf(messages);
    }

    /** Several errors of one input at once, one line each ({@code lbsim: } starts every line). */
    public static UserError lines(java.util.List<String> messages) {
        return new UserError(java.util.List.copyOf(messages));
    }

    /** The errors, each printed as one line. */
    public java.util.List<String> lines() {
        return lines;
    }

    /** {@code where: field: problem}, leaving out the field when there is none. */
    public static UserError at(String where, String field, String problem) {
        return new UserError(where + ": " + (field == null || field.isEmpty() ? "" : field + ": ") + problem);
    }
}
