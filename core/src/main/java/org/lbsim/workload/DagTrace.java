package org.lbsim.workload;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.lbsim.scenario.TraceFormatException;

/**
 * Dependency graphs as CSV (docs/cli.md, "Dependency-graph traces"): a header naming the columns
 * id, src, dst, bytes, deps, gap_ns and optionally start_ns, job, phase, class (any order), then one
 * flow per row. {@code id} is any non-negative integer, unique; {@code deps} lists the ids the flow
 * waits for, separated by ';' (empty: none), in any row of the file; the flow starts at the later of
 * start_ns (default 0) and its last dependency's completion plus gap_ns. job and phase (non-negative
 * integers, default 0) group flows for the per-job metrics. Blank lines and lines starting with '#'
 * are skipped. Errors name the file, the line and the column.
 */
public final class DagTrace {
    private static final double MAX_NS = org.lbsim.scenario.Checks.MAX_TIME_US * 1000;
    private static final String MAX = org.lbsim.scenario.Checks.fmt(MAX_NS);
    private static final String[] COLUMNS = {"id", "src", "dst", "bytes", "deps", "gap_ns", "start_ns", "job", "phase", "class"};
    private static final int REQUIRED = 6;

    private DagTrace() {
    }

    public static Workload read(Reader in, String fileName, int hostCount) throws IOException {
        List<long[]> rows = new ArrayList<>(); // id, src, dst, bytes, gapPs, startPs, job, phase, class, line
        List<String[]> depCells = new ArrayList<>();
        Map<Long, Integer> flowOfId = new HashMap<>();
        TraceColumns.read(in, fileName, "id,src,dst,bytes,deps,gap_ns", DagTrace::header, (cells, index, lineNo) -> {
            long id = TraceColumns.integer(cells[index[0]], fileName, lineNo, "id", 0, Long.MAX_VALUE);
            long src = TraceColumns.integer(cells[index[1]], fileName, lineNo, "src", 0, hostCount - 1);
            long dst = TraceColumns.integer(cells[index[2]], fileName, lineNo, "dst", 0, hostCount - 1);
            long bytes = TraceColumns.integer(cells[index[3]], fileName, lineNo, "bytes", 1, Long.MAX_VALUE / 8_000_000);
            long gapPs = Math.round(nanoseconds(cells[index[5]], fileName, lineNo, "gap_ns") * 1000);
            long startPs = index[6] < 0 ? 0 : Math.round(nanoseconds(cells[index[6]], fileName, lineNo, "start_ns") * 1000);
            long job = index[7] < 0 ? 0 : TraceColumns.integer(cells[index[7]], fileName, lineNo, "job", 0, 1_000_000);
            long phase = index[8] < 0 ? 0 : TraceColumns.integer(cells[index[8]], fileName, lineNo, "phase", 0, 1_000_000);
            long cls = index[9] < 0 ? 0 : TraceColumns.integer(cells[index[9]], fileName, lineNo, "class", 0, 63);
            if (src == dst) {
                throw new TraceFormatException(fileName, lineNo, "dst", "must differ from src (" + src + ")");
            }
            if (flowOfId.putIfAbsent(id, rows.size()) != null) {
                throw new TraceFormatException(fileName, lineNo, "id", "id " + id + " appears twice (first on line "
                        + rows.get(flowOfId.get(id))[9] + ")");
            }
            rows.add(new long[] {id, src, dst, bytes, gapPs, startPs, job, phase, cls, lineNo});
            depCells.add(cells[index[4]].strip().isEmpty() ? new String[0] : cells[index[4]].strip().split(";", -1));
        });
        // jobs and their phases, numbered densely in increasing order of the file's values
        TreeMap<Long, TreeSet<Long>> phasesOfJob = new TreeMap<>();
        for (long[] row : rows) {
            phasesOfJob.computeIfAbsent(row[6], k -> new TreeSet<>()).add(row[7]);
        }
        List<Long> jobIds = new ArrayList<>(phasesOfJob.keySet());
        Map<Long, Integer> jobIndex = new HashMap<>();
        Map<Long, Map<Long, Integer>> phaseIndex = new HashMap<>();
        for (Long j : jobIds) {
            jobIndex.put(j, jobIndex.size());
            Map<Long, Integer> m = new HashMap<>();
            for (Long p : phasesOfJob.get(j)) {
                m.put(p, m.size());
            }
            phaseIndex.put(j, m);
        }
        List<Flow> flows = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            long[] row = rows.get(i);
            int[] deps = dependencies(depCells.get(i), i, row, flowOfId, fileName);
            int job = jobIndex.get(row[6]);
            int phase = phaseIndex.get(row[6]).get(row[7]);
            flows.add(new Flow((int) row[1], (int) row[2], row[3], row[5], (int) row[8], job, phase, deps, deps.length == 0 ? 0 : row[4]));
        }
        try {
            FlowGraph.topologicalOrder(flows);
        } catch (FlowGraph.BadGraphException e) {
            long[] row = rows.get(e.flow());
            throw new TraceFormatException(fileName, (int) row[9], "deps", "flow " + row[0] + " " + e.getMessage().replaceAll("flow (\\d+)", "flow index $1"));
        }
        return new Workload(flows, jobs(flows, jobIds, phasesOfJob));
    }

    /** The flow indices row {@code i} waits for, each once, from its deps cells. */
    private static int[] dependencies(String[] cells, int i, long[] row, Map<Long, Integer> flowOfId, String fileName) {
        int[] deps = new int[cells.length];
        for (int k = 0; k < cells.length; k++) {
            long dep = TraceColumns.integer(cells[k], fileName, (int) row[9], "deps", 0, Long.MAX_VALUE);
            Integer f = flowOfId.get(dep);
            if (f == null) {
                throw new TraceFormatException(fileName, (int) row[9], "deps", "flow " + row[0] + " waits for id " + dep + ", which no row has");
            }
            if (f == i) {
                throw new TraceFormatException(fileName, (int) row[9], "deps", "flow " + row[0] + " waits for itself");
            }
            deps[k] = f;
        }
        return Arrays.stream(deps).distinct().toArray();
    }

    /** One job per job value of the file, in increasing order: its hosts, bytes and phases. */
    private static List<Job> jobs(List<Flow> flows, List<Long> jobIds, TreeMap<Long, TreeSet<Long>> phasesOfJob) {
        List<TreeSet<Integer>> hostsOf = new ArrayList<>();
        long[] bytesOf = new long[jobIds.size()];
        for (int j = 0; j < jobIds.size(); j++) {
            hostsOf.add(new TreeSet<>());
        }
        for (Flow f : flows) {
            hostsOf.get(f.job()).add(f.src());
            hostsOf.get(f.job()).add(f.dst());
            bytesOf[f.job()] += f.bytes();
        }
        List<Job> jobs = new ArrayList<>();
        for (int j = 0; j < jobIds.size(); j++) {
            long jobId = jobIds.get(j);
            List<String> phases = phasesOfJob.get(jobId).stream().map(p -> "phase" + p).toList();
            jobs.add(new Job(j, "job" + jobId, "trace", hostsOf.get(j).size(), bytesOf[j], 1.0, phases, false));
        }
        return jobs;
    }

    /** Writes flows in this format (ids are the flows' indices), so a generated collective can be edited and fed back. */
    public static void write(Writer out, List<Flow> flows) throws IOException {
        out.write("id,src,dst,bytes,deps,gap_ns,start_ns,job,phase,class\n");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            sb.setLength(0);
            sb.append(i).append(',').append(f.src()).append(',').append(f.dst()).append(',').append(f.bytes()).append(',');
            for (int k = 0; k < f.deps().length; k++) {
                sb.append(k == 0 ? "" : ";").append(f.deps()[k]);
            }
            sb.append(',').append(nanos(f.gapPs())).append(',').append(nanos(f.startPs())).append(',').append(f.job()).append(',')
                    .append(f.phase()).append(',').append(f.trafficClass()).append('\n');
            out.write(sb.toString());
        }
    }

    private static String nanos(long ps) {
        return ps % 1000 == 0 ? Long.toString(ps / 1000) : String.format(Locale.ROOT, "%.3f", ps / 1000.0);
    }

    private static int[] header(String[] cells, String file, int line) {
        return TraceColumns.index(cells, COLUMNS, REQUIRED, file, line);
    }

    private static double nanoseconds(String cell, String file, int line, String column) {
        String s = cell.strip();
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line, column, "must be a number of nanoseconds between 0 and " + MAX + ", got '" + s + "'");
        }
        // beyond the longest simulated time the picosecond arithmetic would overflow
        if (!(v >= 0) || !(v <= MAX_NS)) {
            throw new TraceFormatException(file, line, column, "must be a number of nanoseconds between 0 and " + MAX + ", got " + s);
        }
        return v;
    }
}
