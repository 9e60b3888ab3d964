package org.lbsim.cli;

import org.lbsim.cli.store.BuildInfo;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import org.lbsim.cli.command.Console;
import org.lbsim.cli.command.ExplainCommand;
import org.lbsim.cli.command.FlagNumbers;
import org.lbsim.cli.command.ExportCommand;
import org.lbsim.cli.command.InitCommand;
import org.lbsim.cli.command.LedgerCommand;
import org.lbsim.cli.command.ListCommand;
import org.lbsim.cli.command.PlotCommand;
import org.lbsim.cli.command.QueryCommand;
import org.lbsim.cli.command.ReportCommand;
import org.lbsim.cli.command.ReproduceCommand;
import org.lbsim.cli.command.RunCommand;
import org.lbsim.cli.command.SweepCommand;
import org.lbsim.cli.command.ValidateCommand;
import org.lbsim.cli.errors.ControlCharacters;
import org.lbsim.cli.errors.ExitCode;
import org.lbsim.cli.errors.Failures;
import org.lbsim.api.ScenarioText;

/**
 * The {@code lbsim} command line. Exit codes: 0 success, 2 bad input (one line on stderr:
 * {@code lbsim: WHERE: field.path: problem}), 1 an internal error (one line; the stack trace
 * too with {@code --debug}).
 */
@Command(name = "lbsim", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Packet-level simulator of load balancing in AI-training network fabrics.",
        footer = {"", "Exit codes: 0 ok, 2 bad input (scenario, file or argument), 1 internal error."})
public final class Main implements Callable<Integer>, Console {
    /**
     * The subcommands, in the order of {@code lbsim --help}. Added in {@link #execute} rather than in the
     * annotation, so that a command line naming one builds picocli's model of that one only
     * (reflecting over all eleven takes about as long as the JVM's own start).
     */
    private static final List<Class<?>> COMMANDS = List.of(RunCommand.class, ValidateCommand.class, InitCommand.class, ListCommand.class,
            ExplainCommand.class, SweepCommand.class, QueryCommand.class, ExportCommand.class, PlotCommand.class, ReportCommand.class,
            ReproduceCommand.class, LedgerCommand.class);

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Print the stack trace of internal errors.")
    public boolean debug;

    public final PrintStream out;
    public final PrintStream err;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public PrintStream out() {
        return out;
    }

    @Override
    public PrintStream err() {
        return err;
    }

    @Override
    public boolean debug() {
        return debug;
    }

    @Override
    public int runCommandLine(String[] args, PrintStream out, PrintStream err) {
        return execute(args, out, err);
    }

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** Runs one command line; never calls System.exit and never throws. */
    public static int execute(String[] args, PrintStream rawOut, PrintStream rawErr) {
        boolean debug = Arrays.asList(args).contains("--debug");
        PrintStream out = ControlCharacters.guard(rawOut);
        PrintStream err = ControlCharacters.guard(rawErr);
        Main main = new Main(out, err);
        RunCommand plain = RunCommand.plain(args, main);
        if (plain != null) { // a plain run, read without picocli (start-up time)
            main.debug = plain.debugRequested();
            int rc;
            try {
                rc = plain.call();
            } catch (Throwable t) {
                rc = Failures.report(t, debug, err).status();
            } finally {
                out.flush();
                err.flush();
            }
            return outputWritten(rc, out, err);
        }
        CommandLine cmd = parser(main, args);
        CommandLine query = cmd.getSubcommands().get("query");
        if (query != null) {
            query.setUnmatchedOptionsArePositionalParams(true); // SQL may start with a -- comment
        }
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        cmd.setParameterExceptionHandler((e, a) -> {
            CommandLine failed = e.getCommandLine();
            String help = failed == null || failed == cmd ? "lbsim --help" : "lbsim " + failed.getCommandName() + " --help";
            String message = ControlCharacters.escape(ControlCharacters.oneLine(e.getMessage()));
            if (e instanceof CommandLine.UnmatchedArgumentException u && failed == cmd && !u.getUnmatched().isEmpty()
                    && a.length > 0 && a[0].equals(u.getUnmatched().get(0)) && !a[0].startsWith("-")) {
                List<String> commands = List.copyOf(cmd.getSubcommands().keySet());
                err.println("lbsim: unknown command '" + ControlCharacters.escape(a[0]) + "'"
                        + ScenarioText.closest(a[0], commands).map(x -> ", did you mean '" + x + "'?").orElse("")
                        + " (commands: " + String.join(", ", commands) + "; see '" + help + "')");
                return ExitCode.BAD_INPUT.status();
            }
            err.println("lbsim: " + message + " (see '" + help + "')");
            return ExitCode.BAD_INPUT.status();
        });
        cmd.setExecutionExceptionHandler((e, c, parsed) -> Failures.report(e, debug, err).status());
        int rc;
        try {
            rc = cmd.execute(args);
        } catch (Throwable t) { // errors (out of memory, stack overflow) pass through picocli
            rc = Failures.report(t, debug, err).status();
        } finally {
            out.flush();
            err.flush();
        }
        return outputWritten(rc, out, err);
    }

