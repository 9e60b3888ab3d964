package org.lbsim.workload;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.lbsim.scenario.TraceFormatException;

/**
 * htsim connection matrices (.cm), as htsim's own parser reads them ({@code ConnectionMatrix::load},
 * htsim/sim/datacenter/connection_matrix.cpp:693-956 of the-sure/htsim) and its generators write them
 * (connection_matrices/gen_permutation.py:60-62, gen_allreduce.py:65-87). docs/cli.md ("htsim connection
 * matrices") lists what maps and what is refused.
 *
 * <p>Header lines {@code Nodes N}, {@code Connections N}, {@code Triggers N}, {@code Failures N} come first; then
 * one line per connection, {@code SRC->DST} followed by key-value pairs ({@code start PS}, {@code size BYTES},
 * {@code id N}, {@code trigger T}, {@code send_done_trigger T}), and one line per trigger,
 * {@code trigger id T oneshot|multishot|barrier [count N]}. A start is in picoseconds (connection_matrix.cpp:773;
 * the generators write microseconds x 10^6). A connection with {@code trigger T} starts when trigger T fires, which
 * the connections naming it in {@code send_done_trigger} do when their sender is done (trigger.cpp): a oneshot fired
 * by one connection, a barrier of count n fired by n connections, and a multishot fired by one connection and
 * starting one become dependencies on the firing connections; any other trigger would start a connection on a
 * completion that is not known before the run (the k-th of several), which lbsim's dependencies cannot say, and is
 * refused, as are receiver-side triggers, message ids, priorities and link failures. Every refusal names the file,
 * the line and the key.
 */
public final class HtsimConnectionMatrix {
    private static final Pattern PAIR = Pattern.compile("(\\d+)->(\\d+)");
    private static final long UINT32 = 0xffffffffL;
    private static final long MAX_SIZE = Integer.MAX_VALUE; // htsim reads a size with stoi (connection_matrix.cpp:776)
    private static final BigDecimal MAX_START_PS = BigDecimal.valueOf(org.lbsim.scenario.Checks.MAX_TIME_US).multiply(BigDecimal.valueOf(1_000_000));
    private static final String KEYS = "start, size, id, trigger, send_done_trigger";
    private static final String LINES = "Nodes N, Connections N, Triggers N, Failures 0, SRC->DST ..., trigger id T ...";

    private HtsimConnectionMatrix() {
    }

    private static final class Connection {
        int line;
        int src;
        int dst;
        long size = -1;
        long startPs = -1;
        long trigger;
        long sendDone;
    }

    private static final class Trigger {
        int line;
        String type;
        long count;
        final List<Integer> firedBy = new ArrayList<>();
        final List<Integer> starts = new ArrayList<>();
    }

    /** The header's counts, with the lines that gave them. */
    private static final class Header {
        final Map<String, long[]> values = new LinkedHashMap<>(); // key -> {value, line}
        boolean bodyStarted;

        long value(String key) {
            long[] v = values.get(key);
            return v == null ? -1 : v[0];
        }

        int line(String key) {
            return (int) values.get(key)[1];
        }
    }

