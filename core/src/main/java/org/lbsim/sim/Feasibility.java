package org.lbsim.sim;

import java.util.List;
import java.util.Locale;
import org.lbsim.kernel.Time;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Fib;
import org.lbsim.topology.PathFacts;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Flow;

/**
 * Checks, before anything large is built, that a run fits: its tables and per-packet state in the
 * heap, its packet counts in an int, its flows on paths that exist. Each refusal names the field.
 */
final class Feasibility {
    /** Per-packet state of a queue pair (entropy per PSN, receive and ack bitmaps, send order), generously. */
    private static final long BYTES_PER_PACKET = 16;
    /** Per queue pair: sender, receiver, loss recovery, congestion control and their small arrays. */
    private static final long BYTES_PER_QP = 2048;
    /**
     * Per queue pair of a dependent connection while it waits or after it was released: its flow, context and
     * dependency entries, the transport's per-queue-pair and per-connection arrays and its result row
     * (measured: FSDP 405B on 1,024 GPUs, bench/README.md).
     */
    static final long BYTES_PER_WAITING_QP = 700;
    /** Per port: egress queue, statistics, buffers. */
    private static final long BYTES_PER_PORT = 2048;
    /** Packet counts are ints; BitSet64 adds 64 bits of slack. */
    private static final long MAX_PACKETS = Integer.MAX_VALUE - 128;

    private Feasibility() {
    }

    /**
     * Before the fabric is built: its forwarding tables, one int per switch and destination class (a ToR's
     * or leaf's hosts; every host its own class in a custom graph), built in a scratch copy, twice with
     * failures; the (switch, host) count must still fit an int index.
     */
    static void fabric(Scenario s) {
        TopologySpec t = s.topology();
        long hosts = t.hostCount();
        long switches = t.switchCount();
        long ports = t.portCount();
        long classes = t.destinationClasses(); // destination classes of the forwarding table (topology.RouteTable)
        long entries = switches * hosts;
        if (entries > Integer.MAX_VALUE - 8) {
            throw new ScenarioException("topology", String.format(Locale.ROOT, "%d hosts x %d switches = %d forwarding entries, more than a table"
                    + " can hold (%d); use a smaller fabric", hosts, switches, entries, Integer.MAX_VALUE - 8));
        }
        FailureSpec fail = s.failures();
        long tables = (4 * switches * classes * 2 + 12 * hosts) * (fail.any() ? 2 : 1); // table, its scratch copy, per-host arrays
        heap("topology", "its forwarding tables and ports", tables + ports * BYTES_PER_PORT);
    }

    /** Before the workload is generated: how many flows a generated workload makes. */
    static void workloadSize(Scenario s) {
        long hosts = s.topology().hostCount();
        s.workload().match(new WorkloadSpec.Cases<Void>() {
            @Override
            public Void permutation(WorkloadSpec.Permutation p) {
                long n = p.hosts() == 0 ? hosts : p.hosts();
                independent(s, n, p.messageBytes());
                return null;
            }

            @Override
            public Void allToAll(WorkloadSpec.AllToAll a) {
                long n = a.hosts() == 0 ? hosts : a.hosts();
                independent(s, n * (n - 1), a.messageBytes());
                return null;
            }

            @Override
            public Void collective(WorkloadSpec.Collective c) {
                generated(s, List.of(c.asJob()), List.of(), "workload.");
                return null;
            }

            @Override
            public Void jobs(WorkloadSpec.Jobs js) {
                generated(s, js.jobs(), js.background(), "workload.jobs");
                return null;
            }

            @Override
            public Void fsdp(WorkloadSpec.Fsdp f) {
                int[] model = WorkloadSpec.Fsdp.packetsAndLayers(f.model());
                long servers = f.servers() == 0 ? hosts / f.gpusPerServer() : f.servers();
                long layers = f.layers() == 0 ? model[1] : Math.min(f.layers(), model[1]);
                double n = (double) servers * f.gpusPerServer();
                long steps = Math.max(0, f.stepsPerCollective() == 0 ? servers - 1 : Math.min(f.stepsPerCollective(), servers - 1));
                refuseFlows("workload.servers", layers * 2 * steps * n, layers + " layers x 2 collectives x "
                        + steps + " steps x " + (long) n + " ranks", BYTES_PER_WAITING_QP);
                return null;
            }

            // a file is checked once read
            @Override
            public Void trace(WorkloadSpec.Trace t) {
                return null;
            }

            @Override
            public Void dagTrace(WorkloadSpec.DagTrace t) {
                return null;
            }

            @Override
            public Void htsimCm(WorkloadSpec.HtsimCm t) {
                return null;
            }

            @Override
            public Void ns3Flow(WorkloadSpec.Ns3Flow t) {
                return null;
            }
        });
    }

