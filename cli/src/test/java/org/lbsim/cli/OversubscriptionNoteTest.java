package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An oversubscribed fabric says what its bound counts, on the printed summary, in summary.json, in
 * the database and in the report; a job's ideal time (every flow alone) ignores the core, and the
 * summary says so. A full-bisection fabric says nothing of it.
 */
class OversubscriptionNoteTest {
    @TempDir
    Path dir;

    /** 2 leaves of 4 hosts, one 400 Gb/s uplink each: 4:1. */
    private static final String RING_4_TO_1 = """
            name: ring
            topology: {type: leaf-spine, hostsPerLeaf: 4, leaves: 2, spines: 1}
            workload: {type: collective, op: all-reduce, algorithm: ring, bytes: 262144}
            """;

    @Test
    void anOversubscribedRunWithJobsSaysTheBoundCountsTheUplinksAndTheIdealDoesNot() throws IOException {
        Path scenario = dir.resolve("ring.yaml");
        Files.writeString(scenario, RING_4_TO_1);
        Path db = dir.resolve("r.duckdb");
        MainTest.Result r = lbsim("run", scenario.toString(), "--out", dir.resolve("r").toString(), "--db", db.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains(", counts the 4:1 oversubscribed uplinks\n")
                .contains("(ideal: every flow alone on the fabric, so it ignores the 4:1 oversubscribed uplinks)");
        String summary = Files.readString(dir.resolve("r/summary.json"));
        assertThat(summary).contains("\"oversubscription\": 4.0000,").contains("\"lowerBoundBasis\": \"NIC links and oversubscribed leaf / pod uplink cuts\"")
                .contains("\"jobsIdealNote\": \"each job's idealPs is its critical path with every flow alone on the fabric: it ignores the"
                        + " oversubscribed uplinks");
        List<String> row = SweepTest.query(db, "SELECT oversubscription, lower_bound_basis FROM runs");
        assertThat(row.get(1)).isEqualTo("4,NIC links and oversubscribed leaf / pod uplink cuts");
        for (String source : List.of(dir.resolve("r").toString(), db.toString())) {
            Path html = dir.resolve("report-" + Math.abs(source.hashCode()) + ".html");
            MainTest.Result rep = lbsim("report", source, "--out", html.toString());
            assertThat(rep.code()).as(rep.err()).isZero();
            assertThat(Files.readString(html)).as(source).contains("The fabric is 4:1 oversubscribed: the lower bound counts the oversubscribed"
                    + " uplinks; each job&#39;s ideal time does not");
        }
    }

    @Test
    void aFullBisectionFabricCarriesNoneOfIt() throws IOException {
        Path scenario = dir.resolve("small.yaml");
        Files.writeString(scenario, MainTest.SMALL);
        Path db = dir.resolve("s.duckdb");
        MainTest.Result r = lbsim("run", scenario.toString(), "--out", dir.resolve("s").toString(), "--db", db.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("oversubscribed");
        assertThat(Files.readString(dir.resolve("s/summary.json"))).doesNotContain("oversubscription").doesNotContain("lowerBoundBasis")
                .doesNotContain("jobsIdealNote");
        assertThat(SweepTest.query(db, "SELECT oversubscription IS NULL AND lower_bound_basis IS NULL FROM runs").get(1)).isEqualTo("true");
    }
}
