package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioTree;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.plot.TestResultsDb;

/**
 * A generated corpus of hostile inputs (seeded): mutations of valid scenarios (one or two fields set
 * to wrong types, extremes, overflows, zero and sub-picosecond periods), of CSV traces, of sweep
 * files, of the bytes of a scenario (encodings, control characters), unquoted values as editors leave
 * them (leading zeros, hex, underscores, aliases, tags: an ambiguous number must be refused), timers
 * at and below what the fabric resolves, and names carrying terminal escapes (never printed raw). Every case goes through
 * {@link Main#execute} under a wall-clock cap and must end with exit 0 and a run that says how it
 * ended (a completed run no faster than its lower bound), or exit 2 with one line per error and no output;
 * never a hang, an internal error (exit 1) or a stack trace.
 */
class HostileCorpusTest {
    private static final long SEED = 11;
    private static final String LEAF = " ~field ";
    private static final int SCENARIO_CASES = 700;
    private static final int TRACE_CASES = 180;
    private static final int SWEEP_CASES = 60;
    private static final int BYTE_CASES = 100;
    private static final int RAW_CASES = 160;
    private static final int TIMER_CASES = 60;
    private static final int NAME_CASES = 40;
    private static final int SQL_CASES = 80;
    /** Generous: a case takes milliseconds; only a hang or a runaway run comes near it. */
    private static final Duration CAP = Duration.ofSeconds(30);

    @TempDir
    static Path dir;

    /** One case: files to write, the command line (with {@code @DIR} for the case's folder) and what it mutated. */
    record Case(String id, Map<String, byte[]> files, List<String> args, String mutated, boolean mustRefuse) {
        Case(String id, Map<String, byte[]> files, List<String> args, String mutated) {
            this(id, files, args, mutated, false);
        }

        @Override
        public String toString() {
            return id + " " + mutated;
        }
    }

    static final String BASE_FAT_TREE = """
            name: corpus-ft
            seed: 5
            topology: {type: fat-tree, k: 4}
            loadBalancing: {type: host-spray}
            workload: {type: permutation, messageBytes: 8192}
            limits: {maxTimeUs: 2000}
            """;
    static final String BASE_LEAF_SPINE = """
            name: corpus-ls
            topology: {type: leaf-spine, hostsPerLeaf: 2, leaves: 2, spines: 2}
            loadBalancing: {type: ar}
            congestionControl: {type: dcqcn}
            lossRecovery: {type: sack}
            switches: {pfc: {enabled: true}}
            workload: {type: all-to-all, messageBytes: 4096}
            failures: {dropPackets: [{qp: 0, psn: 1}]}
            limits: {maxTimeUs: 2000}
            """;
    static final String BASE_TRACE = """
            name: corpus-trace
            topology: {type: custom, hosts: 3, switches: [s0, s1], links: [h0 s0, h1 s0, h2 s1, s0 s1], linkRateGbps: 100, linkDelayNs: 200, routes: []}
            lossRecovery: {type: nic-sr}
            workload: {type: trace, file: t.csv}
            limits: {maxTimeUs: 2000}
            """;
    static final String TRACE = "src,dst,bytes,start_ns\n0,1,8192,0\n1,2,4096,100.5\n2,0,12000,250\n";

    /** Values that have broken simulators: wrong types, extremes, overflow, sub-picosecond times; sentinels become YAML tokens. */
    static final List<Object> VALUES = List.of(0, -1, 1, 2, 3, 0.5, 1e-7, 1e-13, 1e-30, 1e30, 1e308, -1e308, 2147483647, 2147483648L,
            4294967296L, 9223372036854775807L, -9223372036854775807L, 17592186044416L, 1099511627776L, 65537, 1000000, 4.5e15,
            "@NAN@", "@INF@", "@-INF@", "", "x", "ecmp", "h0 h0", "s0 h1 s0", "e0", "a".repeat(5000), "\u00e9\u4e2d", true, false,
            "@NULL@", List.of(), Map.of(), List.of(1, 2), Map.of("type", "nope"), List.of(Map.of("a", "e0", "b", "a0")),
            List.of(Map.of("qp", 0, "psn", 2147483647)));

