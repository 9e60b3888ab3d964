package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;
import static org.lbsim.cli.SweepTest.ok;
import static org.lbsim.cli.SweepTest.query;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A collective through the command line: the per-job numbers in the printout, summary.json and DuckDB agree. */
class CollectiveRunTest {
    @TempDir
    Path dir;

    private static final String RING = """
            name: ring
            topology: {type: leaf-spine, hostsPerLeaf: 4, leaves: 1, spines: 1, hostLink: {rateGbps: 400, delayNs: 1000}, leafSpineLink: {rateGbps: 400, delayNs: 1000}}
            workload: {type: collective, op: all-reduce, algorithm: ring, bytes: 4194304}
            """;

    @Test
    void a_ring_all_reduce_reports_jct_phases_algbw_and_busbw_the_same_everywhere() throws IOException {
        Path scenario = dir.resolve("ring.yaml");
        Files.writeString(scenario, RING);
        Path db = dir.resolve("r.duckdb");
        String out = ok("run", scenario.toString(), "--out", dir.resolve("r1").toString(), "--db", db.toString());
        String summary = Files.readString(dir.resolve("r1/summary.json"));
        assertThat(summary).contains("\"jobs\": [").contains("\"collective\": \"all-reduce/ring\"").contains("\"name\": \"reduce-scatter\"");
        String jct = query(db, "SELECT jct_ps FROM jobs WHERE run_id = 'r1'").get(1);
        String busbw = query(db, "SELECT round(busbw_gbps, 6) FROM jobs WHERE run_id = 'r1'").get(1);
        String algbw = query(db, "SELECT round(algbw_gbps, 6) FROM jobs WHERE run_id = 'r1'").get(1);
        assertThat(summary).contains("\"jctPs\": " + jct + ",");
        assertThat(Double.parseDouble(busbw)).isEqualTo(Double.parseDouble(algbw) * 1.5, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(summary).contains("\"busbwGBps\": " + new java.math.BigDecimal(busbw).stripTrailingZeros().toPlainString());
        assertThat(query(db, "SELECT count(*) FROM job_phases WHERE run_id = 'r1'")).element(1).isEqualTo("2");
        for (String source : java.util.List.of(dir.resolve("r1").toString(), db.toString())) {
            Path html = dir.resolve("report-" + source.hashCode() + ".html");
            ok("report", source, "--out", html.toString());
            assertThat(Files.readString(html)).as(source).contains(">Jobs</h").contains("all-reduce/ring").contains("busbw");
        }
        assertThat(out).contains("job job0     all-reduce/ring, 4 ranks: JCT ").contains(String.format(java.util.Locale.ROOT, "busbw %.2f GB/s",
                Double.parseDouble(busbw)));
    }

    @Test
    void a_cyclic_dependency_graph_is_a_one_line_error_with_exit_code_2() throws IOException {
        Files.writeString(dir.resolve("c.csv"), "id,src,dst,bytes,deps,gap_ns\n1,0,1,1000,2,0\n2,1,0,1000,1,0\n");
        Path scenario = dir.resolve("c.yaml");
        Files.writeString(scenario, "workload: {type: dag-trace, file: c.csv}\ntopology: {type: fat-tree, k: 4}\n");
        MainTest.Result r = lbsim("run", scenario.toString(), "--out", dir.resolve("x").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.errorLine()).isEqualTo("lbsim: " + dir.resolve("c.csv") + ":2: deps: flow 1 is on a dependency cycle (2 flows can never start)");
        assertThat(dir.resolve("x")).doesNotExist();
    }
}
