package org.lbsim.workload;

import java.util.List;

/**
 * The flows of a run (a dependency graph: {@link Flow#deps()} are indices into {@code flows}) and the
 * jobs they belong to. The classic workloads (permutation, all-to-all, trace) have no jobs and no
 * dependencies, and their results carry no per-job section.
 */
public record Workload(List<Flow> flows, List<Job> jobs) {
    public Workload {
        flows = List.copyOf(flows);
        jobs = List.copyOf(jobs);
    }

    public static Workload independent(List<Flow> flows) {
        return new Workload(flows, List.of());
    }

    public boolean hasDependencies() {
        for (Flow f : flows) {
            if (f.dependent()) {
                return true;
            }
        }
        return false;
    }
}