    static Stream<Case> corpus() {
        Random rng = new Random(SEED);
        List<Case> cases = new ArrayList<>();
        String[] bases = {BASE_FAT_TREE, BASE_LEAF_SPINE, BASE_TRACE};
        List<Map<String, Object>> trees = new ArrayList<>();
        List<List<List<Object>>> leaves = new ArrayList<>();
        for (String b : bases) {
            Map<String, Object> tree = ScenarioTree.toTree(ScenarioBinder.bind(Yaml.parse(b, "base")));
            trees.add(tree);
            List<List<Object>> paths = new ArrayList<>();
            collect(tree, new ArrayList<>(), paths);
            leaves.add(paths);
        }
        for (int i = 0; i < SCENARIO_CASES; i++) {
            int b = rng.nextInt(bases.length);
            Map<String, Object> tree = SweepFile.copy(trees.get(b));
            List<List<Object>> paths = leaves.get(b);
            int n = rng.nextInt(4) == 0 ? 2 : 1;
            StringBuilder what = new StringBuilder();
            String leaf = "";
            for (int m = 0; m < n; m++) {
                List<Object> path = paths.get(rng.nextInt(paths.size()));
                // sometimes a whole map, not a leaf: wrong types one level up
                if (path.size() > 1 && rng.nextInt(6) == 0) {
                    path = path.subList(0, path.size() - 1);
                }
                Object value = VALUES.get(rng.nextInt(VALUES.size()));
                set(tree, path, value);
                leaf = String.valueOf(path.get(path.size() - 1));
                what.append(what.length() == 0 ? "" : ", ").append(pathText(path)).append('=').append(shortText(value));
            }
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put("s.yaml", yaml(tree).getBytes(StandardCharsets.UTF_8));
            files.put("t.csv", TRACE.getBytes(StandardCharsets.UTF_8));
            cases.add(new Case("scenario-" + i, files, run(), n == 1 ? what + LEAF + leaf : what.toString()));
        }
        String[] cells = {"-1", "0", "3", "16", "9223372036854775807", "9223372036854775808", "1e300", "NaN", "Infinity", "", "0x10", " 1 ",
                "1.5", "1e-30", "2147483648", "1152921504606", "99999999999999999999", "\u00e9", "1,2", "\"1\"", "9.2e18", "1e12"};
        for (int i = 0; i < TRACE_CASES; i++) {
            String[] rows = TRACE.split("\n");
            int row = 1 + rng.nextInt(rows.length - 1);
            String[] c = rows[row].split(",", -1);
            int col = rng.nextInt(c.length);
            c[col] = cells[rng.nextInt(cells.length)];
            rows[row] = String.join(",", c);
            String text = String.join("\n", rows) + "\n";
            switch (rng.nextInt(8)) {
                case 0 -> text = "\uFEFF" + text;
                case 1 -> text = text.replace("\n", "\r\n");
                case 2 -> text = rows[0] + "\n";
                case 3 -> text = text.replace("start_ns", "start_us");
                default -> { }
            }
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put("s.yaml", BASE_TRACE.getBytes(StandardCharsets.UTF_8));
            files.put("t.csv", text.getBytes(StandardCharsets.UTF_8));
            cases.add(new Case("trace-" + i, files, run(), "t.csv row " + row + " col " + col + " = " + c[col]));
        }
        String[] gridKeys = {"topology", "topology.k", "workload.messageBytes", "workload", "seed", "loadBalancing.type", "limits.maxTimeUs",
                "metrics.sampleIntervalUs", "name", "topology[0]", "failures.links[0].a", "bad key"};
        for (int i = 0; i < SWEEP_CASES; i++) {
            StringBuilder sw = new StringBuilder("name: corpus-sweep\nbaseFile: base.yaml\n");
            String g1 = gridKeys[rng.nextInt(gridKeys.length)];
            String g2 = gridKeys[rng.nextInt(gridKeys.length)];
            sw.append("grid:\n  ").append(flowKey(g1)).append(": [").append(yamlFlow(VALUES.get(rng.nextInt(VALUES.size()))))
                    .append(", ").append(yamlFlow(VALUES.get(rng.nextInt(VALUES.size())))).append("]\n");
            if (rng.nextBoolean()) {
                sw.append("points:\n  - {").append(flowKey(g2)).append(": ").append(yamlFlow(VALUES.get(rng.nextInt(VALUES.size())))).append("}\n");
            }
            if (rng.nextInt(4) == 0) {
                sw.append("seeds: ").append(yamlFlow(VALUES.get(rng.nextInt(VALUES.size())))).append('\n');
            }
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put("base.yaml", BASE_FAT_TREE.getBytes(StandardCharsets.UTF_8));
            files.put("sw.yaml", sw.toString().replace("@NAN@", ".nan").replace("@-INF@", "-.inf").replace("@INF@", ".inf")
                    .replace("@NULL@", "null").getBytes(StandardCharsets.UTF_8));
            cases.add(new Case("sweep-" + i, files, List.of("sweep", "@DIR/sw.yaml", "--out", "@DIR/out", "--jobs", "1", "--quiet",
                    "--max-wall-seconds", "5"), sw.toString().replace("\n", " | ")));
        }
        byte[] valid = BASE_FAT_TREE.getBytes(StandardCharsets.UTF_8);
        byte[][] inserts = {{0}, {(byte) 0xE9}, {(byte) 0xFE, (byte) 0xFF}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {'\t'}, {'\r'}, {':'},
                {'-', ' '}, {'&', 'a'}, {'*', 'a'}, {'!', '!', 'f'}, {'{'}, {']'}, {'#'}, {'\n'}, {'"'}, {'\''}, {'%'}, {'@'}, {'`'}};
        for (int i = 0; i < BYTE_CASES; i++) {
            int at = rng.nextInt(valid.length + 1);
            byte[] ins = inserts[rng.nextInt(inserts.length)];
            byte[] bytes = new byte[valid.length + ins.length];
            System.arraycopy(valid, 0, bytes, 0, at);
            System.arraycopy(ins, 0, bytes, at, ins.length);
            System.arraycopy(valid, at, bytes, at + ins.length, valid.length - at);
            if (rng.nextInt(5) == 0) { // the whole file in UTF-16
                bytes = new String(valid, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16);
            }
            cases.add(new Case("bytes-" + i, Map.of("s.yaml", bytes), run(), "insert " + java.util.Arrays.toString(ins) + " at " + at));
        }
        // unquoted values as an editor leaves them: the forms readers disagree on must be refused, never read one way
        String[] ambiguous = {"010", "0x400", "1_024", "1:30", "0o17", "0b101", "007", "-010", "00", "1__0"};
        String[] other = {".inf", "-.inf", ".nan", "yes", "no", "on", "~", "1e400", "1e-400", "*undefined", "!!int 7", "!foo 3", "[*a]",
                "9007199254740993", "1.0e3", "+5", "0.5e-3", "1e-6", "12abc", "4KiB", "4kib", "100gbps", "0010KiB"};
        for (int i = 0; i < RAW_CASES; i++) {
            int b = rng.nextInt(bases.length);
            Map<String, Object> tree = SweepFile.copy(trees.get(b));
            List<List<Object>> paths = leaves.get(b);
            List<Object> path = paths.get(rng.nextInt(paths.size()));
            boolean amb = rng.nextInt(3) == 0;
            String raw = amb ? ambiguous[rng.nextInt(ambiguous.length)] : other[rng.nextInt(other.length)];
            set(tree, path, "@RAW@");
            String text = yaml(tree).replaceFirst("[\"']?@RAW@[\"']?", java.util.regex.Matcher.quoteReplacement(raw));
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put("s.yaml", text.getBytes(StandardCharsets.UTF_8));
            files.put("t.csv", TRACE.getBytes(StandardCharsets.UTF_8));
            // an ambiguous number in a field that takes a number or a name must be refused, whatever the field
            cases.add(new Case("raw-" + i, files, run(), pathText(path) + "=" + raw + (amb ? LEAF + path.get(path.size() - 1) : ""),
                    amb || raw.equals("*undefined")));
        }
        // timers below what the fabric can resolve, or at its edge: refused before building, or a run that ends
        String[] timers = {"lossRecovery.rtoUs", "switches.pfc.deadlockCheckUs", "congestionControl.rateIncreaseTimerUs",
                "congestionControl.alphaUpdateUs", "congestionControl.rateDecreaseIntervalUs", "lossRecovery.minRtoUs"};
        Object[] tiny = {1e-6, 1e-3, 0.001, 0.01, 0.1, 0.0825, 1, 1e-9};
        for (int i = 0; i < TIMER_CASES; i++) {
            Map<String, Object> tree = SweepFile.copy(trees.get(1));
            String key = timers[rng.nextInt(timers.length)];
            Object v = tiny[rng.nextInt(tiny.length)];
            List<Object> path = new ArrayList<>(List.of((Object[]) key.split("\\.")));
            setCreating(tree, path, v);
            cases.add(new Case("timer-" + i, Map.of("s.yaml", yaml(tree).getBytes(StandardCharsets.UTF_8)), run(), key + "=" + v + LEAF
                    + path.get(path.size() - 1)));
        }
        // names carrying terminal escapes, control characters and line breaks: never printed raw
        String[] hostileNames = {"x\u001b[2J", "x\u001b]0;pwned\u0007", "a\u0000b", "a\rb", "line\nbreak", "\u009b31m", "tab\there", "\u202eevil"};
        for (int i = 0; i < NAME_CASES; i++) {
            Map<String, Object> tree = SweepFile.copy(trees.get(0));
            tree.put("name", hostileNames[rng.nextInt(hostileNames.length)] + (rng.nextBoolean() ? "" : "-" + i));
            cases.add(new Case("name-" + i, Map.of("s.yaml", yaml(tree).getBytes(StandardCharsets.UTF_8)), run(), "name=" + tree.get("name")));
        }
        // options that reach SQL, as token soups around the statements that would write: refused or drawn, never written
        String[] tokens = {")", "(", ";", "--", "/*", "*/", "'", "\"", "1=1", "OR", "UNION ALL SELECT * FROM runs", "COPY runs TO '@DIR/victim.txt'",
                "ATTACH '@DIR/x.db' AS x", "DROP TABLE runs", "SET enable_external_access = true", "read_text('@DIR/victim.txt')", "\n",
                "SELECT 1", "messageBytes", "cct_ps", "\u0000", "\u00e9"};
        String[] options = {"--where", "--y", "--x", "--by", "--title"};
        for (int i = 0; i < SQL_CASES; i++) {
            StringBuilder soup = new StringBuilder();
            for (int t = 0, n = 1 + rng.nextInt(6); t < n; t++) {
                soup.append(tokens[rng.nextInt(tokens.length)]).append(rng.nextBoolean() ? " " : "");
            }
            String option = options[rng.nextInt(options.length)];
            List<String> args = new ArrayList<>(List.of("plot", "@DIR/results.duckdb", "--out", "@DIR/p.png"));
            if (!option.equals("--x")) {
                args.addAll(List.of("--x", "messageBytes"));
            }
            args.addAll(List.of(option, soup.toString()));
            cases.add(new Case("sql-" + i, Map.of("victim.txt", "mine\n".getBytes(StandardCharsets.UTF_8)), args, option + " " + soup));
        }
        return cases.stream();
    }

