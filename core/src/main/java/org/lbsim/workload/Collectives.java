package org.lbsim.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topology;

/**
 * Collectives as dependency graphs, generated the way NCCL schedules them (one chunk per step, no
 * intra-step pipelining): ring ReduceScatter / AllGather / AllReduce, (double) binary tree
 * AllReduce / Reduce / Broadcast, AlltoAll, permutation, incast / many-to-few, FSDP backward passes,
 * and long-lived background flows; placements of ranks on the fabric's hosts.
 */
public final class Collectives {
    private Collectives() {
    }

    /** Flows and jobs under construction. */
    static final class Builder {
        final List<Flow> flows = new ArrayList<>();
        final List<Job> jobs = new ArrayList<>();

        Workload build() {
            return new Workload(flows, jobs);
        }
    }

    /**
     * One chain of dependent steps over a job's ranks (a ring, one tree of a double binary tree, ...).
     * Each rank keeps the flows its next send must wait for: its own last send (NCCL posts a step after
     * the previous one on that rank) and what it received since. A step's sends all wait for what their
     * senders were waiting for before the step, so sends of one step run in parallel.
     */
    static final class Channel {
        private final Builder b;
        private final int[] hosts;
        private final int job;
        private final int trafficClass;
        private final long gapPs;
        private final long startPs;
        private final int[][] ready;
        private final int channel;

        Channel(Builder b, int[] hosts, int job, int trafficClass, long gapPs, long startPs, int[][] initial) {
            this(b, hosts, job, trafficClass, gapPs, startPs, initial, 0);
        }

        /** {@code channel}: which of the collective's parallel chains this is (NCCL opens queue pairs per peer and channel). */
        Channel(Builder b, int[] hosts, int job, int trafficClass, long gapPs, long startPs, int[][] initial, int channel) {
            this.b = b;
            this.channel = channel;
            this.hosts = hosts;
            this.job = job;
            this.trafficClass = trafficClass;
            this.gapPs = gapPs;
            this.startPs = startPs;
            this.ready = new int[hosts.length][];
            for (int i = 0; i < hosts.length; i++) {
                ready[i] = initial[i].clone();
            }
        }

        /** Sends from rank from[k] to rank to[k], {@code bytes} each, all in one step. */
        void step(int[] from, int[] to, long bytes, int phase) {
            int[][] before = new int[hosts.length][];
            for (int i = 0; i < hosts.length; i++) {
                before[i] = ready[i];
            }
            List<List<Integer>> next = new ArrayList<>(hosts.length);
            boolean[] sent = new boolean[hosts.length];
            for (int i = 0; i < hosts.length; i++) {
                next.add(new ArrayList<>());
            }
            int[] ids = new int[from.length];
            for (int k = 0; k < from.length; k++) {
                int[] deps = before[from[k]];
                ids[k] = b.flows.size();
                b.flows.add(new Flow(hosts[from[k]], hosts[to[k]], bytes, startPs, trafficClass, job, phase, deps,
                        deps.length == 0 ? 0 : gapPs, channel));
                sent[from[k]] = true;
                next.get(from[k]).add(ids[k]);
            }
            for (int i = 0; i < hosts.length; i++) {
                if (!sent[i]) {
                    for (int d : before[i]) {
                        next.get(i).add(d);
                    }
                }
            }
            for (int k = 0; k < from.length; k++) {
                next.get(to[k]).add(ids[k]);
            }
            for (int i = 0; i < hosts.length; i++) {
                ready[i] = next.get(i).stream().mapToInt(Integer::intValue).distinct().toArray();
            }
        }

        int[][] ready() {
            return ready;
        }
    }

