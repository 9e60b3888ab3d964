package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.SMALL;
import static org.lbsim.cli.MainTest.lbsim;
import static org.lbsim.cli.SweepTest.ok;
import static org.lbsim.cli.SweepTest.query;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lbsim run --db}, {@code lbsim query} and {@code lbsim export}. */
class QueryTest {
    @TempDir
    Path dir;

    private Path twoRuns() throws IOException {
        Path scenario = dir.resolve("small.yaml");
        Files.writeString(scenario, SMALL);
        Path db = dir.resolve("db").resolve("r.duckdb");
        String first = ok("run", scenario.toString(), "--out", dir.resolve("r1").toString(), "--db", db.toString());
        assertThat(first).contains("output       " + dir.resolve("r1")).endsWith("database     " + db + " (run_id r1)" + System.lineSeparator());
        ok("run", scenario.toString(), "--out", dir.resolve("x/r1").toString(), "--db", db.toString(), "--seed", "4", "--quiet");
        return db;
    }

    @Test
    void run_with_a_database_records_the_run_under_its_folder_name() throws IOException {
        Path db = twoRuns();
        assertThat(query(db, "SELECT run_id, sweep, point, seed, scenario_name, hosts, flows_finished, \"topology.k\" FROM runs ORDER BY run_id"))
                .containsExactly("run_id,sweep,point,seed,scenario_name,hosts,flows_finished,topology.k", "r1,,,3,small,16,16,4", "r1-2,,,4,small,16,16,4");
        // the same numbers as the run folder
        String summary = Files.readString(dir.resolve("r1/summary.json"));
        String cct = query(db, "SELECT cct_ps FROM runs WHERE run_id = 'r1'").get(1);
        assertThat(summary).contains("\"cctPs\": " + cct + ",");
        assertThat(query(db, "SELECT count(*) FROM flows WHERE run_id = 'r1'")).element(1).isEqualTo("16");
        assertThat(Files.readAllLines(dir.resolve("r1/flows.csv"))).hasSize(17);
    }

