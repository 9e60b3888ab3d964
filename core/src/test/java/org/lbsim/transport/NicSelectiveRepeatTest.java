package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.Dcqcn;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.ReceiverQp;

/**
 * Themis 2.2: commodity-RNIC selective repeat. The receiver keeps out-of-order data, sends at most
 * one NACK per expected PSN and the NACK carries only that ePSN; the sender resends only the ePSN
 * packet, and DCQCN takes the NACK as a congestion signal. ECN is off in every run here, so a NACK is
 * the only thing that can cut a DCQCN rate.
 */
class NicSelectiveRepeatTest {
    private static final ComponentSpec NIC_SR = new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));
    private static final ComponentSpec DCQCN = new ComponentSpec("dcqcn", Dcqcn.Params.defaults());
    private static final int PACKETS = 256;

    @TempDir
    Path dir;

    @Test
    void oneLostPacketCostsExactlyOneNackAndOneRetransmissionOfThatPacketAndOneRateCut() {
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(GoBackNSingleDropTest.oneFlowOneDrop(dir, NIC_SR, DCQCN), dir, r -> tap[0] = WireTap.attach(r));
        RunResult r = run.result();
        FlowResult f = r.flowResults().get(0);
        ReceiverQp receiver = run.prepared().transport().receiverOf(0);
        Dcqcn cc = (Dcqcn) run.prepared().transport().senderOf(0).congestionControl();
        long behindTheHole = r.outOfOrder().arrivals();
        String counts = "out-of-order arrivals " + behindTheHole + ", NACKs " + receiver.nacks() + ", retransmissions " + f.retransmissions()
                + ", packets sent " + f.packetsSent() + ", DCQCN cuts " + cc.cuts();

        assertThat(run.prepared().network().injectedDrops()).isEqualTo(1);
        assertThat(f.finished()).isTrue();
        assertThat(f.timeouts()).as(counts).isZero();
        // several packets overtook the hole, but the ePSN stayed the same, so one NACK
        assertThat(behindTheHole).as(counts).isGreaterThan(1);
        assertThat(receiver.nacks()).as(counts).isEqualTo(1);
        assertThat(receiver.discarded()).as("NIC-SR keeps out-of-order data (%s)", counts).isZero();
        assertThat(tap[0].nacks()).extracting(WireTap.NackArrival::epsn).as(counts).containsExactly(GoBackNSingleDropTest.LOST);
        // only the ePSN packet goes out again
        assertThat(f.retransmissions()).as(counts).isEqualTo(1);
        assertThat(f.packetsSent()).as(counts).isEqualTo(GoBackNSingleDropTest.PACKETS + 1);
        for (int psn = 0; psn < GoBackNSingleDropTest.PACKETS; psn++) {
            assertThat(tap[0].sends(0, psn)).as("transmissions of PSN %d (%s)", psn, counts).isEqualTo(psn == GoBackNSingleDropTest.LOST ? 2 : 1);
        }
        assertThat(f.duplicatesReceived()).as(counts).isZero();
        assertThat(f.spuriousRetransmissions()).as(counts).isZero();
        // no ECN, no CNP: the single cut is the NACK's
        assertThat(receiver.cnps()).isZero();
        assertThat(cc.cuts()).as(counts).isEqualTo(1);
    }

    /** k = 4 fat tree, a 1 MiB permutation sprayed per packet, nothing lost: every NACK is a false alarm. */
    static Scenario sprayedPermutation(ComponentSpec cc, long seed) {
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        return new Scenario("spray-nic-sr", seed, TestScenarios.fatTree(4), PacketSpec.defaults(), switches, TestScenarios.lb("host-spray"),
                cc, NIC_SR, new WorkloadSpec.Permutation(PACKETS * 4096L, 0), FailureSpec.defaults(), LimitsSpec.defaults(),
                new MetricsSpec(0, 0), NicSpec.defaults());
    }

    @Test
    void withSprayingAndNoLossEveryNackIsForADistinctEpsnAndEveryResendAnswersOneNack() {
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(sprayedPermutation(TestScenarios.lineRate(), 1), null, r -> tap[0] = WireTap.attach(r));
        RunResult r = run.result();
        Transport t = run.prepared().transport();

        assertThat(r.counters().dropped()).isZero();
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(r.counters().timeouts()).isZero();
        long nacks = 0;
        for (int q = 0; q < t.flowCount(); q++) {
            ReceiverQp receiver = t.receiverOf(q);
            List<WireTap.NackArrival> arrived = tap[0].nacksOf(q);
            nacks += receiver.nacks();
            // nothing is lost, so every NACK the receiver sent reaches the sender
            assertThat(arrived).as("NACKs of qp %d at the sender vs %d sent", q, receiver.nacks()).hasSize((int) receiver.nacks());
            assertThat(((NicSelectiveRepeat) t.senderOf(q).recovery()).nacksReceived()).isEqualTo(receiver.nacks());
            // at most one NACK per ePSN
            Set<Integer> epsns = new HashSet<>();
            for (WireTap.NackArrival n : arrived) {
                assertThat(epsns.add(n.epsn())).as("qp %d NACKed ePSN %d twice", q, n.epsn()).isTrue();
            }
            // a PSN goes out again only because a NACK named it, and at most once per NACK
            for (int psn = 0; psn < PACKETS; psn++) {
                int sends = tap[0].sends(q, psn);
                assertThat(sends).as("transmissions of qp %d PSN %d", q, psn).isBetween(1, epsns.contains(psn) ? 2 : 1);
            }
            assertThat(t.senderOf(q).recovery().retransmissions()).isEqualTo(tap[0].resends(q)).isLessThanOrEqualTo(receiver.nacks());
        }
        assertThat(nacks).as("NACKs caused by reordering alone").isPositive();
        assertThat(r.counters().retransmissions()).as("retransmissions caused by %d NACKs", nacks).isPositive();
    }

    @Test
    void withSprayingAndNoLossTheNacksAloneCutTheDcqcnRate() {
        CheckedRun run = CheckedRun.of(sprayedPermutation(DCQCN, 1));
        RunResult r = run.result();
        Transport t = run.prepared().transport();

        assertThat(r.counters().dropped()).isZero();
        assertThat(r.counters().ecnMarks()).isZero();
        assertThat(r.flowsFinished()).isEqualTo(16);
        long cuts = 0;
        long nacks = 0;
        long cnps = 0;
        for (int q = 0; q < t.flowCount(); q++) {
            cuts += ((Dcqcn) t.senderOf(q).congestionControl()).cuts();
            nacks += t.receiverOf(q).nacks();
            cnps += t.receiverOf(q).cnps();
        }
        assertThat(cnps).isZero();
        assertThat(nacks).isPositive();
        assertThat(cuts).as("DCQCN rate cuts from %d NACKs and no CNP", nacks).isPositive().isLessThanOrEqualTo(nacks);
        // the cuts slow the fabric down even though nothing was congested or lost
        long lineRateCct = CheckedRun.of(sprayedPermutation(TestScenarios.lineRate(), 1)).cctPs();
        assertThat(r.cctPs()).as("CCT with NACK-driven DCQCN cuts vs fixed line rate (%d ps)", lineRateCct).isGreaterThan(lineRateCct);
    }
}
