package org.lbsim.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.lbsim.config.Suggestions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import org.lbsim.cli.command.ExplainCommand;
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
import org.lbsim.cli.files.Yaml;

/**
 * The {@code lbsim} command line. Exit codes: 0 success, 2 bad input (one line on stderr:
 * {@code lbsim: WHERE: field.path: problem}), 1 an internal error (one line; the stack trace
 * too with {@code --debug}).
 */
@Command(name = "lbsim", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Packet-level simulator of load balancing in AI-training network fabrics.",
        footer = {"", "Exit codes: 0 ok, 2 bad input (scenario, file or argument), 1 internal error."})
public final class Main implements Callable<Integer> {
    public static final int OK = 0;
    public static final int INTERNAL_ERROR = 1;
    public static final int BAD_INPUT = 2;

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
            int rc;
            try {
                rc = plain.call();
            } catch (Throwable t) {
                rc = failure(t, debug, err);
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
            String message = ControlCharacters.escape(Yaml.oneLine(e.getMessage()));
            if (e instanceof CommandLine.UnmatchedArgumentException u && failed == cmd && !u.getUnmatched().isEmpty()
                    && a.length > 0 && a[0].equals(u.getUnmatched().get(0)) && !a[0].startsWith("-")) {
                List<String> commands = List.copyOf(cmd.getSubcommands().keySet());
                err.println("lbsim: unknown command '" + ControlCharacters.escape(a[0]) + "'"
                        + Suggestions.closest(a[0], commands).map(x -> ", did you mean '" + x + "'?").orElse("")
                        + " (commands: " + String.join(", ", commands) + "; see '" + help + "')");
                return BAD_INPUT;
            }
            err.println("lbsim: " + message + " (see '" + help + "')");
            return BAD_INPUT;
        });
        cmd.setExecutionExceptionHandler((e, c, parsed) -> failure(e, debug, err));
        int rc;
        try {
            rc = cmd.execute(args);
        } catch (Throwable t) { // errors (out of memory, stack overflow) pass through picocli
            rc = failure(t, debug, err);
        } finally {
            out.flush();
            err.flush();
        }
        return outputWritten(rc, out, err);
    }

    /** The error of output that could not be written: standard output closed (a pipe into head) or its disk full. */
    public static UserError outputLost() {
        return new UserError("standard output: cannot write (closed, e.g. a pipe into head, or its disk is full); the output is incomplete");
    }

    /** {@code rc}, or exit code 2 with {@link #outputLost} when a successful command's output could not all be written. */
    private static int outputWritten(int rc, PrintStream out, PrintStream err) {
        if (out.checkError() && rc == OK) {
            err.println("lbsim: " + outputLost().getMessage());
            err.flush();
            return BAD_INPUT;
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
        cmd.registerConverter(Integer.class, v -> flagNumber(v, Integer.class));
        cmd.registerConverter(Integer.TYPE, v -> flagNumber(v, Integer.class));
        cmd.registerConverter(Long.class, v -> flagNumber(v, Long.class));
        cmd.registerConverter(Long.TYPE, v -> flagNumber(v, Long.class));
        cmd.registerConverter(Double.class, v -> flagNumber(v, Double.class));
        cmd.registerConverter(Double.TYPE, v -> flagNumber(v, Double.class));
        return cmd;
    }

    /**
     * A flag's number, read as {@link org.lbsim.config.Scalars} reads an unquoted value in a file: decimal only;
     * a leading zero, another radix or digit separators are refused (picocli reports the flag and the value).
     */
    public static <T> T flagNumber(String text, Class<T> type) {
        Object v;
        try {
            v = org.lbsim.config.Scalars.plain(text.strip());
        } catch (org.lbsim.config.Scalars.Refused e) {
            throw new CommandLine.TypeConversionException(e.getMessage().replace("; " + org.lbsim.config.Scalars.ALLOWED, "; " + FLAG_NUMBERS));
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

    private static final String FLAG_NUMBERS = "write a decimal number, such as 10, -3 or 1.5e-3";

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

    public static int failure(Throwable t, boolean debug, PrintStream err) {
        if (t instanceof UserError u) {
            for (String line : u.lines()) {
                err.println("lbsim: " + ControlCharacters.escape(line));
            }
            return BAD_INPUT;
        }
        if (t instanceof java.nio.file.InvalidPathException p) {
            // a path given on the command line or in a file that the file system cannot name (a NUL character)
            err.println("lbsim: " + ControlCharacters.escape(p.getInput()) + ": not a valid path (" + ControlCharacters.escape(p.getReason()) + ")");
            return BAD_INPUT;
        }
        if (t instanceof OutOfMemoryError) {
            err.println("lbsim: out of memory (this JVM may use " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB of heap): make the run"
                    + " smaller, or give Java more heap, e.g. LBSIM_OPTS=-Xmx16g ./lbsim ... (JAVA_OPTS works too)");
            return INTERNAL_ERROR;
        }
        String message = t.getMessage() == null ? "" : ": " + ControlCharacters.escape(Yaml.oneLine(t.getMessage()));
        err.println("lbsim: internal error: " + t.getClass().getName() + message
                + (debug ? "" : " (run with --debug for the stack trace)"));
        if (debug) {
            t.printStackTrace(err);
        }
        return INTERNAL_ERROR;
    }

    @Override
    public Integer call() {
        err.println("lbsim: missing command: lbsim run FILE.yaml, or lbsim validate FILE.yaml (see 'lbsim --help')");
        return BAD_INPUT;
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
