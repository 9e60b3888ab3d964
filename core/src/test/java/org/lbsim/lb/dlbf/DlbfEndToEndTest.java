package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;

/**
 * DLBF as a registered scheme on a congested fabric (an all-to-all over a 2:1 oversubscribed leaf-spine
 * with DCQCN and nic-sr): every flow finishes, packets are conserved, the run is deterministic, its
 * counters reach the run's result, and the clock offset between hosts changes nothing.
 */
class DlbfEndToEndTest {
    private static ScenarioBuilder congested(long seed) {
        return Lbsim.scenario().leafSpine(8, 2, 2).linkRateGbps(100).allToAll(200_000).scheme("dlbf").lossRecovery("nic-sr")
                .congestionControl("dcqcn").seed(seed);
    }

    private static RunResult checked(ScenarioBuilder b) {
        PreparedRun run = b.prepare();
        RunResult r = run.run();
        Invariants.check(run); // packets conserved, no negative queue, no pool leak
        return r;
    }

    @Test
    void everyFlowFinishesPacketsAreConservedAndCountersAreReported() {
        RunResult r = checked(congested(3));
        assertEquals(r.flowResults().size(), r.flowsFinished());
        Map<String, Number> c = r.schemeCounters();
        assertTrue(c.get("dlbf.pathSwitches").longValue() > 0, "ECN on a congested fabric moves flows: " + c);
        long injected = c.get("dlbf.selectiveDuplicates").longValue() + c.get("dlbf.case2Resends").longValue();
        assertTrue(c.get("dlbf.duplicatesSent").longValue() <= injected, "no copy is sent that was not injected");
        assertTrue(c.get("dlbf.notificationsReceived").longValue() <= c.get("dlbf.notifications").longValue());
        assertEquals(c.get("dlbf.notificationsReceived").longValue(),
                c.get("dlbf.case1Waits").longValue() + c.get("dlbf.case2Sacks").longValue()
                        + c.get("dlbf.notificationsLate").longValue(), "each notification is Case 1, Case 2 or late");
        assertTrue(c.get("dlbf.rxBufferAvgPackets").doubleValue() >= 0);
    }

    @Test
    void sameSeedSameRun() {
        RunResult a = checked(congested(5));
        RunResult b = checked(congested(5));
        assertEquals(fcts(a), fcts(b));
        assertEquals(a.schemeCounters(), b.schemeCounters());
    }

    @Test
    void clockOffsetBetweenHostsChangesNothing() {
        RunResult synced = checked(congested(7).set("loadBalancing.clockOffsetNs", 0));
        RunResult skewed = checked(congested(7).set("loadBalancing.clockOffsetNs", 5e6));
        assertEquals(fcts(synced), fcts(skewed));
        assertEquals(synced.schemeCounters(), skewed.schemeCounters());
    }

    private static List<Long> fcts(RunResult r) {
        return r.flowResults().stream().map(FlowResult::fctPs).toList();
    }
}
