package org.lbsim.workload;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topology;

/** Turns a workload description into the list of flows of a run. */
public final class Workloads {
    private Workloads() {
    }

    /**
     * The flows and jobs of a workload on a fabric.
     *
     * @param baseDir where a relative trace path is resolved (the scenario file's folder)
     */
    public static Workload build(WorkloadSpec spec, Topology topology, int mtuBytes, SplittableRandom rng, Path baseDir) {
        return spec.match(new WorkloadSpec.Cases<>() {
            @Override
            public Workload permutation(WorkloadSpec.Permutation p) {
                return independent();
            }

            @Override
            public Workload allToAll(WorkloadSpec.AllToAll a) {
                return independent();
            }

            @Override
            public Workload trace(WorkloadSpec.Trace t) {
                return independent();
            }

            @Override
            public Workload ns3Flow(WorkloadSpec.Ns3Flow t) {
                return independent();
            }

            private Workload independent() {
                return Workload.independent(generate(spec, topology.hostCount(), rng, baseDir));
            }

            @Override
            public Workload collective(WorkloadSpec.Collective c) {
                Collectives.Builder b = new Collectives.Builder();
                int[] hosts = Collectives.place(topology, c.placement(), c.hosts(), new boolean[topology.hostCount()], rng);
                Collectives.job(b, c.asJob(), hosts, rng);
                return b.build();
            }

            @Override
            public Workload jobs(WorkloadSpec.Jobs js) {
                Collectives.Builder b = new Collectives.Builder();
                boolean[] taken = new boolean[topology.hostCount()];
                for (int i = 0; i < js.jobs().size(); i++) {
                    WorkloadSpec.JobSpec j = js.jobs().get(i);
                    try {
                        Collectives.job(b, j, Collectives.place(topology, j.placement(), j.hosts(), taken, rng), rng);
                    } catch (ScenarioException e) {
                        throw e.under("jobs[" + i + "]");
                    }
                }
                for (int i = 0; i < js.background().size(); i++) {
                    try {
                        BackgroundTraffic.add(b, js.background().get(i), topology, taken, rng, i);
                    } catch (ScenarioException e) {
                        throw e.under("background[" + i + "]");
                    }
                }
                return b.build();
            }

            @Override
            public Workload fsdp(WorkloadSpec.Fsdp f) {
                Collectives.Builder b = new Collectives.Builder();
                Collectives.fsdp(b, f, topology, rng, mtuBytes);
                return b.build();
            }

            @Override
            public Workload dagTrace(WorkloadSpec.DagTrace t) {
                return readFile(t, baseDir, "file", (in, name) -> DagTrace.read(in, name, topology.hostCount()));
            }

            @Override
            public Workload htsimCm(WorkloadSpec.HtsimCm t) {
                return readFile(t, baseDir, "file", (in, name) -> HtsimConnectionMatrix.read(in, name, topology.hostCount()));
            }
        });
    }

    /**
     * The flows of a classic workload (permutation, all-to-all, trace, ns-3 flow file), all independent.
     *
     * @param baseDir where a relative trace path is resolved (the scenario file's folder)
     * @throws IllegalArgumentException for a workload of jobs, collectives or dependencies (see {@link #build})
     */
    public static List<Flow> generate(WorkloadSpec spec, int hostCount, SplittableRandom rng, Path baseDir) {
        return spec.match(new WorkloadSpec.Cases<>() {
            @Override
            public List<Flow> permutation(WorkloadSpec.Permutation p) {
                return Workloads.permutation(participants(p.hosts(), hostCount, rng), p.messageBytes(), rng);
            }

            @Override
            public List<Flow> allToAll(WorkloadSpec.AllToAll a) {
                return Workloads.allToAll(participants(a.hosts(), hostCount, rng), a.messageBytes());
            }

            @Override
            public List<Flow> trace(WorkloadSpec.Trace t) {
                return readFile(t, baseDir, "workload.file", (in, name) -> FlowTrace.read(in, name, hostCount));
            }

            @Override
            public List<Flow> ns3Flow(WorkloadSpec.Ns3Flow t) {
                return readFile(t, baseDir, "file", (in, name) -> Ns3FlowFile.read(in, name, hostCount));
            }

            @Override
            public List<Flow> collective(WorkloadSpec.Collective c) {
                return notIndependent();
            }

            @Override
            public List<Flow> jobs(WorkloadSpec.Jobs j) {
                return notIndependent();
            }

            @Override
            public List<Flow> fsdp(WorkloadSpec.Fsdp f) {
                return notIndependent();
            }

            @Override
            public List<Flow> dagTrace(WorkloadSpec.DagTrace t) {
                return notIndependent();
            }

            @Override
            public List<Flow> htsimCm(WorkloadSpec.HtsimCm t) {
                return notIndependent();
            }

            private List<Flow> notIndependent() {
                throw new IllegalArgumentException("not a workload of independent flows (build it with Workloads.build): " + spec);
            }
        });
    }

