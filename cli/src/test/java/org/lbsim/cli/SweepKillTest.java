package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.SweepTest.ok;
import static org.lbsim.cli.SweepTest.query;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep killed with SIGKILL at arbitrary moments and run again ends with every run exactly once
 * and results identical to an uninterrupted sweep.
 */
class SweepKillTest {
    /** 20 points x 2 seeds on a k=4 fat tree: long enough to be killed in the middle. */
    static final String SWEEP = """
            name: kill
            base:
              seed: 7
              topology: {type: fat-tree, k: 4}
              workload: {type: permutation, messageBytes: 65536}
            grid:
              loadBalancing.type: [ecmp, host-spray, ofan, switch-pkt-ar, drill]
              workload.messageBytes: [32768, 65536, 131072, 262144]
            seeds: 2
            """;
    static final int RUNS = 40;
    private static final Pattern PROGRESS = Pattern.compile("sweep kill: (\\d+)/40 runs.*");

    @TempDir
    Path dir;

    @Test
    void a_sweep_killed_twice_resumes_to_the_same_results_as_an_uninterrupted_one() throws Exception {
        Path sweep = dir.resolve("kill.yaml");
        Files.writeString(sweep, SWEEP);
        Path killed = dir.resolve("killed");
        Path db = killed.resolve("results.duckdb");

        // first process: killed after a few runs were recorded
        int first = startAndKill(sweep, killed, 3);
        List<String> afterFirst = query(db, "SELECT count(*) AS n, count(DISTINCT run_id) AS d FROM runs");
        int recorded = Integer.parseInt(afterFirst.get(1).split(",")[0]);
        assertThat(afterFirst.get(1)).isEqualTo(recorded + "," + recorded);
        assertThat(recorded).as("runs recorded before the first kill (progress said %d)", first).isBetween(first, RUNS - 1);
        assertConsistent(db);

        // second process: resumes (its first line says how many were already there), killed again
        int second = startAndKill(sweep, killed, recorded + 3);
        int recorded2 = Integer.parseInt(query(db, "SELECT count(*) FROM runs").get(1));
        assertThat(recorded2).isBetween(second, RUNS - 1);
        assertConsistent(db);

        // third: to completion, in a separate process too
        Process p = start(sweep, killed);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertThat(p.exitValue()).as("stdout %s stderr %s", out, err).isZero();
        assertThat(out).contains("(" + recorded2 + " already recorded, " + (RUNS - recorded2) + " to run)");
        assertConsistent(db);

        // an uninterrupted sweep in another folder, in this JVM
        Path clean = dir.resolve("clean");
        ok("sweep", sweep.toString(), "--out", clean.toString(), "--quiet");
        Path cleanDb = clean.resolve("results.duckdb");
        for (String sql : List.of(
                "SELECT * EXCLUDE (wall_time_ms) FROM runs ORDER BY run_id",
                "SELECT * FROM flows ORDER BY run_id, flow",
                "SELECT * FROM layers ORDER BY run_id, layer_index",
                "SELECT * FROM counters ORDER BY run_id, name",
                "SELECT * FROM series ORDER BY run_id, series, t_ps",
                "SELECT * FROM ooo_histogram ORDER BY run_id, bucket")) {
            List<String> expected = query(cleanDb, sql);
            assertThat(query(db, sql)).as(sql).hasSize(expected.size()).isEqualTo(expected);
        }
        assertThat(query(db, "SELECT count(*), count(DISTINCT run_id), count(DISTINCT (point, seed)) FROM runs")).element(1).isEqualTo("40,40,40");
    }

    /** Every recorded run is complete (its 16 flows, 6 layers ...) and no rows belong to an unrecorded run. */
    private static void assertConsistent(Path db) {
        assertThat(query(db, "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id) <> 16"
                + " OR (SELECT count(*) FROM layers l WHERE l.run_id = r.run_id) <> 6"
                + " OR (SELECT count(*) FROM counters c WHERE c.run_id = r.run_id) = 0"
                + " OR (SELECT count(*) FROM series s WHERE s.run_id = r.run_id) = 0")).element(1).isEqualTo("0");
        assertThat(query(db, "SELECT count(*) FROM (SELECT run_id FROM flows UNION SELECT run_id FROM layers UNION SELECT run_id FROM counters"
                + " UNION SELECT run_id FROM series UNION SELECT run_id FROM ooo_histogram) WHERE run_id NOT IN (SELECT run_id FROM runs)"))
                .element(1).isEqualTo("0");
    }

    /** Starts the sweep in a new JVM, waits until its progress shows {@code atLeast} runs, SIGKILLs it; returns the count it showed. */
    private int startAndKill(Path sweep, Path out, int atLeast) throws Exception {
        Process p = start(sweep, out);
        List<String> lines = new ArrayList<>();
        int shown = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                Matcher m = PROGRESS.matcher(line);
                if (m.matches() && Integer.parseInt(m.group(1)) >= atLeast) {
                    shown = Integer.parseInt(m.group(1));
                    assertThat(shown).as("the sweep must be killed before it ends: %s", lines).isLessThan(RUNS);
                    p.destroyForcibly(); // SIGKILL
                    break;
                }
            }
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(shown).as("progress lines: %s; stderr: %s", lines, Files.readString(dir.resolve("stderr.txt"))).isPositive();
        assertThat(p.exitValue()).isEqualTo(137); // 128 + SIGKILL: killed, not finished
        return shown;
    }

    /** {@code java -cp <test class path> org.lbsim.cli.Main sweep ...}, one progress line per recorded run. */
    private Process start(Path sweep, Path out) throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp")); // DuckDB unpacks its native library here; a killed JVM leaves it behind
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "sweep", sweep.toString(), "--out", out.toString(), "--jobs", "2");
        pb.redirectError(dir.resolve("stderr.txt").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }
}
