package org.lbsim.scenario;

/** The traffic of a run. */
public sealed interface WorkloadSpec permits WorkloadSpec.Permutation, WorkloadSpec.AllToAll, WorkloadSpec.Trace,
        WorkloadSpec.Collective, WorkloadSpec.Jobs, WorkloadSpec.Fsdp, WorkloadSpec.DagTrace, WorkloadSpec.HtsimCm, WorkloadSpec.Ns3Flow {

    /** {@code cases}' answer for this kind of workload. */
    <R> R match(Cases<R> cases);

    /**
     * Something done differently for each kind of workload. A visitor rather than {@code instanceof}
     * chains: a new kind fails to compile until every place that builds or sizes a workload handles it.
     */
    interface Cases<R> {
        R permutation(Permutation p);

        R allToAll(AllToAll a);

        R trace(Trace t);

        R collective(Collective c);

        R jobs(Jobs j);

        R fsdp(Fsdp f);

        R dagTrace(DagTrace t);

        R htsimCm(HtsimCm t);

        R ns3Flow(Ns3Flow t);
    }

    /** The file the workload is read from (relative to the scenario file's folder), or empty for a generated workload. */
    default java.util.Optional<String> sourceFile() {
        return java.util.Optional.empty();
    }

    /**
     * Checks what the scenario alone tells of the workload against a fabric of {@code hostCount} host endpoints: at
     * least 2 hosts for a generated workload, no more hosts asked for than there are. A file's hosts are checked once it
     * is read. @throws ScenarioException naming {@code workload} or the field under it
     */
    void checkHosts(int hostCount);

    /** A generated workload's hosts: at least 2 on the fabric, and {@code hostsAsked} (0 = all) no more than it has. */
    private static void fits(String what, int hostsAsked, int hostCount) {
        if (hostCount < 2) {
            throw new ScenarioException("workload", what + " needs at least 2 hosts, the topology has " + hostCount);
        }
        if (hostsAsked > hostCount) {
            throw new ScenarioException("workload.hosts", "must be <= the " + hostCount + " hosts of the topology, got " + hostsAsked);
        }
    }

    /** A workload read from a file; a relative path is resolved against the scenario file's folder. */
    interface FromFile {
        String file();
    }

    /** Collective operations a job may run. */
    java.util.List<String> COLLECTIVES = java.util.List.of("all-reduce", "reduce-scatter", "all-gather", "broadcast", "reduce", "all-to-all",
            "permutation", "incast", "many-to-few");
    /** Algorithms: ring and tree for reductions, parallel and staggered for all-to-all. */
    java.util.List<String> ALGORITHMS = java.util.List.of("ring", "tree", "parallel", "staggered", "astra-ring");
    /** How a job's ranks are placed on the fabric's hosts. */
    java.util.List<String> PLACEMENTS = java.util.List.of("packed", "random", "per-tor", "per-rail");

    static WorkloadSpec defaults() {
        return new Permutation(4L << 20, 0);
    }

    @TypeName("permutation")
    @Doc("random derangement: every host sends one message to one other host and receives one")
    record Permutation(
            @Doc("bytes per message") long messageBytes,
            @Doc("hosts taking part (0 = all)") int hosts) implements WorkloadSpec {
        public Permutation {
            ScenarioException.require(messageBytes >= 1, "messageBytes", "must be >= 1 byte, got " + messageBytes);
            ScenarioException.require(hosts == 0 || hosts >= 2, "hosts", "must be 0 (all hosts) or >= 2, got " + hosts);
        }

        public static Permutation defaults() {
            return new Permutation(4L << 20, 0);
        }

        @Override
        public void checkHosts(int hostCount) {
            fits("a permutation", hosts, hostCount);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.permutation(this);
        }
    }

    @TypeName("all-to-all")
    @Doc("every host sends one message to every other host, all at once")
    record AllToAll(
            @Doc("bytes per host pair") long messageBytes,
            @Doc("hosts taking part (0 = all)") int hosts) implements WorkloadSpec {
        public AllToAll {
            ScenarioException.require(messageBytes >= 1, "messageBytes", "must be >= 1 byte, got " + messageBytes);
            ScenarioException.require(hosts == 0 || hosts >= 2, "hosts", "must be 0 (all hosts) or >= 2, got " + hosts);
        }

        /** OFAN's all-to-all: 1 MiB per pair, every host. */
        public static AllToAll defaults() {
            return new AllToAll(1L << 20, 0);
        }

        @Override
        public void checkHosts(int hostCount) {
            fits("an all-to-all", hosts, hostCount);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.allToAll(this);
        }
    }

    @TypeName("trace")
    @Doc("flows from a CSV file with header src,dst,bytes,start_ns (hosts by index); a relative path is resolved against the scenario file")
    record Trace(@Doc("path of the CSV file") String file) implements WorkloadSpec, FromFile {
        public Trace {
            ScenarioException.require(file != null && !file.isBlank(), "file", "is required (path of a CSV with columns src,dst,bytes,start_ns)");
        }

        @Override
        public java.util.Optional<String> sourceFile() {
            return java.util.Optional.of(file);
        }

        @Override
        public void checkHosts(int hostCount) {
            // the file's hosts are checked once it is read
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.trace(this);
        }
    }

    /**
     * One collective, generated NCCL-like as a dependency graph (steps wait for each other).
     * Shared by {@code collective} (one job) and each entry of {@code jobs}.
     */
    @Doc("one job's collective: operation, algorithm, size, ranks and their placement")
    record JobSpec(
            @Doc("job name in results (empty = job<i>)") String name,
            @Doc("all-reduce | reduce-scatter | all-gather | broadcast | reduce | all-to-all | permutation | incast | many-to-few") String op,
            @Doc("ring | tree (double binary tree for all-reduce, one binary tree for reduce / broadcast) | parallel | staggered (all-to-all)"
                    + " | astra-ring (all-reduce as ASTRA-sim's ring: the collective in chunks, each around the ring)") String algorithm,
            @Doc("collective size S in bytes (NCCL-tests size): ring steps carry S/n, trees S/2 per tree, all-to-all S/n per pair, point-to-point patterns S per flow") long bytes,
            @Doc("ranks taking part (0 = all hosts not taken by earlier jobs)") int hosts,
            @Doc("packed (consecutive hosts) | random (random hosts in random ring order, PRO V's random neighbours) | per-tor (one host per ToR) | per-rail (NIC 0 of each server)") String placement,
            @Doc("receivers of incast / many-to-few (the first ranks)") int receivers,
            @Doc("compute gap in ns between a step's dependencies completing and the step starting") double gapNs,
            @Doc("times the collective runs back to back (each waits for the previous on every rank)") int iterations,
            @Doc("when the job starts, in us") double startUs,
            @Doc("traffic class (DSCP 0-63) of the job's flows") int trafficClass,
            @Doc("astra-ring: chunks the collective is split into (ASTRA-sim's preferred-dataset-splits); 0 = 4, its ns-3 example's") int chunks,
            @Doc("astra-ring: chunks a rank runs at once (ASTRA-sim's active-chunks-per-dimension); 0 = 1, its ns-3 example's") int activeChunks) {
        /** ASTRA-sim's ns-3 example system (examples/system/native_collectives/Ring_4chunks.json): 4 splits, 1 chunk at a time. */
        public static final int ASTRA_CHUNKS = 4;
        public static final int ASTRA_ACTIVE_CHUNKS = 1;

        public JobSpec {
            name = name == null ? "" : name;
            ScenarioException.require(COLLECTIVES.contains(op), "op", "must be one of " + String.join(", ", COLLECTIVES) + ", got '" + op + "'");
            ScenarioException.require(ALGORITHMS.contains(algorithm), "algorithm", "must be one of " + String.join(", ", ALGORITHMS) + ", got '" + algorithm + "'");
            boolean reduction = java.util.List.of("all-reduce", "reduce-scatter", "all-gather", "broadcast", "reduce").contains(op);
            ScenarioException.require(!reduction || algorithm.equals("ring") || algorithm.equals("tree") || algorithm.equals("astra-ring") && op.equals("all-reduce"),
                    "algorithm", "must be ring or tree" + (op.equals("all-reduce") ? " (or astra-ring)" : "") + " for " + op + ", got '" + algorithm + "'");
            ScenarioException.require(!algorithm.equals("tree") || !op.equals("reduce-scatter") && !op.equals("all-gather"), "algorithm",
                    "tree is for all-reduce, reduce and broadcast; " + op + " runs on a ring");
            ScenarioException.require(!op.equals("all-to-all") || algorithm.equals("parallel") || algorithm.equals("staggered"), "algorithm",
                    "must be parallel or staggered for all-to-all, got '" + algorithm + "'");
            ScenarioException.require(bytes >= 1, "bytes", "must be >= 1 byte, got " + bytes);
            ScenarioException.require(hosts == 0 || hosts >= 2, "hosts", "must be 0 (all free hosts) or >= 2, got " + hosts);
            ScenarioException.require(PLACEMENTS.contains(placement), "placement", "must be one of " + String.join(", ", PLACEMENTS) + ", got '" + placement + "'");
            ScenarioException.require(receivers >= 1, "receivers", "must be >= 1, got " + receivers);
            ScenarioException.require(gapNs >= 0 && Double.isFinite(gapNs), "gapNs", "must be >= 0 ns, got " + gapNs);
            ScenarioException.require(iterations >= 1 && iterations <= 1_000_000, "iterations", "must be between 1 and 1000000, got " + iterations);
            ScenarioException.require(startUs >= 0 && Double.isFinite(startUs), "startUs", "must be >= 0 us, got " + startUs);
            ScenarioException.require(trafficClass >= 0 && trafficClass <= 63, "trafficClass", "must be a DSCP value 0-63, got " + trafficClass);
            ScenarioException.require(!algorithm.equals("astra-ring") || op.equals("all-reduce"), "algorithm",
                    "astra-ring is ASTRA-sim's ring all-reduce, not a " + op + "; give another algorithm");
            ScenarioException.require(chunks >= 0 && chunks <= 1024, "chunks", "must be between 0 (ASTRA-sim's 4) and 1024, got " + chunks);
            ScenarioException.require(activeChunks >= 0 && activeChunks <= 1024, "activeChunks",
                    "must be between 0 (ASTRA-sim's 1) and 1024, got " + activeChunks);
            ScenarioException.require(algorithm.equals("astra-ring") || chunks == 0 && activeChunks == 0, chunks != 0 ? "chunks" : "activeChunks",
                    "applies to algorithm astra-ring only (" + op + "/" + algorithm + " sends one chunk per step)");
        }

        /** A job without ASTRA-sim chunking fields (they take their defaults). */
        public JobSpec(String name, String op, String algorithm, long bytes, int hosts, String placement, int receivers, double gapNs,
                       int iterations, double startUs, int trafficClass) {
            this(name, op, algorithm, bytes, hosts, placement, receivers, gapNs, iterations, startUs, trafficClass, 0, 0);
        }

        /** astra-ring: the chunks the collective is split into. */
        public int astraChunks() {
            return chunks == 0 ? ASTRA_CHUNKS : chunks;
        }

        /** astra-ring: the chunks a rank runs at once. */
        public int astraActiveChunks() {
            return activeChunks == 0 ? ASTRA_ACTIVE_CHUNKS : activeChunks;
        }

        /** A ring AllReduce of 16 MiB over every host, packed. */
        public static JobSpec defaults() {
            return new JobSpec("", "all-reduce", "ring", 16L << 20, 0, "packed", 1, 0, 1, 0, 0, 0, 0);
        }
    }

    @TypeName("collective")
    @Doc("one NCCL-like collective as dependent steps: ring ReduceScatter / AllGather / AllReduce, (double) binary tree AllReduce / Reduce / Broadcast, AlltoAll (parallel or staggered), permutation, incast, many-to-few")
    record Collective(
            @Doc("all-reduce | reduce-scatter | all-gather | broadcast | reduce | all-to-all | permutation | incast | many-to-few") String op,
            @Doc("ring | tree | parallel | staggered | astra-ring") String algorithm,
            @Doc("collective size S in bytes (NCCL-tests size)") long bytes,
            @Doc("ranks taking part (0 = all hosts)") int hosts,
            @Doc("packed | random | per-tor | per-rail") String placement,
            @Doc("receivers of incast / many-to-few") int receivers,
            @Doc("compute gap in ns between steps") double gapNs,
            @Doc("times the collective runs back to back") int iterations,
            @Doc("traffic class (DSCP 0-63)") int trafficClass) implements WorkloadSpec {
        public Collective {
            job(op, algorithm, bytes, hosts, placement, receivers, gapNs, iterations, trafficClass);
        }

        private static JobSpec job(String op, String algorithm, long bytes, int hosts, String placement, int receivers, double gapNs,
                                   int iterations, int trafficClass) {
            return new JobSpec("", op, algorithm, bytes, hosts, placement, receivers, gapNs, iterations, 0, trafficClass);
        }

        public JobSpec asJob() {
            return job(op, algorithm, bytes, hosts, placement, receivers, gapNs, iterations, trafficClass);
        }

        public static Collective defaults() {
            return new Collective("all-reduce", "ring", 16L << 20, 0, "packed", 1, 0, 1, 0);
        }

        @Override
        public void checkHosts(int hostCount) {
            fits("an all-to-all", 0, hostCount); // its ranks (hosts) are checked when placed on the built fabric
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.collective(this);
        }
    }

    @TypeName("jobs")
    @Doc("several jobs on one fabric at once, each a collective on its own hosts (taken in order from the hosts earlier jobs left free), plus background traffic")
    record Jobs(
            @Doc("the jobs, each {name, op, algorithm, bytes, hosts, placement, receivers, gapNs, iterations, startUs, trafficClass, chunks, activeChunks}") java.util.List<JobSpec> jobs,
            @Doc("background traffic, each {type: long-lived, flows, bytes} or {type: poisson, cdf, load, durationUs}, on the hosts no job took") java.util.List<BackgroundSpec> background) implements WorkloadSpec {
        public Jobs {
            jobs = jobs == null ? java.util.List.of() : java.util.List.copyOf(jobs);
            background = background == null ? java.util.List.of() : java.util.List.copyOf(background);
            ScenarioException.require(!jobs.isEmpty() || !background.isEmpty(), "jobs", "needs at least one job or background entry");
            ScenarioException.require(!jobs.isEmpty() || background.stream().noneMatch(BackgroundSpec::lastsForeground), "background",
                    "lasts: foreground needs at least one job to last for; give jobs or use lasts: bytes");
        }

        public static Jobs defaults() {
            return new Jobs(java.util.List.of(JobSpec.defaults()), java.util.List.of());
        }

        @Override
        public void checkHosts(int hostCount) {
            fits("an all-to-all", 0, hostCount); // its ranks (hosts) are checked when placed on the built fabric
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.jobs(this);
        }
    }

    /**
     * Background traffic next to the jobs, on the hosts no job took: long-lived flows between random
     * pairs (DLBF II / IV: 5 or 20 ECMP flows of 100 MB in a random pairwise exchange), or Poisson
     * arrivals with sizes from a flow-size CDF at a target load (the web-search and Hadoop workloads of
     * the HPCC / ConWeave evaluations).
     */
    @Doc("background traffic on the hosts no job uses: long-lived flows, or Poisson arrivals from a flow-size CDF at a load")
    record BackgroundSpec(
            @Doc("long-lived (flows x bytes between random pairs, all at time 0) | poisson (every host: exponential inter-arrival times, sizes from cdf, to a random other host)") String type,
            @Doc("long-lived: number of flows") int flows,
            @Doc("long-lived: bytes per flow") long bytes,
            @Doc("long-lived: each random pair also sends the other way, 2 x flows flows (a pairwise exchange; one reading of DLBF IV's \"five pairs of flows\")") boolean bothWays,
            @Doc("poisson: web-search | hadoop | ali-storage (HPCC's WebSearch and FbHdp flow-size CDFs; ConWeave's AliStorage2019)") String cdf,
            @Doc("poisson: offered load per host, a fraction of its NIC rate") double load,
            @Doc("poisson: arrivals during this many us from time 0") double durationUs,
            @Doc("traffic class (DSCP 0-63); give it its own scheme under trafficClasses (DLBF: ECMP)") int trafficClass,
            @Doc("bytes (each flow ends when its bytes are delivered) | foreground (the flows run while the jobs do: the run ends when every job has completed and the background is cut there, reported unfinished; DLBF IV's flows that \"persist throughout the lifetime of the foreground\")") String lasts) {
        public BackgroundSpec {
            ScenarioException.require("long-lived".equals(type) || "poisson".equals(type), "type", "must be long-lived or poisson, got '" + type + "'");
            ScenarioException.require(flows >= 1, "flows", "must be >= 1, got " + flows);
            ScenarioException.require(bytes >= 1, "bytes", "must be >= 1 byte, got " + bytes);
            ScenarioException.require("web-search".equals(cdf) || "hadoop".equals(cdf) || "ali-storage".equals(cdf), "cdf",
                    "must be web-search, hadoop or ali-storage, got '" + cdf + "'");
            ScenarioException.require(load > 0 && load < 1, "load", "must be in (0, 1), got " + load);
            ScenarioException.require(durationUs > 0 && Double.isFinite(durationUs), "durationUs", "must be > 0 us, got " + durationUs);
            ScenarioException.require(trafficClass >= 0 && trafficClass <= 63, "trafficClass", "must be a DSCP value 0-63, got " + trafficClass);
            ScenarioException.require("bytes".equals(lasts) || "foreground".equals(lasts), "lasts", "must be bytes or foreground, got '" + lasts + "'");
        }

        /** Long-lived flows. */
        public BackgroundSpec(int flows, long bytes, int trafficClass) {
            this("long-lived", flows, bytes, false, "web-search", 0.3, 100, trafficClass, "bytes");
        }

        /** DLBF IV: 5 long-lived flows of 100 MB. */
        public static BackgroundSpec defaults() {
            return new BackgroundSpec("long-lived", 5, 100_000_000L, false, "web-search", 0.3, 100, 0, "bytes");
        }

        /** Whether the run ends with the jobs, cutting these flows there. */
        public boolean lastsForeground() {
            return "foreground".equals(lasts);
        }
    }

    @TypeName("fsdp")
    @Doc("OFAN 8.4: the backward pass of FSDP training of Llama 3 (per layer a ReduceScatter of gradients and an AllGather of weights) over 8 parallel inter-server rings i -> i+8, FP8, random server placement")
    record Fsdp(
            @Doc("llama-7b (104 packets per flow, 32 layers) | llama-70b (418, 80) | llama-405b (1570, 126)") String model,
            @Doc("layers simulated, from the last (0 = all of the model's)") int layers,
            @Doc("ring steps of each collective simulated, from its first (0 = all, servers - 1)") int stepsPerCollective,
            @Doc("GPUs (NICs) per server, one ring per GPU index (OFAN: 8)") int gpusPerServer,
            @Doc("servers taking part (0 = every server of the fabric)") int servers,
            @Doc("compute gap in ns between a layer's collectives") double gapNs) implements WorkloadSpec {
        public Fsdp {
            ScenarioException.require(java.util.List.of("llama-7b", "llama-70b", "llama-405b").contains(model), "model",
                    "must be llama-7b, llama-70b or llama-405b, got '" + model + "'");
            ScenarioException.require(layers >= 0, "layers", "must be >= 0 (0 = the model's), got " + layers);
            int modelLayers = packetsAndLayers(model)[1];
            ScenarioException.require(layers <= modelLayers, "layers", "must be at most " + modelLayers + ", the layers " + model
                    + " has (0 = all of them), got " + layers);
            ScenarioException.require(stepsPerCollective >= 0, "stepsPerCollective",
                    "must be >= 0 (0 = all, servers - 1), got " + stepsPerCollective);
            ScenarioException.require(gpusPerServer >= 1, "gpusPerServer", "must be >= 1, got " + gpusPerServer);
            ScenarioException.require(servers == 0 || servers >= 2, "servers", "must be 0 (all) or >= 2, got " + servers);
            ScenarioException.require(gapNs >= 0 && Double.isFinite(gapNs), "gapNs", "must be >= 0 ns, got " + gapNs);
        }

        public static Fsdp defaults() {
            return new Fsdp("llama-7b", 0, 0, 8, 0, 0);
        }

        /** Ring steps per collective over {@code servers} servers: servers - 1, or the first stepsPerCollective of them. */
        public int steps(int servers) {
            return stepsPerCollective == 0 ? servers - 1 : stepsPerCollective;
        }

        /** OFAN 8.4: packets per flow and layers of each Llama 3 model (FP8, 4 KB payload). */
        public static int[] packetsAndLayers(String model) {
            return switch (model) {
                case "llama-7b" -> new int[] {104, 32};
                case "llama-70b" -> new int[] {418, 80};
                case "llama-405b" -> new int[] {1570, 126};
                default -> throw new IllegalArgumentException(model);
            };
        }

        @Override
        public void checkHosts(int hostCount) {
            fits("an all-to-all", 0, hostCount); // its ranks (hosts) are checked when placed on the built fabric
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.fsdp(this);
        }
    }

    @TypeName("dag-trace")
    @Doc("a dependency graph from a CSV file with header id,src,dst,bytes,deps,gap_ns and optional start_ns,job,phase,class (deps: ids separated by ';'); a relative path is resolved against the scenario file")
    record DagTrace(@Doc("path of the CSV file") String file) implements WorkloadSpec, FromFile {
        public DagTrace {
            ScenarioException.require(file != null && !file.isBlank(), "file", "is required (path of a CSV with columns id,src,dst,bytes,deps,gap_ns)");
        }

        @Override
        public java.util.Optional<String> sourceFile() {
            return java.util.Optional.of(file);
        }

        @Override
        public void checkHosts(int hostCount) {
            // the file's hosts are checked once it is read
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.dagTrace(this);
        }
    }

    @TypeName("htsim-cm")
    @Doc("an htsim connection matrix (.cm: Nodes, Connections, Triggers, then SRC->DST start PS size BYTES [id N] [trigger T] [send_done_trigger T] lines and 'trigger id T oneshot|multishot|barrier [count N]' lines); triggers become dependencies; a relative path is resolved against the scenario file")
    record HtsimCm(@Doc("path of the connection matrix") String file) implements WorkloadSpec, FromFile {
        public HtsimCm {
            ScenarioException.require(file != null && !file.isBlank(), "file", "is required (path of an htsim connection matrix, .cm)");
        }

        @Override
        public java.util.Optional<String> sourceFile() {
            return java.util.Optional.of(file);
        }

        @Override
        public void checkHosts(int hostCount) {
            // the file's hosts are checked once it is read
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.htsimCm(this);
        }
    }

    @TypeName("ns3-flow")
    @Doc("an ns-3 RDMA flow file (HPCC / ConWeave flow.txt: the flow count, then 'src dst pg dport size start_s' (HPCC) or 'src dst pg size start_s' (ConWeave) per line); a relative path is resolved against the scenario file")
    record Ns3Flow(@Doc("path of the flow file") String file) implements WorkloadSpec, FromFile {
        public Ns3Flow {
            ScenarioException.require(file != null && !file.isBlank(), "file", "is required (path of an ns-3 flow file, flow.txt)");
        }

        @Override
        public java.util.Optional<String> sourceFile() {
            return java.util.Optional.of(file);
        }

        @Override
        public void checkHosts(int hostCount) {
            // the file's hosts are checked once it is read
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.ns3Flow(this);
        }
    }
}
