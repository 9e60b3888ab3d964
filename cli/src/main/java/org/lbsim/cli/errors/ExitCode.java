package org.lbsim.cli.errors;

/** How a command ends, as its process exit status: {@code lbsim --help} lists them. */
public enum ExitCode {
    /** The command did what it was asked. */
    OK(0),
    /** A bug or a resource limit (out of memory): one line, the stack trace with {@code --debug}. */
    INTERNAL_ERROR(1),
    /** Bad input (a file, a scenario value, an argument): one line per error naming where, no output. */
    BAD_INPUT(2);

    private final int status;

    ExitCode(int status) {
        this.status = status;
    }

    /** The process exit status. */
    public int status() {
        return status;
    }
}
