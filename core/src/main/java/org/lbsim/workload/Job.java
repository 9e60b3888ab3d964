package org.lbsim.workload;

import java.util.List;

/**
 * One job of a workload: a collective (or a user's dependency graph) on some hosts, whose flows
 * carry its id in {@link Flow#job()}.
 *
 * @param collective       what it runs, e.g. "all-reduce/ring", "fsdp/llama-7b", "trace"
 * @param ranks            hosts taking part (n in the NCCL-tests formulas)
 * @param bytes            the collective's size S: the buffer each rank reduces / gathers (NCCL-tests' "size")
 * @param busFactor        NCCL-tests busbw = algbw x busFactor: 2(n-1)/n for AllReduce, (n-1)/n for AllGather,
 *                         ReduceScatter and AlltoAll, 1 for Broadcast, Reduce and point-to-point patterns
 * @param phases           the name of each phase (index = {@link Flow#phase()}); one CCT is reported per phase
 * @param background       background traffic: reported, but not a collective with a JCT slowdown of interest
 * @param lastsForeground  background that runs while the other jobs do: the run ends when they have all
 *                         completed and cuts these flows there (they are then reported unfinished)
 */
public record Job(int id, String name, String collective, int ranks, long bytes, double busFactor, List<String> phases,
                  boolean background, boolean lastsForeground) {
    public Job {
        phases = List.copyOf(phases);
        if (lastsForeground && !background) {
            throw new IllegalArgumentException("only background lasts as long as the foreground: " + name);
        }
    }

    /** A job the run waits for. */
    public Job(int id, String name, String collective, int ranks, long bytes, double busFactor, List<String> phases, boolean background) {
        this(id, name, collective, ranks, bytes, busFactor, phases, background, false);
    }

    /** busbw factor of a collective over n ranks (NCCL-tests doc/PERFORMANCE.md; CTCCL 4). */
    public static double busFactor(String op, int n) {
        return switch (op) {
            case "all-reduce" -> 2.0 * (n - 1) / n;
            case "all-gather", "reduce-scatter", "all-to-all" -> (double) (n - 1) / n;
            default -> 1.0;
        };
    }
}
