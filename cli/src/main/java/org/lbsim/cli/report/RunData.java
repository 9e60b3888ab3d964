package org.lbsim.cli.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.lbsim.cli.plot.PlotException;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.OutOfOrder;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;

/**
 * What a report shows of one run, whichever source it came from (a run folder, a row of a results
 * database, or a {@link RunResult} in memory). Keys are snake_case as in the results database
 * ({@code cct_ps}, {@code max_queue_bytes}), whatever the source spelt.
 *
 * @param summary    seed, hosts, flows, flows_finished, cct_ps, lower_bound_ps, cct_increase_pct, rho_max_mbps, simulated_ps
 * @param layers     one map per layer in path order (layer, ports, max_queue_bytes ...)
 * @param counters   run-wide counters
 * @param outOfOrder ooo_samples, ooo_arrivals, ooo_max_degree, ooo_max_held (those known; the names of the results store)
 * @param fctPs      FCT of every finished flow
 * @param series     sampled time series (empty when the run sampled none or the source lacks them)
 * @param oooHistogram out-of-order log2 histogram (empty when unknown)
 * @param meta       version, commit ... (may be empty)
 * @param notes      what the source lacked, to say in the report
 * @param jobs       per job: name, collective, ranks, jct_ps, ideal_ps, slowdown, algbw_gbps, busbw_gbps (empty without jobs)
 */