    @Test
    void the_results_view_names_scenario_columns_without_quotes_and_the_documented_example_runs() throws IOException {
        Path db = twoRuns();
        // a third run with another scheme adds its parameter's column, and the view follows
        Path subflow = dir.resolve("subflow.yaml");
        Files.writeString(subflow, SMALL.replace("{type: host-spray}", "{type: subflow, subflows: 2}"));
        ok("run", subflow.toString(), "--out", dir.resolve("r3").toString(), "--db", db.toString(), "--quiet");
        assertThat(query(db, "SELECT run_id, lb, scheme, message_bytes, topology_k, load_balancing_subflows, cct_us = cct_ps / 1e6 AS same"
                + " FROM results ORDER BY run_id")).containsExactly("run_id,lb,scheme,message_bytes,topology_k,load_balancing_subflows,same",
                "r1,host-spray,HOST PKT,65536,4,,true", "r1-2,host-spray,HOST PKT,65536,4,,true", "r3,subflow,SUBFLOW,65536,4,2,true");
        // cct_us is summary.json's cctUs
        String cctUs = query(db, "SELECT cct_us FROM results WHERE run_id = 'r1'").get(1);
        assertThat(Files.readString(dir.resolve("r1/summary.json"))).containsPattern("\"cctUs\": " + java.util.regex.Pattern.quote(cctUs) + "0*,");

        String docs = Files.readString(Path.of("../docs/results.md"));
        java.util.regex.Matcher example = java.util.regex.Pattern.compile("\nlbsim query \\S+ \"([^\"]+)\"\n").matcher(docs);
        assertThat(example.find()).as("docs/results.md has an example query of the results view").isTrue();
        assertThat(example.group(1)).contains("FROM results").doesNotContain("\\\"");
        List<String> rows = query(db, example.group(1));
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).isEqualTo("scheme,message_bytes,cct_us,runs");
        assertThat(rows.get(1)).startsWith("HOST PKT,65536,").endsWith(",2");
        assertThat(rows.get(2)).isEqualTo("SUBFLOW,65536," + query(db, "SELECT cct_us FROM results WHERE run_id = 'r3'").get(1) + ",1");
    }

    @Test
    void query_prints_an_aligned_table_csv_or_json() throws IOException {
        Path db = twoRuns();
        String sql = "SELECT run_id, seed, hosts * 1.5 AS x, NULL AS nothing, 'a,\"b\"' AS text FROM runs ORDER BY run_id";
        assertThat(ok("query", db.toString(), sql)).isEqualTo(String.join(System.lineSeparator(),
                "run_id  seed     x  nothing  text",
                "------  ----  ----  -------  -----",
                // DuckDB 2 types a bare NULL as NULL (1.x: INTEGER), so the column is not numeric and aligns left
                "r1         3  24.0  NULL     a,\"b\"",
                "r1-2       4  24.0  NULL     a,\"b\"",
                "(2 rows)", "").replace(System.lineSeparator(), "\n"));
        assertThat(ok("query", db.toString(), sql, "--format", "csv")).isEqualTo(
                "run_id,seed,x,nothing,text\nr1,3,24.0,,\"a,\"\"b\"\"\"\nr1-2,4,24.0,,\"a,\"\"b\"\"\"\n");
        assertThat(ok("query", db.toString(), "SELECT run_id, seed, 0.25::DOUBLE AS d, NULL AS n, true AS b FROM runs ORDER BY run_id LIMIT 1",
                "--format", "json")).isEqualTo("[\n  {\n    \"run_id\": \"r1\",\n    \"seed\": 3,\n    \"d\": 0.25,\n    \"n\": null,\n    \"b\": true\n  }\n]\n");
    }

    @Test
    void query_prints_floating_point_numbers_to_the_digits_a_double_holds() throws IOException {
        Path db = twoRuns();
        String sql = "SELECT 564050411.1999999::DOUBLE AS avg_ps, 0.1::DOUBLE + 0.2::DOUBLE AS s, 1::DOUBLE / 3 AS third, 24::DOUBLE AS whole,"
                + " 1.5e-7::DOUBLE AS tiny, 0.1::REAL AS r FROM runs ORDER BY run_id LIMIT 1";
        assertThat(ok("query", db.toString(), sql, "--format", "csv"))
                .isEqualTo("avg_ps,s,third,whole,tiny,r\n564050411.2,0.3,0.333333333333333,24,1.5E-7,0.1\n");
        assertThat(ok("query", db.toString(), sql, "--format", "json")).contains("\"avg_ps\": 564050411.2,", "\"s\": 0.3,",
                "\"third\": 0.333333333333333,", "\"whole\": 24,", "\"r\": 0.1");
        assertThat(ok("query", db.toString(), sql)).contains("564050411.2  0.3  0.333333333333333     24").doesNotContain("1999999");
    }

    @Test
    void run_prints_its_summary_as_json_or_csv_for_scripts() throws IOException {
        Path scenario = dir.resolve("small.yaml");
        Files.writeString(scenario, SMALL);
        Path db = dir.resolve("f.duckdb");
        String json = ok("run", scenario.toString(), "--out", dir.resolve("j").toString(), "--db", db.toString(), "--format", "json");
        com.fasterxml.jackson.databind.JsonNode printed = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        com.fasterxml.jackson.databind.JsonNode summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("j/summary.json").toFile());
        summary.fieldNames().forEachRemaining(k -> assertThat(printed.get(k)).as(k).isEqualTo(summary.get(k)));
        assertThat(printed.get("output").asText()).isEqualTo(dir.resolve("j").toString());
        assertThat(printed.get("runId").asText()).isEqualTo("j");
        assertThat(printed.get("database").asText()).isEqualTo(db.toString());

        String csv = ok("run", scenario.toString(), "--out", dir.resolve("c").toString(), "--format", "csv");
        List<String> lines = csv.lines().toList();
        assertThat(lines).hasSize(2);
        List<String> header = List.of(lines.get(0).split(","));
        List<String> row = List.of(lines.get(1).split(",", -1));
        assertThat(row).hasSameSizeAs(header);
        com.fasterxml.jackson.databind.JsonNode again = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("c/summary.json").toFile());
        assertThat(row.get(header.indexOf("cctPs"))).isEqualTo(again.get("cctPs").asText());
        assertThat(row.get(header.indexOf("flowsFinished"))).isEqualTo("16");
        assertThat(row.get(header.indexOf("counters.dropped"))).isEqualTo(again.get("counters").get("dropped").asText());
        assertThat(row.get(header.indexOf("layers.0.layer"))).isEqualTo(again.get("layers").get(0).get("layer").asText());
        assertThat(row.get(header.indexOf("output"))).isEqualTo(dir.resolve("c").toString());
        assertThat(header).doesNotContain("runId");
        assertThat(ok("run", scenario.toString(), "--out", dir.resolve("q").toString(), "--format", "json", "--quiet")).isEmpty();
    }

    @Test
    void bad_queries_and_missing_databases_are_one_line_errors() throws IOException {
        Path db = twoRuns();
        assertThat(lbsim("query", db.toString(), "SELEC 1").errorLine()).isEqualTo("lbsim: query: Parser Error: syntax error at or near \"SELEC\"");
        assertThat(lbsim("query", db.toString(), "SELECT * FROM nope").errorLine())
                .startsWith("lbsim: query: Catalog Error: Table with name nope does not exist!");
        assertThat(lbsim("query", db.toString(), "DELETE FROM runs").errorLine()).startsWith("lbsim: query: ").contains("read-only");
        assertThat(query(db, "SELECT count(*) FROM runs")).element(1).isEqualTo("2");
        Path missing = dir.resolve("missing.duckdb");
        assertThat(lbsim("query", missing.toString(), "SELECT 1").errorLine()).isEqualTo("lbsim: " + missing + ": no such file");
        assertThat(missing).doesNotExist();
        assertThat(lbsim("export", missing.toString(), "--format", "csv").errorLine()).isEqualTo("lbsim: " + missing + ": no such file");
        Path text = dir.resolve("text.duckdb");
        Files.writeString(text, "not a database");
        assertThat(lbsim("query", text.toString(), "SELECT 1").errorLine())
                .isEqualTo("lbsim: " + text + ": is not a DuckDB database file; choose another file (it was left unchanged)");
        assertThat(lbsim("query", db.toString(), "SELECT 1", "--format", "xml").errorLine())
                .startsWith("lbsim: Invalid value for option '--format': expected one of [table, csv, json]");
        Path scenario = dir.resolve("small.yaml");
        assertThat(lbsim("run", scenario.toString(), "--out", dir.resolve("r9").toString(), "--db", dir.toString()).errorLine())
                .isEqualTo("lbsim: " + dir + ": is a directory, expected a DuckDB database file");
        assertThat(dir.resolve("r9")).doesNotExist();
    }

    @Test
    void export_writes_every_table_as_csv_or_parquet() throws IOException {
        Path db = twoRuns();
        Path csv = dir.resolve("csv");
        String printed = ok("export", db.toString(), "--format", "csv", "--out", csv.toString());
        List<String> tables = List.of("runs", "flows", "layers", "counters", "scheme_counters", "series", "ooo_histogram", "jobs", "job_phases",
                "failure_events");
        assertThat(printed.lines().toList()).hasSize(10).first().isEqualTo(csv.resolve("runs.csv") + " (2 rows)");
        for (String t : tables) {
            assertThat(csv.resolve(t + ".csv")).exists();
        }
        assertThat(Files.readAllLines(csv.resolve("flows.csv"))).hasSize(33).first()
                .isEqualTo("run_id,flow,src,dst,bytes,start_ps,fct_ps,receiver_done_ps,packets_sent,retransmissions,spurious_retransmissions,"
                        + "duplicates_received,timeouts");
        try (var s = Files.list(csv)) {
            assertThat(s.filter(p -> p.getFileName().toString().startsWith("."))).isEmpty();
        }

        ok("export", db.toString(), "--format", "parquet"); // default: next to the database
        for (String t : tables) {
            assertThat(db.resolveSibling(t + ".parquet")).exists();
        }
        // reading another file takes --allow-files: lbsim query's SQL reaches no file but the database otherwise
        assertThat(ok("query", db.toString(), "SELECT count(*) FROM read_parquet('" + db.resolveSibling("series.parquet") + "')", "--allow-files",
                "--format", "csv").lines().toList()).isEqualTo(query(db, "SELECT count(*) FROM series"));

        Path plain = dir.resolve("plain");
        ok("export", db.toString(), "--out", plain.toString()); // no --format: CSV
        assertThat(Files.readAllLines(plain.resolve("flows.csv"))).hasSize(33);
    }
}