    /** Sets a value at a path, making the maps on the way. */
    @SuppressWarnings("unchecked")
    private static void setCreating(Map<String, Object> root, List<Object> path, Object value) {
        Map<String, Object> node = root;
        for (int i = 0; i < path.size() - 1; i++) {
            Object next = node.get(String.valueOf(path.get(i)));
            if (!(next instanceof Map<?, ?>)) {
                next = new LinkedHashMap<String, Object>();
                node.put(String.valueOf(path.get(i)), next);
            }
            node = (Map<String, Object>) next;
        }
        node.put(String.valueOf(path.get(path.size() - 1)), value);
    }

    private static List<String> run() {
        return List.of("run", "@DIR/s.yaml", "--out", "@DIR/out", "--max-wall-seconds", "5");
    }

    @ParameterizedTest(name = "{0}")
    @Execution(ExecutionMode.CONCURRENT)
    @MethodSource("corpus")
    void endsWithACorrectRunOrOneLineNamingTheProblem(Case c) throws Exception {
        Path caseDir = dir.resolve(c.id());
        Files.createDirectories(caseDir);
        for (Map.Entry<String, byte[]> f : c.files().entrySet()) {
            Files.write(caseDir.resolve(f.getKey()), f.getValue());
        }
        boolean plot = c.args().get(0).equals("plot");
        if (plot) {
            TestResultsDb.create(caseDir.resolve("results.duckdb"));
        }
        Map<String, String> before = plot ? HostileWritesTest.snapshotOf(caseDir) : Map.of();
        String[] args = c.args().stream().map(a -> a.replace("@DIR", caseDir.toString())).toArray(String[]::new);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = assertTimeoutPreemptively(CAP, () -> {
            try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                 PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                return Main.execute(args, o, e);
            }
        }, () -> "hang: " + c);
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(stderr).as("%s: no stack trace", c).doesNotContain("\tat ").doesNotContain("internal error");
        assertThat(code).as("%s: exit code; stderr: %s", c, stderr).isIn(0, 2);
        assertThat(stdout + stderr).as("%s: no raw control character reaches the terminal", c)
                .doesNotContainPattern("[\\x00-\\x08\\x0B-\\x1F\\x7F\\x{80}-\\x{9F}]");
        if (c.mustRefuse()) {
            assertThat(code).as("%s: an ambiguous value is refused, not read one way; stdout: %s", c, stdout).isEqualTo(2);
        }
        if (plot) {
            Map<String, String> after = HostileWritesTest.snapshotOf(caseDir);
            after.keySet().removeAll(List.of("p.png", "p.csv"));
            assertThat(after).as("%s: the database and every other file as they were", c).isEqualTo(before);
        }
        Path outDir = caseDir.resolve("out");
        if (code == 2) {
            // one line per error (a file with several bad fields reports them all at once), each a whole message
            List<String> lines = stderr.strip().lines().toList();
            assertThat(lines).as("%s: one line per error: %s", c, stderr).isNotEmpty().allMatch(l -> l.startsWith("lbsim: ")).doesNotHaveDuplicates();
            if (c.args().get(0).equals("run")) {
                assertThat(stdout).as("%s: no output", c).isEmpty();
                assertThat(outDir).as("%s: no run folder", c).doesNotExist();
            }
            int leaf = c.mutated().lastIndexOf(LEAF);
            if (leaf >= 0) {
                // a one-field mutation: the message names the mutated field, or the field whose
                // consequence does not fit (such as the workload a smaller fabric cannot carry)
                String key = c.mutated().substring(leaf + LEAF.length());
                assertThat(stderr.contains(key) || stderr.matches("(?s)lbsim: [^ ]*s\\.yaml(:[0-9:]+)?: [a-z][A-Za-z]*([.\\[:]).*"))
                        .as("%s names a field: %s", c, stderr).isTrue();
            }
            return;
        }
        assertThat(stderr).as("%s", c).isEmpty();
        if (c.args().get(0).equals("run")) {
            assertThat(stdout).as("%s", c).contains("ending       ");
            String summary = Files.readString(outDir.resolve("summary.json"));
            String ending = field(summary, "ending");
            assertThat(ending).as("%s", c).isIn("\"completed\"", "\"time-limit\"", "\"wall-limit\"", "\"pfc-deadlock\"", "\"no-route\"", "\"stalled\"");
            long flows = Long.parseLong(field(summary, "flows"));
            long finished = Long.parseLong(field(summary, "flowsFinished"));
            long cct = Long.parseLong(field(summary, "cctPs"));
            long bound = Long.parseLong(field(summary, "lowerBoundPs"));
            assertThat(bound).as("%s: lower bound", c).isPositive();
            if (ending.equals("\"completed\"")) {
                assertThat(finished).as("%s", c).isEqualTo(flows);
                assertThat(cct).as("%s: CCT no faster than its lower bound", c).isGreaterThanOrEqualTo(bound);
            } else {
                assertThat(cct).as("%s", c).isEqualTo(-1);
                assertThat(field(summary, "endingDetail")).as("%s", c).isNotEqualTo("\"\"");
            }
        }
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\": (\"(?:[^\"\\\\]|\\\\.)*\"|-?[0-9]+)").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return m.group(1);
    }

    @SuppressWarnings("unchecked")
    private static void collect(Object node, List<Object> path, List<List<Object>> out) {
        if (node instanceof Map<?, ?> m && !m.isEmpty()) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                List<Object> p = new ArrayList<>(path);
                p.add(String.valueOf(e.getKey()));
                collect(e.getValue(), p, out);
            }
        } else if (node instanceof List<?> l && !l.isEmpty()) {
            for (int i = 0; i < l.size(); i++) {
                List<Object> p = new ArrayList<>(path);
                p.add(i);
                collect(l.get(i), p, out);
            }
        } else {
            out.add(path);
        }
    }

    @SuppressWarnings("unchecked")
    private static void set(Map<String, Object> root, List<Object> path, Object value) {
        Object node = root;
        for (int i = 0; i < path.size() - 1; i++) {
            Object seg = path.get(i);
            Object next = seg instanceof Integer idx ? (node instanceof List<?> l && idx < l.size() ? l.get(idx) : null)
                    : node instanceof Map<?, ?> m ? m.get(seg) : null;
            if (!(next instanceof Map) && !(next instanceof List)) {
                return; // an earlier mutation replaced an ancestor
            }
            node = next;
        }
        Object last = path.get(path.size() - 1);
        if (last instanceof Integer idx && node instanceof List<?> l && idx < l.size()) {
            ((List<Object>) l).set(idx, SweepFile.copy(value));
        } else if (last instanceof String key && node instanceof Map<?, ?> m) {
            ((Map<String, Object>) m).put(key, SweepFile.copy(value));
        }
    }

    private static String yaml(Map<String, Object> tree) {
        String text = Yaml.write(tree);
        return text.replaceAll("[\"']?@NAN@[\"']?", ".nan").replaceAll("[\"']?@-INF@[\"']?", "-.inf").replaceAll("[\"']?@INF@[\"']?", ".inf")
                .replaceAll("[\"']?@NULL@[\"']?", "null");
    }

    private static String yamlFlow(Object v) {
        if (v instanceof String s && !s.startsWith("@")) {
            return "'" + (s.length() > 40 ? s.substring(0, 40) : s).replace("'", "''") + "'";
        }
        return SweepFile.flow(v);
    }

    private static String flowKey(String k) {
        return k.contains(" ") || k.contains("[") ? "'" + k + "'" : k;
    }

    private static String pathText(List<Object> path) {
        StringBuilder sb = new StringBuilder();
        for (Object p : path) {
            sb.append(p instanceof Integer i ? "[" + i + "]" : (sb.length() == 0 ? "" : ".") + p);
        }
        return sb.toString();
    }

    private static String shortText(Object v) {
        String s = String.valueOf(v);
        return s.length() > 30 ? s.substring(0, 30) + "..." : s;
    }
}
