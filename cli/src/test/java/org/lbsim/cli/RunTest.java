package org.lbsim.cli;

import org.lbsim.cli.store.BuildInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.SMALL;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioTree;
import org.lbsim.scenario.Scenario;
import org.lbsim.cli.files.RunFolder;
import org.lbsim.cli.files.Yaml;

/** {@code lbsim run}: the run folder, overrides, seeds, determinism and re-running the effective scenario. */
class RunTest {
    @TempDir
    Path dir;

    private Path scenario(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    private Path run(Path scenario, String outName, String... extra) {
        Path out = dir.resolve(outName);
        String[] args = Stream.concat(Stream.of("run", scenario.toString(), "--out", out.toString()), Stream.of(extra)).toArray(String[]::new);
        MainTest.Result r = lbsim(args);
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isZero();
        assertThat(r.err()).isEmpty();
        return out;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static Scenario effective(Path runFolder) {
        return ScenarioBinder.bind(Yaml.parse(read(runFolder.resolve("scenario.yaml")), "scenario.yaml"));
    }

    @Test
    void a_run_writes_its_files_and_prints_a_summary() throws IOException {
        // the erasure timer reading sends nothing more on a healthy fabric; the default (the OFAN authors' end of
        // message) keeps sending until the first ACK of a message shorter than a round trip
        Path p = scenario("small.yaml", SMALL + "lossRecovery: {type: erasure, endOfMessage: rto}\n");
        Path out = dir.resolve("run1");
        MainTest.Result r = lbsim("run", p.toString(), "--out", out.toString());
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(x -> x.getFileName().toString())).containsExactlyInAnyOrder("scenario.yaml", "summary.json", "flows.csv", "series.csv", "ooo.csv", "meta.json");
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(x -> x.getFileName().toString())).containsExactlyInAnyOrder("small.yaml", "run1");
        }
        assertThat(r.out()).contains("scenario     small (seed 3)")
                .contains("fabric       fat-tree k=4, 16 hosts, 800 Gb/s host links")
                .contains("scheme       host-spray / fixed-rate / erasure")
                .contains("flows        16 of 16 finished")
                .contains("max queue    ")
                .contains("output       " + out.toAbsolutePath());

        String summary = read(out.resolve("summary.json"));
        // healthy fabric: rho_max is the line rate less the ACKs' share, 800 Gb/s x 4178 / 4262 (docs/lower-bounds.md)
        assertThat(summary).startsWith("{\n  \"scenarioName\": \"small\",\n  \"seed\": 3,\n  \"hosts\": 16,\n  \"flows\": 16,\n  \"flowsFinished\": 16,\n  \"cctPs\": ")
                .contains("\"cctUs\": ", "\"lowerBoundPs\": ", "\"cctIncreasePct\": ", "\"rhoMaxMbps\": 784232,", "\"simulatedPs\": ",
                        "\"layers\": [", "\"layer\": \"E->A\"", "\"counters\": {", "\"events\": ", "\"retransmissions\": 0")
                .doesNotContain(dir.toString()).doesNotContain("wall").doesNotContainPattern("\\d{4}-\\d{2}-\\d{2}").endsWith("}\n");

        List<String> flows = Files.readAllLines(out.resolve("flows.csv"));
        assertThat(flows.get(0)).isEqualTo("flow,src,dst,bytes,start_ps,fct_ps,receiver_done_ps,packets_sent,retransmissions,spurious_retransmissions,duplicates_received,timeouts");
        assertThat(flows).hasSize(17);
        assertThat(flows.get(1)).matches("0,0,\\d+,65536,0,\\d+,\\d+,16,0,0,0,0");

        String meta = read(out.resolve("meta.json"));
        assertThat(meta).contains("\"lbsimVersion\": \"" + BuildInfo.version() + "\"", "\"seed\": 3,", "\"javaVersion\": \"" + System.getProperty("java.version") + "\"",
                "\"wallTimeMs\": ", "\"eventsPerSecond\": ", "\"gitCommit\": \"");
        assertThat(BuildInfo.version()).doesNotContain("${").isNotEqualTo("unknown");