    /** A generated workload of {@code flows} independent messages of {@code bytes} each: its queue pairs and packets must fit. */
    private static void independent(Scenario s, long flows, long bytes) {
        if (flows > Integer.MAX_VALUE / 2) {
            throw new ScenarioException("workload.hosts", flows + " flows are more than a run can hold (" + Integer.MAX_VALUE / 2
                    + "); use fewer hosts (workload.hosts)");
        }
        long qps = flows * Math.min(s.nic().qpsPerConnection(), bytes);
        long packetsPerQp = packets(Math.max(1, bytes / Math.min(s.nic().qpsPerConnection(), bytes)), s.packets().mtuBytes());
        if (packetsPerQp > MAX_PACKETS) {
            throw new ScenarioException("workload.messageBytes", String.format(Locale.ROOT, "%d bytes are %d packets of packets.mtuBytes = %d"
                    + " per queue pair, more than the %d a queue pair can count; send less", bytes, packetsPerQp, s.packets().mtuBytes(), MAX_PACKETS));
        }
        heap("workload.messageBytes", qps + " queue pairs of " + packetsPerQp + " packets each",
                qps * BYTES_PER_QP + multiplySaturated(qps, packetsPerQp) * BYTES_PER_PACKET);
    }

    /** The most flows a workload may have (queue pairs are addressed with 30 bits). */
    static final long MAX_FLOWS = 1L << 30;

    /**
     * Before a collective or jobs workload is generated: its flows from the spec (iterations x steps x
     * ranks, background counts, Poisson arrivals expected from load x rate x duration), refused above
     * {@link #MAX_FLOWS} or the heap, naming the entry that crosses the limit.
     */
    private static void generated(Scenario s, List<WorkloadSpec.JobSpec> jobs, List<WorkloadSpec.BackgroundSpec> background, String prefix) {
        long hosts = s.topology().hostCount();
        long free = hosts;
        double flows = 0;
        double bytes = 0;
        for (int i = 0; i < jobs.size(); i++) {
            WorkloadSpec.JobSpec j = jobs.get(i);
            long n = j.hosts() == 0 ? free : Math.min(j.hosts(), Math.max(free, 2));
            free = Math.max(0, free - n);
            double perIteration = j.algorithm().equals("astra-ring") // each chunk is a whole ring all-reduce
                    ? org.lbsim.workload.AstraRing.chunking(j.bytes(), j.astraChunks(), (int) Math.min(n, Integer.MAX_VALUE))[0]
                            * flowsPerIteration("all-reduce", "ring", n, j.receivers())
                    : flowsPerIteration(j.op(), j.algorithm(), n, j.receivers());
            flows += perIteration * j.iterations();
            bytes += perIteration * j.iterations() * BYTES_PER_WAITING_QP;
            String field = prefix.endsWith(".") ? prefix + "iterations" : prefix + "[" + i + "].iterations";
            refuse(field, flows, bytes, String.format(Locale.ROOT, "%d iterations x %.0f flows of %s/%s on %d ranks", j.iterations(), perIteration,
                    j.op(), j.algorithm(), n));
        }
        long fastestMbps = InputBounds.Fabric.of(s.topology(), s.packets()).fastestMbps();
        for (int i = 0; i < background.size(); i++) {
            WorkloadSpec.BackgroundSpec b = background.get(i);
            String at = "workload.background[" + i + "]";
            if (b.type().equals("poisson")) {
                // every free host: durationUs x load x rate / mean flow size arrivals on average
                double mean = org.lbsim.workload.BackgroundTraffic.meanFlowBytes(b.cdf());
                double expected = Math.max(2, free) * b.durationUs() * b.load() * fastestMbps / (mean * 8);
                flows += expected;
                bytes += expected * (BYTES_PER_QP + packets((long) mean, s.packets().mtuBytes()) * BYTES_PER_PACKET);
                refuse(at + ".durationUs", flows, bytes, String.format(Locale.ROOT, "about %.0f Poisson arrivals (%d hosts x %s us at load %s of"
                        + " %s Gb/s, mean flow %.0f B)", expected, Math.max(2, free), org.lbsim.scenario.Checks.fmt(b.durationUs()),
                        org.lbsim.scenario.Checks.fmt(b.load()), org.lbsim.scenario.Checks.fmt(fastestMbps / 1000.0), mean));
            } else {
                double n = (double) b.flows() * (b.bothWays() ? 2 : 1);
                flows += n;
                bytes += n * (BYTES_PER_QP + (double) packets(b.bytes(), s.packets().mtuBytes()) * BYTES_PER_PACKET);
                refuse(at + ".flows", flows, bytes, String.format(Locale.ROOT, "%.0f long-lived flows", n));
            }
        }
    }

