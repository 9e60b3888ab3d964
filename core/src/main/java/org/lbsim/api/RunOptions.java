package org.lbsim.api;

import java.nio.file.Path;

/**
 * How a scenario is run, beside the scenario itself: where its relative trace paths resolve and on
 * which kernel it runs. Every choice gives the same flows to the picosecond; only the wall time differs.
 *
 * @param baseDir where a relative {@code workload.file} resolves (null = the working directory)
 * @param threads 0 = the sequential kernel; N > 0 = a partitioned run on N threads (refused for what it does
 *                not support); {@link #AUTO_THREADS} = a partitioned run on every core where it pays, else sequential
 */
public record RunOptions(Path baseDir, int threads) {
    /** {@code --threads auto}: as many threads as pay for this fabric and workload. */
    public static final int AUTO_THREADS = org.lbsim.sim.Simulation.AUTO_THREADS;

    public RunOptions {
        if (threads < 0 && threads != AUTO_THREADS) {
            throw new IllegalArgumentException("threads must be >= 0 or AUTO_THREADS, got " + threads);
        }
    }

    /** The sequential kernel, relative trace paths resolved against {@code baseDir}. */
    public static RunOptions sequential(Path baseDir) {
        return new RunOptions(baseDir, 0);
    }

    /** {@code null} threads (a flag not given) is the sequential kernel. */
    public static RunOptions of(Path baseDir, Integer threads) {
        return new RunOptions(baseDir, threads == null ? 0 : threads);
    }
}