        Scenario s = effective(out);
        assertThat(s.name()).isEqualTo("small");
        assertThat(s.seed()).isEqualTo(3);
        assertThat(s.loadBalancing().type()).isEqualTo("host-spray");
        String yaml = read(out.resolve("scenario.yaml"));
        assertThat(yaml).contains("  type: fat-tree\n  k: 4\n").contains("packets:\n  mtuBytes: 4096\n").contains("congestionControl:\n  type: fixed-rate\n");
    }

    @Test
    void without_threads_a_large_fabric_runs_partitioned_on_every_core_and_a_small_or_unsupported_one_sequentially() throws IOException {
        Path p = scenario("k16.yaml", SMALL.replace("k: 4", "k: 16").replace("65536", "4096"));
        MainTest.Result r = lbsim("run", p.toString(), "--out", dir.resolve("k16").toString());
        assertThat(r.code()).as("stderr: %s", r.err()).isZero();
        String cores = "\"threads\": " + Runtime.getRuntime().availableProcessors();
        assertThat(read(dir.resolve("k16").resolve("meta.json"))).contains("\"kernel\": \"partitioned\"").contains(cores);
        assertThat(lbsim("run", p.toString(), "--out", dir.resolve("k16-auto").toString(), "--threads", "auto").code()).isZero();
        assertThat(read(dir.resolve("k16-auto").resolve("meta.json"))).contains("\"kernel\": \"partitioned\"").contains(cores);
        assertThat(lbsim("run", p.toString(), "--out", dir.resolve("k16-0").toString(), "--threads", "0").code()).isZero();
        assertThat(read(dir.resolve("k16-0").resolve("meta.json"))).contains("\"kernel\": \"sequential\"").contains("\"threads\": 1");
        assertThat(read(dir.resolve("k16-0").resolve("flows.csv"))).as("the same flows either way").isEqualTo(read(dir.resolve("k16").resolve("flows.csv")));
        Path pfc = scenario("k16-pfc.yaml", SMALL.replace("k: 4", "k: 16").replace("65536", "4096") + "switches: {pfc: {enabled: true}}\n");
        assertThat(lbsim("run", pfc.toString(), "--out", dir.resolve("k16-pfc").toString()).code()).isZero();
        assertThat(read(dir.resolve("k16-pfc").resolve("meta.json"))).as("PFC: a partitioned run would refuse it").contains("\"kernel\": \"sequential\"");
        assertThat(lbsim("run", scenario("small.yaml", SMALL).toString(), "--out", dir.resolve("k4").toString()).code()).isZero();
        assertThat(read(dir.resolve("k4").resolve("meta.json"))).as("16 hosts").contains("\"kernel\": \"sequential\"");
    }

    @Test
    void quiet_prints_nothing() throws IOException {
        Path p = scenario("small.yaml", SMALL);
        MainTest.Result r = lbsim("run", p.toString(), "--out", dir.resolve("q").toString(), "--quiet");
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEmpty();
        assertThat(dir.resolve("q").resolve("summary.json")).exists();
    }

    @Test
    void the_same_seed_gives_byte_identical_results_and_another_seed_another_permutation() throws IOException {
        Path p = scenario("small.yaml", SMALL);
        Path a = run(p, "a");
        Path b = run(p, "b");
        Path c = run(p, "c", "--seed", "4");
        assertThat(read(b.resolve("summary.json"))).isEqualTo(read(a.resolve("summary.json")));
        assertThat(read(b.resolve("flows.csv"))).isEqualTo(read(a.resolve("flows.csv")));
        assertThat(read(b.resolve("scenario.yaml"))).isEqualTo(read(a.resolve("scenario.yaml")));
        assertThat(read(c.resolve("flows.csv"))).isNotEqualTo(read(a.resolve("flows.csv")));
        assertThat(read(c.resolve("summary.json"))).contains("\"seed\": 4,");
        assertThat(effective(c).seed()).isEqualTo(4);
        assertThat(read(c.resolve("meta.json"))).contains("\"seed\": 4,");
    }

    @Test
    void set_overrides_reach_the_run_and_the_effective_scenario() throws IOException {
        Path p = scenario("small.yaml", SMALL);
        Path out = run(p, "set", "--set", "workload.hosts=6", "--set", "loadBalancing.type=ecmp", "--set", "name=tuned",
                "--set", "lossRecovery.type=sack", "--set", "lossRecovery.threshold=4");
        Scenario s = effective(out);
        assertThat(s.name()).isEqualTo("tuned");
        assertThat(s.loadBalancing().type()).isEqualTo("ecmp");
        assertThat(s.lossRecovery().type()).isEqualTo("sack");
        assertThat(ScenarioTree.toTree(s).get("lossRecovery")).isEqualTo(Map.of("type", "sack", "threshold", 4, "rtoUs", 80.0, "rtoFrom", "progress"));
        assertThat(read(out.resolve("summary.json"))).contains("\"scenarioName\": \"tuned\",").contains("\"flows\": 6,");
        assertThat(Files.readAllLines(out.resolve("flows.csv"))).hasSize(7);
    }

    @Test
    void the_effective_scenario_re_runs_to_the_identical_summary() throws IOException {
        Path p = scenario("small.yaml", SMALL + "failures: {links: [{a: e0, b: a1}], convergenceDelayNs: 0}\n");
        Path first = run(p, "first", "--set", "workload.messageBytes=20000", "--seed", "11");
        Path again = run(first.resolve("scenario.yaml"), "again");
        assertThat(read(again.resolve("summary.json"))).isEqualTo(read(first.resolve("summary.json"))).contains("\"failedLinks\": 1");
        assertThat(read(again.resolve("flows.csv"))).isEqualTo(read(first.resolve("flows.csv")));
        assertThat(read(again.resolve("scenario.yaml"))).isEqualTo(read(first.resolve("scenario.yaml")));
    }

    @Test
    void a_trace_run_keeps_a_copy_of_the_trace_so_the_folder_re_runs_on_its_own() throws IOException {
        Files.createDirectory(dir.resolve("traces"));
        Files.writeString(dir.resolve("traces/flows.csv"), "src,dst,bytes,start_ns\n0,5,8192,0\n3,1,4096,100.5\n");
        Path p = scenario("trace.yaml", "name: tr\ntopology: {type: leaf-spine, hostsPerLeaf: 2, leaves: 3, spines: 2}\n"
                + "workload: {type: trace, file: traces/flows.csv}\n");
        Path first = run(p, "first");
        assertThat(first.resolve("trace-flows.csv")).hasContent(read(dir.resolve("traces/flows.csv")));
        assertThat(read(first.resolve("scenario.yaml"))).contains("workload:\n  type: trace\n  file: trace-flows.csv\n");
        List<String> flows = Files.readAllLines(first.resolve("flows.csv"));
        assertThat(flows).hasSize(3);
        assertThat(flows.get(2)).startsWith("1,3,1,4096,100500,");
        Path again = run(first.resolve("scenario.yaml"), "again");
        assertThat(read(again.resolve("summary.json"))).isEqualTo(read(first.resolve("summary.json")));
        assertThat(read(again.resolve("flows.csv"))).isEqualTo(read(first.resolve("flows.csv")));
    }

    @Test
    void the_default_folder_is_named_after_scenario_seed_and_time_and_gets_a_suffix_when_taken() throws IOException {
        LocalDateTime t = LocalDateTime.of(2025, 3, 4, 5, 6, 7);
        Path d = RunFolder.defaultDir(dir, "my scenario/1", 42, t);
        assertThat(d).isEqualTo(dir.resolve("runs").resolve("my_scenario_1-seed42-20250304-050607"));
        assertThat(RunFolder.unused(d)).isEqualTo(d);
        Files.createDirectories(d);
        assertThat(RunFolder.unused(d)).isEqualTo(dir.resolve("runs").resolve("my_scenario_1-seed42-20250304-050607-2"));
        Files.createDirectories(RunFolder.unused(d));
        assertThat(RunFolder.unused(d)).isEqualTo(dir.resolve("runs").resolve("my_scenario_1-seed42-20250304-050607-3"));
    }

    @Test
    void a_scenario_survives_yaml_text_and_back() {
        Scenario s = ScenarioBinder.bind(Map.of("name", "2024", "seed", -7,
                "topology", Map.of("type", "leaf-spine", "hostLink", Map.of("rateGbps", 1e-3, "delayNs", 1e8)),
                "metrics", Map.of("sampleIntervalUs", 1e-4),
                "workload", Map.of("type", "trace", "file", "a: b #c.csv"),
                "congestionControl", Map.of("rhoMax", true),
                "failures", Map.of("links", List.of(Map.of("a", "true", "b", "null")))));
        String yaml = Yaml.write(ScenarioTree.toTree(s));
        assertThat(ScenarioBinder.bind(Yaml.parse(yaml, "x.yaml"))).isEqualTo(s);
        assertThat(yaml).contains("name: \"2024\"\n").contains("    rateGbps: 0.001\n    delayNs: 1.0E+8\n").contains("  sampleIntervalUs: 1.0E-4\n")
                .contains("  links:\n    - a: \"true\"\n      b: \"null\"\n      index: 0\n");
        for (String name : List.of("", "yes", "No", "ON", "y", "~", "0x10", "010", "1_000", "+1", ".5", "1e3", ".inf", "2001-12-14", "1:20",
                "- a", "a #b", "a: b", "'q'", "\"dq\"", "back\\slash", "tab\there", "line\nbreak", "é", "<<", "=", "trailing ", " leading",
                "[x]", "{x}", "*alias", "&anchor", "!tag", "%dir", "@at", "`tick`", "|", ">", "?", "a-", "e0", "fat-tree", "a b.csv")) {
            Scenario n = ScenarioBinder.bind(Map.of("name", name));
            assertThat(ScenarioBinder.bind(Yaml.parse(Yaml.write(ScenarioTree.toTree(n)), "x.yaml"))).as(name).isEqualTo(n);
        }
    }

    /** Progress lines are for terminals only (org.lbsim.cli.command.RunProgress). */
    @Test
    void aRunOutsideATerminalPrintsNoProgressLine() throws IOException {
        Path p = dir.resolve("s.yaml");
        Files.writeString(p, SMALL);
        MainTest.Result r = lbsim("run", p.toString(), "--out", dir.resolve("a").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("scenario     small (seed 3)").doesNotContain("\r").doesNotContain("simulated ");
    }

    @Test
    void threads_one_two_and_three_write_byte_identical_flows_and_summaries() throws IOException {
        Path p = scenario("small.yaml", SMALL);
        Path one = run(p, "t1", "--threads", "1", "--quiet");
        for (String n : List.of("2", "3")) {
            Path many = run(p, "t" + n, "--threads", n, "--quiet");
            assertThat(read(many.resolve("flows.csv"))).as("flows.csv, %s threads", n).isEqualTo(read(one.resolve("flows.csv")));
            assertThat(read(many.resolve("summary.json"))).as("summary.json, %s threads", n).isEqualTo(read(one.resolve("summary.json")));
        }
    }

    @Test
    void threads_refuses_a_count_out_of_range_and_what_a_partitioned_run_does_not_support() throws IOException {
        Path p = scenario("small.yaml", SMALL);
        MainTest.Result many = lbsim("run", p.toString(), "--out", dir.resolve("z").toString(), "--threads", "65");
        assertThat(many.code()).isEqualTo(2);
        assertThat(many.err()).contains("--threads 65").contains("must be auto or between 0 and 64");
        MainTest.Result negative = lbsim("run", p.toString(), "--out", dir.resolve("z").toString(), "--threads=-1");
        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.err().strip().lines()).hasSize(1);
        assertThat(negative.err()).contains("neither auto nor a thread count");
        // the first registered scheme that does not declare itself partition-safe
        String unsafe = org.lbsim.registry.LoadBalancers.REGISTRY.names().stream()
                .filter(n -> !org.lbsim.registry.LoadBalancers.REGISTRY.declares(n, org.lbsim.registry.Capability.PARTITION_SAFE)).findFirst().orElseThrow();
        MainTest.Result refused = lbsim("run", p.toString(), "--out", dir.resolve("c").toString(), "--threads", "2", "--set", "loadBalancing.type=" + unsafe);
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err().strip().lines()).hasSize(1);
        assertThat(refused.err()).contains("loadBalancing.type").contains("'" + unsafe + "' is not supported with --threads").contains("allowed: "
                + String.join(", ", org.lbsim.registry.LoadBalancers.REGISTRY.namesDeclaring(org.lbsim.registry.Capability.PARTITION_SAFE)));
        assertThat(dir.resolve("c")).doesNotExist();
    }
}
