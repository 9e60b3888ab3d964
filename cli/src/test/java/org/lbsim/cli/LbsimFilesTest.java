package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;

/** The Java API over the command line's files: load examples/quickstart.yaml, run it, record it in a results database. */
class LbsimFilesTest {
    @TempDir
    Path dir;

    private static Path quickstart() {
        Path p = Path.of("../examples/quickstart.yaml");
        return Files.exists(p) ? p : Path.of("examples/quickstart.yaml");
    }

    @Test
    void loads_the_quickstart_runs_it_as_lbsim_run_does_and_records_it_in_a_database() throws Exception {
        ScenarioBuilder b = LbsimFiles.load(quickstart()).set("topology.k", 4);
        Scenario s = b.build();
        RunResult r = b.run();
        // the same numbers as the command line on the same file and override
        MainTest.Result cli = MainTest.lbsim("run", quickstart().toString(), "--set", "topology.k=4", "--out", dir.resolve("cli").toString(), "--quiet");
        assertThat(cli.code()).isZero();
        assertThat(Files.readString(dir.resolve("cli/summary.json"))).contains("\"cctPs\": " + r.cctPs() + ",");

        Path db = dir.resolve("api.duckdb");
        String first = LbsimFiles.record(db, "quickstart", s, r);
        String second = LbsimFiles.record(db, "quickstart", s, r);
        assertThat(first).isEqualTo("quickstart");
        assertThat(second).isEqualTo("quickstart-2");
        try (Connection c = ResultsStore.openReadOnly(db, db.toString()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), min(cct_ps), max(cct_ps), sum(flows) FROM runs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(2);
            assertThat(rs.getLong(2)).isEqualTo(r.cctPs());
            assertThat(rs.getLong(3)).isEqualTo(r.cctPs());
        }
    }

    @Test
    void bad_files_and_keys_name_the_file_and_the_field() throws Exception {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "topology: [k: 4\n");
        assertThatThrownBy(() -> LbsimFiles.load(broken)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broken.yaml");
        Path misspelt = dir.resolve("misspelt.yaml");
        Files.writeString(misspelt, "topology: {type: fat-tree, kk: 4}\n");
        assertThatThrownBy(() -> LbsimFiles.load(misspelt).build()).isInstanceOf(ScenarioException.class).hasMessageContaining("kk");
        assertThatThrownBy(() -> LbsimFiles.load(dir.resolve("missing.yaml"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing.yaml");
    }
}
