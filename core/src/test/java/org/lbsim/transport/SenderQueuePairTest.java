package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.net.Packet;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;

/**
 * A sender asked directly on the built runs of {@link HostStackRingTest} (queue pair 0: host 0 to host 1, 4 packets):
 * the label it remembers per PSN, extras injected by its scheme going out first and within its pacing, and
 * extras offered after it completed.
 */
class SenderQueuePairTest {
    private static final PacketSpec PK = PacketSpec.defaults();

    @TempDir
    Path dir;

    private Transport built(String lb, org.lbsim.scenario.ComponentSpec cc) {
        return Simulation.prepare(HostStackRingTest.scenario(dir, lb, cc, NicSpec.defaults()), dir).transport();
    }

    @Test
    void aSprayingSenderRemembersTheLabelEachPsnLastWentOutWith() {
        Transport t = built("host-spray", TestScenarios.lineRate());
        SenderQueuePair s = t.senderOf(0);
        assertThat(s.entropyPolicy().fixedLabel()).isFalse();
        int[] labels = new int[4];
        for (int psn = 0; psn < 4; psn++) {
            Packet p = s.poll(0);
            assertThat(p.psn).isEqualTo(psn);
            labels[psn] = p.entropy;
        }
        assertThat(labels).as("a fresh label per packet").doesNotHaveDuplicates();
        for (int psn = 0; psn < 4; psn++) {
            assertThat(s.entropyOf(psn)).isEqualTo(labels[psn]);
            assertThat(s.newDuplicate(psn).entropy).isEqualTo(labels[psn]);
        }
        assertThat(s.entropyOf(4)).as("beyond the message: never sent").isZero();
        assertThat(s.entropyOf(1_000)).isZero();
    }

    @Test
    void aFixedLabelIsTheLabelOfEveryPsnSentSoFarAndOfNoOther() {
        Transport t = built("ecmp", TestScenarios.lineRate());
        SenderQueuePair s = t.senderOf(0);
        Packet first = s.poll(0);
        s.poll(0);
        assertThat(first.entropy).isNotZero();
        assertThat(s.entropyOf(0)).isEqualTo(first.entropy);
        assertThat(s.entropyOf(1)).isEqualTo(first.entropy);
        assertThat(s.entropyOf(2)).as("not sent yet").isZero();
        assertThat(s.newDuplicate(2).entropy).isZero();
    }

    @Test
    void injectedExtrasGoOutBeforeTheNextDataPacketAndSpendThePacing() {
        Transport t = built("ecmp", HostStackRingTest.HALF_RATE);
        SenderQueuePair s = t.senderOf(0);
        Packet copy = s.newDuplicate(2);
        s.inject(copy);
        Packet note = s.newControl(Packet.ACK);
        s.inject(note);
        assertThat(s.extrasQueued()).isEqualTo(2);
        assertThat(s.poll(0)).isSameAs(copy);
        assertThat(s.poll(0)).as("the copy spent one period of pacing").isNull();
        assertThat(s.eligiblePs).isEqualTo(HostStackRingTest.HALF_RATE_PERIOD_PS);
        long period = HostStackRingTest.HALF_RATE_PERIOD_PS;
        assertThat(s.poll(period)).isSameAs(note);
        long noteFramePs = org.lbsim.kernel.Time.serializationPs(PK.headerBytes() + PK.interFrameGapBytes(), 50_000);
        assertThat(s.poll(period)).isNull();
        assertThat(s.eligiblePs).as("a header-only frame spends its own size").isEqualTo(period + noteFramePs);
        Packet data = s.poll(period + noteFramePs);
        assertThat(data.psn).isZero();
        assertThat(data.kind).isEqualTo(Packet.DATA);
        assertThat(s.extrasQueued()).isZero();
        assertThat(s.duplicatesSent()).isEqualTo(1);
        assertThat(s.notificationsSent()).isEqualTo(1);
        assertThat(s.sentPackets()).as("extras are not data sent").isEqualTo(1);
    }

    @Test
    void anExtraOfferedAfterTheSenderCompletedIsDroppedAndReleased() {
        CheckedRun run = CheckedRun.of(HostStackRingTest.scenario(dir, TestScenarios.lineRate(), NicSpec.defaults()), dir,
                r -> r.transport().keepAllQueuePairs());
        PreparedRun p = run.prepared();
        SenderQueuePair s = p.transport().senderOf(0);
        assertThat(s.completedPs()).isPositive();
        long outstanding = p.network().pool().outstanding();
        s.inject(s.newDuplicate(0));
        s.inject(s.newControl(Packet.ACK));
        assertThat(s.extrasQueued()).isZero();
        assertThat(p.network().pool().outstanding()).isEqualTo(outstanding);
        assertThat(p.transport().outstandingPackets(0)).isZero();
        assertThat(s.poll(p.simulator().nowPs())).isNull();
        assertThat(s.eligiblePs).isEqualTo(Long.MAX_VALUE);
    }
}
