package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.transport.Transport;

/**
 * DLBF over persistent queue pairs: a ring AllReduce's successive steps between the same two ranks keep
 * the flow's path states and current path (III-B is per flow), while each step has its own sender for
 * its PSNs; the run finishes with packets conserved and is deterministic.
 */
class DlbfPersistentQueuePairTest {
    private static PreparedRun prepared(String queuePairs) {
        return Lbsim.scenario().leafSpine(8, 2, 2).linkRateGbps(100).scheme("dlbf").lossRecovery("nic-sr").congestionControl("dcqcn").seed(4)
                .set("workload", Map.of("type", "collective", "op", "all-reduce", "algorithm", "ring", "bytes", 4_000_000, "hosts", 16,
                        "placement", "random"))
                .set("nic.queuePairs", queuePairs).prepare();
    }

    @Test
    void theNextStepOnAQueuePairGoesOnWithThePathStatesAndPathOfThePreviousOne() {
        PreparedRun run = prepared("persistent");
        Transport t = run.transport();
        t.keepAllQueuePairs();
        RunResult r = run.run();
        Invariants.check(run);
        assertEquals(r.flowResults().size(), r.flowsFinished());
        int n = 16;
        for (int q = 0; q < n; q++) {
            DlbfSender first = (DlbfSender) t.senderOf(q).entropyPolicy();
            DlbfSender second = (DlbfSender) t.senderOf(q + n).entropyPolicy();
            assertEquals(t.senderOf(q).context().src(), t.senderOf(q + n).context().src());
            assertEquals(t.senderOf(q).context().dst(), t.senderOf(q + n).context().dst());
            assertNotSame(first, second, "each step's PSNs have their own sender");
            assertSame(first.paths(), second.paths(), "one queue pair, one set of path states");
            // the second step's first packet goes on the path the first step was on when it completed (no new Algorithm 1 run)
            int lastPort = first.paths().port(first.currentPath());
            assertEquals(lastPort, t.senderOf(q + n).entropyOf(0), "queue pair " + q);
        }
    }

    @Test
    void perMessageQueuePairsStartEveryStepWithFreshPathStates() {
        PreparedRun run = prepared("per-message");
        Transport t = run.transport();
        t.keepAllQueuePairs();
        run.run();
        Invariants.check(run);
        for (int q = 0; q < 16; q++) {
            assertNotSame(((DlbfSender) t.senderOf(q).entropyPolicy()).paths(), ((DlbfSender) t.senderOf(q + 16).entropyPolicy()).paths());
        }
    }

    @Test
    void samePersistentRunTwice() {
        PreparedRun a = prepared("persistent");
        PreparedRun b = prepared("persistent");
        RunResult ra = a.run();
        RunResult rb = b.run();
        assertEquals(ra.flowResults().stream().map(FlowResult::fctPs).toList(), rb.flowResults().stream().map(FlowResult::fctPs).toList());
        assertEquals(ra.schemeCounters(), rb.schemeCounters());
    }
}
