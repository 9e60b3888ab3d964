package org.lbsim.cli.command;

import java.io.PrintStream;

/**
 * What a command writes to: standard output and error (control characters escaped), and whether
 * {@code --debug} asks for stack traces. The {@code lbsim} entry point is one; each command reaches
 * it as its picocli parent command.
 */
public interface Console {
    PrintStream out();

    PrintStream err();

    boolean debug();

    /** Runs another {@code lbsim} command line, as the process would, writing to {@code out} and {@code err}; returns its exit status. */
    int runCommandLine(String[] args, PrintStream out, PrintStream err);
}
