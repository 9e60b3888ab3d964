package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioDefaults;
import org.lbsim.scenario.Scenario;
import org.lbsim.cli.files.Yaml;

/** lbsim init: a commented scenario with every section at its defaults, that validates and runs. */
class InitTest {
    @TempDir
    Path dir;

    @Test
    void init_writes_a_commented_scenario_that_validates_and_runs() throws IOException {
        Path file = dir.resolve("fabric.yaml");
        MainTest.Result r = lbsim("init", file.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("wrote " + file);
        String text = Files.readString(file);
        // every section, with the @Doc of its keys as comments
        for (RecordComponent c : Scenario.class.getRecordComponents()) {
            assertThat(text).containsPattern("(?m)^" + c.getName() + ":");
        }
        assertThat(text).contains("# the fabric\ntopology:\n");
        assertThat(text).containsPattern("\n  k: 8 +# switch radix; even, >= 2\n");
        assertThat(text).containsPattern("\n    kminBytes: 100000 +# queue bytes where marking starts\n");
        assertThat(text).contains("  # ecmp (ECMP): per-flow ECMP (OFAN's FLOW)");
        assertThat(text).contains("other types: subflow, ");

        // the file is the default scenario, named after the file
        Scenario s = ScenarioBinder.bind(Yaml.parse(text, file.toString()));
        assertThat(s).isEqualTo(ScenarioBinder.bind(Map.of("name", "fabric")));
        assertThat(s.topology()).isEqualTo(ScenarioDefaults.scenario().topology());

        MainTest.Result v = lbsim("validate", file.toString());
        assertThat(v.code()).as(v.err()).isZero();
        assertThat(v.out()).isEqualTo(file + ": ok (128 hosts, 128 flows)" + System.lineSeparator());
        Path out = dir.resolve("run");
        MainTest.Result run = lbsim("run", file.toString(), "--set", "topology.k=4", "--set", "workload.messageBytes=65536",
                "--out", out.toString(), "--quiet");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(out.resolve("summary.json")).exists();
    }

    @Test
    void init_never_overwrites_a_file() throws IOException {
        Path file = Files.writeString(dir.resolve("mine.yaml"), "name: keep me\n");
        assertThat(lbsim("init", file.toString()).errorLine())
                .isEqualTo("lbsim: " + file + ": already exists; init never overwrites a file (choose another name, or '-' for standard output)");
        assertThat(Files.readString(file)).isEqualTo("name: keep me\n");
    }

    @Test
    void init_dash_writes_to_standard_output_and_set_changes_the_starting_point() throws IOException {
        MainTest.Result r = lbsim("init", "-", "--set", "loadBalancing.type=switch-pkt-ar", "--set", "topology.k=4");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("# lbsim scenario, written by 'lbsim init'");
        assertThat(r.out()).contains("  type: switch-pkt-ar\n").containsPattern("\n  quanta: \\[0.05, 0.1, 0.2\\] +# bin edges");
        Path file = Files.writeString(dir.resolve("from-stdout.yaml"), r.out());
        Scenario s = ScenarioBinder.bind(Yaml.parse(Files.readString(file), file.toString()));
        assertThat(s.loadBalancing().type()).isEqualTo("switch-pkt-ar");
        assertThat(s.topology().hostCount()).isEqualTo(16);
        assertThat(lbsim("validate", file.toString()).code()).isZero();
    }

    @Test
    void a_bad_set_is_one_line_and_writes_nothing() {
        Path file = dir.resolve("bad.yaml");
        assertThat(lbsim("init", file.toString(), "--set", "topology.k=5").errorLine())
                .isEqualTo("lbsim: --set topology.k=5: topology.k: must be an even integer between 2 and 128, got 5");
        assertThat(lbsim("init", file.toString(), "--set", "loadBalancing.type=ofna").errorLine())
                .startsWith("lbsim: --set loadBalancing.type=ofna: loadBalancing.type: unknown load-balancing scheme 'ofna', did you mean 'ofan'?");
        assertThat(file).doesNotExist();
    }
}