    public static Workload read(Reader in, String fileName, int hostCount) throws IOException {
        Header header = new Header();
        List<Connection> conns = new ArrayList<>();
        Map<Long, Trigger> triggers = new LinkedHashMap<>();
        int[] triggerLines = {0};
        long maxRows = TraceColumns.maxRows();
        int last = TraceColumns.lines(in, fileName, (trimmed, lineNo) -> {
            String[] t = trimmed.split("\\s+");
            String first = t[0];
            switch (first) {
                case "Nodes", "Connections", "Triggers", "Failures" -> headerLine(header, t, fileName, lineNo, hostCount, maxRows);
                case "trigger" -> {
                    header.bodyStarted = true;
                    triggerLines[0]++;
                    triggerLine(triggers, t, fileName, lineNo);
                }
                case "failure" -> throw new TraceFormatException(fileName, lineNo, "failure", "htsim's link failures (switch_type, switch_id,"
                        + " link_id) have no equivalent in an lbsim workload; fail links under failures: in the scenario (docs/cli.md)");
                default -> {
                    if (!first.contains("->")) {
                        throw new TraceFormatException(fileName, lineNo, first, "unknown line; a connection matrix has the lines " + LINES);
                    }
                    if (header.value("Nodes") < 0) {
                        throw new TraceFormatException(fileName, lineNo, "Nodes", "no 'Nodes N' line before the first connection (htsim sizes"
                                + " its fabric from it)");
                    }
                    header.bodyStarted = true;
                    if (conns.size() >= maxRows) {
                        throw TraceColumns.tooManyRows(fileName, lineNo, maxRows);
                    }
                    conns.add(connection(t, fileName, lineNo, (int) header.value("Nodes")));
                }
            }
        });
        if (header.value("Nodes") < 0) {
            throw new TraceFormatException(fileName, Math.max(1, last), "Nodes", "no 'Nodes N' line; expected a connection matrix with the lines "
                    + LINES);
        }
        if (header.value("Connections") < 0) {
            throw new TraceFormatException(fileName, header.line("Nodes"), "Connections", "no 'Connections N' line after Nodes");
        }
        if (conns.size() != header.value("Connections")) {
            throw new TraceFormatException(fileName, header.line("Connections"), "Connections", "the header says " + header.value("Connections")
                    + " connections, the file has " + conns.size() + (conns.size() < header.value("Connections") ? " (truncated?)" : ""));
        }
        long triggersDeclared = Math.max(0, header.value("Triggers"));
        if (triggerLines[0] != triggersDeclared) {
            int at = header.values.containsKey("Triggers") ? header.line("Triggers") : header.line("Connections");
            throw new TraceFormatException(fileName, at, "Triggers", "the header says " + triggersDeclared + " triggers, the file has "
                    + triggerLines[0] + " 'trigger id' lines" + (triggerLines[0] < triggersDeclared ? " (truncated?)" : ""));
        }
        return workload(conns, triggers, fileName);
    }

    private static void headerLine(Header header, String[] t, String file, int line, int hostCount, long maxRows) {
        String key = t[0];
        if (header.bodyStarted) {
            throw new TraceFormatException(file, line, key, "header lines come before the first connection or trigger (htsim reads"
                    + " them only there, connection_matrix.cpp:724-744)");
        }
        if (t.length != 2) {
            throw new TraceFormatException(file, line, key, "expected '" + key + " N', got '" + String.join(" ", t) + "'");
        }
        if (header.values.containsKey(key)) {
            throw new TraceFormatException(file, line, key, "given twice (first on line " + header.line(key) + ")");
        }
        long v = switch (key) {
            case "Nodes" -> {
                long n = TraceColumns.integer(t[1], file, line, key, 2, Integer.MAX_VALUE);
                if (n > hostCount) {
                    throw new TraceFormatException(file, line, key, "the matrix is for " + n + " nodes, the fabric has " + hostCount
                            + " hosts; use a fabric of at least " + n + " hosts");
                }
                yield n;
            }
            case "Connections" -> TraceColumns.integer(t[1], file, line, key, 1, maxRows);
            case "Triggers" -> TraceColumns.integer(t[1], file, line, key, 0, maxRows);
            default -> {
                long n = TraceColumns.integer(t[1], file, line, key, 0, Integer.MAX_VALUE);
                if (n != 0) {
                    throw new TraceFormatException(file, line, key, "must be 0: htsim's link failures (failure lines) have no equivalent in an"
                            + " lbsim workload; fail links under failures: in the scenario (docs/cli.md)");
                }
                yield n;
            }
        };
        header.values.put(key, new long[] {v, line});
    }

