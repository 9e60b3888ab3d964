package org.lbsim.cli;

import org.lbsim.cli.errors.UserError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lbsim.cli.MainTest.lbsim;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.config.Overrides;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;

/**
 * Numbers that mean one thing: a scenario file and {@code --set} read an unquoted value alike and
 * refuse the forms readers disagree on; YAML aliases stand for their values; limits that used to be
 * applied silently (fsdp layers, seeds past 2^63 - 1) are refused with one line.
 */
class HostileNumbersTest {
    /** b.yaml of the hostile-input probe: a k = 4 fat tree, host-spray, a 64 KiB permutation. */
    static final String B = """
            name: b
            seed: 5
            topology: {type: fat-tree, k: 4}
            loadBalancing: {type: host-spray}
            workload: {type: permutation, messageBytes: 65536}
            limits: {maxTimeUs: 2000}
            """;

    @TempDir
    Path dir;

    Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /** The one error line of {@code run} (no run folder) and of {@code validate}, which must agree. */
    String refused(Path scenario, String... extra) {
        Path out = dir.resolve("out");
        List<String> run = new ArrayList<>(List.of("run", scenario.toString(), "--out", out.toString()));
        run.addAll(List.of(extra));
        String line = lbsim(run.toArray(String[]::new)).errorLine();
        assertThat(out).doesNotExist();
        List<String> validate = new ArrayList<>(List.of("validate", scenario.toString()));
        validate.addAll(List.of(extra));
        assertThat(lbsim(validate.toArray(String[]::new)).errorLine()).isEqualTo(line);
        return line;
    }

    @ParameterizedTest
    @ValueSource(strings = {"010", "0x400", "1_024", "1:30", "0o2000", "0b10000000000", "08", "-010", ".inf", ".nan", "1e400"})
    void anAmbiguousNumberIsRefusedAlikeInTheFileAndInSet(String text) throws IOException {
        Path f = file("b.yaml", B.replace("messageBytes: 65536", "messageBytes: " + text));
        String fromFile = refused(f);
        assertThat(fromFile).startsWith("lbsim: " + f + ":5:45: workload.messageBytes: ");
        Path ok = file("ok.yaml", B);
        String fromSet = refused(ok, "--set", "workload.messageBytes=" + text);
        assertThat(fromSet).startsWith("lbsim: --set workload.messageBytes=" + text + ": workload.messageBytes: ");
        // the same problem, whichever way the value came
        assertThat(fromSet.substring(fromSet.indexOf("workload.messageBytes: "))).isEqualTo(fromFile.substring(fromFile.indexOf("workload.messageBytes: ")));
    }

    @Test
    void theProbesLeadingZeroNoLongerRunsAsEight() throws IOException {
        Path f = file("b.yaml", B.replace("messageBytes: 65536", "messageBytes: 010"));
        assertThat(refused(f)).isEqualTo("lbsim: " + f + ":5:45: workload.messageBytes: '010' has a leading zero, which YAML 1.1 reads as octal (8)"
                + " and other readers as 10; numbers are written in decimal, such as 10, -3, 0.5 or 1.5e-3; quote a value to keep it as text");
    }

    /** Every plain decimal, sign, exponent and unit form gives the same scenario from the file as from --set. */
    @Test
    void fileAndSetBindToTheSameScenario() {
        Random rng = new Random(15);
        List<String> values = new ArrayList<>(List.of("65536", "+65536", "65536.0", "6.5536e4", "6.5536E+4", "64KiB", "0.0625MiB", "1e5", "4096", "1.0E+6"));
        for (int i = 0; i < 200; i++) {
            values.add(Integer.toString(1 + rng.nextInt(1 << 20)));
        }
        Map<String, Object> base = tree(B);
        for (String v : values) {
            Scenario fromFile = ScenarioBinder.bind(Yaml.parse(B.replace("messageBytes: 65536", "messageBytes: " + v), "b.yaml"));
            Scenario fromSet = ScenarioBinder.bind(Overrides.apply(base, List.of("workload.messageBytes=" + v)));
            assertThat(fromSet).as(v).isEqualTo(fromFile);
        }
        for (String v : List.of("0.5", ".5", "5.", "1e-3", "2.5E+2", "100", "-0")) {
            String yaml = B + "metrics: {sampleIntervalUs: " + v + "}\n";
            Object fromFile = ((Map<?, ?>) ((Map<?, ?>) Yaml.parse(yaml, "b.yaml")).get("metrics")).get("sampleIntervalUs");
            assertThat(Overrides.scalar(v)).as(v).isEqualTo(fromFile);
        }
    }