    /** Flows of one iteration of a collective on {@code n} ranks (an upper bound where steps overlap). */
    static double flowsPerIteration(String op, String algorithm, long n, int receivers) {
        double m = n;
        return switch (op + "/" + algorithm) {
            case "all-reduce/ring" -> 2 * (m - 1) * m;
            case "reduce-scatter/ring", "all-gather/ring", "broadcast/ring", "reduce/ring" -> (m - 1) * m;
            case "all-reduce/tree" -> 4 * (m - 1);
            case "reduce/tree", "broadcast/tree" -> m - 1;
            case "all-to-all/parallel", "all-to-all/staggered" -> m * (m - 1);
            default -> op.equals("permutation") ? m : m - Math.min(receivers, m - 1);
        };
    }

    private static void refuse(String field, double flows, double bytes, String what) {
        refuseFlows(field, flows, what, 0);
        heap(field, "the workload's " + String.format(Locale.ROOT, "%.0f", flows) + " flows (here " + what + ")",
                bytes >= Long.MAX_VALUE / 2.0 ? Long.MAX_VALUE / 2 : (long) bytes);
    }

    private static void refuseFlows(String field, double flows, String what, long bytesPerFlow) {
        if (flows > MAX_FLOWS) {
            throw new ScenarioException(field, String.format(Locale.ROOT, "the workload would have about %.0f flows (%s), more than a run"
                    + " can hold (2^30 = %d); make it smaller", flows, what, MAX_FLOWS));
        }
        if (bytesPerFlow > 0) {
            heap(field, String.format(Locale.ROOT, "%.0f flows (%s)", flows, what), (long) (flows * bytesPerFlow));
        }
    }