    private static Connection connection(String[] t, String file, int line, int nodes) {
        Matcher m = PAIR.matcher(t[0]);
        if (!m.matches()) {
            throw new TraceFormatException(file, line, "src->dst", "expected two node ids as SRC->DST, got '" + t[0] + "'");
        }
        Connection c = new Connection();
        c.line = line;
        c.src = (int) TraceColumns.integer(m.group(1), file, line, "src", 0, nodes - 1);
        c.dst = (int) TraceColumns.integer(m.group(2), file, line, "dst", 0, nodes - 1);
        if (c.src == c.dst) {
            throw new TraceFormatException(file, line, "dst", "must differ from src (" + c.src + ")");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i < t.length; i++) {
            String key = t[i];
            switch (key) {
                case "start", "size", "id", "trigger", "send_done_trigger" -> {
                }
                case "recv_done_trigger" -> throw new TraceFormatException(file, line, key, "lbsim starts a dependent flow when the flow it"
                        + " waits for is done at its sender (the last ACK: send_done_trigger); a trigger on the receiver's last byte has no"
                        + " equivalent");
                case "msg" -> throw new TraceFormatException(file, line, key, "messages on a reused connection (htsim main_uec.cpp:1304) have no"
                        + " equivalent in a matrix lbsim reads; give each message its own connection line");
                case "prio" -> throw new TraceFormatException(file, line, key, "lbsim has no per-connection priority; leave prio out");
                default -> throw new TraceFormatException(file, line, key, "unknown key; a connection takes " + KEYS);
            }
            if (!seen.add(key)) {
                throw new TraceFormatException(file, line, key, "given twice on this line");
            }
            if (i + 1 >= t.length) {
                throw new TraceFormatException(file, line, key, "has no value");
            }
            String v = t[++i];
            switch (key) {
                case "start" -> c.startPs = picoseconds(v, file, line);
                case "size" -> c.size = TraceColumns.integer(v, file, line, key, 1, MAX_SIZE);
                case "id" -> TraceColumns.integer(v, file, line, key, 1, UINT32); // htsim refuses flow id 0 (connection_matrix.cpp:780)
                case "trigger" -> c.trigger = TraceColumns.integer(v, file, line, key, 1, UINT32);
                default -> c.sendDone = TraceColumns.integer(v, file, line, key, 0, UINT32); // 0: none, as in htsim
            }
        }
        if (c.size < 0) {
            throw new TraceFormatException(file, line, "size", "missing; every connection needs 'size BYTES'");
        }
        if (c.startPs < 0 && c.trigger == 0) {
            throw new TraceFormatException(file, line, "start", "missing; a connection needs 'start PS' or 'trigger T'");
        }
        if (c.startPs >= 0 && c.trigger != 0) {
            throw new TraceFormatException(file, line, "trigger", "the connection has both a start time and a trigger; give one"
                    + " (htsim refuses 'trigger T start PS', connection_matrix.cpp:834)");
        }
        return c;
    }

