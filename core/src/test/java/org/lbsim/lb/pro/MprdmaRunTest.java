package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;

/** PRO with the MPRDMA-style loss recovery (PRO Fig. 13's baseline) end to end on small 2-tier fabrics. */
class MprdmaRunTest {
    @Test
    void aLostPacketIsFoundAtTheSenderAndResentOnceWithoutANackOrATimeout() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = ProRunTest.prepare(ProRunTest.fabric(2).trace(ProRunTest.crossTrace(1_000_000).toString())
                .set("loadBalancing.recovery", "mprdma")
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 40))), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        assertThat(run.network().injectedDrops()).isEqualTo(1);
        FlowResult f = r.flowResults().get(0);
        assertThat(f.retransmissions()).isEqualTo(1);
        assertThat(f.timeouts()).isZero();
        assertThat(pro[0].nacks()).as("the MPRDMA-style receiver never NACKs").isZero();
        assertThat(r.schemeCounters().get("pro.mprdmaRecoveries").longValue()).isEqualTo(1);
        for (FlowResult other : r.flowResults().subList(1, 8)) {
            assertThat(other.retransmissions()).isZero();
        }
        assertThat(Invariants.violations(run)).isEmpty();
    }

    /** One flow across the Aggr layer: with L below the BDP the sender is window-bound, at most L packets per round trip. */
    @Test
    void aBitmapBelowTheBdpBoundsThroughputToLPacketsPerRoundTrip() throws Exception {
        java.nio.file.Path trace = java.nio.file.Files.createTempFile("mprdma-one", ".csv");
        java.nio.file.Files.writeString(trace, "src,dst,bytes,start_ns\n0,4,400000,0\n");
        trace.toFile().deleteOnExit();
        Pro[] pro = new Pro[1];
        PreparedRun small = ProRunTest.prepare(ProRunTest.fabric(3).trace(trace.toString())
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBitmapPackets", 8)
                .set("loadBalancing.mprdmaDeltaPackets", 4), pro);
        RunResult r = small.run();
        assertThat(r.flowsFinished()).isEqualTo(1);
        long baseRttPs = small.transport().senderOf(0).context().baseRttPs();
        int packets = small.transport().senderOf(0).context().packets();
        // packets / L windows, each a full round trip (the first packet of a window leaves when the last ACK of the one before arrives)
        long windowBoundPs = (long) (packets / 8 - 1) * baseRttPs;
        assertThat(r.cctPs()).isGreaterThanOrEqualTo(windowBoundPs);
        assertThat(r.schemeCounters().get("pro.mprdmaBitmapStalls").longValue()).isGreaterThanOrEqualTo(packets / 8 - 1);
        RunResult wide = ProRunTest.prepare(ProRunTest.fabric(3).trace(trace.toString())
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBitmapPackets", 0), new Pro[1]).run();
        RunResult cautious = ProRunTest.prepare(ProRunTest.fabric(3).trace(trace.toString()), new Pro[1]).run();
        assertThat(wide.cctPs()).as("L = BDP: no window bound, as fast as PRO's own recovery").isEqualTo(cautious.cctPs());
        assertThat(r.cctPs()).isGreaterThan(2 * cautious.cctPs());
        assertThat(Invariants.violations(small)).isEmpty();
    }

    @Test
    void aFailedUplinkStillCompletesEveryFlowAndConservesPackets() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = ProRunTest.prepare(ProRunTest.fabric(3).trace(ProRunTest.crossTrace(1_000_000).toString())
                .set("loadBalancing.recovery", "mprdma").failLink("l0", "s1"), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        assertThat(pro[0].policyFallbacks()).isPositive();
        assertThat(Invariants.violations(run)).isEmpty();
    }

    @Test
    void runsAreDeterministic() throws Exception {
        String trace = ProRunTest.crossTrace(500_000).toString();
        RunResult a = ProRunTest.prepare(ProRunTest.fabric(7).trace(trace).set("loadBalancing.recovery", "mprdma")
                .set("failures.dropPackets", List.of(Map.of("qp", 1, "psn", 10))), new Pro[1]).run();
        RunResult b = ProRunTest.prepare(ProRunTest.fabric(7).trace(trace).set("loadBalancing.recovery", "mprdma")
                .set("failures.dropPackets", List.of(Map.of("qp", 1, "psn", 10))), new Pro[1]).run();
        assertThat(a.cctPs()).isEqualTo(b.cctPs());
        assertThat(a.flowResults()).isEqualTo(b.flowResults());
    }

    @Test
    void anUnknownRecoveryIsAOneLineScenarioError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProRunTest.fabric(1).trace(ProRunTest.crossTrace(1000).toString())
                .set("loadBalancing.recovery", "irn").run())
                .isInstanceOf(ScenarioException.class).hasMessageContaining("recovery").hasMessageContaining("'cautious' or 'mprdma'");
    }
    /**
     * mprdmaBeyondBitmap 'drop' on a 2-tier fabric with one lost packet: the sender is not gated, so
     * the receiver drops what lies L or more beyond the hole, NACKs it, and every dropped PSN is resent;
     * with 'hold' the same loss costs one resend. Packets are conserved either way.
     */
    @Test
    void withDropTheBitmapOverflowsBehindALossAndEveryDroppedPacketIsResent() throws Exception {
        Pro[] pro = new Pro[1];
        PreparedRun run = ProRunTest.prepare(ProRunTest.fabric(2).trace(ProRunTest.crossTrace(1_000_000).toString())
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBitmapPackets", 8).set("loadBalancing.mprdmaDeltaPackets", 4)
                .set("loadBalancing.mprdmaBeyondBitmap", "drop")
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 40))), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        long drops = r.schemeCounters().get("pro.mprdmaBitmapDrops").longValue();
        assertThat(drops).as("PSNs 48.. of flow 0 arrived while 40 was missing").isPositive();
        FlowResult f = r.flowResults().get(0);
        assertThat(f.retransmissions()).as("the lost PSN and every dropped one").isGreaterThanOrEqualTo(drops + 1);
        org.lbsim.spi.ReceiverQp rx = run.transport().receiverOf(0);
        assertThat(rx.discarded()).as("every PSN without a bitmap slot is thrown away").isEqualTo(drops);
        assertThat(rx.nacks()).as("and answered with a NACK").isEqualTo(drops);
        assertThat(f.timeouts()).as("the NACKs recover the loss, not the RTO").isZero();
        assertThat(pro[0].nacks()).as("drop NACKs are MPRDMA's, not Algorithm 2's").isZero();
        for (FlowResult other : r.flowResults().subList(1, 8)) {
            assertThat(other.retransmissions()).isZero();
        }
        assertThat(Invariants.violations(run)).isEmpty();

        RunResult hold = ProRunTest.prepare(ProRunTest.fabric(2).trace(ProRunTest.crossTrace(1_000_000).toString())
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBitmapPackets", 8).set("loadBalancing.mprdmaDeltaPackets", 4)
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 40))), new Pro[1]).run();
        assertThat(hold.flowResults().get(0).retransmissions()).isEqualTo(1);
        assertThat(hold.schemeCounters()).doesNotContainKey("pro.mprdmaBitmapDrops");
    }

    @Test
    void anUnknownBeyondBitmapReadingIsAOneLineScenarioError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProRunTest.fabric(1).trace(ProRunTest.crossTrace(1000).toString())
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBeyondBitmap", "spill").run())
                .isInstanceOf(ScenarioException.class).hasMessageContaining("mprdmaBeyondBitmap").hasMessageContaining("'hold' or 'drop'");
    }
}
