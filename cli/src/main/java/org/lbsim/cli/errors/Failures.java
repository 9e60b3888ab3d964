package org.lbsim.cli.errors;

import java.io.PrintStream;

/** What a command that failed prints, and its exit code. */
public final class Failures {
    private Failures() {
    }

    /** The error of output that could not be written: standard output closed (a pipe into head) or its disk full. */
    public static UserError outputLost() {
        return new UserError("standard output: cannot write (closed, e.g. a pipe into head, or its disk is full); the output is incomplete");
    }

    /**
     * Reports {@code t} on {@code err} as the command line does (bad input one line per error; an
     * internal error one line, its stack trace too with {@code debug}) and returns the exit code.
     */
    public static ExitCode report(Throwable t, boolean debug, PrintStream err) {
        if (t instanceof UserError u) {
            for (String line : u.lines()) {
                err.println("lbsim: " + ControlCharacters.escape(line));
            }
            return ExitCode.BAD_INPUT;
        }
        if (t instanceof java.nio.file.InvalidPathException p) {
            // a path given on the command line or in a file that the file system cannot name (a NUL character)
            err.println("lbsim: " + ControlCharacters.escape(p.getInput()) + ": not a valid path (" + ControlCharacters.escape(p.getReason()) + ")");
            return ExitCode.BAD_INPUT;
        }
        if (t instanceof OutOfMemoryError) {
            err.println("lbsim: out of memory (this JVM may use " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB of heap): make the run"
                    + " smaller, or give Java more heap, e.g. LBSIM_OPTS=-Xmx16g ./lbsim ... (JAVA_OPTS works too)");
            return ExitCode.INTERNAL_ERROR;
        }
        String message = t.getMessage() == null ? "" : ": " + ControlCharacters.escape(ControlCharacters.oneLine(t.getMessage()));
        err.println("lbsim: internal error: " + t.getClass().getName() + message
                + (debug ? "" : " (run with --debug for the stack trace)"));
        if (debug) {
            t.printStackTrace(err);
        }
        return ExitCode.INTERNAL_ERROR;
    }
}
