package org.lbsim.api;

import org.lbsim.scenario.SetException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.lbsim.config.Overrides;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioTree;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TraceFormatException;
import org.lbsim.sim.Simulation;

/**
 * lbsim from Java code, tests, notebooks and the command line (JDK only; one binder and one validation for all).
 *
 * <pre>{@code
 * RunResult r = Lbsim.scenario().fatTree(8).linkRateGbps(800).permutation(4 << 20).scheme("ofan").seed(7).run();
 * System.out.println(Lbsim.explain("ofan"));
 * }</pre>
 *
 * <p>A scenario read from a file goes through three steps, each with its own errors: {@link #bind(Object, List, Long)}
 * (the tree, {@code --set} assignments and a seed; {@link SetException}, {@link ScenarioException} naming the field),
 * {@link #check} or {@link #prepare} (every check a run makes before its first event: the scenario's bounds and
 * feasibility, what a partitioned run supports, then what only the built fabric and workload tell, such as failed
 * links that exist and trace hosts in range; {@link ScenarioException}, {@link TraceFormatException} for a trace that
 * cannot be read, {@link java.io.UncheckedIOException} for one that cannot be opened), then {@link Run#run}.
 */
public final class Lbsim {
    private Lbsim() {
    }

    /** A builder starting from the default scenario (every key left out takes its default). */
    public static ScenarioBuilder scenario() {
        return new ScenarioBuilder(new LinkedHashMap<>());
    }

    /** A builder starting from an existing scenario, every field spelt out. */
    public static ScenarioBuilder scenario(Scenario base) {
        return new ScenarioBuilder(ScenarioTree.toTree(base));
    }

    /** A builder starting from a scenario tree (maps, lists and scalars, as read from YAML or JSON); the tree is copied. */
    public static ScenarioBuilder scenario(Map<String, ?> tree) {
        Object copy = ScenarioBuilder.normalize(tree, "");
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) copy;
        return new ScenarioBuilder(map);
    }

    /**
     * The scenario of a tree (maps, lists and scalars as read from YAML or JSON), bound strictly: keys left out take
     * their defaults. @throws ScenarioException with every error at once ({@link ScenarioException#all()}), each
     * naming its field; an empty tree or one that is not a map is an error of its own
     */
    public static Scenario bind(Object tree) {
        return ScenarioBinder.bind(tree);
    }

    /**
     * The scenario of {@code tree} with the {@code --set} assignments {@code sets} applied in order and then, unless
     * null, {@code seed}; {@code tree} is not changed.
     *
     * @throws ScenarioException for a tree that is not a map (before any assignment) and for binding, as {@link #bind(Object)};
     *                           {@link #blame} tells which assignment an error is due to
     * @throws SetException      for an assignment that cannot be parsed or applied
     */
    public static Scenario bind(Object tree, List<String> sets, Long seed) {
        if (!(tree instanceof Map)) {
            return ScenarioBinder.bind(tree); // the binder's error for an empty or non-map document
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) tree;
        Map<String, Object> effective = Overrides.apply(map, sets);
        if (seed != null) {
            effective.put("seed", seed);
        }
        return ScenarioBinder.bind(effective);
    }

    /**
     * The {@code --set} assignment of {@code sets} an error of {@link #bind(Object, List, Long)} is most likely due to:
     * the last one whose path is the error's field, lies inside it, or is the {@code type} that selects its map.
     */
    public static Optional<String> blame(List<String> sets, ScenarioException error) {
        return Overrides.blame(sets, error);
    }

    /** A scenario as a tree, every field spelt out: binding it gives the scenario back (scenario.yaml of a run folder). */
    public static Map<String, Object> tree(Scenario scenario) {
        return ScenarioTree.toTree(scenario);
    }

    /** A value of a scenario (a record, a component, a list, a number ...) as it appears in {@link #tree(Scenario)}. */
    public static Object treeValue(Object value) {
        return ScenarioTree.toTreeValue(value);
    }

    /**
     * Every check {@link #prepare} makes before the first event, nothing simulated: the run is built to tell what
     * only the built fabric and workload can, then dropped. Throws what {@link #prepare} throws.
     */
    public static void check(Scenario scenario, RunOptions options) {
        prepare(scenario, options);
    }

    /**
     * Checks and builds the run of {@code scenario}: the checks of the scenario alone first (bounds of times and
     * timers, feasibility of the fabric and workload, what a partitioned run supports), then those of the built
     * fabric and workload.
     *
     * @throws ScenarioException    naming the field
     * @throws TraceFormatException for a workload file that cannot be read as its format
     * @throws java.io.UncheckedIOException for a workload file that cannot be opened
     */
    public static Run prepare(Scenario scenario, RunOptions options) {
        return new Run(Simulation.prepare(scenario, options.baseDir(), options.threads()));
    }

    /** Simulates a scenario (relative trace paths resolve against the working directory). */
    public static RunResult run(Scenario scenario) {
        return Simulation.run(scenario, null);
    }

    /** The text of {@code lbsim explain NAME}; see {@link Catalog#explain(String)}. */
    public static String explain(String name) {
        return Catalog.explain(name);
    }
}
