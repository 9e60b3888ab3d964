package org.lbsim.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cli.CommandModel;
import org.lbsim.cli.Main;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@link RunCommand#plain}: the command lines it reads, it reads as picocli does; everything else it leaves to picocli. */
class RunCommandPlainArgsTest {
    private static final PrintStream NOWHERE = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    /** The fields a run command line sets, as picocli fills them. */
    private static String picocli(String[] args) {
        CommandLine cl = CommandModel.of(args, NOWHERE, NOWHERE);
        CommandLine.ParseResult parsed = cl.parseArgs(args);
        RunCommand run = (RunCommand) parsed.subcommand().commandSpec().userObject();
        return describe(run, ((Main) cl.getCommand()).debug);
    }

    /** The same fields as {@link RunCommand#plain} fills them; null when it leaves the line to picocli. */
    private static String plain(String[] args) {
        Main main = CommandModel.of(args, NOWHERE, NOWHERE).getCommand();
        RunCommand run = RunCommand.plain(args, main);
        return run == null ? null : describe(run, run.debugRequested());
    }

    private static String describe(RunCommand r, boolean debug) {
        return "file=" + r.scenario.file + " sets=" + r.scenario.sets + " seed=" + r.scenario.seed + " out=" + r.out + " quiet=" + r.quiet
                + " db=" + r.db + " threads=" + r.threads + " maxWall=" + r.maxWallSeconds + " debug=" + debug + " format=" + r.format;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "run a.yaml",
        "run a.yaml --out /tmp/x --quiet",
        "run --quiet --out runs/r1 a.yaml",
        "run a.yaml --set topology.k=4 --set loadBalancing.type=ofan --seed 7",
        "run a.yaml --seed 7 --threads 2 --max-wall-seconds 1.5 --db r.duckdb --debug",
        "run a.yaml --seed +3 --max-wall-seconds 1e3 --threads 0",
        "run a.yaml --set x= --out o",
        "run a.yaml --format json",
        "run a.yaml --format csv --quiet --out o",
    })
    void reads_a_plain_run_line_as_picocli_does(String line) {
        String[] args = line.split(" ");
        assertThat(plain(args)).isNotNull().isEqualTo(picocli(args));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "run", "run --help", "run a.yaml -h", "run a.yaml --version", "run @args.txt", "run a.yaml --out=o", "run -- a.yaml",
        "run a.yaml b.yaml", "run --quiet", "run a.yaml --out", "run a.yaml --out o --out p", "run a.yaml --quiet --quiet",
        "run a.yaml --seed -1", "run a.yaml --seed 0x10", "run a.yaml --seed 007", "run a.yaml --seed 1_000", "run a.yaml --threads 02", "run a.yaml --threads 99999999999", "run a.yaml --max-wall-seconds x",
        "run a.yaml --bogus", "run -a.yaml", "run a.yaml --format xml", "run a.yaml --format JSON", "validate a.yaml", "--debug run a.yaml", "run a.yaml --set @x",
    })
    void leaves_everything_else_to_picocli(String line) {
        assertThat(plain(line.split(" "))).isNull();
    }

    /** Random command lines from a pool of tokens (seeded): whenever plain reads one, picocli reads it the same way. */
    @Test
    void random_lines_read_by_plain_are_read_alike_by_picocli() {
        String[] pool = {"a.yaml", "b.yaml", "--out", "o", "--quiet", "--db", "d.duckdb", "--threads", "2", "-3", "--max-wall-seconds", "0.5",
            "--set", "k=4", "--seed", "12", "x1", "--debug", "-h", "--out=o", "@f", "--", "1e2", "NaN", "--format", "json", "csv"};
        Random random = new Random(21);
        int read = 0;
        for (int n = 0; n < 3000; n++) {
            List<String> args = new ArrayList<>(List.of("run"));
            for (int i = random.nextInt(7); i > 0; i--) {
                args.add(pool[random.nextInt(pool.length)]);
            }
            String[] a = args.toArray(String[]::new);
            String p = plain(a);
            if (p != null) {
                read++;
                assertThat(p).as("%s", args).isEqualTo(picocli(a));
            }
        }
        assertThat(read).as("lines plain read").isGreaterThan(100);
    }

    /** A new option of run must be added to plain (or plain leaves every line with it to picocli, and this fails). */
    @Test
    void plain_knows_every_option_of_run_but_help_and_version() {
        String[] args = {"run", "a.yaml"};
        CommandLine run = CommandModel.of(args, NOWHERE, NOWHERE).getSubcommands().get("run");
        Set<String> names = new TreeSet<>();
        for (OptionSpec o : run.getCommandSpec().options()) {
            if (!o.usageHelp() && !o.versionHelp()) {
                names.addAll(List.of(o.names()));
            }
        }
        assertThat(names).isEqualTo(new TreeSet<>(RunCommand.PLAIN_OPTIONS));
    }

    /** The same run and the same bad input through both parsers: the same files, output and exit codes. */
    @Test
    void both_parsers_give_the_same_run_and_the_same_errors() throws IOException {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, """
                name: small
                seed: 3
                topology: {type: fat-tree, k: 4}
                loadBalancing: {type: host-spray}
                workload: {type: permutation, messageBytes: 65536}
                """);
        String[] plainLine = {"run", scenario.toString(), "--out", dir.resolve("p").toString(), "--seed", "5"};
        String[] picocliLine = {"run", scenario.toString(), "--out=" + dir.resolve("q"), "--seed", "5"};
        assertThat(plain(plainLine)).isNotNull();
        assertThat(plain(picocliLine)).isNull();
        String[] outP = execute(plainLine);
        String[] outQ = execute(picocliLine);
        assertThat(outP[0]).isEqualTo("0");
        assertThat(outP[0]).isEqualTo(outQ[0]);
        assertThat(outP[1].replace(dir.resolve("p").toString(), "DIR").replace("/p", "DIR").lines().filter(l -> !l.startsWith("wall time")).toList())
                .isEqualTo(outQ[1].replace(dir.resolve("q").toString(), "DIR").replace("/q", "DIR").lines().filter(l -> !l.startsWith("wall time")).toList());
        for (String f : List.of("summary.json", "flows.csv", "scenario.yaml", "series.csv", "ooo.csv")) {
            assertThat(Files.readString(dir.resolve("p").resolve(f))).as(f).isEqualTo(Files.readString(dir.resolve("q").resolve(f)));
        }
        String[] badP = execute(new String[] {"run", scenario.toString(), "--threads", "65", "--out", dir.resolve("r").toString()});
        String[] badQ = execute(new String[] {"run", scenario.toString(), "--threads=65", "--out", dir.resolve("r").toString()});
        assertThat(badP[0]).isEqualTo("2");
        assertThat(badP).isEqualTo(badQ);
        String[] missingP = execute(new String[] {"run", dir.resolve("none.yaml").toString()});
        String[] missingQ = execute(new String[] {"run", dir.resolve("none.yaml").toString(), "--out=" + dir.resolve("s")});
        assertThat(missingP[0]).isEqualTo("2");
        assertThat(missingP).isEqualTo(missingQ);
    }

    /** Exit code, stdout, stderr of one command line. */
    private static String[] execute(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }
}