    /** Every rank's waits of several channels together (the next iteration waits for all of them). */
    static int[][] merge(List<Channel> channels, int n) {
        int[][] out = new int[n][];
        for (int i = 0; i < n; i++) {
            final int r = i;
            out[i] = channels.stream().flatMapToInt(c -> Arrays.stream(c.ready()[r])).distinct().sorted().toArray();
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------ placement

    /**
     * Picks {@code count} free hosts (0 = every eligible free host) for a job's ranks, marks them taken and
     * returns them in rank order.
     */
    static int[] place(Topology t, String placement, int count, boolean[] taken, SplittableRandom rng) {
        List<Integer> eligible = new ArrayList<>();
        boolean[] torUsed = new boolean[t.nodeCount()];
        for (int h = 0; h < t.hostCount(); h++) {
            if (taken[h]) {
                continue;
            }
            switch (placement) {
                case "per-tor" -> {
                    int tor = t.peerNode(t.hostPort(h));
                    if (!torUsed[tor]) {
                        torUsed[tor] = true;
                        eligible.add(h);
                    }
                }
                case "per-rail" -> {
                    if (t.nicIndex(h) == 0) {
                        eligible.add(h);
                    }
                }
                default -> eligible.add(h);
            }
        }
        if (placement.equals("random")) {
            for (int i = eligible.size() - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                Integer tmp = eligible.get(i);
                eligible.set(i, eligible.get(j));
                eligible.set(j, tmp);
            }
        }
        int n = count == 0 ? eligible.size() : count;
        if (n < 2 || n > eligible.size()) {
            throw new ScenarioException("hosts", "needs " + (count == 0 ? "at least 2" : String.valueOf(count)) + " hosts placed " + placement
                    + ", but only " + eligible.size() + " " + (placement.equals("packed") || placement.equals("random") ? "" : "eligible ")
                    + "hosts are free");
        }
        int[] hosts = new int[n];
        for (int i = 0; i < n; i++) {
            hosts[i] = eligible.get(i);
            taken[hosts[i]] = true;
        }
        return hosts;
    }

    // ------------------------------------------------------------------------------------------ jobs

    /** Adds one job's flows (all its iterations) on {@code hosts}. */
    static void job(Builder b, WorkloadSpec.JobSpec spec, int[] hosts, SplittableRandom rng) {
        int id = b.jobs.size();
        int n = hosts.length;
        long gapPs = Math.round(spec.gapNs() * 1000);
        long startPs = Math.round(spec.startUs() * 1_000_000);
        List<String> phaseNames = new ArrayList<>();
        int[][] wait = new int[n][0];
        String name = spec.name().isEmpty() ? "job" + id : spec.name();
        for (int it = 0; it < spec.iterations(); it++) {
            if (Thread.currentThread().isInterrupted()) { // the caller gave up on the build (a wall-clock limit)
                throw new java.util.concurrent.CancellationException("building the workload was interrupted");
            }
            String prefix = spec.iterations() == 1 ? "" : "iter" + (it + 1) + "/";
            List<String> names = phases(spec, n);
            int base = phaseNames.size();
            for (String p : names) {
                phaseNames.add(prefix + p);
            }
            wait = iteration(b, spec, hosts, id, base, gapPs, startPs, wait, rng);
        }
        if (spec.receivers() >= n && (spec.op().equals("incast") || spec.op().equals("many-to-few"))) {
            throw new ScenarioException("receivers", "must be below the job's " + n + " ranks, got " + spec.receivers());
        }
        b.jobs.add(new Job(id, name, spec.op() + "/" + spec.algorithm(), n, spec.bytes(), Job.busFactor(spec.op(), n), phaseNames, false));
    }

    private static List<String> phases(WorkloadSpec.JobSpec spec, int n) {
        String op = spec.op();
        if (op.equals("all-reduce") && spec.algorithm().equals("astra-ring")) {
            int streams = (int) astraChunking(spec.bytes(), spec.astraChunks(), n)[0];
            List<String> names = new ArrayList<>(2 * streams);
            for (int c = 1; c <= streams; c++) {
                names.add("chunk" + c + "/reduce-scatter");
                names.add("chunk" + c + "/all-gather");
            }
            return names;
        }
        if (op.equals("all-reduce")) {
            return spec.algorithm().equals("ring") ? List.of("reduce-scatter", "all-gather") : List.of("reduce", "broadcast");
        }
        return List.of(op);
    }

    /**
     * How ASTRA-sim splits an AllReduce of {@code bytes} over {@code n} ranks into {@code splits} chunks:
     * {chunks, bytes per chunk, bytes per message}. Sys::determine_chunk_size (astra-sim/system/Sys.cc): a chunk
     * is bytes / splits, raised to n bytes (and the collective to splits x n) when smaller; Sys::generate_collective
     * makes ceil(bytes / chunk) streams of a whole chunk each (a remainder becomes one more full chunk); Ring's
     * constructor (astraccl/native_collectives/collective_algorithm/Ring.cc) sends chunk / n per message.
     */
    public static long[] astraChunking(long bytes, int splits, int n) {
        long size = bytes;
        long chunk = size / splits;
        if (n > chunk) {
            chunk = n;
            size = (long) splits * chunk;
        }
        long streams = (size + chunk - 1) / chunk;
        return new long[] {streams, chunk, chunk / n};
    }

    /** One run of the collective; returns what each rank waits for at its end. */
    private static int[][] iteration(Builder b, WorkloadSpec.JobSpec spec, int[] hosts, int job, int phase, long gapPs, long startPs,
                                     int[][] wait, SplittableRandom rng) {
        int n = hosts.length;
        int cls = spec.trafficClass();
        long s = spec.bytes();
        long chunk = Math.max(1, s / n);
        Channel c = new Channel(b, hosts, job, cls, gapPs, startPs, wait);
        int[] all = range(n);
        int[] nextRank = Arrays.stream(all).map(i -> (i + 1) % n).toArray();
        switch (spec.op() + "/" + spec.algorithm()) {
            // NCCL ring: ReduceScatter and AllGather are n-1 steps of S/n; AllReduce is both, 2(n-1) steps (PRO V)
            case "all-reduce/ring" -> {
                for (int step = 0; step < 2 * (n - 1); step++) {
                    c.step(all, nextRank, chunk, phase + (step < n - 1 ? 0 : 1));
                }
                return c.ready();
            }
            case "all-reduce/astra-ring" -> {
                return astraRing(b, spec, hosts, job, phase, gapPs, startPs, wait);
            }
            case "reduce-scatter/ring", "all-gather/ring" -> {
                for (int step = 0; step < n - 1; step++) {
                    c.step(all, nextRank, chunk, phase);
                }
                return c.ready();
            }
            // a ring broadcast / reduce pipelines n chunks of S/n along the chain root -> 1 -> ... -> n-1 (or back)
            case "broadcast/ring", "reduce/ring" -> {
                boolean down = spec.op().equals("broadcast");
                for (int t = 0; t < 2 * n - 2; t++) {
                    List<int[]> sends = new ArrayList<>();
                    for (int k = 0; k < n - 1; k++) {
                        int piece = t - k;
                        if (piece >= 0 && piece < n) {
                            sends.add(down ? new int[] {k, k + 1} : new int[] {n - 1 - k, n - 2 - k});
                        }
                    }
                    c.step(sends.stream().mapToInt(x -> x[0]).toArray(), sends.stream().mapToInt(x -> x[1]).toArray(), chunk, phase);
                }
                return c.ready();
            }
            // NCCL's double binary tree (PRO V): two complementary trees, each carrying half of S; reduce up, then broadcast down
            case "all-reduce/tree" -> {
                Channel second = new Channel(b, hosts, job, cls, gapPs, startPs, wait, 1);
                long half = Math.max(1, s / 2);
                int[] t0 = binaryTreeParents(n);
                int[] t1 = mirroredTreeParents(n);
                reduceUp(c, t0, s - half <= 0 ? 1 : s - half, phase);
                reduceUp(second, t1, half, phase);
                broadcastDown(c, t0, s - half <= 0 ? 1 : s - half, phase + 1);
                broadcastDown(second, t1, half, phase + 1);
                return merge(List.of(c, second), n);
            }
            case "reduce/tree" -> {
                reduceUp(c, binaryTreeParents(n), s, phase);
                return c.ready();
            }
            case "broadcast/tree" -> {
                broadcastDown(c, binaryTreeParents(n), s, phase);
                return c.ready();
            }
            // every rank sends S/n to every other at once, i to i+1, i+2, ... (collective libraries' staggered order)
            case "all-to-all/parallel" -> {
                int[] from = new int[n * (n - 1)];
                int[] to = new int[n * (n - 1)];
                for (int i = 0, k = 0; i < n; i++) {
                    for (int shift = 1; shift < n; shift++, k++) {
                        from[k] = i;
                        to[k] = (i + shift) % n;
                    }
                }
                c.step(from, to, chunk, phase);
                return c.ready();
            }
            // n-1 steps of a shifted permutation: step s sends i -> i+s once step s-1 is done on rank i
            case "all-to-all/staggered" -> {
                for (int shift = 1; shift < n; shift++) {
                    final int sh = shift;
                    c.step(all, Arrays.stream(all).map(i -> (i + sh) % n).toArray(), chunk, phase);
                }
                return c.ready();
            }
            default -> {
                if (spec.op().equals("permutation")) {
                    List<Flow> perm = Workloads.permutation(all, s, rng);
                    c.step(perm.stream().mapToInt(Flow::src).toArray(), perm.stream().mapToInt(Flow::dst).toArray(), s, phase);
                    return c.ready();
                }
                // incast / many-to-few (DLBF II: 256 MoE senders, 8 receivers, each collecting from a subset): the first
                // `receivers` ranks receive, sender k sends S to receiver k mod receivers
                int r = Math.min(spec.receivers(), n - 1);
                int[] from = new int[n - r];
                int[] to = new int[n - r];
                for (int k = 0; k < n - r; k++) {
                    from[k] = r + k;
                    to[k] = k % r;
                }
                c.step(from, to, s, phase);
                return c.ready();
            }
        }
    }

    /**
     * ASTRA-sim's ring AllReduce on one ring dimension, as its system layer schedules it with the ns-3 frontend. The
     * collective is split into chunks ({@link #astraChunking}); each chunk is a stream running Ring with ComType
     * All_Reduce (Ring.cc): stream_count = 2(n-1) messages of chunk / n per rank, rank i sending to i+1 (a single
     * queue per dimension, as the ns-3 frontend's num-queues-per-dim 1, is clockwise: QueueLevelHandler.cc). Ring::run
     * inserts the first message at StreamInit and every later one on PacketReceived, so a rank's message t waits only
     * for the message t-1 it received from rank i-1, not for its own previous send; the first 2(n-1)/2 are the
     * ReduceScatter half. A rank runs activeChunks streams at once (SchedulerUnit's queue_threshold,
     * active-chunks-per-dimension); the next one starts (StreamInit) when one of them has received its last message
     * (Ring::iteratable -> exit -> notify_stream_removed). gapNs stands for the endpoint delay between a receive and
     * the send it triggers (MemBus, endpoint-delay; 10 ns in ASTRA-sim's examples). The chunks are identical, so
     * ASTRA-sim's LIFO order among them changes nothing. One difference: ASTRA-sim matches a receive by (stream,
     * source) in completion order, so when message t of a pair overtakes message t-1 its completion already lets the
     * next send go; here a send waits for message t-1 itself.
     */
    private static int[][] astraRing(Builder b, WorkloadSpec.JobSpec spec, int[] hosts, int job, int phase, long gapPs, long startPs,
                                     int[][] wait) {
        int n = hosts.length;
        long[] split = astraChunking(spec.bytes(), spec.astraChunks(), n);
        int streams = (int) split[0];
        long message = split[2];
        int active = spec.astraActiveChunks();
        int steps = 2 * (n - 1);
        int[][] last = new int[streams][]; // per chunk: the flow id rank i sends at its last step
        for (int c = 0; c < streams; c++) {
            int[] previous = null;
            for (int t = 0; t < steps; t++) {
                int[] ids = new int[n];
                for (int i = 0; i < n; i++) {
                    int from = (i - 1 + n) % n;
                    int[] deps;
                    if (t > 0) {
                        deps = new int[] {previous[from]};
                    } else if (c >= active) {
                        deps = new int[] {last[c - active][from]};
                    } else {
                        deps = wait[i];
                    }
                    ids[i] = b.flows.size();
                    b.flows.add(new Flow(hosts[i], hosts[(i + 1) % n], message, startPs, spec.trafficClass(), job,
                            phase + 2 * c + (t < n - 1 ? 0 : 1), deps, deps.length == 0 ? 0 : gapPs, 0));
                }
                previous = ids;
            }
            last[c] = previous;
        }
        // the collective ends on a rank when each of its last chunks has received its last message
        int[][] end = new int[n][];
        for (int i = 0; i < n; i++) {
            int from = (i - 1 + n) % n;
            end[i] = java.util.stream.IntStream.range(Math.max(0, streams - active), streams).map(c -> last[c][from]).toArray();
        }
        return end;
    }

    /** Leaves first: each level's nodes send to their parents once they received from all their children. */
    private static void reduceUp(Channel c, int[] parent, long bytes, int phase) {
        int[] height = heights(parent);
        int max = Arrays.stream(height).max().orElse(0);
        for (int h = 0; h < max; h++) {
            final int level = h;
            int[] from = java.util.stream.IntStream.range(0, parent.length).filter(i -> parent[i] >= 0 && height[i] == level).toArray();
            c.step(from, Arrays.stream(from).map(i -> parent[i]).toArray(), bytes, phase);
        }
    }

    /** Root first: each node forwards to its children once it received from its parent. */
    private static void broadcastDown(Channel c, int[] parent, long bytes, int phase) {
        int[] depth = new int[parent.length];
        int max = 0;
        for (int i = 0; i < parent.length; i++) {
            for (int p = parent[i]; p >= 0; p = parent[p]) {
                depth[i]++;
            }
            max = Math.max(max, depth[i]);
        }
        for (int d = 1; d <= max; d++) {
            final int level = d;
            int[] to = java.util.stream.IntStream.range(0, parent.length).filter(i -> depth[i] == level).toArray();
            c.step(Arrays.stream(to).map(i -> parent[i]).toArray(), to, bytes, phase);
        }
    }

    private static int[] heights(int[] parent) {
        int[] height = new int[parent.length];
        for (int i = 0; i < parent.length; i++) {
            int h = 0;
            for (int node = i; parent[node] >= 0; node = parent[node]) {
                h++;
                height[parent[node]] = Math.max(height[parent[node]], h);
            }
        }
        return height;
    }

    /**
     * NCCL's binary tree over ranks 0..n-1 (ncclGetBtree): a rank's parent flips its lowest set bit
     * and sets the next one up, or only flips it when that is out of range; rank 0 is the root.
     */
    public static int[] binaryTreeParents(int n) {
        int[] parent = new int[n];
        parent[0] = -1;
        for (int rank = 1; rank < n; rank++) {
            int bit = Integer.lowestOneBit(rank);
            int up = (rank ^ bit) | (bit << 1);
            parent[rank] = up >= n ? rank ^ bit : up;
        }
        return parent;
    }

    /**
     * NCCL's second tree (ncclGetDtree): the first one mirrored (rank n-1-r) when n is even, shifted by one
     * when n is odd, so that most leaves of one tree are inner nodes of the other.
     */
    public static int[] mirroredTreeParents(int n) {
        int[] base = binaryTreeParents(n);
        int[] parent = new int[n];
        for (int rank = 0; rank < n; rank++) {
            if (n % 2 == 1) {
                int shifted = (rank - 1 + n) % n;
                parent[rank] = base[shifted] < 0 ? -1 : (base[shifted] + 1) % n;
            } else {
                int mirrored = n - 1 - rank;
                parent[rank] = base[mirrored] < 0 ? -1 : n - 1 - base[mirrored];
            }
        }
        return parent;
    }

    static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    // ------------------------------------------------------------------------------------------ background

    /**
     * Flow-size CDFs of the HPCC / ConWeave evaluations (HPCC's traffic_gen WebSearch_distribution.txt and
     * FbHdp_distribution.txt): bytes, cumulative percent; sizes in between are interpolated linearly.
     */
    private static final double[][] WEB_SEARCH = {{0, 0}, {10_000, 15}, {20_000, 20}, {30_000, 30}, {50_000, 40}, {80_000, 53},
            {200_000, 60}, {1_000_000, 70}, {2_000_000, 80}, {5_000_000, 90}, {10_000_000, 97}, {30_000_000, 100}};
    private static final double[][] HADOOP = {{0, 0}, {100, 1}, {200, 2}, {300, 5}, {350, 15}, {400, 20}, {500, 30}, {600, 40},
            {700, 50}, {1000, 60}, {2000, 67}, {7000, 70}, {30_000, 72}, {50_000, 82}, {80_000, 87}, {120_000, 90}, {300_000, 95},
            {1_000_000, 97.5}, {2_000_000, 99}, {10_000_000, 100}};
    /** ConWeave's default workload, AliCloud storage (conweave-ns3 traffic_gen/AliStorage2019.txt; run.py:147). */
    private static final double[][] ALI_STORAGE = {{0, 0}, {4_000, 22.93}, {8_000, 69.21}, {16_000, 80.61}, {32_000, 90.47},
            {64_000, 93.53}, {128_000, 96.77}, {256_000, 97.53}, {2_000_000, 100}};

    /** Mean flow size in bytes of a background CDF by name (web-search, hadoop, ali-storage). */
    public static double meanFlowBytes(String cdf) {
        return meanBytes(switch (cdf) {
            case "hadoop" -> HADOOP;
            case "ali-storage" -> ALI_STORAGE;
            default -> WEB_SEARCH;
        });
    }

    /** Mean of a piecewise-linear CDF. */
    static double meanBytes(double[][] cdf) {
        double mean = 0;
        for (int i = 1; i < cdf.length; i++) {
            mean += (cdf[i][0] + cdf[i - 1][0]) / 2 * (cdf[i][1] - cdf[i - 1][1]) / 100;
        }
        return mean;
    }

    /** A size drawn from a piecewise-linear CDF (at least 1 byte). */
    static long drawBytes(double[][] cdf, SplittableRandom rng) {
        double u = rng.nextDouble() * 100;
        for (int i = 1; i < cdf.length; i++) {
            if (u <= cdf[i][1]) {
                double span = cdf[i][1] - cdf[i - 1][1];
                double x = span == 0 ? cdf[i][0] : cdf[i - 1][0] + (u - cdf[i - 1][1]) / span * (cdf[i][0] - cdf[i - 1][0]);
                return Math.max(1, (long) x);
            }
        }
        return (long) cdf[cdf.length - 1][0];
    }

    /**
     * Background traffic on the hosts no job took: long-lived flows between random pairs, all at time 0
     * (DLBF II / IV), or Poisson arrivals at every such host (exponential inter-arrival times with mean
     * = mean flow size / (load x NIC rate), sizes from the CDF, each to a uniformly random other host),
     * as HPCC's traffic generator draws them.
     */
    static void background(Builder b, WorkloadSpec.BackgroundSpec spec, Topology t, boolean[] taken, SplittableRandom rng, int index) {
        int[] free = java.util.stream.IntStream.range(0, taken.length).filter(h -> !taken[h]).toArray();
        if (free.length < 2) {
            throw new ScenarioException("type", "background traffic needs at least 2 hosts no job uses, " + free.length + " are free");
        }
        int id = b.jobs.size();
        if (spec.type().equals("poisson")) {
            double[][] cdf = switch (spec.cdf()) {
                case "hadoop" -> HADOOP;
                case "ali-storage" -> ALI_STORAGE;
                default -> WEB_SEARCH;
            };
            double mean = meanBytes(cdf);
            long endPs = Math.round(spec.durationUs() * 1_000_000);
            int first = b.flows.size();
            long total = 0;
            for (int src : free) {
                double meanGapPs = mean * 8 / (spec.load() * t.rateMbps(t.hostPort(src))) * 1_000_000;
                long at = Math.round(-Math.log(1 - rng.nextDouble()) * meanGapPs);
                while (at <= endPs) {
                    int dst = free[rng.nextInt(free.length - 1)];
                    if (dst == src) {
                        dst = free[free.length - 1];
                    }
                    long bytes = drawBytes(cdf, rng);
                    total += bytes;
                    b.flows.add(new Flow(src, dst, bytes, at, spec.trafficClass(), id, 0, null, 0));
                    at += Math.round(-Math.log(1 - rng.nextDouble()) * meanGapPs);
                }
            }
            if (b.flows.size() == first) {
                throw new ScenarioException("durationUs", "no arrival within " + spec.durationUs() + " us at load " + spec.load()
                        + " (mean flow " + Math.round(mean) + " B); run longer");
            }
            b.jobs.add(new Job(id, "background" + index, "poisson/" + spec.cdf(), free.length, total, 1.0, List.of("arrivals"), true,
                    spec.lastsForeground()));
            return;
        }
        for (int k = 0; k < spec.flows(); k++) {
            int a = free[rng.nextInt(free.length)];
            int d = free[rng.nextInt(free.length - 1)];
            if (d == a) {
                d = free[free.length - 1];
            }
            b.flows.add(new Flow(a, d, spec.bytes(), 0, spec.trafficClass(), id, 0, null, 0));
            if (spec.bothWays()) {
                b.flows.add(new Flow(d, a, spec.bytes(), 0, spec.trafficClass(), id, 0, null, 0));
            }
        }
        b.jobs.add(new Job(id, "background" + index, "long-lived", spec.flows() * (spec.bothWays() ? 2 : 1), spec.bytes(), 1.0, List.of("long-lived"), true,
                spec.lastsForeground()));
    }

    // ------------------------------------------------------------------------------------------ FSDP

    /**
     * OFAN 8.4: the backward pass of FSDP over servers x gpusPerServer GPUs, servers placed at random;
     * inter-server traffic as gpusPerServer parallel rings (logical GPU i sends to i + gpusPerServer mod
     * N), per layer a ReduceScatter of gradients then an AllGather of weights, each a ring pass of
     * servers - 1 steps, every step one flow of the model's packets per GPU. Each GPU's steps chain across
     * layers; one phase per (layer, collective).
     */
    static void fsdp(Builder b, WorkloadSpec.Fsdp spec, Topology t, SplittableRandom rng, int mtuBytes) {
        int g = spec.gpusPerServer();
        int servers = spec.servers() == 0 ? t.hostCount() / g : spec.servers();
        if (servers < 2 || servers * g > t.hostCount()) {
            throw new ScenarioException("servers", "needs " + servers + " servers x " + g + " GPUs = " + servers * g
                    + " hosts, the fabric has " + t.hostCount());
        }
        int[] model = WorkloadSpec.Fsdp.packetsAndLayers(spec.model());
        int layers = spec.layers() == 0 ? model[1] : spec.layers();
        long bytes = (long) model[0] * mtuBytes;
        // random server placement: logical server s runs on physical server slot[s]; GPU j of a server is its j-th host
        int[] slot = range(t.hostCount() / g);
        for (int i = slot.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int tmp = slot[i];
            slot[i] = slot[j];
            slot[j] = tmp;
        }
        int n = servers * g;
        int[] hosts = new int[n];
        for (int i = 0; i < n; i++) {
            hosts[i] = slot[i / g] * g + i % g;
        }
        int id = b.jobs.size();
        int[] all = range(n);
        int[] next = Arrays.stream(all).map(i -> (i + g) % n).toArray();
        Channel c = new Channel(b, hosts, id, 0, Math.round(spec.gapNs() * 1000), 0, new int[n][0]);
        List<String> phases = new ArrayList<>();
        for (int layer = layers; layer >= 1; layer--) {
            for (String op : List.of("reduce-scatter", "all-gather")) {
                int phase = phases.size();
                phases.add("layer" + layer + "/" + op);
                for (int step = 0; step < servers - 1; step++) {
                    c.step(all, next, bytes, phase);
                }
            }
        }
        b.jobs.add(new Job(id, "fsdp", "fsdp/" + spec.model(), n, bytes * servers, (double) (servers - 1) / servers, phases, false));
    }
}
