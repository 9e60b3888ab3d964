package org.lbsim.sim;

import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;

/**
 * One scenario run twice, checked: on the exact path ({@link Simulation#prepareExact}, every port
 * and NIC event scheduled) and on the default path with its shortcuts, for tests that compare them.
 */
record ExactAndFast(CheckedRun exact, CheckedRun fast) {

    /** Both runs, or null when the scenario is rejected at build time (random failures cut a host off). */
    static ExactAndFast runOrNull(Scenario s) {
        try {
            Simulation.prepare(s, null);
        } catch (ScenarioException partitioned) {
            return null;
        }
        return new ExactAndFast(CheckedRun.of(Simulation.prepareExact(s, null), p -> { }),
                CheckedRun.of(Simulation.prepare(s, null), p -> { }));
    }
}
