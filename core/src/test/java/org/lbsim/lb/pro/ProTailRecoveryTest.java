package org.lbsim.lb.pro;

import static org.lbsim.testing.LossRecoveryDrive.sendAll;
import static org.lbsim.testing.LossRecoveryDrive.sendUpTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.LossRecoveryDrive;
import org.lbsim.testing.Packets;

/**
 * PRO VI-A: "80us RTO for the corner case of tail packet loss". Holes in a message's last wnd packets
 * are never outside Algorithm 2's window; with {@code rtoRestart: cumulative} the sender's RTO resends
 * them 80 us after the cumulative ack stopped, with {@code any-ack} the NACK-driven progress of each
 * receiver QP_TIMEOUT keeps postponing it and the holes come out one window halving at a time.
 */
class ProTailRecoveryTest {
    private static final QpContext QP = LossRecoveryDrive.qp(10_000);
    private final PacketPool pool = new PacketPool();

    private ProSender sender(boolean cumulative) {
        return new ProSender(QP, Time.us(80), cumulative, new ProEntropy(new PathSet(8, 1, true), new int[] {0, 1, 2, 3, 4, 5, 6, 7}),
                new ProCounters());
    }

    private Packet ack(int psn, int cumAck) {
        return Packets.ack(pool, psn, cumAck);
    }

    /** Sends the next {@code packets} packets at {@code nowPs}. */
    private static void send(ProSender s, int packets, long nowPs) {
        assertThat(sendUpTo(s, packets, nowPs)).hasSize(packets);
    }

