package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/** PRO end to end on small 2-tier fabrics: forwarding by PathID, loss recovery by the out-of-order window, conservation, determinism. */
class ProRunTest {
    /** 2 ToRs x 4 Aggrs, 2 parallel links per ToR-Aggr pair (M = 8 uplinks x 2 downlinks = 16 paths), 4 hosts per ToR. */
    static ScenarioBuilder fabric(long seed) {
        return Lbsim.scenario().leafSpine(4, 2, 4).set("topology.linksPerLeafSpine", 2).linkRateGbps(100).scheme("pro")
                .congestionControl("dcqcn").seed(seed);
    }

    /** Prepares the run with PRO's whole bundle (sender, receiver and entropy); {@code pro[0]} gets the run's instance. */
    static PreparedRun prepare(ScenarioBuilder b, Pro[] pro) {
        PreparedRun run = b.prepare((lb, recovery) -> {
            pro[0] = (Pro) lb;
            return pro[0].queuePairScheme(recovery);
        });
        return run;
    }

    /** Every host of ToR 0 sends to the host 4 above it (under ToR 1) and back: all traffic crosses the Aggr layer. */
    static java.nio.file.Path crossTrace(long bytes) throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("pro-cross", ".csv");
        StringBuilder sb = new StringBuilder("src,dst,bytes,start_ns\n");
        for (int h = 0; h < 4; h++) {
            sb.append(h).append(',').append(h + 4).append(',').append(bytes).append(",0\n");
            sb.append(h + 4).append(',').append(h).append(',').append(bytes).append(",0\n");
        }
        java.nio.file.Files.writeString(f, sb.toString());
        f.toFile().deleteOnExit();
        return f;
    }

    @Test
    void pathIdRulesSpreadEveryToRsUplinksAndAggrDownlinksEvenlyAndPacketsAreConserved() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepare(fabric(1).trace(crossTrace(2_000_000).toString()), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        assertThat(Invariants.violations(run)).isEmpty();
        assertThat(pro[0].policyHits()).isPositive();
        assertThat(pro[0].policyFallbacks()).isZero();
        Topology t = run.topology();
        // 4 queue pairs per ToR, each spreading its 1954 packets over 16 paths: the 8 uplinks of a ToR differ by at most a few packets
        for (String leaf : List.of("l0", "l1")) {
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int s = 0; s < 4; s++) {
                for (int port : t.portsBetween(t.nodeByName(leaf), t.nodeByName("s" + s))) {
                    long tx = run.network().txBytes(port);
                    min = Math.min(min, tx);
                    max = Math.max(max, tx);
                }
            }
            assertThat(max - min).as("%s's uplinks carried %d .. %d bytes", leaf, min, max).isLessThanOrEqualTo(8 * 4200L);
            assertThat(min).isPositive();
        }
        for (int s = 0; s < 4; s++) {
            int[] down = t.portsBetween(t.nodeByName("s" + s), t.nodeByName("l1"));
            long a = run.network().txBytes(down[0]);
            long b = run.network().txBytes(down[1]);
            // a queue pair's last partial cycle of 16 paths may put 2 more packets on one of them: 4 queue pairs
            assertThat(Math.abs(a - b)).as("s%d's two downlinks to l1: %d and %d bytes", s, a, b).isLessThanOrEqualTo(4 * 2 * 4200L + 4200);
        }
        assertThat(pro[0].nacks()).as("no loss, orchestrated spraying: no NACK").isZero();
        for (FlowResult f : r.flowResults()) {
            assertThat(f.retransmissions()).isZero();
        }
    }

    @Test
    void aLostPacketIsNackedOnceAndResentWithoutATimeout() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepare(fabric(2).trace(crossTrace(1_000_000).toString())
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 40))), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        assertThat(run.network().injectedDrops()).isEqualTo(1);
        FlowResult f = r.flowResults().get(0);
        assertThat(f.retransmissions()).isEqualTo(1);
        assertThat(f.timeouts()).isZero();
        assertThat(pro[0].nacks()).isEqualTo(1);
        assertThat(pro[0].senderTimeouts()).isZero();
        assertThat(Invariants.violations(run)).isEmpty();
    }

    @Test
    void aFailedUplinkSendsItsPathIdsToAdaptiveRoutingAndEveryFlowStillFinishes() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepare(fabric(3).trace(crossTrace(1_000_000).toString()).failLink("l0", "s1"), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        assertThat(pro[0].policyFallbacks()).as("packets whose PathID names the failed link go to AR").isPositive();
        assertThat(Invariants.violations(run)).isEmpty();
        Topology t = run.topology();
        for (int port : t.portsBetween(t.nodeByName("l0"), t.nodeByName("s1"))) {
            if (run.network().link(port).isDown()) {
                assertThat(run.network().txBytes(port)).isZero();
            }
        }
    }

    @Test
    void theRegisteredSchemeBringsItsOwnLossRecoveryAndReportsItsCounters() throws Exception {
        RunResult r = fabric(2).trace(crossTrace(1_000_000).toString()).lossRecovery("go-back-n")
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 40))).run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        // go-back-N would resend everything after PSN 40; PRO's receiver NACKs PSN 40 alone
        assertThat(r.flowResults().get(0).retransmissions()).isEqualTo(1);
        assertThat(r.schemeCounters().get("pro.nacks").longValue()).isEqualTo(1);
        assertThat(r.schemeCounters().get("pro.pathIdForwarded").longValue()).isPositive();
        assertThat(r.schemeCounters().get("pro.arFallbacks").longValue()).isZero();
    }

    @Test
    void batchVariantKeepsUplinksBalancedWhenTheNicSendsBatches() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepare(fabric(4).trace(crossTrace(2_000_000).toString()).set("nic.batchPackets", 4)
                .set("loadBalancing.batchPackets", 4), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        Topology t = run.topology();
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int s = 0; s < 4; s++) {
            for (int port : t.portsBetween(t.nodeByName("l0"), t.nodeByName("s" + s))) {
                min = Math.min(min, run.network().txBytes(port));
                max = Math.max(max, run.network().txBytes(port));
            }
        }
        // blocks of 4 consecutive paths: a queue pair's last partial round may favour one block by a batch
        assertThat(max - min).as("l0's uplinks %d .. %d bytes", min, max).isLessThanOrEqualTo(4 * 4 * 4200L);
        assertThat(Invariants.violations(run)).isEmpty();
    }

    @Test
    void runsAreDeterministic() throws Exception {
        String trace = crossTrace(500_000).toString();
        RunResult a = prepare(fabric(7).trace(trace), new Pro[1]).run();
        RunResult b = prepare(fabric(7).trace(trace), new Pro[1]).run();
        assertThat(a.cctPs()).isEqualTo(b.cctPs());
        assertThat(a.flowResults()).isEqualTo(b.flowResults());
    }

    @Test
    void onAThreeTierFabricOnlyTheToRUplinkIsSteeredAndTheRestIsAdaptiveRouting() {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepare(Lbsim.scenario().fatTree(4).permutation(1 << 18).scheme("pro").seed(5), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(pro[0].policyHits()).isPositive();
        assertThat(Invariants.violations(run)).isEmpty();
        // rules live only at the edge switches (tier 1); aggregation and core switches have none
        Topology t = run.topology();
        for (int n = 0; n < t.nodeCount(); n++) {
            if (!t.isHost(n) && t.tier(n) > 1) {
                assertThat(run.network().switchAt(n).policyTable().size()).isZero();
            }
        }
    }
}
