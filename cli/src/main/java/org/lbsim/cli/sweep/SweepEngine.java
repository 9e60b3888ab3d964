package org.lbsim.cli.sweep;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Where the runs of {@code lbsim sweep} execute when they do not run on the sweep's own thread pool
 * ({@code --engine NAME}). Engines are found with {@link java.util.ServiceLoader}: an engine's module
 * (lbsim-spark) lists its class in {@code META-INF/services/org.lbsim.cli.sweep.SweepEngine}, so the
 * command line knows an engine only when its module is on the class path.
 *
 * <p>An engine only executes: the sweep command plans the runs (skipping those already recorded) and
 * writes every outcome into the results store on its own thread, exactly as for a local sweep.
 */
public interface SweepEngine {
    /** The name given to {@code --engine}. */
    String name();

    /**
     * Starts the runs and returns at once. Each run ends with one {@link Listener#ended} call (in any
     * order, from any thread), unless the engine fails as a whole: then {@link Listener#failed} is called
     * once and no further outcome arrives.
     */
    Execution start(List<SweepRun> runs, Settings settings, Listener listener);

    /**
     * @param sweep   the sweep's name (for the engine's job name)
     * @param master  where to run ({@code --master}), null for the engine's default
     * @param conf    engine settings from {@code --engine-conf KEY=VALUE}, in order
     * @param log     where the engine may print a line about itself (nothing when the sweep is quiet)
     */
    record Settings(String sweep, String master, Map<String, String> conf, PrintStream log) {
    }

    /** Receives the outcomes; its methods must not block for long. */
    interface Listener {
        void ended(SweepRun.Outcome outcome);

        void failed(Throwable cause);
    }

    /** A started sweep; closing it cancels what still runs and releases the engine. */
    interface Execution extends AutoCloseable {
        @Override
        void close();
    }
}