    @Test
    void sweepGridValuesFollowTheSameRule() throws IOException {
        file("base.yaml", B);
        Path sweep = file("sw.yaml", """
                baseFile: base.yaml
                grid:
                  workload.messageBytes: [65536, 010]
                """);
        Path out = dir.resolve("sw-out");
        String line = lbsim("sweep", sweep.toString(), "--out", out.toString()).errorLine();
        assertThat(line).startsWith("lbsim: " + sweep + ":3:34: grid.workload.messageBytes[1]: '010' has a leading zero");
        assertThat(out).doesNotExist();
        Path good = file("good.yaml", "baseFile: base.yaml\ngrid:\n  workload.messageBytes: [4096, 1.6384e4, 64KiB]\n");
        SweepFile s = SweepFile.load(good.toString(), null, false);
        assertThat(s.points).extracting(p -> ((WorkloadSpec.Permutation) p.scenario().workload()).messageBytes())
                .containsExactly(4096L, 16384L, 65536L);
        assertThat(s.only(List.of("workload.messageBytes=4096")).points).hasSize(1);
        assertThatThrownBy(() -> s.only(List.of("workload.messageBytes=04096"))).isInstanceOf(UserError.class)
                .hasMessageStartingWith("--only workload.messageBytes=04096: workload.messageBytes: '04096' has a leading zero");
    }

    @Test
    void anUndefinedAliasIsAnErrorNotItsLabel() throws IOException {
        Path f = file("alias.yaml", B.replace("name: b", "name: *nm"));
        assertThat(refused(f)).isEqualTo("lbsim: " + f + ":1:7: name: the alias *nm has no anchor &nm before it; define the value with &nm first,"
                + " or quote \"*nm\" to mean text");
    }

