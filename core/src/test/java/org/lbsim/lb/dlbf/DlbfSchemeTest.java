package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.transport.NicSelectiveRepeat;
import org.lbsim.transport.Transport;

/**
 * DLBF as the run sees it: the loss recovery its queue pairs run whatever the run's is, whose path
 * states a new flow takes with host-pair path states, and each host's fixed clock offset.
 */
class DlbfSchemeTest {
    @TempDir
    Path dir;

    private ScenarioBuilder fourHosts(String trace) throws Exception {
        Files.writeString(dir.resolve("t.csv"), "src,dst,bytes,start_ns\n" + trace);
        return Lbsim.scenario().baseDir(dir).leafSpine(2, 2, 2).linkRateGbps(100).trace("t.csv").scheme("dlbf").lossRecovery("nic-sr")
                .congestionControl("dcqcn").seed(1);
    }

    private static PreparedRun ranAndChecked(PreparedRun run) {
        run.transport().keepAllQueuePairs();
        run.run();
        Invariants.check(run);
        return run;
    }

    private static PathStates pathsOf(Transport t, int q) {
        return ((DlbfSender) t.senderOf(q).entropyPolicy()).paths();
    }

    /** DLBF III extends a commodity RNIC's selective repeat: with go-back-n as the run's recovery, DLBF's queue pairs still run nic-sr. */
    @Test
    void underAnotherLossRecoveryDlbfsQueuePairsRunNicSelectiveRepeat() throws Exception {
        PreparedRun run = ranAndChecked(fourHosts("0,2,100000,0\n1,3,100000,0\n").lossRecovery("go-back-n").prepare());
        for (int q = 0; q < 2; q++) {
            assertInstanceOf(NicSelectiveRepeat.class, run.transport().senderOf(q).recovery());
            assertInstanceOf(DlbfReceiver.class, run.transport().receiverOf(q).policy());
        }
    }

    /**
     * Host-pair path states are keyed by source and destination together: flows 0 -> 1, 0 -> 2 and
     * 3 -> 1 each have their own, and a later 0 -> 1 flow takes over the first one's.
     */
    @Test
    void hostPairPathStatesAreSharedByTheFlowsOfOneSourceAndDestinationOnly() throws Exception {
        PreparedRun run = ranAndChecked(fourHosts("0,1,100000,0\n0,2,100000,0\n3,1,100000,0\n0,1,100000,200000\n").prepare());
        Transport t = run.transport();
        assertNotSame(pathsOf(t, 0), pathsOf(t, 1), "same source, another destination");
        assertNotSame(pathsOf(t, 0), pathsOf(t, 2), "same destination, another source");
        assertNotSame(pathsOf(t, 1), pathsOf(t, 2));
        assertSame(pathsOf(t, 0), pathsOf(t, 3), "the pair's later flow");
    }

    /** Offsets are uniform over [-x, x] with both ends included: with x = 1 ps, hosts draw -1, 0 and 1 ps; the same host always the same. */
    @Test
    void eachHostsClockOffsetIsFixedAndTakesEveryWholePicosecondInTheBound() {
        Dlbf onePs = new Dlbf(new Dlbf.Params(16, 50, 100, 10, 16, true, 0.001, Dlbf.Params.HOST_PAIR));
        Dlbf again = new Dlbf(onePs.params());
        Set<Long> seen = new TreeSet<>();
        for (int h = 0; h < 200; h++) {
            seen.add(onePs.clockOffsetPs(h));
            assertEquals(onePs.clockOffsetPs(h), again.clockOffsetPs(h));
        }
        assertEquals(Set.of(-1L, 0L, 1L), seen);
        Dlbf none = new Dlbf(new Dlbf.Params(16, 50, 100, 10, 16, true, 0, Dlbf.Params.HOST_PAIR));
        for (int h = 0; h < 20; h++) {
            assertEquals(0, none.clockOffsetPs(h));
        }
    }

    /**
     * Without DLBF's bundle (its entropy policy on the run's ordinary queue pairs) a flow switches
     * paths on congestion echoes but injects neither notifications nor duplicates, and every flow
     * completes.
     */
    @Test
    void withoutTheBundleAFlowSwitchesPathsButInjectsNothing() {
        PreparedRun run = Lbsim.scenario().leafSpine(8, 2, 2).linkRateGbps(100).allToAll(200_000).scheme("dlbf").lossRecovery("nic-sr")
                .congestionControl("dcqcn").seed(3).prepare((lb, rec) -> QueuePairScheme.separate(lb, rec));
        ranAndChecked(run);
        Transport t = run.transport();
        long switches = 0;
        assertEquals(t.flowCount(), t.completedFlows());
        for (int q = 0; q < t.flowCount(); q++) {
            DlbfSender s = (DlbfSender) t.senderOf(q).entropyPolicy();
            assertEquals(0, s.notifications + s.selectiveDuplicates, "queue pair " + q + " injected nothing");
            switches += s.pathSwitches;
        }
        assertTrue(switches > 0, "congestion echoes moved some flow to another path");
    }
}