    private static void triggerLine(Map<Long, Trigger> triggers, String[] t, String file, int line) {
        Trigger tr = new Trigger();
        tr.line = line;
        long id = 0;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i < t.length; i++) {
            String key = t[i];
            switch (key) {
                case "id", "count" -> {
                    if (!seen.add(key)) {
                        throw new TraceFormatException(file, line, key, "given twice on this line");
                    }
                    if (i + 1 >= t.length) {
                        throw new TraceFormatException(file, line, key, "has no value");
                    }
                    long v = TraceColumns.integer(t[++i], file, line, key, key.equals("id") ? 1 : 0, UINT32);
                    if (key.equals("id")) {
                        id = v;
                    } else {
                        tr.count = v;
                    }
                }
                case "oneshot", "multishot", "barrier" -> {
                    if (tr.type != null) {
                        throw new TraceFormatException(file, line, key, "the trigger is already " + tr.type + "; give one type");
                    }
                    tr.type = key;
                }
                default -> throw new TraceFormatException(file, line, key, "unknown trigger key; a trigger takes id T, one of oneshot,"
                        + " multishot, barrier, and count N for a barrier");
            }
        }
        if (id == 0) {
            throw new TraceFormatException(file, line, "id", "missing; a trigger line is 'trigger id T oneshot|multishot|barrier [count N]'");
        }
        if (tr.type == null) {
            throw new TraceFormatException(file, line, "trigger", "no type; give oneshot, multishot or barrier");
        }
        Trigger before = triggers.putIfAbsent(id, tr);
        if (before != null) {
            throw new TraceFormatException(file, line, "id", "trigger " + id + " is declared twice (first on line " + before.line + ")");
        }
    }

    /** The flows, each triggered connection waiting for the connections that fire its trigger. */
    private static Workload workload(List<Connection> conns, Map<Long, Trigger> triggers, String file) {
        for (int i = 0; i < conns.size(); i++) {
            Connection c = conns.get(i);
            if (c.sendDone != 0) {
                declared(triggers, c.sendDone, file, c.line, "send_done_trigger").firedBy.add(i);
            }
            if (c.trigger != 0) {
                declared(triggers, c.trigger, file, c.line, "trigger").starts.add(i);
            }
        }
        int[][] deps = new int[conns.size()][];
        boolean dependent = false;
        for (Map.Entry<Long, Trigger> e : triggers.entrySet()) {
            long id = e.getKey();
            Trigger t = e.getValue();
            if (t.starts.isEmpty()) {
                continue; // fires nothing: nothing waits
            }
            requireMappable(t, id, conns, file);
            int[] on = t.firedBy.stream().mapToInt(Integer::intValue).toArray();
            for (int s : t.starts) {
                deps[s] = on;
            }
            dependent = true;
        }
        List<Flow> flows = new ArrayList<>(conns.size());
        for (int i = 0; i < conns.size(); i++) {
            Connection c = conns.get(i);
            flows.add(dependent ? new Flow(c.src, c.dst, c.size, Math.max(0, c.startPs), 0, 0, 0, deps[i], 0)
                    : new Flow(c.src, c.dst, c.size, c.startPs));
        }
        if (!dependent) {
            return Workload.independent(flows);
        }
        try {
            FlowGraph.topologicalOrder(flows);
        } catch (FlowGraph.BadGraphException e) {
            throw new TraceFormatException(file, conns.get(e.flow()).line, "trigger", "the connection " + e.getMessage().replaceAll("flow (\\d+)",
                    "connection $1 (0-based, in file order)"));
        }
        TreeSet<Integer> hosts = new TreeSet<>();
        long bytes = 0;
        for (Flow f : flows) {
            hosts.add(f.src());
            hosts.add(f.dst());
            bytes += f.bytes();
        }
        return new Workload(flows, List.of(new Job(0, "job0", "htsim-cm", hosts.size(), bytes, 1.0, List.of("phase0"), false)));
    }

    /**
     * Refuses a trigger whose semantics lbsim's dependencies cannot express: one that nothing fires, a oneshot
     * fired twice, a barrier whose count is not its number of firing connections, a multishot with several
     * firings or waiters.
     */
    private static void requireMappable(Trigger t, long id, List<Connection> conns, String file) {
        int n = t.firedBy.size();
        String what = t.type + " trigger " + id;
        if (n == 0) {
            throw new TraceFormatException(file, t.line, "trigger", "no connection fires " + what + " (send_done_trigger " + id + "), so the "
                    + t.starts.size() + " connection(s) waiting for it (first on line " + conns.get(t.starts.get(0)).line + ") would never start");
        }
        switch (t.type) {
            case "oneshot" -> {
                // trigger.cpp:21-31: fires at its first activation and aborts at a second
                if (n > 1) {
                    throw new TraceFormatException(file, t.line, "trigger", what + " is fired by " + n + " connections (lines " + lines(conns, t.firedBy)
                            + "); htsim's oneshot fires once and aborts on a second activation (trigger.cpp:23); use 'barrier count " + n
                            + "' to wait for all of them");
                }
            }
            case "barrier" -> {
                // trigger.cpp:57-72: fires after exactly count activations and aborts on more
                if (t.count != n) {
                    throw new TraceFormatException(file, t.line, "count", what + " has count " + t.count + " but " + n + " connection(s) fire it"
                            + " (lines " + lines(conns, t.firedBy) + "); htsim's barrier fires after exactly count activations, so count must be " + n);
                }
            }
            default -> {
                // trigger.cpp:39-49: each activation starts the next waiting connection, in file order
                if (n > 1) {
                    throw new TraceFormatException(file, t.line, "trigger", what + " is fired by " + n + " connections: its k-th waiting"
                            + " connection starts at the k-th of their completions, whichever that is; lbsim's dependencies name the flows a flow"
                            + " waits for, so this has no equivalent (a multishot fired by one connection maps; so does a barrier)");
                }
                if (t.starts.size() > 1) {
                    throw new TraceFormatException(file, t.line, "trigger", what + " is fired by one connection and starts one waiting"
                            + " connection per firing: of its " + t.starts.size() + " waiting connections (lines " + lines(conns, t.starts)
                            + ") all but the first would never start");
                }
            }
        }
    }

    private static Trigger declared(Map<Long, Trigger> triggers, long id, String file, int line, String key) {
        Trigger t = triggers.get(id);
        if (t == null) {
            throw new TraceFormatException(file, line, key, "no 'trigger id " + id + " oneshot|multishot|barrier' line declares trigger " + id);
        }
        return t;
    }

    /** The file lines of some connections, at most five of them. */
    private static String lines(List<Connection> conns, List<Integer> which) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < which.size() && k < 5; k++) {
            sb.append(k == 0 ? "" : ", ").append(conns.get(which.get(k)).line);
        }
        return which.size() > 5 ? sb + ", ..." : sb.toString();
    }

    /** A start: a number of picoseconds (htsim reads it with stof, connection_matrix.cpp:772), rounded to the picosecond. */
    private static long picoseconds(String s, String file, int line) {
        return TraceColumns.picoseconds(s, file, line, "start", BigDecimal.ONE, MAX_START_PS, "picoseconds");
    }
}