    /**
     * Once the flows exist: packet counts, start times, memory, and a route for data and ACKs. Queue
     * pairs of independent flows are built up front; those of dependent flows (collective steps) are
     * built when they start and released when done, so they cost their full state only while alive:
     * estimated as two levels of the dependency graph's widest level (one finishing, the next starting).
     */
    static void flows(Scenario s, List<Flow> flows, Topology topology, Fib healthy) {
        String field = s.workload().sourceFile().isPresent() ? "workload.file" : "workload.messageBytes";
        int qpsPer = s.nic().qpsPerConnection();
        int mtu = s.packets().mtuBytes();
        long maxTimePs = s.limits().maxTimePs();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            long n = Math.min(qpsPer, f.bytes());
            long perQp = packets((f.bytes() + n - 1) / n, mtu);
            if (perQp > MAX_PACKETS) {
                throw new ScenarioException(field, String.format(Locale.ROOT, "flow %d: %d bytes are %d packets of packets.mtuBytes = %d per queue pair,"
                        + " more than the %d a queue pair can count; send less", i, f.bytes(), perQp, mtu, MAX_PACKETS));
            }
            if (f.startPs() >= maxTimePs) {
                throw new ScenarioException("limits.maxTimeUs", String.format(Locale.ROOT, "flow %d starts at %s us, not before the"
                        + " simulated-time limit of %s us, so the run could never finish; raise limits.maxTimeUs", i,
                        Time.toUs(f.startPs()), s.limits().maxTimeUs()));
            }
        }
        Estimate e = estimate(flows, qpsPer, mtu);
        String what = e.waitingQps() == 0 ? e.qps() + " queue pairs carrying " + e.packets() + " packets"
                : e.qps() + " queue pairs built up front carrying " + e.packets() + " packets and " + e.waitingQps()
                        + " of dependent flows (about " + e.liveQps() + " alive at once, carrying " + e.livePackets() + " packets)";
        heap(field, what, e.bytes());
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            for (int[] pair : new int[][] {{f.src(), f.dst()}, {f.dst(), f.src()}}) {
                if (PathFacts.path(topology, healthy, pair[0], pair[1]).length == 0) {
                    String where = s.topology().staticRoutes() ? "topology.routes" : "topology.links";
                    throw new ScenarioException(where, "host " + topology.nodeName(pair[0]) + " has no route to host " + topology.nodeName(pair[1])
                            + " (flow " + i + (pair[0] == f.src() ? "" : ", its ACKs") + "): the hosts are not connected, or static routes loop"
                            + " or lead elsewhere");
                }
            }
        }
    }

    /**
     * The queue pairs of a run for the heap estimate: {@code qps} built up front carrying {@code packets},
     * and {@code waitingQps} of dependent flows, of which about {@code liveQps} carrying {@code livePackets}
     * are alive at once.
     */
    record Estimate(long qps, long packets, long waitingQps, long liveQps, long livePackets) {
        long bytes() {
            return (qps + liveQps) * BYTES_PER_QP + multiplySaturated(packets + livePackets, BYTES_PER_PACKET) + waitingQps * BYTES_PER_WAITING_QP;
        }
    }

    static Estimate estimate(List<Flow> flows, int qpsPer, int mtu) {
        long qps = 0;
        long packets = 0;
        long waitingQps = 0;
        int[] level = levels(flows);
        int levels = 0;
        for (int l : level) {
            levels = Math.max(levels, l + 1);
        }
        long[] qpsAtLevel = new long[levels];
        long[] packetsAtLevel = new long[levels];
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            long n = Math.min(qpsPer, f.bytes());
            long perQp = packets((f.bytes() + n - 1) / n, mtu);
            if (f.dependent()) {
                waitingQps += n;
                qpsAtLevel[level[i]] += n;
                packetsAtLevel[level[i]] += perQp * n;
            } else {
                qps += n;
                packets += perQp * n;
            }
        }
        int widest = 0;
        for (int l = 1; l < levels; l++) {
            widest = packetsAtLevel[l] > packetsAtLevel[widest] ? l : widest;
        }
        long liveQps = waitingQps == 0 ? 0 : Math.min(waitingQps, 2 * qpsAtLevel[widest]);
        long livePackets = waitingQps == 0 ? 0 : 2 * packetsAtLevel[widest];
        return new Estimate(qps, packets, waitingQps, liveQps, livePackets);
    }

    /**
     * Each flow's level in the dependency graph: 0 without dependencies, else one more than its
     * deepest dependency (Kahn's order, so flows need not be listed after what they wait for). The
     * graph was checked for cycles when the workload was built.
     */
    static int[] levels(List<Flow> flows) {
        int n = flows.size();
        int[] level = new int[n];
        int[] waiting = new int[n];
        int[] from = new int[n + 1];
        for (int i = 0; i < n; i++) {
            int[] deps = flows.get(i).deps();
            waiting[i] = deps.length;
            for (int d : deps) {
                from[d + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            from[i + 1] += from[i];
        }
        int[] dependents = new int[from[n]];
        int[] fill = java.util.Arrays.copyOf(from, n);
        for (int i = 0; i < n; i++) {
            for (int d : flows.get(i).deps()) {
                dependents[fill[d]++] = i;
            }
        }
        int[] ready = new int[n];
        int head = 0;
        int tail = 0;
        for (int i = 0; i < n; i++) {
            if (waiting[i] == 0) {
                ready[tail++] = i;
            }
        }
        while (head < tail) {
            int c = ready[head++];
            for (int k = from[c]; k < from[c + 1]; k++) {
                int d = dependents[k];
                level[d] = Math.max(level[d], level[c] + 1);
                if (--waiting[d] == 0) {
                    ready[tail++] = d;
                }
            }
        }
        return level;
    }

    private static long packets(long bytes, int mtu) {
        return Math.max(1, (bytes + mtu - 1) / mtu);
    }

    private static long multiplySaturated(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        return hi != 0 || a * b < 0 ? Long.MAX_VALUE / 64 : a * b;
    }

    /** Refuses an estimate above 80 % of the heap this JVM may use, with how to give it more. */
    private static void heap(String field, String what, long bytes) {
        long max = Runtime.getRuntime().maxMemory();
        if (bytes > max / 10 * 8) {
            throw new ScenarioException(field, String.format(Locale.ROOT, "%s need about %s of heap, more than this JVM may use (%s);"
                    + " make the run smaller, or give Java more heap (java -Xmx<size>, or LBSIM_OPTS=-Xmx<size> for the lbsim command)",
                    what, mib(bytes), mib(max)));
        }
    }

    private static String mib(long bytes) {
        return bytes >= Long.MAX_VALUE / 128 ? "more than 10^16 bytes" : String.format(Locale.ROOT, "%d MiB", bytes >> 20);
    }
}
