package org.lbsim.workload;

/**
 * One message to deliver: from host {@code src} to host {@code dst}, {@code bytes} long, in traffic
 * class {@code trafficClass} (DSCP 0-63; a scenario may give a class its own load-balancing scheme).
 *
 * <p>A flow is a node of the workload's dependency graph: its id is its index in the workload's flow
 * list, {@code deps} are the indices of the flows it waits for, and it starts at the later of
 * {@code startPs} and the completion of its last dependency plus {@code gapPs} (the compute time
 * between steps). A flow without dependencies starts at {@code startPs}. {@code job} and
 * {@code phase} group flows for the per-job metrics (JCT, one CCT per phase); both are 0 for the
 * classic workloads. {@code channel} tells a collective's parallel chains apart (the second tree of a double binary
 * tree is channel 1): with persistent queue pairs ({@code nic.queuePairs}) successive messages of one job, channel and
 * class between the same two hosts share a queue pair, as NCCL's connections are per peer and channel.
 */
public record Flow(int src, int dst, long bytes, long startPs, int trafficClass, int job, int phase, int[] deps, long gapPs, int channel) {
    private static final int[] NONE = new int[0];

    public Flow {
        if (src == dst) {
            throw new IllegalArgumentException("a flow needs two different hosts, got " + src + " -> " + dst);
        }
        if (bytes <= 0 || startPs < 0 || src < 0 || dst < 0 || trafficClass < 0 || trafficClass > 63 || job < 0 || phase < 0
                || gapPs < 0 || channel < 0) {
            throw new IllegalArgumentException("invalid flow " + src + " -> " + dst + " bytes " + bytes + " start " + startPs
                    + " class " + trafficClass + " job " + job + " phase " + phase + " gap " + gapPs);
        }
        deps = deps == null || deps.length == 0 ? NONE : deps;
    }

    /** A flow of channel 0. */
    public Flow(int src, int dst, long bytes, long startPs, int trafficClass, int job, int phase, int[] deps, long gapPs) {
        this(src, dst, bytes, startPs, trafficClass, job, phase, deps, gapPs, 0);
    }

    /** An independent flow of the default class 0. */
    public Flow(int src, int dst, long bytes, long startPs) {
        this(src, dst, bytes, startPs, 0);
    }

    /** An independent flow. */
    public Flow(int src, int dst, long bytes, long startPs, int trafficClass) {
        this(src, dst, bytes, startPs, trafficClass, 0, 0, NONE, 0);
    }

    /** Whether this flow waits for others. */
    public boolean dependent() {
        return deps.length > 0;
    }

    /** The same flow with other dependencies and gap. */
    public Flow withDeps(int[] newDeps, long newGapPs) {
        return new Flow(src, dst, bytes, startPs, trafficClass, job, phase, newDeps, newGapPs, channel);
    }
}
