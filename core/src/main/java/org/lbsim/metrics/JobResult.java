package org.lbsim.metrics;

import java.util.List;

/**
 * Outcome of one job (a collective or a dependency graph) of a run. Times in picoseconds, -1 when
 * unfinished.
 *
 * @param collective   what the job ran ("all-reduce/ring", "fsdp/llama-7b", ...)
 * @param ranks        hosts taking part (n)
 * @param bytes        the collective's size S (NCCL-tests "size")
 * @param startPs      when its first flow started
 * @param jctPs        job completion time: from its first flow's start until its last flow completed
 * @param idealPs      its critical path on an idle fabric (each flow alone on its path), the ideal of PRO V's slowdown
 * @param busFactor    busbw / algbw (NCCL-tests: 2(n-1)/n for AllReduce, (n-1)/n for AllGather / ReduceScatter / AlltoAll)
 * @param phases       one completion time per phase (FSDP: each layer's ReduceScatter and AllGather)
 */
public record JobResult(int job, String name, String collective, int ranks, long bytes, int flows, long startPs, long jctPs,
                        long idealPs, double busFactor, boolean background, List<Phase> phases) {
    public JobResult {
        phases = List.copyOf(phases);
    }

    /** One phase of a job: from its first flow's start to its last flow's completion. */
    public record Phase(int phase, String name, int flows, long startPs, long cctPs) {
    }

    /** JCT / ideal (PRO V: "JCT slowdown"); NaN when unfinished. */
    public double slowdown() {
        return jctPs < 0 || idealPs <= 0 ? Double.NaN : (double) jctPs / idealPs;
    }

    /** NCCL-tests algorithm bandwidth: size / time, in GB/s (1e9 bytes per second); NaN when unfinished. */
    public double algbwGBps() {
        return jctPs <= 0 ? Double.NaN : bytes * 1000.0 / jctPs;
    }

    /** NCCL-tests bus bandwidth: algbw x busFactor, in GB/s, comparable to the link rate whatever n is. */
    public double busbwGBps() {
        return algbwGBps() * busFactor;
    }
}
