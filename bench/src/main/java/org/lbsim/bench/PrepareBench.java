package org.lbsim.bench;

import java.util.concurrent.TimeUnit;
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
 * Building a run, warmed up: {@code Simulation.prepare} of a reference-style permutation on a fat
 * tree of radix {@code k} (topology, routing, network, workload, transport, lower bound). This is
 * the fixed cost in front of every run; k=16 is S2's fabric.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PrepareBench {
    @Param({"8", "16"})
    public int k;

    private Scenario scenario;

    @Setup(Level.Trial)
    public void scenario() {
        scenario = Scenarios.smallPermutation(k, 1 << 20);
    }

    @Benchmark
    public PreparedRun prepare() {
        return Simulation.prepare(scenario, null);
    }
}