    /** Reads a workload's file (UTF-8); {@code field} names the file field in the error for a missing or unreadable file. */
    private interface FileReader<T> {
        T read(Reader in, String fileName) throws IOException;
    }

    private static <T> T readFile(WorkloadSpec.FromFile spec, Path baseDir, String field, FileReader<T> reader) {
        Path file = baseDir == null ? Path.of(spec.file()) : baseDir.resolve(spec.file());
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return reader.read(in, spec.file());
        } catch (NoSuchFileException e) {
            throw new ScenarioException(field, "no such file: " + file);
        } catch (IOException e) {
            throw new ScenarioException(field, "cannot read " + file + ": " + e.getMessage());
        }
    }

    /** All hosts, or a random subset of {@code count} of them in increasing order. */
    static int[] participants(int count, int hostCount, SplittableRandom rng) {
        int[] all = new int[hostCount];
        for (int i = 0; i < hostCount; i++) {
            all[i] = i;
        }
        if (count == 0 || count == hostCount) {
            return all;
        }
        for (int i = 0; i < count; i++) {
            int j = i + rng.nextInt(hostCount - i);
            int tmp = all[i];
            all[i] = all[j];
            all[j] = tmp;
        }
        int[] chosen = java.util.Arrays.copyOf(all, count);
        java.util.Arrays.sort(chosen);
        return chosen;
    }

    /** A uniformly random derangement (no host sends to itself), by rejection: about e tries. */
    public static List<Flow> permutation(int[] hosts, long bytes, SplittableRandom rng) {
        int n = hosts.length;
        if (n < 2) { // no derangement of one host exists: the rejection loop below would never end
            throw new ScenarioException("workload", "a permutation needs at least 2 hosts, got " + n);
        }
        int[] perm = new int[n];
        while (true) {
            for (int i = 0; i < n; i++) {
                perm[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
            }
            boolean ok = true;
            for (int i = 0; i < n && ok; i++) {
                ok = perm[i] != i;
            }
            if (ok) {
                break;
            }
        }
        List<Flow> flows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            flows.add(new Flow(hosts[i], hosts[perm[i]], bytes, 0));
        }
        return flows;
    }

    /**
     * Every host to every other host, all starting at time 0. The i-th participant lists its flows to
     * participants i+1, i+2, ..., i+n-1 (mod n), the staggered order of collective libraries: with the NIC
     * serving its queue pairs round robin, at every step each host is addressed by exactly one sender (a
     * sequence of permutations) instead of all senders addressing the same host. OFAN 5 does not say how
     * its all-to-all is ordered; docs/cli.md (workloads) says why this order.
     */
    public static List<Flow> allToAll(int[] hosts, long bytes) {
        int n = hosts.length;
        List<Flow> flows = new ArrayList<>(n * (n - 1));
        for (int i = 0; i < n; i++) {
            for (int shift = 1; shift < n; shift++) {
                flows.add(new Flow(hosts[i], hosts[(i + shift) % n], bytes, 0));
            }
        }
        return flows;
    }
}
