package org.lbsim.api;

import java.util.LinkedHashMap;
import java.util.Map;
import org.lbsim.config.ScenarioTree;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.Simulation;

/**
 * lbsim from Java code, tests and notebooks (JDK only; the same binder and validation as the command line).
 *
 * <pre>{@code
 * RunResult r = Lbsim.scenario().fatTree(8).linkRateGbps(800).permutation(4 << 20).scheme("ofan").seed(7).run();
 * System.out.println(Lbsim.explain("ofan"));
 * }</pre>
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

    /** Simulates a scenario (relative trace paths resolve against the working directory). */
    public static RunResult run(Scenario scenario) {
        return Simulation.run(scenario, null);
    }

    /** The text of {@code lbsim explain NAME}; see {@link Catalog#explain(String)}. */
    public static String explain(String name) {
        return Catalog.explain(name);
    }
}