    @Test
    void definedAliasesStandForTheirValues() throws IOException {
        String yaml = """
                name: &label the-run
                seed: 5
                topology: {type: fat-tree, k: &k 4}
                workload:
                  type: jobs
                  jobs:
                    - {name: trainer, op: all-reduce, bytes: &size 65536, hosts: *k}
                    - {name: *label, op: all-reduce, bytes: *size, hosts: 4}
                limits: &limits {maxTimeUs: 2000}
                """;
        Scenario s = ScenarioBinder.bind(Yaml.parse(yaml, "jobs.yaml"));
        List<WorkloadSpec.JobSpec> jobs = ((WorkloadSpec.Jobs) s.workload()).jobs();
        // the job named by alias gets the anchored value, not the anchor's label
        assertThat(jobs).extracting(WorkloadSpec.JobSpec::name).containsExactly("trainer", "the-run");
        assertThat(jobs).extracting(WorkloadSpec.JobSpec::bytes).containsExactly(65536L, 65536L);
        assertThat(jobs.get(0).hosts()).isEqualTo(4);
        assertThat(s.name()).isEqualTo("the-run");
        assertThat(lbsim("validate", file("jobs.yaml", yaml).toString()).code()).isZero();
        // a map by alias is a copy: changing one leaves the other alone
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) Yaml.parse("a: &m {x: 1}\nb: *m\n", "m.yaml");
        assertThat(tree.get("b")).isEqualTo(Map.of("x", 1)).isNotSameAs(tree.get("a"));
    }

    @Test
    void aliasesThatLoopOrExplodeAreRefused() throws IOException {
        Path loop = file("loop.yaml", "name: x\ntopology: &t {type: fat-tree, k: 4, x: *t}\n");
        assertThat(refused(loop)).isEqualTo("lbsim: " + loop + ":2:40: topology.x: the alias *t is inside the value of &t it stands for"
                + " (a value cannot contain itself)");
        StringBuilder bomb = new StringBuilder("name: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'h'; c++) {
            bomb.append(c).append(": &").append(c).append(" [").append(String.join(", ", java.util.Collections.nCopies(10, "*" + (char) (c - 1))))
                    .append("]\n");
        }
        assertThat(refused(file("bomb.yaml", bomb.toString()))).contains("aliases expand the document by more than 100000 values");
        assertThat(refused(file("merge.yaml", "<<: {name: x}\n"))).endsWith("merge keys (<<) are not supported; write the keys out");
    }

    @Test
    void tagsOtherThanYamlsOwnAreRefusedAndTaggedNumbersFollowTheRule() throws IOException {
        assertThat(refused(file("t1.yaml", B.replace("name: b", "name: !foo b")))).endsWith(":1:7: name: the tag !foo is not supported; write the value without a tag");
        assertThat(refused(file("t2.yaml", B.replace("seed: 5", "seed: !!int 010")))).contains(":2:7: seed: '010' has a leading zero");
        assertThat(refused(file("t3.yaml", B.replace("seed: 5", "seed: !!int 1.5")))).contains(":2:7: seed: '1.5' is not a value of the tag !!int");
        assertThat(ScenarioBinder.bind(Yaml.parse(B.replace("name: b", "name: !!str 2024"), "t.yaml")).name()).isEqualTo("2024");
        assertThat(ScenarioBinder.bind(Yaml.parse(B.replace("seed: 5", "seed: !!int 7"), "t.yaml")).seed()).isEqualTo(7);
    }

    @Test
    void yesNoOnOffAreTextAndABooleanFieldSaysSo() throws IOException {
        Path f = file("ecn.yaml", B + "switches: {ecn: {enabled: yes}}\n");
        assertThat(refused(f)).endsWith("switches.ecn.enabled: expected true or false, got the string \"yes\" (write true or false;"
                + " YAML 1.1's yes, no, on and off are text to lbsim)");
        assertThat(ScenarioBinder.bind(Yaml.parse(B.replace("name: b", "name: no"), "n.yaml")).name()).isEqualTo("no");
    }

    @Test
    void fsdpLayersBeyondTheModelAreRefused() throws IOException {
        Path f = file("fsdp.yaml", B.replace("{type: permutation, messageBytes: 65536}", "{type: fsdp, layers: 1000, gpusPerServer: 2}"));
        assertThat(refused(f)).isEqualTo("lbsim: " + f + ":5:24: workload.layers: must be at most 32, the layers llama-7b has (0 = all of them), got 1000");
    }

    @Test
    void seedsThatWouldPassTheLargestLongAreRefused() throws IOException {
        Path base = file("base.yaml", B.replace("seed: 5", "seed: 9223372036854775806"));
        Path sweep = file("seeds.yaml", "baseFile: base.yaml\nseeds: 3\n");
        Path out = dir.resolve("seeds-out");
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString()).errorLine()).isEqualTo("lbsim: " + base + ":2:1 (the baseFile of " + sweep + ":1:1): point 0: seed:"
                + " seed 9223372036854775806 with 3 seeds per point would run seeds up to 9223372036854775808, beyond the largest seed"
                + " 9223372036854775807; use a seed of at most 9223372036854775805");
        assertThat(out).doesNotExist();
        SweepFile two = SweepFile.load(sweep.toString(), 2, false);
        assertThat(two.points.get(0).scenario().seed() + two.seeds - 1).isEqualTo(Long.MAX_VALUE);
    }

    /** Random text built from number characters: the writer quotes whatever the reader would not give back as the same text. */
    @Test
    void everyWrittenStringReadsBackAsItself() {
        Random rng = new Random(16);
        String alphabet = "0123456789._:+-xobeE~<nulyst";
        for (int i = 0; i < 5000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = 1 + rng.nextInt(8); n > 0; n--) {
                sb.append(alphabet.charAt(rng.nextInt(alphabet.length())));
            }
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put(sb.toString(), sb.toString());
            assertThat(Yaml.parse(Yaml.write(tree), "again")).as(sb.toString()).isEqualTo(tree);
        }
    }

    /** Every committed example, reproduction and benchmark scenario reads as the YAML 1.1 reader read it before. */
    @Test
    void committedYamlReadsAsBefore() throws IOException {
        YAMLMapper before = new YAMLMapper();
        List<Path> files = new ArrayList<>();
        for (String folder : List.of("../examples", "src/main/resources/reproduce", "../bench/scenarios")) {
            try (Stream<Path> s = Files.list(Path.of(folder))) {
                s.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(files::add);
            }
        }
        assertThat(files).hasSizeGreaterThan(40);
        for (Path p : files) {
            String text = Files.readString(p);
            assertThat(Yaml.parse(text, p.toString())).as(p.toString()).isEqualTo(before.readValue(text, Object.class));
        }
    }

    private static Map<String, Object> tree(String yaml) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) Yaml.parse(yaml, "b.yaml");
        return m;
    }

    /** Flags read numbers as files do: a leading zero, another radix or digit separators are one line, whatever the command. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"run @F --seed 010", "run @F --seed 0x10", "run @F --threads 02",
        "run @F --max-wall-seconds 1_0", "validate @F --seed 010", "sweep @F --seeds 03", "sweep @F --jobs 0x2"})
    void aFlagsAmbiguousNumberIsRefusedAsInAFile(String line) throws IOException {
        Path f = file("f.yaml", B);
        String[] args = line.replace("@F", f.toString()).split(" ");
        MainTest.Result r = MainTest.lbsim(args);
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains(args[args.length - 2]).contains("write a decimal number");
    }
}