    /** {@code rc}, or exit code 2 with {@link Failures#outputLost} when a successful command's output could not all be written. */
    private static int outputWritten(int rc, PrintStream out, PrintStream err) {
        if (out.checkError() && rc == ExitCode.OK.status()) {
            err.println("lbsim: " + Failures.outputLost().getMessage());
            err.flush();
            return ExitCode.BAD_INPUT.status();
        }
        return rc;
    }

    /** picocli's model of {@code lbsim} with the subcommand {@code args} name, or all of them when they name none. */
    static CommandLine parser(Main main, String[] args) {
        CommandLine cmd = new CommandLine(main);
        String named = commandNamed(args);
        for (Class<?> c : COMMANDS) {
            if (named == null || named.equals(c.getAnnotation(Command.class).name())) {
                cmd.addSubcommand(c);
            }
        }
        // numbers in flags read as in files and --set: 010, 0x10 or 1_000 are refused, not read one way
        cmd.registerConverter(Integer.class, v -> FlagNumbers.parse(v, Integer.class));
        cmd.registerConverter(Integer.TYPE, v -> FlagNumbers.parse(v, Integer.class));
        cmd.registerConverter(Long.class, v -> FlagNumbers.parse(v, Long.class));
        cmd.registerConverter(Long.TYPE, v -> FlagNumbers.parse(v, Long.class));
        cmd.registerConverter(Double.class, v -> FlagNumbers.parse(v, Double.class));
        cmd.registerConverter(Double.TYPE, v -> FlagNumbers.parse(v, Double.class));
        return cmd;
    }

    /**
     * The subcommand the arguments name (the first argument that is not an option of {@code lbsim}
     * itself), or null when they name none: then every subcommand is added, for help, errors and suggestions.
     */
    private static String commandNamed(String[] args) {
        for (String a : args) {
            if (!a.startsWith("-")) {
                for (Class<?> c : COMMANDS) {
                    if (a.equals(c.getAnnotation(Command.class).name())) {
                        return a;
                    }
                }
                return null;
            }
        }
        return null;
    }

    @Override
    public Integer call() {
        err.println("lbsim: missing command: lbsim run FILE.yaml, or lbsim validate FILE.yaml (see 'lbsim --help')");
        return ExitCode.BAD_INPUT.status();
    }

    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String commit = BuildInfo.gitCommit();
            if (commit.equals("unknown")) {
                return new String[] {"lbsim " + BuildInfo.version()};
            }
            Boolean dirty = BuildInfo.gitDirty();
            return new String[] {"lbsim " + BuildInfo.version() + " (commit " + commit.substring(0, 12) + (Boolean.TRUE.equals(dirty) ? ", modified" : "") + ")"};
        }
    }
}
