package org.lbsim.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queries of figures over a database with the documented schema. */
class ResultsReaderTest {
    @TempDir
    static Path dir;
    private static Path file;

    @BeforeAll
    static void create() throws Exception {
        file = TestResultsDb.create(dir.resolve("r.duckdb"));
    }

    private ResultsReader open() {
        return ResultsReader.open(file, "r.duckdb");
    }

    @Test
    void columns_resolve_exactly_case_blind_or_by_their_last_part() throws Exception {
        try (ResultsReader db = open()) {
            assertThat(db.resolveColumn("workload.messageBytes", "--x")).isEqualTo("workload.messageBytes");
            assertThat(db.resolveColumn("CCT_increase_pct", "--y")).isEqualTo("cct_increase_pct");
            assertThat(db.resolveColumn("messageBytes", "--x")).isEqualTo("workload.messageBytes");
            assertThat(db.resolveColumn("max_queue_bytes", "--y")).isEqualTo("max_queue_bytes");
            assertThatThrownBy(() -> db.resolveColumn("type", "--x"))
                    .hasMessage("--x type: ambiguous, could be topology.type, loadBalancing.type, workload.type");
            assertThatThrownBy(() -> db.resolveColumn("loadBalancng.type", "--by"))
                    .hasMessageStartingWith("--by loadBalancng.type: no such column in r.duckdb, did you mean 'loadBalancing.type'? (columns: ");
        }
    }

    @Test
    void metrics_are_columns_aggregates_layer_values_or_expressions() throws Exception {
        try (ResultsReader db = open()) {
            ResultsReader.Metric q = db.metric("max_queue_bytes");
            assertThat(q.title()).isEqualTo("largest switch queue (KB)");
            assertThat(q.scale()).isEqualTo(1e-3);
            List<Grouped.Row> rows = db.rows("workload.messageBytes", q, List.of("loadBalancing.type"), "sweep = 'msg'");
            assertThat(rows).hasSize(TestResultsDb.SCHEMES.size() * TestResultsDb.SIZES.length * TestResultsDb.SEEDS);
            Grouped g = Grouped.of("m", "q", rows);
            // each series named as the scheme's paper names it (the registry's display name)
            List<String> shown = TestResultsDb.SCHEMES.stream().map(s -> org.lbsim.registry.LoadBalancers.REGISTRY.displayName(s).orElseThrow()).toList();
            assertThat(shown).containsExactly("ECMP", "HOST PKT", "OFAN");
            assertThat(g.groups().keySet()).containsExactlyElementsOf(shown);
            for (int k = 0; k < TestResultsDb.SCHEMES.size(); k++) {
                double[][] p = g.points(shown.get(k));
                assertThat(Stats.powerFit(p[0], p[1]).slope()).isCloseTo(TestResultsDb.QUEUE_SLOPE[k], within(0.01));
            }
            ResultsReader.Metric layer = db.metric("max_queue_bytes@E->A");
            assertThat(layer.title()).isEqualTo("max queue at E->A (KB)");
            List<Grouped.Row> one = db.rows("seed", layer, List.of(), "run_id = 'msg-p0-seed1'");
            assertThat(one).hasSize(1);
            assertThat(one.get(0).y()).isCloseTo(Math.floor(40 * Math.pow(16_384, 0.5) * 0.99) / 3 / 1e3, within(1e-3));
            ResultsReader.Metric fct = db.metric("p99_fct_ps");
            assertThat(fct.title()).isEqualTo("99th percentile FCT (\u00b5s)");
            assertThat(db.rows("seed", fct, List.of(), "run_id = 'single-seed1'").get(0).y())
                    .isCloseTo((6_262_144 + 0.99 * 15 * 1000) / 1e6, within(1e-6)); // interpolated between the two slowest of 16
            ResultsReader.Metric expr = db.metric("cct_ps / lower_bound_ps");
            assertThat(db.rows("seed", expr, List.of(), "run_id = 'single-seed1'").get(0).y()).isCloseTo(1.015, within(1e-6));
            assertThatThrownBy(() -> db.metric("max_queue_bytes@X->Y")).hasMessageStartingWith("--y max_queue_bytes@X->Y: no layer 'X->Y' in r.duckdb (layers: H->E, E->A");
            assertThatThrownBy(() -> db.rows("seed", q, List.of(), "nonsense ==")).hasMessageStartingWith("r.duckdb: query failed (--where nonsense ==): ");
        }
    }

    @Test
    void runs_series_and_histograms_read_back() throws Exception {
        try (ResultsReader db = open()) {
            assertThat(db.sweeps()).containsExactly("msg", null);
            List<Map<String, Object>> single = db.viewRows("v.sweep IS NULL");
            assertThat(single).hasSize(1);
            assertThat(single.get(0)).containsEntry("run_id", "single-seed1").containsEntry("max_queue_bytes", 20_000L);
            assertThat(db.series("single-seed1")).extracting(t -> t.name() + " " + t.size()).containsExactly("queue.max A->C 200", "goodput 200");
            assertThat(db.outOfOrderHistogram("single-seed1")).containsExactly(900, 0, 40, 10);
            assertThat(db.layers()).containsExactly("H->E", "E->A", "A->C", "C->A", "A->E", "E->H");
        }
        assertThatThrownBy(() -> ResultsReader.open(dir.resolve("missing.duckdb"), "missing.duckdb")).hasMessage("missing.duckdb: no such file");
    }
}
