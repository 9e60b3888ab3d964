package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.FlowResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/**
 * What the transport counts over a run, on {@link GoBackNSingleDropTest}'s flow (100 packets of 4096 B, the first
 * transmission of PSN 10 lost) under NIC selective repeat, which resends exactly the lost PSN: each counter has
 * one value a lost-and-resent packet allows.
 */
class TransportCountersTest {
    private static final int PACKETS = GoBackNSingleDropTest.PACKETS;
    private static final ComponentSpec NIC_SR = new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));

    @TempDir
    Path dir;

    private CheckedRun run() {
        return CheckedRun.of(GoBackNSingleDropTest.oneFlowOneDrop(dir, NIC_SR, TestScenarios.lineRate()), dir, r -> r.transport().keepAllQueuePairs());
    }

    @Test
    void oneLostPacketResentOnceIsCountedOnceInEveryLedger() {
        CheckedRun run = run();
        Transport t = run.prepared().transport();
        FlowResult f = run.result().flowResults().get(0);

        assertThat(f.finished()).isTrue();
        assertThat(t.flowCount()).isEqualTo(1);
        assertThat(t.connectionCount()).isEqualTo(1);
        assertThat(t.completedFlows()).isEqualTo(1);
        assertThat(t.foregroundDone()).isTrue();
        assertThat(t.connectionOf(0)).isZero();
        assertThat(t.lostData(0)).isEqualTo(1);
        assertThat(t.sentPackets(0)).isEqualTo(PACKETS + 1);
        assertThat(t.retransmissions(0)).isEqualTo(1);
        assertThat(t.timeouts(0)).isZero();
        assertThat(t.duplicatesSent(0)).isZero();
        assertThat(t.duplicatesReceived(0)).isZero();
        assertThat(t.duplicatesSent()).isZero();
        assertThat(t.notificationsSent()).isZero();
        assertThat(t.idleQueuePairs()).isZero();
        assertThat(t.nacksSent()).as("one NACK for the hole").isEqualTo(1);
        assertThat(t.cnpsSent()).isZero();
        assertThat(t.dataArrivals()).as("every data packet sent but the lost one").isEqualTo(PACKETS);
        assertThat(t.deliveredPayloadBytes()).isEqualTo(PACKETS * 4096L);
        assertThat(t.stack(3).dataArrivals()).isEqualTo(PACKETS);
        assertThat(t.stack(0).dataArrivals()).as("host 0 only receives ACKs").isZero();
        assertThat(t.outOfOrder().samples()).as("every PSN once").isEqualTo(PACKETS);
        assertThat(t.outstandingPackets(0)).as("nothing of the queue pair left in the fabric").isZero();

        long done = t.connectionDonePs(0);
        assertThat(done).isEqualTo(f.fctPs()).isEqualTo(t.lastCompletionPs()).isEqualTo(t.senderOf(0).completedPs());
        assertThat(t.connectionStartedPs(0)).isZero();
        assertThat(t.receiverCompletedPs(0)).as("the last byte arrives before its ACK returns").isPositive().isLessThan(done);
        assertThat(t.receiverCompletedPs(0)).isEqualTo(t.receiverOf(0).completedPs());
        assertThat(t.congestionControlOf(0)).isSameAs(t.senderOf(0).congestionControl());
        assertThat(t.maxLiveQueuePairs()).isEqualTo(1);
        assertThat(t.releasedQueuePairs()).as("built up front, never released").isZero();
        assertThat(t.stack(0).host()).isZero();
        assertThat(t.stack(3).host()).isEqualTo(3);
    }

    @Test
    void aPartitionedRunGathersTheOutOfOrderStatisticsOfEveryPartition() {
        // HostStackRingTest's 21 packets from host 0 to hosts 1 (leaf 0) and 2, 3 (leaf 1), each leaf its own partition
        org.lbsim.scenario.Scenario s = HostStackRingTest.scenario(dir, TestScenarios.lineRate(), org.lbsim.scenario.NicSpec.defaults());
        org.lbsim.sim.PreparedRun sequential = org.lbsim.sim.Simulation.prepare(s, dir);
        sequential.run();
        org.lbsim.sim.PreparedRun partitioned = org.lbsim.sim.Simulation.prepare(s, dir, 1, 2);
        partitioned.run();
        assertThat(partitioned.simulator().partitionCount()).isEqualTo(2);
        OutOfOrderStats all = partitioned.transport().outOfOrder();
        assertThat(all.samples()).as("every packet once").isEqualTo(21);
        assertThat(all.samples()).isEqualTo(sequential.transport().outOfOrder().samples());
        assertThat(all.maxDegree()).isEqualTo(sequential.transport().outOfOrder().maxDegree());
    }
}
