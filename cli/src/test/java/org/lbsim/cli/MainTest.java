package org.lbsim.cli;

import org.lbsim.cli.errors.Failures;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end, in process, on tiny fabrics. */
class MainTest {
    /** A k=4 fat tree (16 hosts), 64 KiB permutation: a run takes milliseconds. */
    static final String SMALL = """
            name: small
            seed: 3
            topology: {type: fat-tree, k: 4}
            loadBalancing: {type: host-spray}
            workload: {type: permutation, messageBytes: 65536}
            """;

    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
        /** The one line a bad input produces, without its line end. */
        String errorLine() {
            assertThat(code).as("exit code; stderr: %s", err).isEqualTo(2);
            assertThat(out).as("stdout").isEmpty();
            assertThat(err).as("stderr is exactly one line").endsWith(System.lineSeparator());
            assertThat(err.strip().lines().count()).as("stderr lines: %s", err).isEqualTo(1);
            assertThat(err).doesNotContain("\tat ").doesNotContain("Exception");
            return err.strip();
        }
    }

    static Result lbsim(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.execute(args, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /** Runs a bad input through both commands; checks one line, exit 2, no output and no run folder. */
    String badInput(Path scenario, String... extra) {
        Path outDir = dir.resolve("out-" + scenario.getFileName());
        List<String> run = new ArrayList<>(List.of("run", scenario.toString(), "--out", outDir.toString()));
        run.addAll(List.of(extra));
        String line = lbsim(run.toArray(String[]::new)).errorLine();
        assertThat(outDir).doesNotExist();
        assertThat(leftovers()).isEmpty();
        List<String> validate = new ArrayList<>(List.of("validate", scenario.toString()));
        validate.addAll(List.of(extra));
        assertThat(lbsim(validate.toArray(String[]::new)).errorLine()).isEqualTo(line);
        return line;
    }

    private List<String> leftovers() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".") || n.startsWith("out-")).toList();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    // --- bad input ---------------------------------------------------------------------------

    @Test
    void a_missing_file() {
        Path p = dir.resolve("nope.yaml");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ": no such file");
    }

    @Test
    void a_directory_instead_of_a_file() throws IOException {
        Path d = Files.createDirectory(dir.resolve("adir"));
        assertThat(badInput(d)).isEqualTo("lbsim: " + d + ": is a directory, expected a YAML scenario file");
    }

    @Test
    void a_yaml_syntax_error() throws IOException {
        Path p = file("syntax.yaml", "topology:\n  k: 4\n   x: 1\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":3:5: YAML syntax error: mapping values are not allowed here");
        Path q = file("flow.yaml", "topology: {k: 4\n");
        assertThat(badInput(q)).isEqualTo("lbsim: " + q
                + ":2:1: YAML syntax error: expected ',' or '}', but got <stream end> (while parsing a flow mapping that starts at line 1, column 11)");
    }

    @Test
    void a_duplicate_key() throws IOException {
        Path p = file("dup.yaml", "topology:\n  k: 4\n  k: 6\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":3:3: topology.k: duplicate key (first at line 2)");
        Path q = file("dup-list.yaml", "failures:\n  links:\n    - {a: e0, b: a0}\n    - {a: e0, a: a1}\n");
        assertThat(badInput(q)).isEqualTo("lbsim: " + q + ":4:15: failures.links[1].a: duplicate key (first at line 4)");
    }

    @Test
    void an_empty_file_or_a_comment_only_file() throws IOException {
        String problem = ": the scenario is empty; expected a map with keys such as name, seed, topology, packets, switches,"
                + " loadBalancing, congestionControl, lossRecovery, workload, failures, limits, metrics, nic, trafficClasses";
        Path p = file("empty.yaml", "");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + problem);
        Path q = file("comments.yaml", "# nothing here\n\n");
        assertThat(badInput(q)).isEqualTo("lbsim: " + q + problem);
    }

    @Test
    void a_top_level_that_is_not_a_map() throws IOException {
        Path p = file("list.yaml", "- k: 4\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ": expected a map of scenario keys (name, seed, topology, packets, switches,"
                + " loadBalancing, congestionControl, lossRecovery, workload, failures, limits, metrics, nic, trafficClasses) at the top level, got a list");
        Path q = file("scalar.yaml", "hello\n");
        assertThat(badInput(q)).endsWith(") at the top level, got the string \"hello\"");
    }

    @Test
    void two_yaml_documents_in_one_file() throws IOException {
        Path p = file("multi.yaml", SMALL + "---\nname: other\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":7:1: a second YAML document starts here; put one scenario in a file");
    }

    @Test
    void an_unknown_key_with_a_suggestion() throws IOException {
        Path p = file("unknown.yaml", SMALL + "limits: {maxTimeMs: 3}\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":6:10: limits.maxTimeMs: unknown key, did you mean 'maxTimeUs'? (allowed keys: maxTimeUs)");
        Path q = file("unknown-top.yaml", "topolgy: {k: 4}\n");
        assertThat(badInput(q)).startsWith("lbsim: " + q + ":1:1: topolgy: unknown key, did you mean 'topology'? (allowed keys: name, seed, topology,");
    }

    @Test
    void an_unknown_type_name_with_a_suggestion() throws IOException {
        Path p = file("type.yaml", SMALL.replace("type: host-spray", "type: host-spary"));
        assertThat(badInput(p)).startsWith("lbsim: " + p + ":4:17: loadBalancing.type: unknown load-balancing scheme 'host-spary', did you mean 'host-spray'? (allowed: ecmp, ");
        Path q = file("topo.yaml", SMALL.replace("type: fat-tree", "type: fattree"));
        assertThat(badInput(q)).startsWith("lbsim: " + q + ":3:12: topology.type: unknown topology type 'fattree', did you mean 'fat-tree'? (allowed: fat-tree, leaf-spine");
    }

    @Test
    void a_wrong_value_type() throws IOException {
        Path p = file("wrong.yaml", SMALL.replace("k: 4", "k: four"));
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":3:28: topology.k: expected an integer, got the string \"four\"");
        Path q = file("frac.yaml", SMALL.replace("messageBytes: 65536", "messageBytes: 1.5"));
        assertThat(badInput(q)).isEqualTo("lbsim: " + q + ":5:31: workload.messageBytes: expected an integer, got the fractional number 1.5");
        Path r = file("map.yaml", SMALL + "failures: {links: {a: e0, b: a0}}\n");
        assertThat(badInput(r)).isEqualTo("lbsim: " + r + ":6:12: failures.links: expected a list, got a map");
    }

    @Test
    void an_odd_k() throws IOException {
        Path p = file("odd.yaml", SMALL.replace("k: 4", "k: 5"));
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":3:28: topology.k: must be an even integer between 2 and 128, got 5");
    }

    @Test
    void a_failed_link_that_does_not_exist() throws IOException {
        Path p = file("link.yaml", SMALL + "failures:\n  links:\n    - {a: e0, b: a0}\n    - {a: e0, b: c0}\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":9:7: failures.links[1]: there is no link between e0 and c0");
        Path q = file("switch.yaml", SMALL + "failures:\n  links:\n    - {a: e9, b: a0}\n");
        assertThat(badInput(q)).isEqualTo("lbsim: " + q + ":8:8: failures.links[0].a: no switch named 'e9' in this fat-tree (switches are named e0 .. c3)");
    }

    @Test
    void a_negative_size() throws IOException {
        Path p = file("neg.yaml", SMALL.replace("messageBytes: 65536", "messageBytes: -4096"));
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":5:31: workload.messageBytes: must be >= 1 byte, got -4096");
    }

    @Test
    void more_workload_hosts_than_the_fabric_has() throws IOException {
        Path p = file("hosts.yaml", SMALL.replace("messageBytes: 65536", "messageBytes: 65536, hosts: 17"));
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":5:52: workload.hosts: must be <= the 16 hosts of the topology, got 17");
    }

    @Test
    void a_malformed_csv_trace_row() throws IOException {
        file("t.csv", "src,dst,bytes,start_ns\n0,1,4096,0\n1,x,4096,0\n");
        Path p = file("trace.yaml", "topology: {k: 4}\nworkload: {type: trace, file: t.csv}\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + dir.resolve("t.csv") + ":3: dst: must be an integer between 0 and 15, got 'x'");
        file("t2.csv", "src,dst,bytes\n");
        Path q = file("trace2.yaml", "topology: {k: 4}\nworkload: {type: trace, file: t2.csv}\n");
        assertThat(badInput(q)).isEqualTo("lbsim: " + dir.resolve("t2.csv")
                + ":1: header must name the columns src,dst,bytes,start_ns and optionally class, got 'src,dst,bytes'");
    }

    @Test
    void a_missing_trace_file() throws IOException {
        Path p = file("notrace.yaml", "topology: {k: 4}\nworkload: {type: trace, file: missing.csv}\n");
        assertThat(badInput(p)).isEqualTo("lbsim: " + p + ":2:25: workload.file: no such file: " + dir.resolve("missing.csv"));
    }

    @Test
    void an_unknown_set_path_names_the_set_argument() throws IOException {
        Path p = file("ok.yaml", SMALL);
        assertThat(badInput(p, "--set", "topology.kk=6")).isEqualTo(
                "lbsim: --set topology.kk=6: topology.kk: unknown key, did you mean 'k'? (allowed keys for fat-tree: type, k, hostsPerEdge, nicsPerServer, hostLink, edgeAggLink, aggCoreLink)");
        assertThat(badInput(p, "--set", "workload.messageBytes=-1")).isEqualTo(
                "lbsim: --set workload.messageBytes=-1: workload.messageBytes: must be >= 1 byte, got -1");
        assertThat(badInput(p, "--set", "topology.k.x=1")).isEqualTo(
                "lbsim: --set topology.k.x=1: topology.k: is the integer 4, not a map, so it has no key 'x'");
        assertThat(badInput(p, "--set", "topology.k")).isEqualTo("lbsim: --set topology.k: expected PATH=VALUE, such as topology.k=4");
        assertThat(badInput(p, "--set", "failures.links[0].a=e9", "--set", "failures.links[0].b=a0")).isEqualTo(
                "lbsim: --set failures.links[0].a=e9: failures.links[0].a: no switch named 'e9' in this fat-tree (switches are named e0 .. c3)");
        assertThat(badInput(p, "--set", "topology.type=leaf-spine")).isEqualTo(
                "lbsim: --set topology.type=leaf-spine: topology.k: unknown key for leaf-spine, it belongs to fat-tree: add 'type: fat-tree'"
                        + " (allowed keys for leaf-spine: type, hostsPerLeaf, nicsPerServer, leaves, spines, linksPerLeafSpine, hostLink, leafSpineLink)");
    }

    @Test
    void bad_command_line_flags_name_the_command() throws IOException {
        Path p = file("ok.yaml", SMALL);
        Path out = dir.resolve("out");
        assertThat(lbsim("run", p.toString(), "--out", out.toString(), "--frobnicate").errorLine())
                .isEqualTo("lbsim: Unknown option: '--frobnicate' (see 'lbsim run --help')");
        assertThat(lbsim("run", p.toString(), "--out", out.toString(), "--seed", "abc").errorLine())
                .isEqualTo("lbsim: Invalid value for option '--seed': 'abc' is not a whole number; write a decimal number, such as 10, -3 or 1.5e-3 (see 'lbsim run --help')");
        assertThat(lbsim("run", "--out", out.toString()).errorLine())
                .isEqualTo("lbsim: Missing required parameter: 'FILE' (see 'lbsim run --help')");
        assertThat(lbsim("run", p.toString(), p.toString(), "--out", out.toString()).errorLine())
                .startsWith("lbsim: Unmatched argument at index 2: '" + p + "' (see 'lbsim run --help')");
        assertThat(lbsim("rnu", p.toString()).errorLine())
                .startsWith("lbsim: unknown command 'rnu', did you mean 'run'? (commands: run, validate, ").endsWith("; see 'lbsim --help')");
        assertThat(lbsim().errorLine())
                .isEqualTo("lbsim: missing command: lbsim run FILE.yaml, or lbsim validate FILE.yaml (see 'lbsim --help')");
        assertThat(out).doesNotExist();
    }

    @Test
    void an_existing_out_folder_is_not_overwritten() throws IOException {
        Path p = file("ok.yaml", SMALL);
        Path out = Files.createDirectory(dir.resolve("taken"));
        Files.writeString(out.resolve("keep.txt"), "mine");
        assertThat(lbsim("run", p.toString(), "--out", out.toString()).errorLine())
                .isEqualTo("lbsim: " + out + ": already exists; choose another --out or remove it");
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(x -> x.getFileName().toString())).containsExactly("keep.txt");
        }
    }

    @Test
    void an_internal_error_is_one_line_with_exit_code_1_and_a_stack_trace_only_with_debug() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(Failures.report(new IllegalStateException("boom\nsecond line"), false, e).status()).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
                "lbsim: internal error: java.lang.IllegalStateException: boom second line (run with --debug for the stack trace)" + System.lineSeparator());
        err.reset();
        assertThat(Failures.report(new IllegalStateException("boom"), true, e).status()).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("lbsim: internal error: java.lang.IllegalStateException: boom"
                + System.lineSeparator() + "java.lang.IllegalStateException: boom").contains("\tat ");
    }

    // --- good input --------------------------------------------------------------------------

    @Test
    void validate_reports_hosts_and_flows() throws IOException {
        Path p = file("ok.yaml", SMALL);
        Result r = lbsim("validate", p.toString());
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).isEqualTo(p + ": ok (16 hosts, 16 flows)" + System.lineSeparator());
        Result s = lbsim("validate", p.toString(), "--set", "workload.hosts=6", "--set", "topology.k=6");
        assertThat(s.out()).isEqualTo(p + ": ok (54 hosts, 6 flows)" + System.lineSeparator());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"run", "sweep", "query", "plot", "report", "reproduce", "list", "explain", "init",
        "validate", "export"})
    void every_subcommand_help_has_an_example_and_sentences_that_wrap_instead_of_breaking(String command) {
        Result help = lbsim(command, "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Examples:").contains("  lbsim " + command);
        // a description line cut mid-sentence shows as a short line followed by one that starts in lower case
        List<String> lines = help.out().lines().toList();
        int end = lines.indexOf(lines.stream().filter(l -> l.startsWith("  ") || l.startsWith("      ")).findFirst().orElse(""));
        for (int i = 1; i < end; i++) {
            String prev = lines.get(i - 1);
            String line = lines.get(i);
            boolean continues = !line.isEmpty() && Character.isLowerCase(line.charAt(0));
            assertThat(continues && prev.length() < 60).as("line %d of '%s --help' breaks a sentence:%n%s%n%s", i, command, prev, line).isFalse();
        }
    }

    @Test
    void every_error_of_a_scenario_or_sweep_file_is_reported_at_once_one_line_each() throws IOException {
        Path dir = Files.createTempDirectory("lbsim-errors");
        Path scenario = dir.resolve("bad.yaml");
        Files.writeString(scenario, "topology: {type: fat-tree, k: 5}\nworkload: {type: permutation, messageBytes: -1}\nloadBalancing: {type: nosuch}\n");
        Result run = lbsim("run", scenario.toString(), "--out", dir.resolve("out").toString());
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(dir.resolve("out")).doesNotExist();
        // each at its field's line and column
        assertThat(run.err().strip().lines().toList()).hasSize(3).anyMatch(l -> l.startsWith("lbsim: " + scenario + ":1:28: topology.k:"))
                .anyMatch(l -> l.startsWith("lbsim: " + scenario + ":2:31: workload.messageBytes:"))
                .anyMatch(l -> l.startsWith("lbsim: " + scenario + ":3:17: loadBalancing.type:"));

        Path sweep = dir.resolve("sweep.yaml");
        Files.writeString(sweep, "name: bad\nbase:\n  topology: {type: fat-tree, k: 4}\n  workload: {type: permutation, messageBytes: 65536}\n"
                + "  switches: {ecn: {kminBytes: -5}}\ngrid:\n  loadBalancing.type: [ecmp, host-spray, nosuch]\n  topology.k: [4, 5]\nseeds: 2\n");
        Result sw = lbsim("sweep", sweep.toString(), "--out", dir.resolve("sw").toString());
        assertThat(sw.code()).isEqualTo(2);
        // three distinct errors, each once with the first point that shows it (not one per run)
        // each at the line and column of the value behind it: the base's field, or the grid value of the point
        assertThat(sw.err().strip().lines().toList()).hasSize(3)
                .anyMatch(l -> l.startsWith("lbsim: " + sweep + ":5:20: point 0 ") && l.contains("switches.ecn.kminBytes: must be >= 0"))
                .anyMatch(l -> l.startsWith("lbsim: " + sweep + ":8:19: point 1 ") && l.contains("topology.k: must be an even integer"))
                .anyMatch(l -> l.startsWith("lbsim: " + sweep + ":7:42: point 4 ") && l.contains("loadBalancing.type: unknown"));
        assertThat(dir.resolve("sw/results.duckdb")).doesNotExist();
    }

    @Test
    void help_and_version_exit_with_zero() {
        Result help = lbsim("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: lbsim").contains("run").contains("validate");
        Result version = lbsim("--version");
        assertThat(version.code()).isZero();
        assertThat(version.out().strip()).matches("lbsim \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?( \\(commit [0-9a-f]{12}(, modified)?\\))?");
    }

    @Test
    void a_command_line_that_names_one_command_gets_it_with_its_inherited_options_and_help_still_lists_all() throws IOException {
        List<String> commands = List.of("run", "validate", "init", "list", "explain", "sweep", "query", "export", "plot", "report", "reproduce");
        Result help = lbsim("--help");
        assertThat(help.out().lines().map(String::strip).filter(l -> !l.isEmpty()).map(l -> l.split("\\s+")[0]))
                .as("lbsim --help lists every command, in order").containsSubsequence(commands);
        for (String c : commands) {
            Result r = lbsim(c, "--help");
            assertThat(r.code()).as(c).isZero();
            assertThat(r.out()).as(c).startsWith("Usage: lbsim " + c);
        }
        Path p = file("ok.yaml", SMALL);
        String ok = p + ": ok (16 hosts, 16 flows)" + System.lineSeparator();
        assertThat(lbsim("--debug", "validate", p.toString()).out()).isEqualTo(ok);
        assertThat(lbsim("validate", "--debug", p.toString()).out()).isEqualTo(ok);
    }
}
