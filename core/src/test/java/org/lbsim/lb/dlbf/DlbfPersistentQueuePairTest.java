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
        return prepared(queuePairs, "host-pair");
    }

    private static PreparedRun prepared(String queuePairs, String pathStates) {
        return Lbsim.scenario().leafSpine(8, 2, 2).linkRateGbps(100).scheme("dlbf").lossRecovery("nic-sr").congestionControl("dcqcn").seed(4)
                .set("workload", Map.of("type", "collective", "op", "all-reduce", "algorithm", "ring", "bytes", 4_000_000, "hosts", 16,
                        "placement", "random"))
                .set("nic.queuePairs", queuePairs).set("loadBalancing.pathStates", pathStates).prepare();
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
    void perMessageQueuePairsWithQueuePairPathStatesStartEveryStepWithFreshPathStates() {
        PreparedRun run = prepared("per-message", "queue-pair");
        Transport t = run.transport();
        t.keepAllQueuePairs();
        run.run();
        Invariants.check(run);
        for (int q = 0; q < 16; q++) {
            assertNotSame(((DlbfSender) t.senderOf(q).entropyPolicy()).paths(), ((DlbfSender) t.senderOf(q + 16).entropyPolicy()).paths());
        }
    }

    /**
     * Host-pair path states (the default) over per-message queue pairs, ECN off so no path ever turns
     * unavailable: each ring step is a new flow with its own queue pair, yet it shares its pair's path
     * states and runs Algorithm 1 with the previous step's path as old_port, so line 1 reuses it every
     * time; with queue-pair path states every step draws a random unprobed path instead.
     */
    @Test
    void perMessageQueuePairsWithHostPairPathStatesReuseThePairsLastPath() {
        PreparedRun run = Lbsim.scenario(prepared("per-message", "host-pair").scenario()).set("switches.ecn.enabled", false).prepare();
        Transport t = run.transport();
        t.keepAllQueuePairs();
        RunResult r = run.run();
        Invariants.check(run);
        int flows = r.flowResults().size();
        assertEquals(flows, r.flowsFinished());
        int n = 16;
        for (int q = 0; q + n < flows; q++) {
            DlbfSender first = (DlbfSender) t.senderOf(q).entropyPolicy();
            DlbfSender second = (DlbfSender) t.senderOf(q + n).entropyPolicy();
            assertEquals(t.senderOf(q).context().src(), t.senderOf(q + n).context().src());
            assertEquals(t.senderOf(q).context().dst(), t.senderOf(q + n).context().dst());
            assertSame(first.paths(), second.paths(), "one host pair, one set of path states");
            assertEquals(first.paths().port(first.currentPath()), t.senderOf(q + n).entropyOf(0), "flow " + (q + n) + " reuses old_port");
        }
        assertEquals(flows - n, r.schemeCounters().get("dlbf.algorithm1.reuse").longValue(), "every later step: line 1");
        assertEquals(n, r.schemeCounters().get("dlbf.algorithm1.randomUnprobed").longValue(), "the first step of each pair: line 5");

        PreparedRun own = Lbsim.scenario(prepared("per-message", "queue-pair").scenario()).set("switches.ecn.enabled", false).prepare();
        RunResult ro = own.run();
        assertEquals(flows, ro.schemeCounters().get("dlbf.algorithm1.randomUnprobed").longValue(), "queue-pair path states: every flow explores");
        assertEquals(0L, ro.schemeCounters().get("dlbf.algorithm1.reuse").longValue());
    }

    /**
     * A persistent queue pair's later messages are the same flow (III-B is per flow), so with queue-pair
     * path states too each step keeps the queue pair's path states; with ECN off Algorithm 1 then runs
     * only for each queue pair's first message.
     */
    @Test
    void persistentQueuePairsWithQueuePairPathStatesKeepThemFromStepToStep() {
        PreparedRun run = Lbsim.scenario(prepared("persistent", "queue-pair").scenario()).set("switches.ecn.enabled", false).prepare();
        Transport t = run.transport();
        t.keepAllQueuePairs();
        RunResult r = run.run();
        Invariants.check(run);
        int n = 16;
        for (int q = 0; q < n; q++) {
            DlbfSender first = (DlbfSender) t.senderOf(q).entropyPolicy();
            DlbfSender second = (DlbfSender) t.senderOf(q + n).entropyPolicy();
            assertSame(first.paths(), second.paths(), "queue pair " + q);
        }
        Map<String, Number> c = r.schemeCounters();
        long runs = c.get("dlbf.algorithm1.reuse").longValue() + c.get("dlbf.algorithm1.randomAvailable").longValue()
                + c.get("dlbf.algorithm1.randomUnprobed").longValue() + c.get("dlbf.algorithm1.fallback").longValue();
        assertEquals(n, runs);
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
