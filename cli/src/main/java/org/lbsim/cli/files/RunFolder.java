package org.lbsim.cli.files;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.FailureEventStats;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.JobResult;
import org.lbsim.metrics.OutOfOrder;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;
import org.lbsim.scenario.Scenario;
import org.lbsim.cli.errors.UserError;

/**
 * The folder a run leaves behind: {@code scenario.yaml} (the effective scenario), {@code summary.json},
 * {@code flows.csv}, {@code series.csv} and {@code ooo.csv} (deterministic: same scenario and seed,
 * same bytes) and {@code meta.json}
 * (version, commit, Java, wall time). Written into a hidden temporary folder next to the target
 * and renamed at the end, so a failed run never leaves a partial folder.
 */
public final class RunFolder {
    public static final String SCENARIO = "scenario.yaml";
    public static final String SUMMARY = "summary.json";
    public static final String FLOWS = "flows.csv";
    public static final String META = "meta.json";
    public static final String SERIES = "series.csv";
    public static final String OOO = "ooo.csv";
    private static final Set<String> RESERVED = Set.of(SCENARIO, SUMMARY, FLOWS, META, SERIES, OOO);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolder() {
    }

    /** {@code base/runs/<name>-seed<N>-<yyyyMMdd-HHmmss>}, with {@code -2}, {@code -3} ... if that exists. */
    public static Path defaultDir(Path base, String scenarioName, long seed, LocalDateTime now) {
        String safe = scenarioName.replaceAll("[^A-Za-z0-9._-]+", "_");
        if (safe.isEmpty() || safe.startsWith(".")) {
            safe = "run" + safe;
        }
        return base.resolve("runs").resolve(safe + "-seed" + seed + "-" + STAMP.format(now));
    }

    public static Path unused(Path dir) {
        Path candidate = dir;
        for (int i = 2; Files.exists(candidate); i++) {
            candidate = dir.resolveSibling(dir.getFileName() + "-" + i);
        }
        return candidate;
    }

