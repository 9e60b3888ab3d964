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

    /** Whether some background runs only while the other jobs do ({@link Job#lastsForeground}); the run then ends with them. */
    public boolean cutsBackground() {
        return jobs.stream().anyMatch(Job::lastsForeground);
    }

    /** Whether flow {@code i} is such background: cut when the others complete, not awaited. */
    public boolean lastsForeground(int i) {
        return !jobs.isEmpty() && jobs.get(flows.get(i).job()).lastsForeground();
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
