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
 * AllReduce / Reduce / Broadcast, AlltoAll, permutation, incast / many-to-few, FSDP backward passes;
 * placements of ranks on the fabric's hosts. ASTRA-sim's ring ({@link AstraRing}), NCCL's trees
 * ({@link NcclTrees}) and the jobs' background ({@link BackgroundTraffic}) have classes of their own.
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
            int streams = (int) AstraRing.chunking(spec.bytes(), spec.astraChunks(), n)[0];
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

    /** One run of the collective; returns what each rank waits for at its end. */
    private static int[][] iteration(Builder b, WorkloadSpec.JobSpec spec, int[] hosts, int job, int phase, long gapPs, long startPs,
                                     int[][] wait, SplittableRandom rng) {
        int n = hosts.length;
        long s = spec.bytes();
        long chunk = Math.max(1, s / n);
        Channel c = new Channel(b, hosts, job, spec.trafficClass(), gapPs, startPs, wait);
        switch (spec.op() + "/" + spec.algorithm()) {
            // NCCL ring: ReduceScatter and AllGather are n-1 steps of S/n; AllReduce is both, 2(n-1) steps (PRO V)
            case "all-reduce/ring" -> ring(c, n, chunk, phase, true);
            case "all-reduce/astra-ring" -> {
                return AstraRing.allReduce(b, spec, hosts, job, phase, gapPs, startPs, wait);
            }
            case "reduce-scatter/ring", "all-gather/ring" -> ring(c, n, chunk, phase, false);
            case "broadcast/ring", "reduce/ring" -> chain(c, n, chunk, phase, spec.op().equals("broadcast"));
            case "all-reduce/tree" -> {
                return doubleTree(c, new Channel(b, hosts, job, spec.trafficClass(), gapPs, startPs, wait, 1), n, s, phase);
            }
            case "reduce/tree" -> NcclTrees.reduceUp(c, NcclTrees.binaryTreeParents(n), s, phase);
            case "broadcast/tree" -> NcclTrees.broadcastDown(c, NcclTrees.binaryTreeParents(n), s, phase);
            case "all-to-all/parallel" -> allToAllAtOnce(c, n, chunk, phase);
            case "all-to-all/staggered" -> allToAllStaggered(c, n, chunk, phase);
            default -> {
                if (spec.op().equals("permutation")) {
                    List<Flow> perm = Workloads.permutation(range(n), s, rng);
                    c.step(perm.stream().mapToInt(Flow::src).toArray(), perm.stream().mapToInt(Flow::dst).toArray(), s, phase);
                } else {
                    manyToFew(c, n, Math.min(spec.receivers(), n - 1), s, phase);
                }
            }
        }
        return c.ready();
    }

    /** n-1 steps of rank i sending to i+1 (twice that for an AllReduce, whose second half is the next phase). */
    private static void ring(Channel c, int n, long chunk, int phase, boolean allReduce) {
        int[] all = range(n);
        int[] nextRank = Arrays.stream(all).map(i -> (i + 1) % n).toArray();
        int steps = allReduce ? 2 * (n - 1) : n - 1;
        for (int step = 0; step < steps; step++) {
            c.step(all, nextRank, chunk, phase + (step < n - 1 ? 0 : 1));
        }
    }

    /** A ring broadcast / reduce: n chunks of S/n pipelined along the chain root -> 1 -> ... -> n-1 (or back). */
    private static void chain(Channel c, int n, long chunk, int phase, boolean down) {
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
    }

    /** NCCL's double binary tree (PRO V): two complementary trees, each carrying half of S; reduce up, then broadcast down. */
    private static int[][] doubleTree(Channel first, Channel second, int n, long s, int phase) {
        long half = Math.max(1, s / 2);
        long rest = s - half <= 0 ? 1 : s - half;
        int[] t0 = NcclTrees.binaryTreeParents(n);
        int[] t1 = NcclTrees.mirroredTreeParents(n);
        NcclTrees.reduceUp(first, t0, rest, phase);
        NcclTrees.reduceUp(second, t1, half, phase);
        NcclTrees.broadcastDown(first, t0, rest, phase + 1);
        NcclTrees.broadcastDown(second, t1, half, phase + 1);
        return merge(List.of(first, second), n);
    }

    /** One step: every rank sends S/n to every other at once, i to i+1, i+2, ... (collective libraries' staggered order). */
    private static void allToAllAtOnce(Channel c, int n, long chunk, int phase) {
        int[] from = new int[n * (n - 1)];
        int[] to = new int[n * (n - 1)];
        for (int i = 0, k = 0; i < n; i++) {
            for (int shift = 1; shift < n; shift++, k++) {
                from[k] = i;
                to[k] = (i + shift) % n;
            }
        }
        c.step(from, to, chunk, phase);
    }

    /** n-1 steps of a shifted permutation: step s sends i -> i+s once step s-1 is done on rank i. */
    private static void allToAllStaggered(Channel c, int n, long chunk, int phase) {
        int[] all = range(n);
        for (int shift = 1; shift < n; shift++) {
            final int sh = shift;
            c.step(all, Arrays.stream(all).map(i -> (i + sh) % n).toArray(), chunk, phase);
        }
    }

    /**
     * Incast / many-to-few (DLBF II: 256 MoE senders, 8 receivers, each collecting from a subset): the first
     * {@code receivers} ranks receive, sender k sends S to receiver k mod receivers.
     */
    private static void manyToFew(Channel c, int n, int receivers, long s, int phase) {
        int[] from = new int[n - receivers];
        int[] to = new int[n - receivers];
        for (int k = 0; k < n - receivers; k++) {
            from[k] = receivers + k;
            to[k] = k % receivers;
        }
        c.step(from, to, s, phase);
    }

    static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    // ------------------------------------------------------------------------------------------ FSDP

    /**
     * OFAN 8.4: the backward pass of FSDP over servers x gpusPerServer GPUs, servers placed at random;
     * inter-server traffic as gpusPerServer parallel rings (logical GPU i sends to i + gpusPerServer mod
     * N), per layer a ReduceScatter of gradients then an AllGather of weights, each a ring pass of
     * servers - 1 steps (or the first stepsPerCollective of them), every step one flow of the model's packets
     * per GPU. Each GPU's steps chain across layers; one phase per (layer, collective).
     */
    static void fsdp(Builder b, WorkloadSpec.Fsdp spec, Topology t, SplittableRandom rng, int mtuBytes) {
        int g = spec.gpusPerServer();
        int servers = spec.servers() == 0 ? t.hostCount() / g : spec.servers();
        if (servers < 2 || servers * g > t.hostCount()) {
            throw new ScenarioException("servers", "needs " + servers + " servers x " + g + " GPUs = " + servers * g
                    + " hosts, the fabric has " + t.hostCount());
        }
        if (spec.stepsPerCollective() > servers - 1) {
            throw new ScenarioException("stepsPerCollective", "must be at most " + (servers - 1) + ", the ring steps of a collective over "
                    + servers + " servers (0 = all of them), got " + spec.stepsPerCollective());
        }
        int steps = spec.steps(servers);
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
                for (int step = 0; step < steps; step++) {
                    c.step(all, next, bytes, phase);
                }
            }
        }
        b.jobs.add(new Job(id, "fsdp", "fsdp/" + spec.model(), n, bytes * servers, (double) steps / servers, phases, false));
    }
}