    /**
     * Writes the folder atomically. With {@code suffixIfTaken} a taken target gets the next free
     * suffix; otherwise a taken target is an error. Returns the folder written.
     *
     * @param baseDir where the scenario's relative trace path resolves
     */
    public static Path write(Path target, boolean suffixIfTaken, Scenario scenario, Path baseDir, RunResult result, Map<String, Object> meta) {
        Path abs = target.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        try {
            Files.createDirectories(parent);
            Path tmp = createTemp(parent, abs.getFileName().toString());
            try {
                fill(tmp, scenario, baseDir, result, meta);
                while (true) {
                    Path dest = suffixIfTaken ? unused(abs) : abs;
                    if (!suffixIfTaken && Files.exists(dest)) {
                        throw UserError.at(target.toString(), "", "already exists; choose another --out or remove it");
                    }
                    try {
                        Files.move(tmp, dest, StandardCopyOption.ATOMIC_MOVE);
                        return dest;
                    } catch (FileSystemException e) {
                        if (!Files.exists(dest)) {
                            throw e;
                        }
                        if (!suffixIfTaken) { // someone else created it meanwhile
                            throw UserError.at(target.toString(), "", "already exists; choose another --out or remove it");
                        }
                    }
                }
            } finally {
                deleteRecursively(tmp);
            }
        } catch (IOException e) {
            throw UserError.at(target.toString(), "", "cannot write the run folder: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
    }

    /**
     * Checks, before a run, that {@code target} (a folder or file to create) can be created: its
     * nearest existing ancestor is a folder where a file can be created and deleted again.
     */
    public static void checkWritable(Path target, String shown) {
        Path p = target.toAbsolutePath().normalize().getParent();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            throw UserError.at(shown, "", "has no existing parent folder");
        }
        if (!Files.isDirectory(p)) {
            throw UserError.at(shown, "", ScenarioLoader.shownPath(p) + " is a file, not a folder, so nothing can be created under it");
        }
        try {
            Files.delete(Files.createTempFile(p, ".lbsim-probe-", ""));
        } catch (IOException | UnsupportedOperationException e) {
            throw UserError.at(shown, "", "cannot write into " + ScenarioLoader.shownPath(p) + " (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + Yaml.oneLine(e.getMessage())) + "); choose another place");
        }
    }

    private static Path createTemp(Path parent, String name) throws IOException {
        for (int i = 0; ; i++) {
            Path tmp = parent.resolve("." + name + ".tmp-" + ProcessHandle.current().pid() + "-" + i);
            try {
                return Files.createDirectory(tmp);
            } catch (FileAlreadyExistsException e) {
                if (i > 1000) {
                    throw e;
                }
            }
        }
    }

    private static void fill(Path dir, Scenario scenario, Path baseDir, RunResult result, Map<String, Object> meta) throws IOException {
        Map<String, Object> tree = Lbsim.tree(scenario);
        List<String> header = new ArrayList<>();
        header.add("# The effective scenario of this run: every field, after --set and --seed.");
        header.add("# Run it again with: lbsim run " + SCENARIO);
        Optional<String> file = scenario.workload().sourceFile();
        if (file.isPresent()) {
            Path source = baseDir == null ? Path.of(file.get()) : baseDir.resolve(file.get());
            String copy = Path.of(file.get()).getFileName().toString();
            if (RESERVED.contains(copy) || copy.startsWith(".")) {
                copy = "trace-" + copy;
            }
            Files.copy(source, dir.resolve(copy));
            @SuppressWarnings("unchecked")
            Map<String, Object> workload = (Map<String, Object>) tree.get("workload");
            workload.put("file", copy);
            header.add("# workload.file names the copy of the trace kept in this folder (the scenario said: " + file.get() + ")");
        }
        writeText(dir.resolve(SCENARIO), String.join("\n", header) + "\n" + Yaml.write(tree));
        writeText(dir.resolve(SUMMARY), Json.write(summary(result)));
        writeText(dir.resolve(FLOWS), flowsCsv(result.flowResults()));
        writeText(dir.resolve(SERIES), seriesCsv(result.series()));
        writeText(dir.resolve(OOO), oooCsv(result.outOfOrder()));
        writeText(dir.resolve(META), Json.write(meta));
    }

    private static void writeText(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Everything deterministic a run measured: no wall time, dates or paths. */
    public static Map<String, Object> summary(RunResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenarioName", r.scenarioName());
        m.put("seed", r.seed());
        m.put("hosts", r.hosts());
        m.put("flows", r.flows());
        m.put("flowsFinished", r.flowsFinished());
        m.put("cctPs", r.cctPs());
        m.put("cctUs", r.cctPs() < 0 ? null : BigDecimal.valueOf(r.cctPs(), 6));
        m.put("lowerBoundPs", r.lowerBoundPs());
        m.put("cctIncreasePct", Json.decimal(r.cctIncreasePct(), 4));
        m.put("rhoMaxMbps", r.rhoMaxMbps() == Long.MAX_VALUE ? null : r.rhoMaxMbps());
        if (r.oversubscribed()) {
            // only oversubscribed fabrics carry these keys, so every other summary stays as it was
            m.put("oversubscription", Json.decimal(r.oversubscription(), 4));
            m.put("lowerBoundBasis", org.lbsim.cli.store.ResultsStore.OVERSUBSCRIBED_BOUND_BASIS);
            if (!r.jobs().isEmpty()) {
                m.put("jobsIdealNote", org.lbsim.cli.store.ResultsStore.JOBS_IDEAL_NOTE);
            }
        }
        m.put("simulatedPs", r.simulatedPs());
        m.put("ending", r.ending());
        m.put("endingDetail", r.endingDetail());
        m.put("seriesDecimations", r.seriesDecimations());
        List<Object> layers = new ArrayList<>();
        for (Record layer : r.layers()) {
            layers.add(recordMap(layer));
        }
        m.put("layers", layers);
        m.put("counters", recordMap(r.counters()));
        if (!r.schemeCounters().isEmpty()) {
            // only runs whose schemes or switch programs count something carry this key
            Map<String, Object> sc = new LinkedHashMap<>();
            r.schemeCounters().forEach((k, v) -> sc.put(k, v instanceof Double d ? Json.decimal(d, 6) : v));
            m.put("schemeCounters", sc);
        }
        OutOfOrder o = r.outOfOrder();
        Map<String, Object> ooo = new LinkedHashMap<>();
        ooo.put("samples", o.samples());
        ooo.put("arrivals", o.arrivals());
        ooo.put("maxDegree", o.maxDegree());
        ooo.put("maxHeld", o.maxHeld());
        m.put("outOfOrder", ooo);
        if (!r.failureEvents().isEmpty()) {
            // only runs with failures during the run carry this key, so every other summary stays as it was
            m.put("failureEventsNote", "losses before each event, from it to routing convergence (or the end), and after;"
                    + " the lower bound and rhoMaxMbps are those of the fabric before the first event");
            List<Object> events = new ArrayList<>();
            for (FailureEventStats e : r.failureEvents()) {
                Map<String, Object> em = new LinkedHashMap<>();
                em.put("event", e.event());
                em.put("target", e.target());
                em.put("action", e.action());
                em.put("atPs", e.atPs());
                if (e.rateMbps() > 0) {
                    em.put("rateMbps", e.rateMbps());
                }
                em.put("convergedAtPs", e.convergedAtPs());
                em.put("lostAtEvent", e.lostAtEvent());
                em.put("before", recordMap(e.before()));
                em.put("during", recordMap(e.during()));
                em.put("after", recordMap(e.after()));
                events.add(em);
            }
            m.put("failureEvents", events);
        }
        if (!r.jobs().isEmpty()) {
            // only workloads with jobs (collectives, FSDP, dependency graphs) carry this key
            m.put("jobs", jobs(r.jobs()));
        }
        return m;
    }

    /** Per job: JCT, ideal, slowdown (PRO V), NCCL-tests algbw / busbw, each phase's CCT. */
    public static List<Object> jobs(List<JobResult> jobs) {
        List<Object> out = new ArrayList<>();
        for (JobResult j : jobs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("job", j.job());
            m.put("name", j.name());
            m.put("collective", j.collective());
            m.put("background", j.background());
            m.put("ranks", j.ranks());
            m.put("bytes", j.bytes());
            m.put("flows", j.flows());
            m.put("startPs", j.startPs());
            m.put("jctPs", j.jctPs());
            m.put("idealPs", j.idealPs());
            m.put("slowdown", Json.decimal(j.slowdown(), 6));
            m.put("algbwGBps", Json.decimal(j.algbwGBps(), 6));
            m.put("busbwGBps", Json.decimal(j.busbwGBps(), 6));
            List<Object> phases = new ArrayList<>();
            for (JobResult.Phase p : j.phases()) {
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("phase", p.phase());
                pm.put("name", p.name());
                pm.put("flows", p.flows());
                pm.put("startPs", p.startPs());
                pm.put("cctPs", p.cctPs());
                phases.add(pm);
            }
            m.put("phases", phases);
            out.add(m);
        }
        return out;
    }

    /** A record's components in order; doubles rounded to 3 decimals. */
    private static Map<String, Object> recordMap(Record r) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(r);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (v instanceof Double d) {
                v = Json.decimal(d, 3);
            } else if (v instanceof Float f) {
                v = Json.decimal(f, 3);
            }
            m.put(c.getName(), v);
        }
        return m;
    }