    @Test
    void aCumulativeRtoIsNotPostponedByAcksAboveTheHole() {
        ProSender s = sender(true);
        send(s, 10, 0);
        s.onAck(ack(0, 1), Time.us(8));
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(88));
        // PSN 1 is missing; 2..9 arrive and are acknowledged one by one over 60 us
        for (int psn = 2; psn <= 9; psn++) {
            assertThat(s.onAck(ack(psn, 1), Time.us(8 + 7 * psn))).isTrue();
        }
        assertThat(s.timerDeadlinePs()).as("the cumulative ack last moved at 8 us").isEqualTo(Time.us(88));
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(88), lost::add)).isTrue();
        assertThat(lost).containsExactly(1);
        s.onAck(ack(1, 10), Time.us(96));
        assertThat(s.complete()).isTrue();
        assertThat(s.timerDeadlinePs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anAnyAckRtoRestartsOnEveryNewlyAcknowledgedPsn() {
        ProSender s = sender(false);
        send(s, 10, 0);
        s.onAck(ack(0, 1), Time.us(8));
        for (int psn = 2; psn <= 9; psn++) {
            s.onAck(ack(psn, 1), Time.us(8 + 7 * psn));
        }
        assertThat(s.timerDeadlinePs()).as("the last new PSN was acknowledged at 71 us").isEqualTo(Time.us(71 + 80));
        // a repeated ACK is no progress in either reading
        assertThat(s.onAck(ack(9, 1), Time.us(100))).isFalse();
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(151));
    }

    private Packet nack(int psn, int cumAck) {
        Packet p = ack(psn, cumAck);
        p.kind = Packet.NACK;
        return p;
    }

    @Test
    void theRtoRunsOnlyWhileASentPsnIsUnacknowledged() {
        ProCounters counters = new ProCounters();
        ProSender s = new ProSender(QP, Time.us(80), true, new ProEntropy(new PathSet(8, 1, true), new int[] {0, 1, 2, 3, 4, 5, 6, 7}), counters);
        assertThat(s.timerDeadlinePs()).as("nothing sent").isEqualTo(Long.MAX_VALUE);
        send(s, 5, 0);
        assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(80));
        s.onAck(ack(4, 5), Time.us(8));
        assertThat(s.timerDeadlinePs()).as("all sent is acknowledged, 5 PSNs still to send").isEqualTo(Long.MAX_VALUE);
        send(s, 5, Time.us(10));
        assertThat(s.timerDeadlinePs()).as("from the first packet outstanding").isEqualTo(Time.us(90));
        assertThat(s.onTimer(Time.us(90), psn -> { })).isTrue();
        assertThat(counters.senderTimeouts).isEqualTo(1);
        s.onAck(ack(9, 10), Time.us(95));
        assertThat(s.complete()).isTrue();
        assertThat(s.onTimer(Time.us(200), psn -> { })).as("a complete message has nothing to time out").isFalse();
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(counters.senderTimeouts).isEqualTo(1);
    }

    @Test
    void anRtoBeforeAnyAckResendsFromPsnZeroAndThenGoesOnWithNewData() {
        ProSender s = sender(true);
        send(s, 5, 0);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(80), lost::add)).isTrue();
        assertThat(lost).containsExactly(0, 1, 2, 3, 4);
        assertThat(sendAll(s, Time.us(80))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(s.retransmissions()).isEqualTo(5);
    }

    @Test
    void aNackedPsnAcknowledgedBeforeItsResendLeavesIsNotResent() {
        ProSender s = sender(true);
        send(s, 5, 0);
        s.onNack(nack(3, 0), Time.us(8));
        s.onAck(ack(3, 0), Time.us(9)); // the NACK was premature: 3 arrives after all
        assertThat(sendAll(s, Time.us(9))).containsExactly(5, 6, 7, 8, 9);
        assertThat(s.retransmissions()).isZero();
    }

    @Test
    void aNackForAPsnNotSentYetResendsNothing() {
        ProSender s = sender(true);
        send(s, 5, 0);
        assertThat(s.onNack(nack(5, 0), Time.us(8))).isFalse();
        assertThat(sendAll(s, Time.us(8))).containsExactly(5, 6, 7, 8, 9);
        assertThat(s.retransmissions()).isZero();
    }

    @Test
    void aNackThatAcknowledgesNothingNewNeitherRestartsTheRtoNorReportsProgress() {
        for (boolean cumulative : new boolean[] {true, false}) {
            ProSender s = sender(cumulative);
            send(s, 10, 0);
            s.onAck(ack(0, 1), Time.us(8));
            assertThat(s.onNack(nack(2, 1), Time.us(20))).as("cumulative = %s", cumulative).isFalse();
            assertThat(s.timerDeadlinePs()).as("cumulative = %s", cumulative).isEqualTo(Time.us(88));
            assertThat(sendAll(s, Time.us(20))).as("the NACKed PSN is resent").containsExactly(2);
            assertThat(s.onNack(nack(4, 3), Time.us(30))).as("its cumulative ack covers 1 and 2").isTrue();
            assertThat(s.timerDeadlinePs()).isEqualTo(Time.us(110));
        }
    }

    /** ACKs that came back out of order acknowledged 0..2 without moving the cumulative ack; a NACK's cumulative ack then moves it. */
    @Test
    void aNackWhoseCumulativeAckCoversOnlyAcknowledgedPsnsRestartsACumulativeRtoOnly() {
        for (boolean cumulative : new boolean[] {true, false}) {
            ProSender s = sender(cumulative);
            send(s, 10, 0);
            s.onAck(ack(1, 0), Time.us(8));
            s.onAck(ack(2, 0), Time.us(9));
            s.onAck(ack(0, 0), Time.us(10));
            assertThat(s.timerDeadlinePs()).as("cumulative = %s", cumulative).isEqualTo(cumulative ? Time.us(80) : Time.us(90));
            assertThat(s.onNack(nack(5, 3), Time.us(30))).as("nothing newly acknowledged").isFalse();
            assertThat(s.timerDeadlinePs()).as("cumulative = %s", cumulative).isEqualTo(cumulative ? Time.us(110) : Time.us(90));
        }
    }

    /**
     * 2 ToRs x 4 Aggrs (ProRunTest's fabric), 200-packet flows, window 150: five holes of queue pair 0
     * (PSNs 60, 120, 160, 185, 195) all inside the last 150 PSNs, so only timeouts find them. NACKs do
     * not cut the rate here, so each resend goes out at once (as in pro-fig13's DCQCN reading).
     */
    private static RunResult tailLoss(String rtoRestart, Pro[] pro) throws Exception {
        List<Map<String, Object>> drops = new ArrayList<>();
        for (int psn : new int[] {60, 120, 160, 185, 195}) {
            drops.add(Map.of("qp", 0, "psn", psn));
        }
        PreparedRun run = ProRunTest.prepare(ProRunTest.fabric(11).trace(ProRunTest.crossTrace(200_000).toString()).set("packets.mtuBytes", 1000)
                .set("congestionControl.nackIsCongestionSignal", false).set("loadBalancing.initialWindow", 150)
                .set("loadBalancing.rtoRestart", rtoRestart).set("failures.dropPackets", drops), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(8);
        assertThat(run.network().injectedDrops()).isEqualTo(5);
        assertThat(Invariants.violations(run)).isEmpty();
        return r;
    }

    private static long slowestOtherFctPs(RunResult r) {
        return r.flowResults().stream().filter(f -> f.flow() != 0).mapToLong(FlowResult::fctPs).max().orElseThrow();
    }

    @Test
    void aCumulativeRtoResendsTailHolesOneTimeoutAfterTheHeadStoppedAnAnyAckRtoWaitsForWindowHalvings() throws Exception {
        Pro[] cumulative = new Pro[1];
        RunResult c = tailLoss("cumulative", cumulative);
        FlowResult fc = c.flowResults().get(0);
        assertThat(fc.timeouts()).as("one sender RTO resends what is left").isEqualTo(1);
        assertThat(cumulative[0].senderTimeouts()).as("the scheme's total over every queue pair")
                .isEqualTo(c.flowResults().stream().mapToLong(FlowResult::timeouts).sum());
        assertThat(cumulative[0].receiverTimeouts()).isLessThanOrEqualTo(1);
        assertThat(fc.fctPs()).as("within two RTOs of the others").isLessThan(slowestOtherFctPs(c) + Time.us(160));

        Pro[] anyAck = new Pro[1];
        RunResult a = tailLoss("any-ack", anyAck);
        FlowResult fa = a.flowResults().get(0);
        // the receiver's first QP_TIMEOUT (wnd 150 -> 75) NACKs 60 and 120; their ACKs restart the sender's RTO, the
        // second (75 -> 37) NACKs 160 and again postpones it; only then does the RTO fire
        assertThat(anyAck[0].receiverTimeouts()).isGreaterThanOrEqualTo(2);
        assertThat(anyAck[0].nacks()).isGreaterThan(cumulative[0].nacks());
        assertThat(fa.fctPs()).as("at least one more RTO").isGreaterThan(fc.fctPs() + Time.us(80));
    }

    @Test
    void unknownReadingsAreOneLineScenarioErrors() {
        assertThatThrownBy(() -> ProRunTest.fabric(1).trace(ProRunTest.crossTrace(1000).toString()).set("loadBalancing.rtoRestart", "never").run())
                .isInstanceOf(ScenarioException.class).hasMessageContaining("rtoRestart").hasMessageContaining("'cumulative' or 'any-ack'");
        assertThatThrownBy(() -> ProRunTest.fabric(1).trace(ProRunTest.crossTrace(1000).toString()).set("loadBalancing.mprdmaRetransmit", "irn").run())
                .isInstanceOf(ScenarioException.class).hasMessageContaining("mprdmaRetransmit").hasMessageContaining("'selective' or 'go-back-n'");
    }
}
