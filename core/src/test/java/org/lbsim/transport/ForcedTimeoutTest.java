package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.lb.pro.Pro;
import org.lbsim.metrics.FlowResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;

/**
 * Every loss-recovery scheme against the loss it can only repair by its timer: host 0 sends six
 * packets to host 1 under the same leaf, and the first transmission of the last one (PSN 5) is
 * dropped at the leaf. Nothing arrives behind the hole, so no NACK, SACK gap or out-of-order
 * window can see it. Each test computes by hand when the timer fires and asserts, to the
 * picosecond, that the resend leaves the NIC then, and what it is.
 *
 * <p>Timing, from the packet format (4096 B payload + 62 B header, 64 B ACKs, 20 B inter-frame
 * gap) at 100 Gb/s (80 ps per byte) with 100 ns links: a frame takes 4158 x 80 = 332,640 ps, a frame
 * and its gap 4178 x 80 = 334,240 ps, so PSN i leaves the NIC at i x 334,240 ps. It is stored
 * and forwarded once (leaf), and its ACK (64 x 80 = 5,120 ps) comes back the same way, so each
 * ACK arrives 2 x (332,640 + 100,000) + 2 x (5,120 + 100,000) = 1,075,520 ps after its packet left:
 * the ACK of PSN 4, the last progress, at 4 x 334,240 + 1,075,520 = 2,412,480 ps.
 */
class ForcedTimeoutTest {
    static final int PACKETS = 6;
    static final int LOST = PACKETS - 1;
    static final long SLOT_PS = 4178L * 80;
    static final long RTT_PS = 2 * (4158L * 80 + 100_000) + 2 * (64L * 80 + 100_000);
    static final long LAST_PROGRESS_PS = 4 * SLOT_PS + RTT_PS;
    static final long RTO_PS = 80_000_000;

    @TempDir
    Path dir;

    static Scenario twoHostsLastPacketLost(Path dir, ComponentSpec lb, ComponentSpec recovery) {
        return twoHosts(dir, lb, recovery, PACKETS, List.of(new DroppedPacket(0, LOST)));
    }

