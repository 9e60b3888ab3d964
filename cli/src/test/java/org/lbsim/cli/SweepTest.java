package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.Simulation;
import org.lbsim.cli.files.Yaml;

/** {@code lbsim sweep}: points x seeds written exactly once, the tables of docs/results.md, resuming, progress, bad sweep files. */
class SweepTest {
    /** 3 schemes x 2 sizes on a k=4 fat tree, 2 seeds: 12 runs of a few milliseconds. */
    static final String SWEEP = """
            name: t
            base:
              name: small
              seed: 3
              topology: {type: fat-tree, k: 4}
              workload: {type: permutation, messageBytes: 65536}
            grid:
              loadBalancing.type: [ecmp, host-spray, ofan]
              workload.messageBytes: [16384, 65536]
            seeds: 2
            """;

    /** The fixed columns of runs, in order (the scenario fields follow them). */
    static final List<String> RUNS_COLUMNS = List.of("run_id", "sweep", "point", "seed", "scenario_name", "scenario_yaml", "hosts", "flows",
            "flows_finished", "cct_ps", "lower_bound_ps", "cct_increase_pct", "rho_max_mbps", "simulated_ps", "events", "packet_hops", "drops",
            "link_loss", "no_route_drops", "ecn_marks", "retransmissions", "spurious_retransmissions", "timeouts", "pfc_pauses", "pfc_deadlock",
            "ooo_max_degree", "ooo_max_held", "ooo_arrivals", "wall_time_ms", "lbsim_version", "git_commit", "ending", "ending_detail", "series_decimations",
            "oversubscription", "lower_bound_basis", "kernel");

    @TempDir
    Path dir;

    Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /** Runs a command that must succeed; returns its stdout. */
    static String ok(String... args) {
        MainTest.Result r = lbsim(args);
        assertThat(r.code()).as("exit code of %s; stderr: %s", List.of(args), r.err()).isZero();
        assertThat(r.err()).as("stderr").isEmpty();
        return r.out();
    }

    /** {@code lbsim query DB SQL --format csv}, as lines (the header first). */
    static List<String> query(Path db, String sql) {
        return ok("query", db.toString(), sql, "--format", "csv").lines().toList();
    }

    static List<String> columns(Path db, String table) {
        List<String> lines = query(db, "SELECT column_name FROM information_schema.columns WHERE table_name = '" + table + "' ORDER BY ordinal_position");
        return lines.subList(1, lines.size());
    }

