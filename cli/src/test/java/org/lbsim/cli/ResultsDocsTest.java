package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.store.ResultsStore;

/**
 * docs/results.md documents every column of every results table, of flows.csv, series.csv and
 * ooo.csv, and every summary.json key, each in its own section; and the same quantity has the same
 * name in summary.json (camelCase), flows.csv and the database (snake_case).
 */
class ResultsDocsTest {
    /** An oversubscribed (4:1) leaf-spine, a ring AllReduce (jobs), a failure during the run and port loads (scheme counters). */
    private static final String EVERYTHING = """
            name: everything
            topology: {type: leaf-spine, hostsPerLeaf: 4, leaves: 2, spines: 1}
            workload: {type: collective, op: all-reduce, algorithm: ring, bytes: 262144}
            metrics: {sampleIntervalUs: 1, portLoadsFromUs: 0}
            failures:
              events:
                - {atUs: 2, link: {a: l0, b: s0}, action: degrade, rateGbps: 200}
            """;

    @TempDir
    static Path dir;
    static String docs;
    static JsonNode summary;
    static Path db;

    @BeforeAll
    static void runOnce() throws IOException {
        docs = Files.readString(Path.of("../docs/results.md"));
        Path scenario = dir.resolve("everything.yaml");
        Files.writeString(scenario, EVERYTHING);
        db = dir.resolve("r.duckdb");
        MainTest.Result r = lbsim("run", scenario.toString(), "--out", dir.resolve("run").toString(), "--db", db.toString(), "--quiet");
        assertThat(r.code()).as(r.err()).isZero();
        summary = new ObjectMapper().readTree(dir.resolve("run/summary.json").toFile());
    }

    /** The text of docs/results.md from the heading that names {@code name} in backquotes to the next heading. */
    private static String section(String name) {
        int start = -1;
        for (String level : List.of("### `", "## `")) {
            int at = docs.indexOf(level + name + "`");
            if (at >= 0) {
                start = at;
                break;
            }
        }
        assertThat(start).as("docs/results.md has a section headed `%s`", name).isGreaterThanOrEqualTo(0);
        int end = docs.indexOf("\n#", start + 1);
        return end < 0 ? docs.substring(start) : docs.substring(start, end);
    }

