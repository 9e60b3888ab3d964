package org.lbsim.cli;

import java.io.PrintStream;
import picocli.CommandLine;

/**
 * picocli's model of {@code lbsim}, for tests that compare it with {@code RunCommand.plain}. Not on {@link Main}:
 * the launcher looks up {@code Main.main} by reflection, which loads the types of every public method of
 * {@link Main}, and a {@link CommandLine} there would make every run load picocli's 72 KB main class from the jar.
 */
public final class CommandModel {
    private CommandModel() {
    }

    /** The model for {@code args} (only the subcommand they name, as {@link Main#execute} builds it), printing to {@code out} / {@code err}. */
    public static CommandLine of(String[] args, PrintStream out, PrintStream err) {
        return Main.parser(new Main(out, err), args);
    }
}