public record RunData(String title, String scenarioYaml, Map<String, Object> summary, List<Map<String, Object>> layers,
                      Map<String, Object> counters, Map<String, Object> outOfOrder, double[] fctPs, List<TimeSeries> series,
                      long[] oooHistogram, Map<String, Object> meta, List<String> notes, List<Map<String, Object>> jobs) {
    /** The columns of the report's job table, as the results store names them. */
    static final List<String> JOB_COLUMNS = List.of("name", "collective", "ranks", "bytes", "jct_ps", "ideal_ps", "slowdown", "algbw_gbps",
            "busbw_gbps");

    private static Map<String, Object> jobRow(String name, String collective, Object ranks, Object bytes, Object jct, Object ideal, Object slowdown,
                                              Object algbw, Object busbw) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("collective", collective);
        m.put("ranks", ranks);
        m.put("bytes", bytes);
        m.put("jct_ps", jct);
        m.put("ideal_ps", ideal);
        m.put("slowdown", slowdown);
        m.put("algbw_gbps", algbw);
        m.put("busbw_gbps", busbw);
        return m;
    }

    private static Object finite(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    /** A value of the scenario tree by dotted path ({@code loadBalancing.type}), or null. */
    public Object scenarioField(String path) {
        Object node;
        try {
            node = YAML.readValue(scenarioYaml, Object.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        for (String part : path.split("\\.")) {
            if (!(node instanceof Map<?, ?> m)) {
                return null;
            }
            node = m.get(part);
        }
        return node;
    }

    /** camelCase to snake_case ({@code maxQueueBytes} to {@code max_queue_bytes}). */
    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    private static Map<String, Object> snakeKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(snake(String.valueOf(k)), v));
        return out;
    }

    private static Map<String, Object> recordMap(Record r) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            try {
                m.put(snake(c.getName()), c.getAccessor().invoke(r));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return m;
    }

    /** From a run in memory. */
    public static RunData of(String title, String scenarioYaml, RunResult r, Map<String, Object> meta) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("scenario_name", r.scenarioName());
        s.put("seed", r.seed());
        s.put("hosts", r.hosts());
        s.put("flows", r.flows());
        s.put("flows_finished", r.flowsFinished());
        s.put("cct_ps", r.cctPs());
        s.put("lower_bound_ps", r.lowerBoundPs());
        s.put("cct_increase_pct", Double.isNaN(r.cctIncreasePct()) ? null : r.cctIncreasePct());
        s.put("rho_max_mbps", r.rhoMaxMbps() == Long.MAX_VALUE ? null : r.rhoMaxMbps());
        s.put("simulated_ps", r.simulatedPs());
        List<String> notes = new ArrayList<>();
        if (r.oversubscribed()) {
            s.put("oversubscription", r.oversubscription());
            s.put("lower_bound_basis", ResultsStore.OVERSUBSCRIBED_BOUND_BASIS);
            notes.add(oversubscriptionNote(r.oversubscription(), !r.jobs().isEmpty()));
        }
        List<Map<String, Object>> layers = new ArrayList<>();
        r.layers().forEach(l -> layers.add(recordMap(l)));
        Map<String, Object> counters = recordMap(r.counters());
        counters.putAll(r.schemeCounters());
        OutOfOrder o = r.outOfOrder();
        Map<String, Object> ooo = new LinkedHashMap<>();
        ooo.put("ooo_samples", o.samples());
        ooo.put("ooo_arrivals", o.arrivals());
        ooo.put("ooo_max_degree", o.maxDegree());
        ooo.put("ooo_max_held", o.maxHeld());
        double[] fct = r.flowResults().stream().filter(FlowResult::finished).mapToDouble(FlowResult::fctPs).toArray();
        List<Map<String, Object>> jobs = new ArrayList<>();
        for (org.lbsim.metrics.JobResult j : r.jobs()) {
            jobs.add(jobRow(j.name(), j.collective(), j.ranks(), j.bytes(), j.jctPs(), j.idealPs(), finite(j.slowdown()), finite(j.algbwGBps()),
                    finite(j.busbwGBps())));
        }
        return new RunData(title, scenarioYaml, s, layers, counters, ooo, fct, r.series(),
                o.log2Histogram() == null ? new long[0] : o.log2Histogram().clone(), meta == null ? Map.of() : meta, notes, jobs);
    }

    /**
     * From a run folder: scenario.yaml, summary.json and flows.csv are required; series.csv and
     * ooo.csv (written since lbsim writes them) and meta.json are used when present.
     *
     * @param shown the folder as the user wrote it, for messages
     */
    public static RunData fromFolder(Path dir, String shown) {
        Path summaryFile = dir.resolve("summary.json");
        if (!Files.isRegularFile(summaryFile)) {
            throw new PlotException(shown + ": not a run folder (no summary.json)");
        }
        List<String> notes = new ArrayList<>();
        try {
            String yaml = Files.isRegularFile(dir.resolve("scenario.yaml")) ? Files.readString(dir.resolve("scenario.yaml"), StandardCharsets.UTF_8) : "";
            if (yaml.isEmpty()) {
                notes.add("the folder has no scenario.yaml");
            }
            Map<?, ?> summary = readJson(summaryFile, shown + "/summary.json");
            Map<String, Object> s = new LinkedHashMap<>();
            Map<String, Object> sn = snakeKeys(summary);
            // folders written before the renames of 0.1 (docs/results.md) say scenario and cctIncreasePercent
            s.put("scenario_name", sn.containsKey("scenario_name") ? sn.get("scenario_name") : sn.get("scenario"));
            for (String k : List.of("seed", "hosts", "flows", "flows_finished", "cct_ps", "lower_bound_ps", "cct_increase_pct", "rho_max_mbps",
                    "simulated_ps")) {
                s.put(k, number(sn.get(k.equals("cct_increase_pct") && !sn.containsKey(k) ? "cct_increase_percent" : k)));
            }
            if (sn.get("oversubscription") instanceof Number ratio) {
                s.put("oversubscription", ratio.doubleValue());
                s.put("lower_bound_basis", sn.get("lower_bound_basis"));
                notes.add(oversubscriptionNote(ratio.doubleValue(), summary.get("jobs") instanceof List<?> jl && !jl.isEmpty()));
            }
            List<Map<String, Object>> layers = new ArrayList<>();
            if (sn.get("layers") instanceof List<?> l) {
                for (Object o : l) {
                    if (o instanceof Map<?, ?> m) {
                        layers.add(numbers(snakeKeys(m)));
                    }
                }
            }
            Map<String, Object> counters = new LinkedHashMap<>(sn.get("counters") instanceof Map<?, ?> c ? numbers(snakeKeys(c)) : Map.of());
            if (sn.get("scheme_counters") instanceof Map<?, ?> sc) {
                sc.forEach((k, v) -> counters.put(String.valueOf(k), v)); // scheme counter names are kept as the scheme wrote them
            }
            Map<String, Object> ooo = new LinkedHashMap<>();
            if (sn.get("out_of_order") instanceof Map<?, ?> o) {
                // the runs / counters names: ooo_samples, ooo_arrivals (outOfOrderArrivals before 0.1), ooo_max_degree, ooo_max_held
                numbers(snakeKeys(o)).forEach((k, v) -> ooo.put("ooo_" + (k.equals("out_of_order_arrivals") ? "arrivals" : k), v));
            }
            double[] fct = new double[0];
            if (Files.isRegularFile(dir.resolve("flows.csv"))) {
                fct = readFct(dir.resolve("flows.csv"), shown + "/flows.csv");
            } else {
                notes.add("the folder has no flows.csv: no flow completion times, so no FCT CDF");
            }
            List<TimeSeries> series = List.of();
            Path seriesFile = dir.resolve("series.csv");
            if (Files.isRegularFile(seriesFile)) {
                series = readSeries(seriesFile, shown + "/series.csv");
            } else {
                notes.add("the folder has no series.csv (written by lbsim run since plots exist): no time series and no queue CDF");
            }
            long[] hist = new long[0];
            Path oooFile = dir.resolve("ooo.csv");
            if (Files.isRegularFile(oooFile)) {
                hist = readHistogram(oooFile, shown + "/ooo.csv");
            } else {
                notes.add("the folder has no ooo.csv: no out-of-order CDF");
            }
            Map<String, Object> meta = Files.isRegularFile(dir.resolve("meta.json"))
                    ? snakeKeys(readJson(dir.resolve("meta.json"), shown + "/meta.json")) : Map.of();
            String title = dir.toAbsolutePath().normalize().getFileName() == null ? shown : dir.toAbsolutePath().normalize().getFileName().toString();
            List<Map<String, Object>> jobs = new ArrayList<>();
            if (summary.get("jobs") instanceof List<?> js) {
                for (Object o : js) {
                    if (o instanceof Map<?, ?> j) {
                        jobs.add(jobRow(String.valueOf(j.get("name")), String.valueOf(j.get("collective")), number(j.get("ranks")),
                                number(j.get("bytes")), number(j.get("jctPs")), number(j.get("idealPs")), number(j.get("slowdown")),
                                number(j.get("algbwGBps")), number(j.get("busbwGBps"))));
                    }
                }
            }
            return new RunData(title, yaml, s, layers, counters, ooo, fct, series, hist, meta, notes, jobs);
        } catch (IOException e) {
            throw new PlotException(shown + ": cannot read the run folder: " + e.getMessage(), e);
        }
    }

    /** A JSON object from a file; a file that is not one (truncated, edited) is named with the line and column of the fault. */
    private static Map<?, ?> readJson(Path file, String shown) throws IOException {
        Object v;
        try {
            v = JSON.readValue(file.toFile(), Object.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            String where = at != null && at.getLineNr() > 0 ? ":" + at.getLineNr() + ":" + at.getColumnNr() : "";
            String problem = String.valueOf(e.getOriginalMessage()).strip().replaceAll("\\s*\\R\\s*", " ");
            throw new PlotException(shown + where + ": not valid JSON (" + problem + "); the file is damaged or truncated", e);
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new PlotException(shown + ": expected a JSON object, as lbsim run writes it");
        }
        return m;
    }

    /** What the lower bound (and a job's ideal) of an oversubscribed fabric counts, for the report's notes. */
    static String oversubscriptionNote(double ratio, boolean jobs) {
        String r = java.math.BigDecimal.valueOf(ratio).setScale(4, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
        return "The fabric is " + r + ":1 oversubscribed: the lower bound counts the oversubscribed uplinks"
                + (jobs ? "; each job's ideal time does not (every flow alone on the fabric), so its slowdown includes the oversubscription." : ".");
    }

    /** From one run of a results database ({@code row}: its row of the runs view). */
    public static RunData fromDatabase(ResultsReader db, Map<String, Object> row) {
        String id = String.valueOf(row.get("run_id"));
        Map<String, Object> s = new LinkedHashMap<>();
        for (String k : List.of("scenario_name", "seed", "hosts", "flows", "flows_finished", "cct_ps", "lower_bound_ps", "cct_increase_pct",
                "rho_max_mbps", "simulated_ps")) {
            s.put(k, row.get(k));
        }
        List<Map<String, Object>> layers = new ArrayList<>();
        if (db.hasTable("layers")) {
            for (Map<String, Object> l : db.query("SELECT * FROM layers WHERE run_id = ? ORDER BY rowid", id)) {
                l.remove("run_id");
                l.remove("layer_index");
                layers.add(l);
            }
        }
        Map<String, Object> counters = new LinkedHashMap<>();
        if (db.hasTable("counters")) {
            for (Map<String, Object> c : db.query("SELECT name, value FROM counters WHERE run_id = ? ORDER BY rowid", id)) {
                counters.put(String.valueOf(c.get("name")), c.get("value"));
            }
        }
        if (db.hasTable("scheme_counters")) {
            for (Map<String, Object> c : db.query("SELECT name, value FROM scheme_counters WHERE run_id = ? ORDER BY rowid", id)) {
                counters.put(String.valueOf(c.get("name")), c.get("value"));
            }
        }
        Map<String, Object> ooo = new LinkedHashMap<>();
        ooo.put("ooo_arrivals", row.get("ooo_arrivals"));
        ooo.put("ooo_max_degree", row.get("ooo_max_degree"));
        ooo.put("ooo_max_held", row.get("ooo_max_held"));
        double[] fct = new double[0];
        if (db.hasTable("flows")) {
            fct = db.query("SELECT fct_ps FROM flows WHERE run_id = ? AND fct_ps >= 0 ORDER BY flow", id).stream()
                    .mapToDouble(r -> ((Number) r.get("fct_ps")).doubleValue()).toArray();
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("lbsim_version", row.get("lbsim_version"));
        meta.put("git_commit", row.get("git_commit"));
        List<Map<String, Object>> jobs = new ArrayList<>();
        if (db.hasTable("jobs")) {
            for (Map<String, Object> j : db.query("SELECT " + String.join(", ", JOB_COLUMNS) + " FROM jobs WHERE run_id = ? ORDER BY job", id)) {
                jobs.add(j);
            }
        }
        List<String> notes = new ArrayList<>();
        if (row.get("oversubscription") instanceof Number ratio) { // NULL when not oversubscribed, absent in databases before 0.1
            s.put("oversubscription", ratio.doubleValue());
            s.put("lower_bound_basis", row.get("lower_bound_basis"));
            notes.add(oversubscriptionNote(ratio.doubleValue(), !jobs.isEmpty()));
        }
        return new RunData(id, row.get("scenario_yaml") == null ? "" : String.valueOf(row.get("scenario_yaml")), s, layers, counters, ooo,
                fct, db.series(id), db.outOfOrderHistogram(id), meta, notes, jobs);
    }

    private static Object number(Object o) {
        if (o instanceof java.math.BigDecimal d) {
            return d.doubleValue();
        }
        return o;
    }

    private static Map<String, Object> numbers(Map<String, Object> m) {
        m.replaceAll((k, v) -> number(v));
        return m;
    }

    private static double[] readFct(Path file, String shown) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            int col = header == null ? -1 : Arrays.asList(header.split(",")).indexOf("fct_ps");
            if (col < 0) {
                throw new PlotException(shown + ": no fct_ps column");
            }
            double[] out = new double[64];
            int n = 0;
            String line;
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isEmpty()) {
                    continue;
                }
                String[] f = line.split(",", -1);
                long fct;
                try {
                    fct = Long.parseLong(f[col]);
                } catch (RuntimeException e) {
                    throw new PlotException(shown + ":" + lineNo + ": fct_ps is not an integer");
                }
                if (fct >= 0) {
                    if (n == out.length) {
                        out = Arrays.copyOf(out, n * 2);
                    }
                    out[n++] = fct;
                }
            }
            return Arrays.copyOf(out, n);
        }
    }

    /** series.csv (series,unit,t_ps,value) back into series, in order of first appearance. */
    static List<TimeSeries> readSeries(Path file, String shown) throws IOException {
        Map<String, String> units = new LinkedHashMap<>();
        Map<String, long[]> times = new LinkedHashMap<>();
        Map<String, double[]> values = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            if (header == null || !header.equals("series,unit,t_ps,value")) {
                throw new PlotException(shown + ": expected the header series,unit,t_ps,value");
            }
            String line;
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isEmpty()) {
                    continue;
                }
                int c3 = line.lastIndexOf(',');
                int c2 = line.lastIndexOf(',', c3 - 1);
                int c1 = line.lastIndexOf(',', c2 - 1);
                if (c1 <= 0) {
                    throw new PlotException(shown + ":" + lineNo + ": expected 4 fields");
                }
                String name = line.substring(0, c1);
                long t;
                double v;
                try {
                    t = Long.parseLong(line.substring(c2 + 1, c3));
                    v = Double.parseDouble(line.substring(c3 + 1));
                } catch (NumberFormatException e) {
                    throw new PlotException(shown + ":" + lineNo + ": t_ps must be an integer and value a number");
                }
                units.putIfAbsent(name, line.substring(c1 + 1, c2));
                int n = counts.getOrDefault(name, 0);
                long[] ta = times.computeIfAbsent(name, k -> new long[256]);
                double[] va = values.computeIfAbsent(name, k -> new double[256]);
                if (n == ta.length) {
                    ta = Arrays.copyOf(ta, n * 2);
                    va = Arrays.copyOf(va, n * 2);
                    times.put(name, ta);
                    values.put(name, va);
                }
                ta[n] = t;
                va[n] = v;
                counts.put(name, n + 1);
            }
        }
        List<TimeSeries> out = new ArrayList<>();
        for (String name : units.keySet()) {
            int n = counts.get(name);
            out.add(new TimeSeries(name, units.get(name), Arrays.copyOf(times.get(name), n), Arrays.copyOf(values.get(name), n)));
        }
        return out;
    }

    static long[] readHistogram(Path file, String shown) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith("bucket,")) {
            throw new PlotException(shown + ": expected a header starting with bucket,");
        }
        List<String> header = Arrays.asList(lines.get(0).split(","));
        int countCol = header.indexOf("count");
        long[] h = new long[0];
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isEmpty()) {
                continue;
            }
            String[] f = lines.get(i).split(",");
            try {
                int b = Integer.parseInt(f[0]);
                long c = Long.parseLong(f[countCol]);
                if (b < 0 || b > 64) {
                    throw new NumberFormatException();
                }
                if (b >= h.length) {
                    h = Arrays.copyOf(h, b + 1);
                }
                h[b] = c;
            } catch (RuntimeException e) {
                throw new PlotException(shown + ":" + (i + 1) + ": bucket and count must be integers");
            }
        }
        return h;
    }
}