    /** The sampled time series in long form, as the {@code series} table of the results store. */
    public static String seriesCsv(List<TimeSeries> series) {
        StringBuilder sb = new StringBuilder("series,unit,t_ps,value\n");
        for (TimeSeries s : series) {
            long[] t = s.timesPs();
            double[] v = s.values();
            for (int i = 0; i < t.length; i++) {
                sb.append(s.name()).append(',').append(s.unit()).append(',').append(t[i]).append(',');
                double x = v[i];
                if (x == Math.rint(x) && Math.abs(x) < 1e15) {
                    sb.append((long) x);
                } else {
                    sb.append(x); // shortest text that reads back as the same double
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** The receivers' out-of-order log2 histogram: bucket 0 = in order, bucket b = degrees [2^(b-1), 2^b). */
    public static String oooCsv(OutOfOrder o) {
        StringBuilder sb = new StringBuilder("bucket,min_degree,max_degree,count\n");
        long[] h = o.log2Histogram();
        int last = -1;
        for (int b = 0; h != null && b < h.length; b++) {
            if (h[b] != 0) {
                last = b;
            }
        }
        for (int b = 0; b <= last; b++) {
            long lo = b == 0 ? 0 : 1L << (b - 1);
            long hi = b == 0 ? 0 : (1L << b) - 1;
            sb.append(b).append(',').append(lo).append(',').append(hi).append(',').append(h[b]).append('\n');
        }
        return sb.toString();
    }

    /** The columns of flows.csv: those of the results store's {@code flows} table without {@code run_id}. */
    public static final String FLOWS_HEADER = "flow,src,dst,bytes,start_ps,fct_ps,receiver_done_ps,packets_sent,retransmissions,spurious_retransmissions,"
            + "duplicates_received,timeouts";

    public static String flowsCsv(List<FlowResult> flows) {
        StringBuilder sb = new StringBuilder(FLOWS_HEADER + "\n");
        for (FlowResult f : flows) {
            sb.append(f.flow()).append(',').append(f.src()).append(',').append(f.dst()).append(',').append(f.bytes()).append(',')
                    .append(f.startPs()).append(',').append(f.fctPs()).append(',').append(f.receiverDonePs()).append(',')
                    .append(f.packetsSent()).append(',').append(f.retransmissions()).append(',').append(f.spuriousRetransmissions()).append(',')
                    .append(f.duplicatesReceived())
                    .append(',').append(f.timeouts()).append('\n');
        }
        return sb.toString();
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort: a leftover hidden temp folder is harmless
        }
    }
}