    @Test
    void every_point_and_seed_is_written_exactly_once_into_the_documented_tables() throws IOException {
        Path sweep = file("s.yaml", SWEEP);
        Path out = dir.resolve("out");
        String printed = ok("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "2");
        Path db = out.resolve("results.duckdb");
        assertThat(db).exists();
        assertThat(printed).startsWith("sweep t: 6 points x 2 seeds = 12 runs on 2 jobs -> " + db)
                .contains("sweep t: 12 of 12 runs recorded (12 now in ")
                .contains("point  loadBalancing.type  workload.messageBytes  seeds  mean_cct_us");
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("results.duckdb"))).isEmpty();
        }

        // each (point, seed) once, grid order: the first key varies slowest
        assertThat(query(db, "SELECT run_id, sweep, point, seed, \"loadBalancing.type\", \"workload.messageBytes\", \"topology.k\", scenario_name"
                + " FROM runs ORDER BY point, seed")).containsExactly(
                "run_id,sweep,point,seed,loadBalancing.type,workload.messageBytes,topology.k,scenario_name",
                "t-p0-seed3,t,0,3,ecmp,16384,4,small", "t-p0-seed4,t,0,4,ecmp,16384,4,small",
                "t-p1-seed3,t,1,3,ecmp,65536,4,small", "t-p1-seed4,t,1,4,ecmp,65536,4,small",
                "t-p2-seed3,t,2,3,host-spray,16384,4,small", "t-p2-seed4,t,2,4,host-spray,16384,4,small",
                "t-p3-seed3,t,3,3,host-spray,65536,4,small", "t-p3-seed4,t,3,4,host-spray,65536,4,small",
                "t-p4-seed3,t,4,3,ofan,16384,4,small", "t-p4-seed4,t,4,4,ofan,16384,4,small",
                "t-p5-seed3,t,5,3,ofan,65536,4,small", "t-p5-seed4,t,5,4,ofan,65536,4,small");

        // the tables and columns of docs/results.md
        assertThat(query(db, "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' ORDER BY table_name")).containsExactly(
                "table_name", "counters", "failure_events", "flows", "job_phases", "jobs", "layers", "ooo_histogram", "runs", "scheme_counters", "series");
        assertThat(query(db, "SELECT table_name FROM information_schema.tables WHERE table_type = 'VIEW'")).containsExactly("table_name", "results");
        List<String> runs = columns(db, "runs");
        assertThat(runs.subList(0, RUNS_COLUMNS.size())).isEqualTo(RUNS_COLUMNS);
        assertThat(runs.subList(RUNS_COLUMNS.size(), runs.size())).contains("topology.type", "topology.k", "topology.hostLink.rateGbps",
                "packets.mtuBytes", "loadBalancing.type", "congestionControl.type", "lossRecovery.type", "workload.type", "workload.messageBytes",
                "failures.links", "limits.maxTimeUs").doesNotContain("name", "seed");
        assertThat(columns(db, "flows")).containsExactly("run_id", "flow", "src", "dst", "bytes", "start_ps", "fct_ps", "receiver_done_ps",
                "packets_sent", "retransmissions", "spurious_retransmissions", "duplicates_received", "timeouts");
        assertThat(columns(db, "layers")).containsExactly("run_id", "layer", "layer_index", "ports", "max_queue_bytes", "mean_queue_bytes", "drops",
                "link_loss", "ecn_marks", "tx_packets", "pauses", "paused_ps", "max_port_tx_bytes", "mean_port_tx_bytes");
        assertThat(columns(db, "counters")).containsExactly("run_id", "name", "value");
        assertThat(columns(db, "series")).containsExactly("run_id", "series", "unit", "t_ps", "value");
        assertThat(columns(db, "ooo_histogram")).containsExactly("run_id", "bucket", "count", "min_degree", "max_degree");
        assertThat(query(db, "SELECT data_type FROM information_schema.columns WHERE table_name = 'runs' AND column_name IN"
                + " ('topology.k', 'loadBalancing.type', 'topology.hostLink.rateGbps', 'congestionControl.rhoMax') ORDER BY column_name"))
                .containsExactly("data_type", "BOOLEAN", "VARCHAR", "DOUBLE", "BIGINT");

        // every run has all its rows: 16 flows, 6 layers in path order, counters, series, a histogram
        assertThat(query(db, "SELECT count(*), count(DISTINCT run_id), sum(flows), sum(flows_finished) FROM runs")).containsExactly(
                "count_star(),count(DISTINCT run_id),sum(flows),sum(flows_finished)", "12,12,192,192");
        assertThat(query(db, "SELECT run_id, count(*) AS n FROM flows GROUP BY run_id HAVING n <> 16")).hasSize(1);
        assertThat(query(db, "SELECT string_agg(layer, ' ' ORDER BY layer_index) AS path FROM layers GROUP BY run_id")).hasSize(13)
                .allMatch(l -> l.equals("path") || l.equals("H->E E->A A->C C->A A->E E->H"));
        assertThat(query(db, "SELECT count(DISTINCT run_id) FROM counters WHERE name = 'events' AND value > 0")).containsExactly("count(DISTINCT run_id)", "12");
        assertThat(query(db, "SELECT count(DISTINCT run_id), count(DISTINCT series) > 5 FROM series")).element(1).isEqualTo("12,true");
        assertThat(query(db, "SELECT count(DISTINCT run_id) FROM ooo_histogram WHERE bucket = 0")).element(1).isEqualTo("12");
        assertThat(query(db, "SELECT count(*) FROM (SELECT run_id FROM flows UNION SELECT run_id FROM layers UNION SELECT run_id FROM series)"
                + " WHERE run_id NOT IN (SELECT run_id FROM runs)")).element(1).isEqualTo("0");

        // scenario_yaml reproduces the run: same CCT and counters as a direct simulation
        String storedYaml = ok("query", db.toString(), "SELECT scenario_yaml FROM runs WHERE run_id = 't-p3-seed4'", "--format", "json");
        Scenario s = ScenarioBinder.bind(Yaml.parse(jsonString(storedYaml, "scenario_yaml"), "scenario_yaml"));
        assertThat(s.seed()).isEqualTo(4);
        assertThat(s.loadBalancing().type()).isEqualTo("host-spray");
        RunResult direct = Simulation.run(s, dir);
        assertThat(query(db, "SELECT cct_ps, lower_bound_ps, events, packet_hops, retransmissions, ooo_arrivals FROM runs WHERE run_id = 't-p3-seed4'"))
                .element(1).isEqualTo(direct.cctPs() + "," + direct.lowerBoundPs() + "," + direct.counters().events() + ","
                        + direct.counters().packetHops() + "," + direct.counters().retransmissions() + "," + direct.outOfOrder().arrivals());
        assertThat(query(db, "SELECT sum(fct_ps) FROM flows WHERE run_id = 't-p3-seed4'")).element(1)
                .isEqualTo(Long.toString(direct.flowResults().stream().mapToLong(f -> f.fctPs()).sum()));

        // running it again runs nothing and changes nothing
        String again = ok("sweep", sweep.toString(), "--out", out.toString());
        assertThat(again).startsWith("sweep t: 6 points x 2 seeds = 12 runs, all already recorded in " + db);
        assertThat(query(db, "SELECT count(*) FROM runs")).element(1).isEqualTo("12");

        // one more seed: only the 6 new runs
        String more = ok("sweep", sweep.toString(), "--out", out.toString(), "--seeds", "3");
        assertThat(more).startsWith("sweep t: 6 points x 3 seeds = 18 runs (12 already recorded, 6 to run) on ");
        assertThat(query(db, "SELECT seed, count(*) FROM runs GROUP BY seed ORDER BY seed")).containsExactly("seed,count_star()", "3,6", "4,6", "5,6");
    }

    /** The value of one key in the first object of a JSON array written by lbsim query --format json. */
    static String jsonString(String json, String key) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).get(0).get(key).asText();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    void points_are_combined_with_the_grid_and_quick_shrinks_the_base() throws IOException {
        Path sweep = file("p.yaml", """
                name: combo
                base:
                  topology: {type: fat-tree, k: 6}
                  workload: {type: permutation, messageBytes: 16384}
                points:
                  - {loadBalancing.type: ecmp}
                  - {loadBalancing: {type: host-spray}, lossRecovery.type: sack}
                grid:
                  workload.messageBytes: [4096, 8192]
                quick:
                  topology.k: 4
                """);
        Path out = dir.resolve("q");
        String printed = ok("sweep", sweep.toString(), "--out", out.toString(), "--quick");
        assertThat(printed).contains("point  loadBalancing.type  lossRecovery.type  workload.messageBytes  seeds  mean_cct_us");
        Path db = out.resolve("results.duckdb");
        assertThat(query(db, "SELECT run_id, \"loadBalancing.type\", \"lossRecovery.type\", \"workload.messageBytes\", \"topology.k\", hosts"
                + " FROM runs ORDER BY point")).containsExactly(
                "run_id,loadBalancing.type,lossRecovery.type,workload.messageBytes,topology.k,hosts",
                "combo-quick-p0-seed1,ecmp,erasure,4096,4,16", "combo-quick-p1-seed1,ecmp,erasure,8192,4,16",
                "combo-quick-p2-seed1,host-spray,sack,4096,4,16", "combo-quick-p3-seed1,host-spray,sack,8192,4,16");
    }

    @Test
    void keep_runs_writes_a_run_folder_per_run() throws IOException {
        Path sweep = file("k.yaml", "name: keep\nbase: {topology: {k: 4}, workload: {messageBytes: 8192}}\ngrid: {loadBalancing.type: [ecmp, ofan]}\n");
        Path out = dir.resolve("k");
        ok("sweep", sweep.toString(), "--out", out.toString(), "--keep-runs", "--quiet");
        try (Stream<Path> s = Files.list(out.resolve("runs"))) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("keep-p0-seed1", "keep-p1-seed1");
        }
        assertThat(out.resolve("runs/keep-p1-seed1/summary.json")).content().contains("\"seed\": 1,");
        assertThat(out.resolve("runs/keep-p1-seed1/scenario.yaml")).content().contains("type: ofan");
    }

    /** A piped sweep (a file, a CI log): one line per finished run, naming it, its wall time and its point; no control character. */
    @Test
    void progress_off_a_terminal_is_one_line_per_run() throws IOException {
        StringBuilder grid = new StringBuilder("[");
        for (int i = 0; i < 20; i++) {
            grid.append(i == 0 ? "" : ", ").append(4096 * (i + 1));
        }
        Path sweep = file("many.yaml", "name: many\nbase: {topology: {k: 4}}\ngrid: {workload.messageBytes: " + grid + "]}\nseeds: 2\n");
        String printed = ok("sweep", sweep.toString(), "--out", dir.resolve("m").toString());
        List<String> progress = printed.lines().filter(l -> l.startsWith("sweep many")).toList();
        assertThat(progress).hasSize(1 + 40 + 1); // the plan, one per run, "40 of 40 runs recorded ..."
        assertThat(progress.get(0)).isEqualTo("sweep many: 20 points x 2 seeds = 40 runs on " + Math.min(40, Runtime.getRuntime().availableProcessors())
                + " job" + (Runtime.getRuntime().availableProcessors() == 1 ? "" : "s") + " -> " + dir.resolve("m/results.duckdb"));
        java.util.Set<String> runs = new java.util.HashSet<>();
        java.util.regex.Pattern perRun = java.util.regex.Pattern.compile(
                "sweep many: (\\d+)/40 runs, [0-9.]+ runs/s, (ETA|[0-9.]+s elapsed)[^;]*; (many-p(\\d+)-seed[12]) in [0-9.]+s: point (\\d+) \\(workload.messageBytes=(\\d+)\\)");
        for (int i = 1; i <= 40; i++) {
            java.util.regex.Matcher m = perRun.matcher(progress.get(i));
            assertThat(m.matches()).as("line %d: %s", i, progress.get(i)).isTrue();
            assertThat(Integer.parseInt(m.group(1))).isEqualTo(i);
            assertThat(m.group(4)).isEqualTo(m.group(5)); // the run id's point is the point described
            assertThat(Long.parseLong(m.group(6))).isEqualTo(4096L * (Integer.parseInt(m.group(5)) + 1));
            runs.add(m.group(3));
        }
        assertThat(runs).hasSize(40);
        assertThat(progress.get(40)).matches("sweep many: 40/40 runs, [0-9.]+ runs/s, [0-9.]+s elapsed; .*");
        assertThat(progress.get(41)).startsWith("sweep many: 40 of 40 runs recorded (40 now in ");
        assertThat(printed.chars().filter(c -> c < 0x20 && c != '\n')).as("control characters").isEmpty();
    }

    // --- bad input ---------------------------------------------------------------------------

    /** A bad sweep: one line, exit 2, nothing written. */
    String bad(Path sweep, String... extra) {
        Path out = dir.resolve("bad-out");
        List<String> args = new ArrayList<>(List.of("sweep", sweep.toString(), "--out", out.toString()));
        args.addAll(List.of(extra));
        String line = lbsim(args.toArray(String[]::new)).errorLine();
        assertThat(out).doesNotExist();
        return line;
    }

    @Test
    void bad_sweep_files_are_one_line_errors_with_exit_code_2() throws IOException {
        assertThat(bad(file("unknown.yaml", "name: x\ngird: {topology.k: [4]}\n")))
                .isEqualTo("lbsim: " + dir.resolve("unknown.yaml") + ":2:1: gird: unknown key, did you mean 'grid'? (allowed keys: name, base, baseFile, grid, points, seeds, quick)");
        assertThat(bad(file("notlist.yaml", "grid: {topology.k: 4}\n")))
                .isEqualTo("lbsim: " + dir.resolve("notlist.yaml") + ":1:8: grid.topology.k: expected a non-empty list of values, such as [1, 2], got the integer 4");
        assertThat(bad(file("seeds.yaml", "seeds: 0\n")))
                .isEqualTo("lbsim: " + dir.resolve("seeds.yaml") + ":1:1: seeds: expected a positive integer (the number of seeds per point), got the integer 0");
        assertThat(bad(file("both.yaml", "base: {}\nbaseFile: x.yaml\n")))
                .isEqualTo("lbsim: " + dir.resolve("both.yaml") + ":2:1: baseFile: give either base (a scenario) or baseFile (a scenario file), not both");
        assertThat(bad(file("nobase.yaml", "baseFile: missing.yaml\n")))
                .isEqualTo("lbsim: " + dir.resolve("missing.yaml") + " (the baseFile of " + dir.resolve("nobase.yaml") + ":1:1): no such file");
        assertThat(bad(file("path.yaml", "grid: {topology..k: [4]}\n")))
                .startsWith("lbsim: " + dir.resolve("path.yaml") + ":1:8: grid.topology..k: 'topology..k' is not a field path;");
        assertThat(bad(file("overlap.yaml", "grid: {topology.k: [4]}\npoints: [{topology.k: 6}]\n")))
                .isEqualTo("lbsim: " + dir.resolve("overlap.yaml") + ":2:11: points[0].topology.k: is also a grid key; set a field in the grid or in the points, not both");
        assertThat(bad(file("syntax.yaml", "grid:\n  a: [1\n")))
                .startsWith("lbsim: " + dir.resolve("syntax.yaml") + ":3:1: YAML syntax error:");
        assertThat(bad(file("empty.yaml", "")))
                .isEqualTo("lbsim: " + dir.resolve("empty.yaml") + ": the sweep file is empty; expected keys name, base, baseFile, grid, points, seeds, quick");

        // binding errors name the line and column of the value, the point (with its fields) and the field
        Path p = file("bind.yaml", "base: {topology: {k: 4}}\ngrid:\n  topology.k: [4, 5]\n  loadBalancing.type: [ecmp]\n");
        assertThat(bad(p)).isEqualTo("lbsim: " + p + ":3:19: point 1 (topology.k=5, loadBalancing.type=ecmp): topology.k: must be an even integer between 2 and 128, got 5");
        Path q = file("type.yaml", "base: {topology: {k: 4}}\npoints:\n  - {loadBalancing.type: ecmp}\n  - {loadBalancing.type: host-spary}\n");
        assertThat(bad(q)).startsWith("lbsim: " + q + ":4:6: point 1 (loadBalancing.type=host-spary): loadBalancing.type: unknown load-balancing scheme"
                + " 'host-spary', did you mean 'host-spray'?");
        // errors found only against the built fabric too, before anything runs
        Path r = file("link.yaml", "base: {topology: {k: 4}}\npoints:\n  - {}\n  - {failures.links: [{a: e0, b: c0}]}\n");
        assertThat(bad(r)).isEqualTo("lbsim: " + r + ":4:6: point 1 (failures.links=[{a: e0, b: c0}]): failures.links[0]: there is no link between e0 and c0");
        Path s = file("ok.yaml", "base: {topology: {k: 4}}\n");
        assertThat(bad(s, "--seeds", "0")).isEqualTo("lbsim: --seeds 0: must be a positive integer");
        assertThat(bad(s, "--jobs", "0")).isEqualTo("lbsim: --jobs 0: must be between 1 and 4096");
    }

    /** Every error of a sweep file at once, each at its line and column; an error of its base file names both files. */
    @Test
    void a_sweep_file_reports_every_error_at_once_each_at_its_line_and_column() throws IOException {
        Path base = file("base.yaml", "name: b\ntopology:\n  type: fat-tree\n  k: 5\n");
        Path sweep = file("many.yaml", "name: bad name\nbaseFile: base.yaml\nseeds: 0\ngrid:\n  loadBalancing.type: [ecmp, bogus]\nextra: 1\n");
        MainTest.Result r = lbsim("sweep", sweep.toString(), "--out", dir.resolve("many-out").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
        List<String> lines = r.err().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.subList(0, 4)).containsExactly(
                "lbsim: " + sweep + ":6:1: extra: unknown key (allowed keys: name, base, baseFile, grid, points, seeds, quick)",
                "lbsim: " + sweep + ":1:1: name: expected letters, digits, '.', '_' or '-' (it names the runs), got the string \"bad name\"",
                "lbsim: " + sweep + ":3:1: seeds: expected a positive integer (the number of seeds per point), got the integer 0",
                "lbsim: " + base + ":4:3 (the baseFile of " + sweep + ":2:1): point 0 (loadBalancing.type=ecmp): topology.k: must be an even integer"
                        + " between 2 and 128, got 5");
        assertThat(lines.get(4)).startsWith("lbsim: " + sweep + ":5:30: point 1 (loadBalancing.type=bogus): loadBalancing.type: unknown"
                + " load-balancing scheme 'bogus' (allowed: ");
        assertThat(dir.resolve("many-out")).doesNotExist();
        // a syntax error in the base file names the sweep file that points to it
        Files.writeString(base, "name: b\ntopology: {k: 4\n");
        assertThat(bad(file("syntax-base.yaml", "baseFile: base.yaml\n")))
                .startsWith("lbsim: " + base + ":3:1 (the baseFile of " + dir.resolve("syntax-base.yaml") + ":1:1): YAML syntax error: ");
    }

    @Test
    void the_spark_engine_without_its_module_says_how_to_get_it() throws IOException {
        Path s = file("ok.yaml", "base: {topology: {k: 4}}\n");
        // the cli's own class path has no engine but local: the spark module is optional
        assertThat(java.util.ServiceLoader.load(org.lbsim.cli.sweep.SweepEngine.class)).isEmpty();
        assertThat(bad(s, "--engine", "spark")).isEqualTo("lbsim: --engine spark: the Spark engine is not on the class path: run the sweep"
                + " with ./lbsim-spark (it builds the spark module), or spark-submit as docs/sweeps.md 'Sweeps on Spark' shows");
        assertThat(bad(s, "--engine", "flink")).isEqualTo("lbsim: --engine flink: unknown engine; expected local (spark with ./lbsim-spark)");
        assertThat(bad(s, "--master", "local[2]")).isEqualTo("lbsim: --master local[2]: is for another engine than local; add --engine spark");
    }

    @Test
    void a_changed_sweep_file_does_not_mix_with_recorded_runs() throws IOException {
        Path sweep = file("c.yaml", "name: c\nbase: {topology: {k: 4}, workload: {messageBytes: 8192}}\n");
        Path out = dir.resolve("c");
        ok("sweep", sweep.toString(), "--out", out.toString(), "--quiet");
        Files.writeString(sweep, "name: c\nbase: {topology: {k: 4}, workload: {messageBytes: 16384}}\n");
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString()).errorLine()).isEqualTo("lbsim: " + out.resolve("results.duckdb")
                + ": run 'c-p0-seed1' of sweep 'c' was recorded with another scenario (did the sweep file change?); use another --out, or another name: in the sweep file");
    }

    @Test
    void runs_recorded_before_a_parameter_existed_resume_when_its_default_keeps_their_scenario() throws Exception {
        Path sweep = file("p.yaml", "name: p\nbase: {topology: {k: 4}, workload: {messageBytes: 8192}}\nseeds: 2\n");
        Path out = dir.resolve("p");
        ok("sweep", sweep.toString(), "--out", out.toString(), "--quiet", "--jobs", "1");
        // as an older lbsim stored it: every field spelt out but one that did not exist yet
        String gap = "interFrameGapBytes: " + org.lbsim.scenario.PacketSpec.defaults().interFrameGapBytes();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + out.resolve("results.duckdb"));
             java.sql.Statement st = c.createStatement()) {
            var rs = st.executeQuery("SELECT count(*) FROM runs WHERE scenario_yaml LIKE '%" + gap + "%'");
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(2);
            st.execute("UPDATE runs SET scenario_yaml = regexp_replace(scenario_yaml, '\\n *" + gap + "', ''),"
                    + " \"packets.interFrameGapBytes\" = NULL WHERE seed = 1"); // and its column empty, as in a table made before it
            rs = st.executeQuery("SELECT count(*) FROM runs WHERE scenario_yaml LIKE '%" + gap + "%'");
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        MainTest.Result resumed = lbsim("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "1");
        assertThat(resumed.code()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("2 runs, all already recorded");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + out.resolve("results.duckdb"));
             java.sql.Statement st = c.createStatement()) {
            var rs = st.executeQuery("SELECT count(DISTINCT \"packets.interFrameGapBytes\"), count(\"packets.interFrameGapBytes\") FROM runs");
            rs.next();
            assertThat(rs.getInt(2)).as("the older run's empty column now holds the default it ran with").isEqualTo(2);
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        // a stored value that differs from today's scenario is still another scenario
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + out.resolve("results.duckdb"));
             java.sql.Statement st = c.createStatement()) {
            st.execute("UPDATE runs SET scenario_yaml = replace(scenario_yaml, 'messageBytes: 8192', 'messageBytes: 4096') WHERE seed = 2");
        }
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString()).errorLine()).isEqualTo("lbsim: " + out.resolve("results.duckdb")
                + ": run 'p-p0-seed2' of sweep 'p' was recorded with another scenario (did the sweep file change?); use another --out, or another name: in the sweep file");
    }

    @Test
    void a_resume_of_one_part_fills_the_new_parameters_column_of_the_runs_outside_its_selection() throws Exception {
        Path sweep = file("q.yaml", "name: q\nbase: {topology: {k: 4}, workload: {messageBytes: 8192}}\ngrid: {loadBalancing.type: [ecmp, host-spray]}\n");
        Path out = dir.resolve("q");
        ok("sweep", sweep.toString(), "--out", out.toString(), "--quiet", "--jobs", "1");
        String gap = "interFrameGapBytes: " + org.lbsim.scenario.PacketSpec.defaults().interFrameGapBytes();
        String column = "\"packets.interFrameGapBytes\"";
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + out.resolve("results.duckdb"));
             java.sql.Statement st = c.createStatement()) {
            // both points as an older lbsim stored them: the parameter neither spelt out nor a column value
            st.execute("UPDATE runs SET scenario_yaml = regexp_replace(scenario_yaml, '\\n *" + gap + "', ''), " + column + " = NULL");
        }
        MainTest.Result part = lbsim("sweep", sweep.toString(), "--out", out.toString(), "--only", "loadBalancing.type=ecmp", "--jobs", "1");
        assertThat(part.code()).as(part.err()).isZero();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + out.resolve("results.duckdb"));
             java.sql.Statement st = c.createStatement()) {
            var rs = st.executeQuery("SELECT \"loadBalancing.type\", " + column + " FROM runs ORDER BY 1");
            for (String scheme : List.of("ecmp", "host-spray")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(scheme);
                assertThat(rs.getLong(2)).as(scheme + " (outside the selection for host-spray) holds the default it ran with")
                        .isEqualTo((long) org.lbsim.scenario.PacketSpec.defaults().interFrameGapBytes());
            }
        }
    }

    @Test
    void only_runs_the_matching_points_under_the_full_sweeps_run_ids_and_the_full_sweep_resumes() throws IOException {
        Path sweep = file("s.yaml", SWEEP);
        Path out = dir.resolve("only");
        String printed = ok("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "1",
                "--only", "loadBalancing.type=ecmp,ofan", "--only", "workload.messageBytes=16384.0");
        assertThat(printed).startsWith("sweep t: 2 points x 2 seeds = 4 runs");
        Path db = out.resolve("results.duckdb");
        // the grid's order: (ecmp, 16384) is point 0, (ofan, 16384) point 4, as in the full sweep
        assertThat(query(db, "SELECT run_id FROM runs ORDER BY run_id")).containsExactly("run_id", "t-p0-seed3", "t-p0-seed4", "t-p4-seed3", "t-p4-seed4");
        List<String> before = query(db, "SELECT run_id, cct_ps, events FROM runs ORDER BY run_id");
        assertThat(ok("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "2"))
                .startsWith("sweep t: 6 points x 2 seeds = 12 runs (4 already recorded, 8 to run) on 2 jobs");
        assertThat(query(db, "SELECT count(*) FROM runs")).containsExactly("count_star()", "12");
        assertThat(query(db, "SELECT run_id, cct_ps, events FROM runs WHERE run_id IN ('t-p0-seed3', 't-p0-seed4', 't-p4-seed3', 't-p4-seed4')"
                + " ORDER BY run_id")).isEqualTo(before);
    }

    @Test
    void only_selects_points_by_their_name() throws IOException {
        Path sweep = file("named.yaml", "name: named\nbase: {topology: {k: 4}, workload: {messageBytes: 8192}}\n"
                + "points:\n  - {name: small, workload.messageBytes: 4096}\n  - {name: large, workload.messageBytes: 16384}\n");
        Path out = dir.resolve("named");
        assertThat(ok("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "1", "--only", "name=large")).startsWith("sweep named: 1 point x 1 seed");
        assertThat(query(out.resolve("results.duckdb"), "SELECT scenario_name FROM runs")).containsExactly("scenario_name", "large");
    }

    @Test
    void only_selects_points_by_a_field_inside_a_list() throws IOException {
        Path sweep = file("jobs.yaml", "name: jobs\nbase:\n  topology: {k: 4}\n  workload:\n    type: jobs\n"
                + "    jobs: [{name: ar, op: all-reduce, bytes: 65536, hosts: 4}]\n"
                + "points:\n  - {\"workload.jobs[0].bytes\": 65536}\n  - {\"workload.jobs[0].bytes\": 131072}\n");
        Path out = dir.resolve("jobs");
        assertThat(ok("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "1", "--only", "workload.jobs[0].bytes=131072"))
                .startsWith("sweep jobs: 1 point x 1 seed");
        assertThat(query(out.resolve("results.duckdb"), "SELECT run_id FROM runs")).containsExactly("run_id", "jobs-p1-seed1");
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString(), "--only", "workload.jobs[0].bytes=4096").errorLine())
                .isEqualTo("lbsim: --only workload.jobs[0].bytes=4096: workload.jobs[0].bytes: no point of " + sweep
                        + " has workload.jobs[0].bytes = '4096' (its values: 65536, 131072)");
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString(), "--only", "workload.jobs[1].bytes=4096").errorLine())
                .startsWith("lbsim: --only workload.jobs[1].bytes=4096: workload.jobs[1].bytes: is not a field of this sweep's scenarios");
    }

    @Test
    void a_bad_only_is_a_one_line_error_before_anything_is_written() throws IOException {
        Path sweep = file("s.yaml", SWEEP);
        Path out = dir.resolve("bad-only");
        String shown = sweep.toString();
        assertThat(lbsim("sweep", shown, "--out", out.toString(), "--only", "loadBalancing.type").errorLine())
                .isEqualTo("lbsim: --only loadBalancing.type: expected KEY=VALUE[,VALUE...] with a field path of the scenario, such as topology.k=4,8");
        assertThat(lbsim("sweep", shown, "--out", out.toString(), "--only", "loadBalancing.typo=ecmp").errorLine())
                .isEqualTo("lbsim: --only loadBalancing.typo=ecmp: loadBalancing.typo: is not a field of this sweep's scenarios (the fields it varies:"
                        + " loadBalancing.type, workload.messageBytes)");
        assertThat(lbsim("sweep", shown, "--out", out.toString(), "--only", "loadBalancing.type=ecmp,drill").errorLine())
                .isEqualTo("lbsim: --only loadBalancing.type=ecmp,drill: loadBalancing.type: no point of " + shown
                        + " has loadBalancing.type = 'drill' (its values: ecmp, host-spray, ofan)");
        MainTest.Result none = lbsim("sweep", shown, "--out", out.toString(), "--only", "topology.k=4", "--only", "topology.k=8");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.errorLine()).startsWith("lbsim: --only topology.k=8: topology.k: no point of " + shown + " has topology.k = '8'");
        assertThat(out).doesNotExist();
    }

    @Test
    void threads_runs_every_run_on_the_partitioned_kernel_and_records_it() throws IOException {
        Path sweep = file("s.yaml", SWEEP);
        Path out = dir.resolve("threads");
        assertThat(ok("sweep", sweep.toString(), "--out", out.toString(), "--jobs", "1", "--threads", "2"))
                .startsWith("sweep t: 6 points x 2 seeds = 12 runs on 1 job of 2 threads (partitioned kernel)");
        Path db = out.resolve("results.duckdb");
        assertThat(query(db, "SELECT DISTINCT kernel FROM runs")).containsExactly("kernel", "partitioned");
        // the same runs as 'lbsim run --threads', which give the same bits for every thread count
        Path one = dir.resolve("one.yaml");
        Files.writeString(one, "name: small\nseed: 4\ntopology: {type: fat-tree, k: 4}\nloadBalancing: {type: ofan}\n"
                + "workload: {type: permutation, messageBytes: 65536}\n");
        List<String> recorded = query(db, "SELECT cct_ps, events FROM runs WHERE run_id = 't-p5-seed4'");
        for (String threads : List.of("1", "2")) {
            Path runDb = dir.resolve("run-" + threads + ".duckdb");
            ok("run", one.toString(), "--out", dir.resolve("run-" + threads).toString(), "--quiet", "--threads", threads, "--db", runDb.toString());
            assertThat(query(runDb, "SELECT cct_ps, events FROM runs")).as("--threads %s", threads).isEqualTo(recorded);
            assertThat(query(runDb, "SELECT kernel FROM runs")).containsExactly("kernel", "partitioned");
            assertThat(Files.readString(dir.resolve("run-" + threads).resolve("meta.json"))).contains("\"kernel\": \"partitioned\"");
        }
        Path seqDb = dir.resolve("seq.duckdb");
        ok("run", one.toString(), "--out", dir.resolve("seq").toString(), "--quiet", "--db", seqDb.toString());
        assertThat(query(seqDb, "SELECT kernel FROM runs")).containsExactly("kernel", "sequential");
        // resuming with the other kernel would mix two readings of the fabric statistics at completion in one folder
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString()).errorLine()).isEqualTo("lbsim: " + db
                + ": run 't-p0-seed3' of sweep 't' was recorded with the partitioned kernel and this invocation runs the sequential one"
                + " (--threads), whose fabric statistics at completion differ; resume with --threads, or use another --out");
        assertThat(ok("sweep", sweep.toString(), "--out", out.toString(), "--threads", "1")).contains("all already recorded");
    }

    @Test
    void threads_is_checked_before_anything_is_written() throws IOException {
        Path sweep = file("s.yaml", SWEEP);
        Path out = dir.resolve("threads-bad");
        assertThat(lbsim("sweep", sweep.toString(), "--out", out.toString(), "--threads", "0").errorLine())
                .isEqualTo("lbsim: --threads 0: must be between 1 and 64");
        Path pfc = file("pfc.yaml", "name: p\nbase: {topology: {k: 4}, workload: {messageBytes: 8192}, switches: {pfc: {enabled: true}}}\n");
        MainTest.Result r = lbsim("sweep", pfc.toString(), "--out", out.toString(), "--threads", "2");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.errorLine()).isEqualTo("lbsim: " + pfc + ":2:75: point 0: switches.pfc.enabled: PFC is not supported with --threads"
                + " (only fabrics where partitions meet on links); run without --threads");
        assertThat(out).doesNotExist();
        Path seq = dir.resolve("seq");
        ok("sweep", sweep.toString(), "--out", seq.toString(), "--quiet", "--only", "loadBalancing.type=ecmp");
        assertThat(lbsim("sweep", sweep.toString(), "--out", seq.toString(), "--threads", "2").errorLine()).isEqualTo("lbsim: "
                + seq.resolve("results.duckdb") + ": run 't-p0-seed3' of sweep 't' was recorded with the sequential kernel and this invocation"
                + " runs the partitioned one (--threads), whose fabric statistics at completion differ; resume without --threads, or use another --out");
    }
}
