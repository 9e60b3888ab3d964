package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mistakes a new user makes first get a one-line error that says what to write instead (exit 2, nothing written). */
class HintsTest {
    @TempDir
    Path dir;

    @Test
    void aSchemeNameInPlaceOfItsMapSuggestsTheTypeKey() throws IOException {
        Path p = dir.resolve("s.yaml");
        Files.writeString(p, MainTest.SMALL);
        MainTest.Result r = lbsim("run", p.toString(), "--set", "loadBalancing=ofan", "--out", dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.errorLine()).endsWith("loadBalancing: expected a map, got the string \"ofan\" (to choose the type, write loadBalancing.type: ofan,"
                + " or loadBalancing: {type: ofan})");
        assertThat(Files.exists(dir.resolve("o"))).isFalse();
    }

    @Test
    void aScenarioFileGivenToSweepSaysToRunIt() throws IOException {
        Path p = dir.resolve("s.yaml");
        Files.writeString(p, MainTest.SMALL);
        MainTest.Result r = lbsim("sweep", p.toString(), "--out", dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.errorLine()).contains("this is a scenario file, not a sweep file: run it with 'lbsim run ").contains("baseFile: s.yaml");
        assertThat(Files.exists(dir.resolve("o"))).isFalse();
    }

    @Test
    void anUnquotedDottedColumnInAQuerySaysToQuoteIt() throws IOException {
        Path p = dir.resolve("s.yaml");
        Files.writeString(p, MainTest.SMALL);
        Path db = dir.resolve("r.duckdb");
        assertThat(lbsim("run", p.toString(), "--out", dir.resolve("o").toString(), "--db", db.toString()).code()).isZero();
        MainTest.Result r = lbsim("query", db.toString(), "SELECT avg(cct_ps) FROM runs GROUP BY loadBalancing.type");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.errorLine()).endsWith("(scenario columns have dots in their names: quote them, e.g. \"loadBalancing.type\")");
        assertThat(lbsim("query", db.toString(), "SELECT avg(cct_ps) FROM runs GROUP BY \"loadBalancing.type\"").code()).isZero();
    }
}
