package org.lbsim.bench;

import java.util.concurrent.TimeUnit;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole runs through the public API, warmed up (the end-to-end script measures cold runs):
 * {@code Simulation.prepare(...).run()} of an S1-like permutation (host spraying, line rate,
 * erasure) on a fat tree of radix {@code k}; the run is prepared outside the timed region
 * (see {@link PrepareBench} for that part).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SimulationBench {
    @Param({"4", "8"})
    public int k;

    @Param({"262144"})
    public long messageBytes;

    private Scenario scenario;
    private PreparedRun prepared;

    @Setup(Level.Trial)
    public void scenario() {
        scenario = Scenarios.smallPermutation(k, messageBytes);
    }

    @Setup(Level.Invocation)
    public void prepareRun() {
        prepared = Simulation.prepare(scenario, null);
    }

    @Benchmark
    public RunResult run() {
        return prepared.run();
    }
}
