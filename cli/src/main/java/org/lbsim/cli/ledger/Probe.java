package org.lbsim.cli.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.sweep.SweepFile;
import org.lbsim.api.Lbsim;
import org.lbsim.api.RunOptions;
import org.lbsim.metrics.RunResult;

/**
 * Whether today's code still gives a figure's committed numbers, without rerunning the figure: the
 * first point of the figure's quick version, run with the code that made each part of the results
 * and recorded beside them ({@code probe.csv}: one row per code commit), is run again and compared
 * number for number. A figure whose probe differs is flagged stale in its ledger.
 */
public final class Probe {
    /** The file beside a figure's results. */
    public static final String FILE = "probe.csv";
    static final String HEADER = "git_commit,cct_ps,lower_bound_ps,events,packet_hops,drops,ecn_marks,retransmissions,timeouts,simulated_ps";

    private Probe() {
    }

    /** The probe's numbers: what a change of results at tie level or above moves. */
    public record Fingerprint(long cctPs, long lowerBoundPs, long events, long packetHops, long drops, long ecnMarks, long retransmissions,
                              long timeouts, long simulatedPs) {
        String csv() {
            return cctPs + "," + lowerBoundPs + "," + events + "," + packetHops + "," + drops + "," + ecnMarks + "," + retransmissions + "," + timeouts
                    + "," + simulatedPs;
        }

        static Fingerprint of(RunResult r) {
            RunResult.Counters c = r.counters();
            return new Fingerprint(r.cctPs(), r.lowerBoundPs(), c.events(), c.packetHops(), c.drops(), c.ecnMarks(), c.retransmissions(), c.timeouts(),
                    r.simulatedPs());
        }
    }

    /** Runs the probe of a reproduction (its definition as read): the first point of its quick version at that point's seed. */
    public static Fingerprint run(String reproduction, Map<String, Object> raw) {
        return withSweep(raw, true, (s, dir) -> {
            SweepFile.Point p = s.points.get(0);
            return Fingerprint.of(Lbsim.prepare(p.scenario(), RunOptions.sequential(dir)).run(0));
        });
    }

    /** The run ids of a reproduction's full sweep (every point at every seed it declares). */
    public static java.util.Set<String> expectedRunIds(Map<String, Object> raw) {
        return withSweep(raw, false, (s, dir) -> {
            java.util.Set<String> ids = new java.util.LinkedHashSet<>();
            for (SweepFile.Point p : s.points) {
                for (int i = 0; i < s.seeds; i++) {
                    ids.add(s.runId(p, p.scenario().seed() + i));
                }
            }
            return ids;
        });
    }

    /** The sweep a reproduction runs: its {@code sweep}, with the keys its {@code quickSweep} replaces as a whole when quick. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> sweepTree(Map<String, Object> raw, boolean quick) {
        Map<String, Object> sweep = new LinkedHashMap<>((Map<String, Object>) raw.get("sweep"));
        if (quick && raw.get("quickSweep") instanceof Map<?, ?> q) {
            // e.g. a grid without the largest fabric
            q.forEach((k, v) -> sweep.put(String.valueOf(k), v));
        }
        return sweep;
    }

    /**
     * The scenario columns of each point of a reproduction's sweep (quick or full), as the results database will
     * record them; none when the sweep does not load (the sweep says why when it is run).
     */
    public static List<Map<String, Object>> scenarioColumns(Map<String, Object> raw, boolean quick) {
        try {
            return withSweep(raw, quick, (s, dir) -> s.points.stream().map(p -> org.lbsim.cli.store.ScenarioColumns.of(p.scenario())).toList());
        } catch (UserError | org.lbsim.scenario.ScenarioException e) {
            return List.of();
        }
    }

    /** Writes a reproduction's {@code files} (traces its sweep reads) into {@code dir}. */
    @SuppressWarnings("unchecked")
    public static void writeFiles(Map<String, Object> raw, Path dir) throws IOException {
        for (Map.Entry<String, Object> f : ((Map<String, Object>) raw.getOrDefault("files", Map.of())).entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), String.valueOf(f.getValue()), StandardCharsets.UTF_8);
        }
    }

    /** Applies {@code fn} to a reproduction's sweep (quick or full), its files written to a folder removed after. */
    private static <T> T withSweep(Map<String, Object> raw, boolean quick, java.util.function.BiFunction<SweepFile, Path, T> fn) {
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("lbsim-sweep-");
            writeFiles(raw, tmp);
            Path file = tmp.resolve("sweep.yaml");
            Files.writeString(file, Yaml.write(sweepTree(raw, quick)), StandardCharsets.UTF_8);
            return fn.apply(SweepFile.load(file.toString(), quick ? 1 : null, quick), tmp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (tmp != null) {
                delete(tmp);
            }
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The recorded probe rows of a results folder by commit, in file order; empty when there is none. */
    public static Map<String, String> recorded(Path dir) {
        Path file = dir.resolve(FILE);
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(file + ": cannot read: " + e.getMessage());
        }
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new UserError(file + ": expected the header '" + HEADER + "'");
        }
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            int comma = line.indexOf(',');
            if (comma <= 0 || line.substring(comma + 1).split(",", -1).length != HEADER.split(",").length - 1
                    || !line.substring(comma + 1).matches("[0-9,-]+")) {
                throw new UserError(file + ":" + (i + 1) + ": expected a commit and " + (HEADER.split(",").length - 1) + " whole numbers");
            }
            out.put(line.substring(0, comma), line.substring(comma + 1));
        }
        return out;
    }

    /** Records today's probe under {@code commit}, replacing that commit's row. */
    public static void record(Path dir, String commit, Fingerprint today) {
        Map<String, String> rows = recorded(dir);
        rows.put(commit, today.csv());
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        rows.forEach((k, v) -> lines.add(k + "," + v));
        try {
            Files.writeString(dir.resolve(FILE), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What the probe says of a results folder: null when every recorded row equals today's numbers,
     * else why the results are stale (or that no probe was recorded).
     */
    public static String staleness(Path dir, Fingerprint today) {
        Map<String, String> rows = recorded(dir);
        if (rows.isEmpty()) {
            return "no probe recorded beside the results (" + FILE + "): whether today's code gives them is not known";
        }
        List<String> differing = new ArrayList<>();
        rows.forEach((commit, numbers) -> {
            if (!numbers.equals(today.csv())) {
                differing.add(commit.length() > 12 ? commit.substring(0, 12) : commit);
            }
        });
        return differing.isEmpty() ? null : "today's code gives other numbers than the code of " + String.join(", ", differing)
                + " that made these results (probe: the first point of the quick version): rerun the figure";
    }
}
