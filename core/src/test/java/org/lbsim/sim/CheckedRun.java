package org.lbsim.sim;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QueuePairScheme;

/**
 * The one way tests simulate: prepare the scenario, run it, then check the run's invariants
 * (packets conserved, no negative queue, no buffer exceeded, no pool leak). Every test that
 * simulates goes through {@link #of}, so the invariants hold after every simulation of the suite.
 *
 * @param prepared the built run, still readable after the run (ports, NICs, transport)
 * @param result   what the run measured
 */
public record CheckedRun(PreparedRun prepared, RunResult result) {

    /** Prepares, runs and checks {@code scenario}; relative trace paths resolve against {@code baseDir}. */
    public static CheckedRun of(Scenario scenario, Path baseDir) {
        return of(scenario, baseDir, prepared -> { });
    }

    /**
     * Like {@link #of(Scenario, Path)}, but lets {@code beforeRun} look at the built run first, for
     * instance to attach an observer to the NICs.
     */
    public static CheckedRun of(Scenario scenario, Path baseDir, Consumer<PreparedRun> beforeRun) {
        return of(Simulation.prepare(scenario, baseDir), beforeRun);
    }

    /** Like {@link #of(Scenario, Path)}, with every queue pair's parts made by the scheme bundle {@code scheme}. */
    public static CheckedRun of(Scenario scenario, Path baseDir, BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> scheme,
                                Consumer<PreparedRun> beforeRun) {
        return of(Simulation.prepare(scenario, baseDir, scheme), beforeRun);
    }

    static CheckedRun of(PreparedRun prepared, Consumer<PreparedRun> beforeRun) {
        beforeRun.accept(prepared);
        RunResult result = prepared.run();
        Invariants.check(prepared);
        return new CheckedRun(prepared, result);
    }

    /** For scenarios without a trace file. */
    public static CheckedRun of(Scenario scenario) {
        return of(scenario, null);
    }

    public long cctPs() {
        return result.cctPs();
    }

    /** FCT of flow {@code i} in picoseconds, -1 when it did not finish. */
    public long fctPs(int flow) {
        return result.flowResults().get(flow).fctPs();
    }

    /** The invariant violations (always empty once {@link #of} returned; kept for messages). */
    public List<String> violations() {
        return Invariants.violations(prepared);
    }
}
