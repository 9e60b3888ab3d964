package org.lbsim.cli;

/**
 * Bad input (a file, a scenario value, an argument): reported as one line {@code lbsim: <message>}
 * per error (every error of a scenario or sweep file at once) with exit code 2 and no stack trace. The message starts with where the problem is: the file,
 * {@code --set ARG}, or a CSV trace's {@code file:line}.
 */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message, null, false, false);
    }

    /** Several errors of one input at once, one line each ({@code lbsim: } starts every line). */
    public static UserError lines(java.util.List<String> messages) {
        return new UserError(String.join(System.lineSeparator() + "lbsim: ", messages));
    }

    /** {@code where: field: problem}, leaving out the field when there is none. */
    public static UserError at(String where, String field, String problem) {
        return new UserError(where + ": " + (field == null || field.isEmpty() ? "" : field + ": ") + problem);
    }
}
