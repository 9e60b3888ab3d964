package org.lbsim.api;

import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.PreparedRun;

/**
 * A scenario checked and built, ready to simulate once ({@link Lbsim#prepare(Scenario, RunOptions)}): what a command
 * runs, reports progress of and describes. The clock and counters read while {@link #run} simulates on
 * another thread are approximate (for a progress line); everything else is fixed when the run is built.
 */
public final class Run {
    private final PreparedRun prepared;

    Run(PreparedRun prepared) {
        this.prepared = prepared;
    }

    /** The scenario as bound. */
    public Scenario scenario() {
        return prepared.scenario();
    }

    /**
     * Simulates, giving up after {@code maxWallSeconds} of wall-clock time counted from {@code wallStartNanos}
     * ({@link System#nanoTime}; 0 = no limit, the run then ends as {@link RunResult#WALL_LIMIT}).
     */
    public RunResult run(double maxWallSeconds, long wallStartNanos) {
        return prepared.run(maxWallSeconds, wallStartNanos);
    }

    /** Simulates, giving up after {@code maxWallSeconds} of wall-clock time from now (0 = no limit). */
    public RunResult run(double maxWallSeconds) {
        return prepared.run(maxWallSeconds);
    }

    /** Whether it runs on the partitioned kernel ({@code --threads N}, or auto where that pays). */
    public boolean partitioned() {
        return prepared.simulator().partitioned();
    }

    /** The threads it simulates on (1 for the sequential kernel). */
    public int threadCount() {
        return prepared.simulator().threadCount();
    }

    /** The simulated time reached so far. */
    public long simulatedPs() {
        return prepared.simulator().nowPs();
    }

    /** The events processed so far. */
    public long eventsProcessed() {
        return prepared.simulator().eventsProcessed();
    }

    /** The queue pairs completed so far (one per flow unless {@code nic.qpsPerConnection} splits them). */
    public int queuePairsDone() {
        return prepared.transport().completedFlows();
    }

    /** The queue pairs of the run. */
    public int queuePairCount() {
        return prepared.transport().flowCount();
    }

    /** The flows of the workload as built. */
    public int flowCount() {
        return prepared.flows().size();
    }

    /** The host endpoints (NIC ports) of the fabric as built. */
    public int hostCount() {
        return prepared.topology().hostCount();
    }

    /** The collective's lower bound (docs/lower-bounds.md). */
    public long lowerBoundPs() {
        return prepared.lowerBoundPs();
    }

    /** A duration as summaries print it: {@code 52.78698 us}, {@code 1.234567 ms} from a millisecond, {@code unfinished} when negative. */
    public static String formatPs(long ps) {
        return PreparedRun.formatPs(ps);
    }
}
