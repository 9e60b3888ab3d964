package org.lbsim.cli.store;

import java.util.Objects;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;

/**
 * One simulated run, ready to be written into the results store.
 *
 * @param runId         the primary key: {@code <sweep>-p<point>-seed<seed>} for sweeps, the run folder name otherwise
 * @param sweep         the sweep's name, null for a single run
 * @param point         the index of the sweep point, null for a single run
 * @param scenario      the effective scenario (its fields become columns of {@code runs})
 * @param scenarioYaml  the effective scenario as YAML text
 * @param result        what the run measured
 * @param lbsimVersion  the version of lbsim that ran it
 * @param gitCommit     the commit lbsim was built from ("unknown" if not known)
 * @param kernel        which kernel ran it: {@link #SEQUENTIAL} or {@link #PARTITIONED} ({@code --threads}); the two order
 *                      equal-time events differently (docs/architecture.md)
 */
public record RunRecord(String runId, String sweep, Integer point, Scenario scenario, String scenarioYaml, RunResult result,
                        String lbsimVersion, String gitCommit, String kernel) {
    public static final String SEQUENTIAL = "sequential";
    public static final String PARTITIONED = "partitioned";

    /** The kernel a run with {@code --threads threads} uses (null or 0: none given). */
    public static String kernelOf(Integer threads) {
        return threads == null || threads == 0 ? SEQUENTIAL : PARTITIONED;
    }

    public RunRecord {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(scenarioYaml, "scenarioYaml");
        Objects.requireNonNull(result, "result");
    }
}