    static Scenario twoHosts(Path dir, ComponentSpec lb, ComponentSpec recovery, int packets, List<DroppedPacket> drops) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 1, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        FailureSpec drop = new FailureSpec(List.of(), 0, 0, drops);
        return new Scenario("tail-drop", 1, topo, PacketSpec.defaults(), switches, lb, TestScenarios.lineRate(), recovery,
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 1, packets * 4096L))), drop, LimitsSpec.defaults(),
                new MetricsSpec(0, 0), NicSpec.defaults());
    }

    private record Outcome(CheckedRun run, WireTap tap, FlowResult flow) {
    }

    private Outcome run(ComponentSpec lb, ComponentSpec recovery) {
        return run(lb, recovery, 0);
    }

    /** {@code capFrom}: PSNs from here on wait for the ACK of the PSN 3 before them (a BDP cap of three packets); 0 = none. */
    private Outcome run(ComponentSpec lb, ComponentSpec recovery, int capFrom) {
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(twoHostsLastPacketLost(dir, lb, recovery), dir, r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        assertThat(run.prepared().network().injectedDrops()).as("injected drops").isEqualTo(1);
        for (int psn = 0; psn < PACKETS; psn++) {
            long expected = capFrom > 0 && psn >= capFrom ? (psn - 3) * SLOT_PS + RTT_PS : psn * SLOT_PS;
            assertThat(tap[0].firstSentPs(0, psn)).as("first transmission of PSN %d", psn).isEqualTo(expected);
        }
        assertThat(f.finished()).isTrue();
        return new Outcome(run, tap[0], f);
    }

    /** Every PSN went on the wire once, except {@code twice}, which went twice: the second time at {@code resendPs}. */
    private static void assertResentOnceAt(Outcome o, int twice, long resendPs) {
        for (int psn = 0; psn < PACKETS; psn++) {
            assertThat(o.tap().sends(0, psn)).as("transmissions of PSN %d", psn).isEqualTo(psn == twice ? 2 : 1);
        }
        assertThat(o.tap().sends(0, PACKETS)).as("nothing beyond the message").isZero();
        assertThat(o.tap().lastSentPs(0, twice)).as("when PSN %d went again", twice).isEqualTo(resendPs);
        assertThat(o.flow().timeouts()).as("timeouts").isEqualTo(1);
        assertThat(o.flow().retransmissions()).as("retransmissions").isEqualTo(1);
        assertThat(o.flow().spuriousRetransmissions()).as("spurious retransmissions").isZero();
        assertThat(o.flow().packetsSent()).isEqualTo(PACKETS + 1);
        // the resend crosses the fabric and its ACK comes back: one round trip after it left
        assertThat(o.flow().fctPs()).as("FCT").isEqualTo(resendPs + RTT_PS);
        // the injected drop is the only loss of the run: nothing overflowed, no link failed, every route existed
        assertThat(o.run().result().counters().dropped()).isEqualTo(1);
        assertThat(o.run().result().counters().drops()).as("buffer overflows").isZero();
        assertThat(o.run().result().counters().linkLoss()).isZero();
        assertThat(o.run().result().counters().noRouteDrops()).isZero();
    }

    private static ComponentSpec ecmp() {
        return TestScenarios.lb("ecmp");
    }

    @Test
    void goBackNResendsTheTailPacketOneRtoAfterTheLastCumulativeAck() {
        // 2,412,480 + 80,000,000 = 82,412,480 ps
        Outcome o = run(ecmp(), new ComponentSpec("go-back-n", new GoBackN.Params(80)));
        assertThat(o.tap().nacks()).as("nothing arrived behind the hole: no NACK").isEmpty();
        assertResentOnceAt(o, LOST, LAST_PROGRESS_PS + RTO_PS);
        assertThat(LAST_PROGRESS_PS + RTO_PS).isEqualTo(82_412_480L);
    }

    @Test
    void theSendersHostCountsItsTimerFromTheFirstSendUntilTheQueuePairCompletes() {
        // go-back-n's deadline runs from the first send (0 ps) and moves with every ACK; the pending wake-up stays
        // at the first deadline until it fires and finds the deadline one RTO after the ACK of PSN 4
        org.lbsim.sim.PreparedRun p = org.lbsim.sim.Simulation.prepare(
                twoHostsLastPacketLost(dir, ecmp(), new ComponentSpec("go-back-n", new GoBackN.Params(80))), dir);
        p.transport().keepAllQueuePairs();
        org.lbsim.kernel.Simulator sim = p.simulator();
        HostStack host = p.transport().stack(0);
        sim.run(LAST_PROGRESS_PS);
        assertThat(host.idleThrough(RTO_PS - 1)).as("every packet out, every ACK but the lost one's back").isTrue();
        assertThat(host.idleThrough(RTO_PS)).as("the timer armed at the first send").isFalse();
        sim.run(RTO_PS);
        long resendPs = LAST_PROGRESS_PS + RTO_PS;
        assertThat(host.idleThrough(resendPs - 1)).as("re-armed at the moved deadline").isTrue();
        assertThat(host.idleThrough(resendPs)).isFalse();
        sim.run(2 * RTO_PS);
        assertThat(p.transport().senderOf(0).completedPs()).isEqualTo(resendPs + RTT_PS);
        assertThat(host.idleThrough(Long.MAX_VALUE - 1)).as("a complete queue pair's timer counts no more").isTrue();
    }

    @Test
    void nicSelectiveRepeatRewindsToTheOldestUnacknowledgedPsnOneRtoAfterTheLastCumulativeAck() {
        // 2,412,480 + 80,000,000 = 82,412,480 ps; the rewind resends PSN 5 alone and stops at the end of what was sent
        Outcome o = run(ecmp(), new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)));
        assertThat(o.tap().nacks()).isEmpty();
        assertResentOnceAt(o, LOST, 82_412_480L);
    }

    @Test
    void sackResendsTheUnacknowledgedTailOneRtoAfterTheLastAck() {
        // the gap never exceeds the threshold (nothing is acknowledged above the hole): 2,412,480 + 80,000,000 ps
        Outcome o = run(ecmp(), new ComponentSpec("sack", new SackThreshold.Params(32, 80)));
        assertResentOnceAt(o, LOST, 82_412_480L);
    }

    @Test
    void irnResendsTheUnacknowledgedTailOneRtoAfterTheLastAckEvenWithItsBdpCap() {
        // BDP-FC lets three packets out (the cap is one base RTT of bytes, 3 frames): PSN 3, 4, 5 leave as the ACKs of
        // 0, 1, 2 arrive, at 1,075,520 + k x 334,240 ps; the ACK of PSN 4 arrives one RTT after it left, at
        // 1,409,760 + 1,075,520 = 2,485,280 ps, and the RTO resends PSN 5 at 2,485,280 + 80,000,000 = 82,485,280 ps
        Outcome o = run(ecmp(), new ComponentSpec("irn", new Irn.Params(80, 1)), 3);
        assertResentOnceAt(o, LOST, 82_485_280L);
    }

    @Test
    void erasureWithAnRtoSendsOneFreshSymbolOneRtoAfterTheLastAckAndNeverResendsAPsn() {
        // 2,412,480 + 80,000,000 = 82,412,480 ps: the lost symbol 5 is replaced by a new one, PSN 6
        Outcome o = run(ecmp(), new ComponentSpec("erasure", IdealErasure.Params.rto(80)));
        for (int psn = 0; psn < PACKETS; psn++) {
            assertThat(o.tap().sends(0, psn)).as("transmissions of PSN %d", psn).isEqualTo(1);
        }
        assertThat(o.tap().sends(0, PACKETS)).isEqualTo(1);
        assertThat(o.tap().firstSentPs(0, PACKETS)).isEqualTo(82_412_480L);
        assertThat(o.tap().sends(0, PACKETS + 1)).isZero();
        assertThat(o.flow().timeouts()).isEqualTo(1);
        assertThat(o.flow().packetsSent()).isEqualTo(PACKETS + 1);
        assertThat(o.flow().fctPs()).isEqualTo(82_412_480L + RTT_PS);
    }

    @Test
    void erasureEndingAsHtsimSendsAgainOneSmoothedRttAfterTheFirstPassUntilTheCompletingAck() {
        // The first pass ends at the first poll that finds the message covered: the NIC is free again one slot after
        // PSN 5, at 6 x 334,240 = 2,005,440 ps. Every ACK samples the same RTT, 1,075,520 ps (7 x 1,075,520 / 8 +
        // 1,075,520 / 8 is exact), so the sender sends again at 2,005,440 + 1,075,520 = 3,080,960 ps and goes on at
        // line rate until the ACK of that first fresh symbol completes the message, 1,075,520 ps later (4,156,480 ps):
        // symbols 6..9 leave at 3,080,960 + k x 334,240 for k = 0..3 (k = 4 would be 4,417,920).
        Outcome o = run(ecmp(), new ComponentSpec("erasure", IdealErasure.Params.defaults()));
        for (int psn = 0; psn < PACKETS; psn++) {
            assertThat(o.tap().sends(0, psn)).as("transmissions of PSN %d", psn).isEqualTo(1);
        }
        for (int k = 0; k < 4; k++) {
            assertThat(o.tap().firstSentPs(0, PACKETS + k)).as("fresh symbol %d", PACKETS + k).isEqualTo(3_080_960L + k * SLOT_PS);
        }
        assertThat(o.tap().sends(0, PACKETS + 4)).isZero();
        assertThat(o.flow().retransmissions()).as("extra symbols").isEqualTo(4);
        assertThat(o.flow().timeouts()).as("resumes after the first pass").isEqualTo(1);
        assertThat(o.flow().fctPs()).isEqualTo(3_080_960L + RTT_PS);
        assertThat(3_080_960L + RTT_PS).isEqualTo(4_156_480L);
    }

    @Test
    void erasureEndingAsHtsimWakesOneSmoothedRttAfterTheFirstPassWhenNoAckArrivesDuringItsWait() {
        // PSNs 3-5 are lost, so the last ACK (of PSN 2) arrives at 2 x 334,240 + 1,075,520 = 1,744,000 ps, before the
        // first pass ends at 2,005,440 ps: no feedback comes during the wait, and only the sender's own timer can end
        // it, at 2,005,440 + 1,075,520 = 3,080,960 ps. Three fresh symbols make up the three lost; the ACK of the third
        // (two slots later) completes the message.
        WireTap[] tap = new WireTap[1];
        List<DroppedPacket> drops = List.of(new DroppedPacket(0, 3), new DroppedPacket(0, 4), new DroppedPacket(0, 5));
        Scenario s = twoHosts(dir, ecmp(), new ComponentSpec("erasure", IdealErasure.Params.defaults()), PACKETS, drops);
        CheckedRun run = CheckedRun.of(s, dir, r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        assertThat(run.prepared().network().injectedDrops()).as("injected drops").isEqualTo(3);
        assertThat(f.finished()).isTrue();
        assertThat(tap[0].firstSentPs(0, PACKETS)).as("first fresh symbol").isEqualTo(3_080_960L);
        assertThat(f.timeouts()).as("resumes after the first pass").isEqualTo(1);
        assertThat(f.fctPs()).isEqualTo(3_080_960L + 2 * SLOT_PS + RTT_PS);
    }

    private static ComponentSpec pro(String recovery) {
        Pro.Params d = Pro.Params.defaults();
        return new ComponentSpec("pro", new Pro.Params(d.rtoUs(), d.batchPackets(), d.destinationAware(), d.interQpOrchestration(),
                d.roundRobinStart(), d.initialWindow(), recovery, d.mprdmaBitmapPackets(), d.mprdmaDeltaPackets(), d.rtoRestart(),
                d.mprdmaRetransmit(), d.mprdmaSlowPaths(), d.mprdmaWindow(), d.mprdmaInitialWindow(), d.mprdmaProbe(),
                d.mprdmaBeyondBitmap()));
    }

    @Test
    void prosCautiousSenderResendsTheTailPacketOneRtoAfterTheCumulativeAckStopped() {
        // PRO VI-A: 80 us RTO for tail loss, restarted by the cumulative ack: 2,412,480 + 80,000,000 = 82,412,480 ps
        Outcome o = run(pro(Pro.Params.CAUTIOUS), TestScenarios.erasure());
        assertResentOnceAt(o, LOST, 82_412_480L);
    }

    @Test
    void theMprdmaSenderResendsTheTailPacketOneRtoAfterTheCumulativeAckStopped() {
        // the hole is less than Delta (32) behind snd_ooh (4), so only the RTO finds it: 2,412,480 + 80,000,000 ps
        Outcome o = run(pro(Pro.Params.MPRDMA), TestScenarios.erasure());
        assertResentOnceAt(o, LOST, 82_412_480L);
    }

    @Test
    void everySchemesRtoMustBeAPositivePeriodAndErasureNamesItsEndOfMessage() {
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> zeroRto = List.of(() -> new GoBackN.Params(0),
                () -> new NicSelectiveRepeat.Params(0), () -> new SackThreshold.Params(32, 0), () -> new Irn.Params(0, 1),
                () -> IdealErasure.Params.rto(0));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable make : zeroRto) {
            org.assertj.core.api.Assertions.assertThatThrownBy(make).isInstanceOf(org.lbsim.scenario.ScenarioException.class)
                    .hasMessageContaining("rtoUs");
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new IdealErasure.Params(80, false, "timeout"))
                .isInstanceOf(org.lbsim.scenario.ScenarioException.class).hasMessageContaining("endOfMessage")
                .hasMessageContaining("'rto' or 'srtt-after-pass', got 'timeout'");
        assertThat(IdealErasure.Params.defaults().endOfMessage()).isEqualTo(IdealErasure.END_SRTT_AFTER_PASS);
        assertThat(IdealErasure.Params.rto(80).endOfMessage()).isEqualTo(IdealErasure.END_RTO);
    }

    static List<Arguments> resendingSchemes() {
        return List.of(Arguments.of(new ComponentSpec("go-back-n", new GoBackN.Params(1))),
                Arguments.of(new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(1))),
                Arguments.of(new ComponentSpec("sack", new SackThreshold.Params(32, 1))),
                Arguments.of(new ComponentSpec("irn", new Irn.Params(1, 1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resendingSchemes")
    void anRtoShorterThanTheRoundTripResendsAPacketThatWasNeverLostAndCountsTheResendSpurious(ComponentSpec recovery) {
        // one packet, nothing lost: it leaves at 0 and its ACK is back at 1,075,520 ps, but the 1 us RTO fires first and
        // resends it at 1,000,000 ps; the copy reaches the receiver after the original, a duplicate: one spurious resend
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(twoHosts(dir, ecmp(), recovery, 1, List.of()), dir, r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        assertThat(tap[0].sends(0, 0)).isEqualTo(2);
        assertThat(tap[0].lastSentPs(0, 0)).isEqualTo(1_000_000L);
        assertThat(f.fctPs()).as("the original's ACK completes the message").isEqualTo(RTT_PS);
        assertThat(f.timeouts()).isEqualTo(1);
        assertThat(f.retransmissions()).isEqualTo(1);
        assertThat(f.spuriousRetransmissions()).isEqualTo(1);
        assertThat(f.duplicatesReceived()).isEqualTo(1);
        assertThat(run.result().counters().spuriousRetransmissions()).isEqualTo(1);
        assertThat(run.result().counters().retransmissions()).isEqualTo(1);
        assertThat(run.result().counters().dropped()).isZero();
    }
}