    private static Map<String, List<String>> tableColumns() throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Connection c = ResultsStore.openReadOnly(db, db.toString());
             PreparedStatement ps = c.prepareStatement("SELECT column_name FROM information_schema.columns WHERE table_schema = 'main'"
                     + " AND table_name = ? ORDER BY ordinal_position")) {
            for (String table : ResultsStore.TABLES) {
                ps.setString(1, table);
                List<String> cols = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        cols.add(rs.getString(1));
                    }
                }
                out.put(table, cols);
            }
        }
        return out;
    }

    @Test
    void everyColumnOfEveryTableIsDocumentedInItsSection() throws SQLException {
        Map<String, List<String>> tables = tableColumns();
        assertThat(tables.keySet()).containsExactlyElementsOf(ResultsStore.TABLES);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, List<String>> t : tables.entrySet()) {
            assertThat(t.getValue()).as("table %s exists", t.getKey()).isNotEmpty();
            String text = section(t.getKey());
            for (String col : t.getValue()) {
                if (t.getKey().equals("runs") && !ResultsStore.fixedRunColumns().contains(col)) {
                    continue; // a flattened scenario field: documented as "<dotted.field>" (one per scenario field)
                }
                if (!text.contains("`" + col + "`")) {
                    missing.add(t.getKey() + "." + col);
                }
            }
        }
        assertThat(missing).as("columns not documented in their section of docs/results.md").isEmpty();
        assertThat(section("runs")).contains("`\"<dotted.field>\"`");
        assertThat(tables.get("runs")).containsAll(ResultsStore.fixedRunColumns()).contains("topology.type", "trafficClasses");
    }

    @Test
    void everyColumnTheResultsViewAddsIsDocumentedInItsSection() throws SQLException {
        List<String> runs = tableColumns().get("runs");
        List<String> view = new ArrayList<>();
        try (Connection c = ResultsStore.openReadOnly(db, db.toString());
             PreparedStatement ps = c.prepareStatement("SELECT column_name FROM information_schema.columns WHERE table_schema = 'main'"
                     + " AND table_name = '" + ResultsStore.RESULTS_VIEW + "' ORDER BY ordinal_position");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                view.add(rs.getString(1));
            }
        }
        assertThat(view.subList(0, runs.size())).isEqualTo(runs);
        List<String> generic = runs.stream().filter(c -> !ResultsStore.fixedRunColumns().contains(c)).map(ResultsStore::snakeCase).toList();
        String text = section(ResultsStore.RESULTS_VIEW);
        List<String> missing = new ArrayList<>();
        for (String col : view.subList(runs.size(), view.size())) {
            if (!generic.contains(col) && !text.contains("`" + col + "`")) {
                missing.add(col);
            }
        }
        assertThat(missing).as("columns of the results view not documented in its section of docs/results.md").isEmpty();
        assertThat(view).contains("cct_us", "lb", "scheme", "workload", "topology");
        assertThat(text).contains("`<snake_case>`");
    }

    @Test
    void everyColumnOfTheRunFolderCsvFilesIsDocumented() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String file : List.of("flows.csv", "series.csv", "ooo.csv")) {
            String header = Files.readAllLines(dir.resolve("run").resolve(file)).get(0);
            String text = section(file);
            for (String col : header.split(",")) {
                if (!text.contains("`" + col + "`") && !text.contains(header)) {
                    missing.add(file + " " + col);
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void everySummaryJsonKeyIsDocumented() {
        assertThat(summary.has("oversubscription")).as("the fixture exercises the optional keys").isTrue();
        assertThat(summary.has("jobs")).isTrue();
        assertThat(summary.has("failureEvents")).isTrue();
        assertThat(summary.has("schemeCounters")).isTrue();
        assertThat(summary.has("jobsIdealNote")).isTrue();
        String text = section("summary.json");
        List<String> missing = new ArrayList<>();
        keys(summary, "", missing, text);
        assertThat(missing).as("summary.json keys not documented in docs/results.md").isEmpty();
    }

    private static void keys(JsonNode node, String path, List<String> missing, String text) {
        if (node.isArray()) {
            node.forEach(e -> keys(e, path + "[]", missing, text));
            return;
        }
        if (!node.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!text.contains("`" + e.getKey() + "`")) {
                missing.add(path + "." + e.getKey());
            }
            if (!e.getKey().equals("schemeCounters")) { // its keys are counter names, listed under scheme_counters
                keys(e.getValue(), path + "." + e.getKey(), missing, text);
            }
        }
    }

    /** One quantity, one name: flows.csv is the flows table without run_id; summary keys are the runs columns in camelCase. */
    @Test
    void theSameQuantityHasTheSameNameInSummaryJsonFlowsCsvAndTheDatabase() throws IOException, SQLException {
        Map<String, List<String>> tables = tableColumns();
        String header = Files.readAllLines(dir.resolve("run/flows.csv")).get(0);
        assertThat(List.of(header.split(","))).containsExactlyElementsOf(tables.get("flows").subList(1, tables.get("flows").size()));
        assertThat(Files.readAllLines(dir.resolve("run/ooo.csv")).get(0).split(","))
                .containsExactlyInAnyOrderElementsOf(tables.get("ooo_histogram").subList(1, tables.get("ooo_histogram").size()));
        List<String> runs = tables.get("runs");
        // every scalar top-level summary key is a runs column (snake_case), except the few documented as summary.json only
        List<String> summaryOnly = List.of("cctUs", "failureEventsNote", "jobsIdealNote");
        for (Iterator<Map.Entry<String, JsonNode>> it = summary.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isContainerNode() || summaryOnly.contains(e.getKey())) {
                continue;
            }
            assertThat(runs).as("summary.json %s", e.getKey()).contains(snake(e.getKey()));
        }
        // counters, layers, out-of-order, jobs, phases and failure events: the same names with the nesting as prefix
        summary.get("counters").fieldNames().forEachRemaining(k -> {
            if (!k.equals("pfcDeadlock")) {
                assertThat(counterNames()).as("counters.%s", k).contains(snake(k));
            }
        });
        summary.get("layers").get(0).fieldNames().forEachRemaining(k -> assertThat(tables.get("layers")).contains(snake(k)));
        summary.get("outOfOrder").fieldNames().forEachRemaining(k -> assertThat(counterNames()).contains("ooo_" + snake(k)));
        JsonNode job = summary.get("jobs").get(0);
        job.fieldNames().forEachRemaining(k -> {
            if (!k.equals("phases")) {
                assertThat(tables.get("jobs")).as("jobs[].%s", k).contains(snake(k));
            }
        });
        job.get("phases").get(0).fieldNames().forEachRemaining(k -> assertThat(tables.get("job_phases")).contains(snake(k)));
        JsonNode event = summary.get("failureEvents").get(0);
        event.fieldNames().forEachRemaining(k -> {
            if (event.get(k).isObject()) {
                event.get(k).fieldNames().forEachRemaining(l -> assertThat(tables.get("failure_events")).contains(k + "_" + snake(l)));
            } else {
                assertThat(tables.get("failure_events")).as("failureEvents[].%s", k).contains(snake(k));
            }
        });
    }

    /**
     * The Java API has the files' names: each component of the result records is the summary.json
     * key of the same name (or, for a flow, the flows.csv column in snake_case), and each key of a
     * nested summary object is a component or a method of its record. Components written to
     * another file are named here; anything else that differs fails.
     */
    @Test
    void theJavaApiUsesTheNamesOfSummaryJsonAndFlowsCsv() throws Exception {
        Map<String, String> elsewhere = Map.of("flowResults", "flows.csv", "series", "series.csv", "wallTimeMs", "meta.json");
        for (java.lang.reflect.RecordComponent c : org.lbsim.metrics.RunResult.class.getRecordComponents()) {
            if (!elsewhere.containsKey(c.getName())) {
                assertThat(summary.has(c.getName())).as("RunResult.%s() is a summary.json key", c.getName()).isTrue();
            }
        }
        assertThat(summary.has("cctIncreasePct")).isTrue();
        assertThat(org.lbsim.metrics.RunResult.class.getMethod("cctIncreasePct").getReturnType()).isEqualTo(double.class);
        sameNames(org.lbsim.metrics.OutOfOrder.class, summary.get("outOfOrder"), List.of("log2Histogram")); // ooo.csv
        sameNames(org.lbsim.metrics.RunResult.Counters.class, summary.get("counters"), List.of());
        sameNames(org.lbsim.metrics.LayerStats.class, summary.get("layers").get(0), List.of());
        JsonNode event = summary.get("failureEvents").get(0);
        sameNames(org.lbsim.metrics.FailureEventStats.class, event, List.of());
        sameNames(org.lbsim.metrics.FailureEventStats.Losses.class, event.get("before"), List.of());
        JsonNode job = summary.get("jobs").get(0);
        sameNames(org.lbsim.metrics.JobResult.class, job, List.of("busFactor")); // busbw / algbw, not written
        sameNames(org.lbsim.metrics.JobResult.Phase.class, job.get("phases").get(0), List.of());
        List<String> flowColumns = new ArrayList<>();
        for (java.lang.reflect.RecordComponent c : org.lbsim.metrics.FlowResult.class.getRecordComponents()) {
            flowColumns.add(snake(c.getName()));
        }
        assertThat(Files.readAllLines(dir.resolve("run/flows.csv")).get(0).split(",")).as("flows.csv = FlowResult's components")
                .containsExactlyElementsOf(flowColumns);
    }

    /** Every component of {@code type} (but {@code notInJson}) is a key of {@code node}, and every key a component or public method. */
    private static void sameNames(Class<?> type, JsonNode node, List<String> notInJson) {
        List<String> members = new ArrayList<>();
        for (java.lang.reflect.RecordComponent c : type.getRecordComponents()) {
            members.add(c.getName());
            if (!notInJson.contains(c.getName())) {
                assertThat(node.has(c.getName())).as("%s.%s() is a summary.json key (keys: %s)", type.getSimpleName(), c.getName(), node).isTrue();
            }
        }
        for (java.lang.reflect.Method m : type.getMethods()) {
            if (m.getParameterCount() == 0) {
                members.add(m.getName());
            }
        }
        node.fieldNames().forEachRemaining(k -> assertThat(members).as("summary.json key %s is named as in %s", k, type.getSimpleName()).contains(k));
    }

    private static List<String> counterNames() {
        List<String> names = new ArrayList<>();
        try (Connection c = ResultsStore.openReadOnly(db, db.toString());
             PreparedStatement ps = c.prepareStatement("SELECT DISTINCT name FROM counters");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }

    private static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
