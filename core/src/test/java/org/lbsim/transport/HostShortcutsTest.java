package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;

/**
 * The host's shortcuts leave a run as it is: an activation whose wake-up would find nothing is left out,
 * and so are looks at a ring that pacing still holds back. Each run on the exact path (no shortcut) and on
 * the default path, compared flow by flow to the picosecond.
 */
class HostShortcutsTest {
    @TempDir
    Path dir;

    private static PreparedRun[] both(Scenario s, Path dir) {
        PreparedRun exact = Simulation.prepareExact(s, dir);
        PreparedRun fast = Simulation.prepare(s, dir);
        assertThat(fast.run().flowResults()).isEqualTo(exact.run().flowResults());
        return new PreparedRun[] {exact, fast};
    }

    @Test
    void acksThatFindTheSendersWithNothingToSendWakeNoNic() {
        // the erasure sender has nothing to send until feedback once its message is out
        Scenario s = TestScenarios.withRecovery(HostStackRingTest.scenario(dir, TestScenarios.lineRate(), NicSpec.defaults()), TestScenarios.erasure());
        PreparedRun[] runs = both(s, dir);
        assertThat(runs[0].transport().stack(0).activationsSkipped()).isZero();
        long skipped = runs[1].transport().stack(0).activationsSkipped();
        assertThat(skipped).as("ACKs of the packets still in flight after the last was sent").isPositive();
        assertThat(runs[1].network().nic(0).wakesSkipped()).isGreaterThanOrEqualTo(skipped);
        assertThat(runs[1].transport().stack(3).activationsSkipped()).as("host 3 sends no data").isZero();
        assertThat(runs[1].transport().stack(0).pacedLooksSkipped()).as("nothing paced").isZero();
    }

    @Test
    void sixPacedQueuePairsOfOneHostRunAsOnTheExactPath() {
        // at 10 Gb/s each, six queue pairs fill 60 % of the line: most looks find every one held back
        ComponentSpec tenGbps = new ComponentSpec("fixed-rate", new org.lbsim.cc.FixedRate.Params(false, 10, false));
        PreparedRun[] runs = both(HostStackRingTest.scenario(dir, tenGbps, new NicSpec(1, 2)), dir);
        assertThat(runs[0].transport().pacedLooksSkipped()).isZero();
        assertThat(runs[1].transport().pacedLooksSkipped()).isPositive();
    }
}
