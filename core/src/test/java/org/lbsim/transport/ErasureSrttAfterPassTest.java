package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.scenario.LimitsSpec;
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
 * The erasure sender's end of message as the OFAN authors' htsim runs it ({@code endOfMessage:
 * srtt-after-pass}, csg-htsim constant_cca_erasure.cpp): one flow of {@code PACKETS} full packets
 * from h0 to h1 through one switch, at line rate, with chosen symbols dropped at the switch. Every
 * time is computed here from the wire: nothing queues, so every ACK samples the same RTT.
 */
class ErasureSrttAfterPassTest {
    static final int PACKETS = 100;
    static final long RATE_MBPS = 800_000;
    /** Not a whole nanosecond, so the RTT is no multiple of 8 ps and htsim's integer smoothing truncates. */
    static final double LINK_DELAY_NS = 500.001;

    static final PacketSpec WIRE = PacketSpec.defaults(); // 4096 B payload, 62 B header, 64 B ACK, 20 B gap
    static final long DATA_SER_PS = Time.serializationPs(WIRE.mtuBytes() + WIRE.headerBytes(), RATE_MBPS);
    static final long SLOT_PS = DATA_SER_PS + Time.serializationPs(WIRE.interFrameGapBytes(), RATE_MBPS);
    static final long LINK_PS = Time.ns(LINK_DELAY_NS);
    /** Data h0 -> switch -> h1, ACK h1 -> switch -> h0: two serializations of each, four link delays. */
    static final long RTT_PS = 2 * DATA_SER_PS + 2 * Time.serializationPs(WIRE.ackBytes(), RATE_MBPS) + 4 * LINK_PS;

    @TempDir
    Path dir;

    static final ComponentSpec AUTHORS_RULE = new ComponentSpec("erasure",
            new IdealErasure.Params(80, false, IdealErasure.END_SRTT_AFTER_PASS));

    private record Run(FlowResult flow, WireTap tap, long passEndPs, long srttPs) {
    }

    private Run run(int... droppedPsns) {
        TopologySpec topo = new TopologySpec.Custom(2, List.of("s0"), List.of("h0 s0", "h1 s0"), RATE_MBPS / 1000.0, LINK_DELAY_NS, List.of());
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        List<DroppedPacket> drops = new ArrayList<>();
        for (int psn : droppedPsns) {
            drops.add(new DroppedPacket(0, psn));
        }
        Scenario s = new Scenario("eom", 1, topo, WIRE, switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(), AUTHORS_RULE,
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 1, PACKETS * (long) WIRE.mtuBytes()))),
                new FailureSpec(List.of(), 0, 0, drops), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
        WireTap[] tap = new WireTap[1];
        CheckedRun r = CheckedRun.of(s, dir, p -> tap[0] = WireTap.attach(p));
        assertThat(r.prepared().network().injectedDrops()).as("injected drops").isEqualTo(droppedPsns.length);
        ErasureSrttAfterPass sender = (ErasureSrttAfterPass) r.prepared().transport().senderOf(0).recovery();
        return new Run(r.result().flowResults().get(0), tap[0], sender.passEndPs(), sender.srttPs());
    }

    /** htsim's update_rtt over {@code samples} equal samples: the first sets it, then 7/8 old + 1/8 new, in integer ps. */
    static long htsimSrtt(long samplePs, int samples) {
        long srtt = 0;
        for (int i = 0; i < samples; i++) {
            srtt = srtt > 0 ? 7 * srtt / 8 + samplePs / 8 : samplePs;
        }
        return srtt;
    }

    @Test
    void theWireModelOfThisTestHolds() {
        assertThat(DATA_SER_PS).isEqualTo(41_580);
        assertThat(SLOT_PS).isEqualTo(41_780);
        assertThat(RTT_PS).isEqualTo(2 * 41_580 + 2 * 640 + 4 * 500_001);
        assertThat(RTT_PS % 8).as("the smoothing truncates").isNotZero();
        assertThat(htsimSrtt(RTT_PS, PACKETS - 1)).as("99 equal samples drift down by truncation").isLessThan(RTT_PS)
                .isGreaterThan(RTT_PS - 8);
    }

    @Test
    void aLostLastPacketIsResentOneSmoothedRttAfterTheFirstPassEnds() {
        Run r = run(PACKETS - 1);
        // the first pass: PSN i goes out at i slots; the poll after the last one finds the message covered
        assertThat(r.tap().firstSentPs(0, PACKETS - 1)).isEqualTo((PACKETS - 1) * SLOT_PS);
        long passEnd = PACKETS * SLOT_PS;
        assertThat(r.passEndPs()).as("end of the first pass").isEqualTo(passEnd);
        // every ACK but the lost symbol's arrived before the resend, each sampling RTT_PS
        long srtt = htsimSrtt(RTT_PS, PACKETS - 1);
        long resend = passEnd + srtt;
        assertThat(r.tap().firstSentPs(0, PACKETS)).as("the first symbol after the message (RTT %d ps, srtt %d ps)", RTT_PS, srtt)
                .isEqualTo(resend);
        // then it streams at line rate until the ACK of that symbol completes the message
        long done = resend + RTT_PS;
        long streamed = (RTT_PS - 1) / SLOT_PS + 1; // symbols sent at resend + j slots, before done
        assertThat(r.flow().fctPs()).as("completion").isEqualTo(done);
        assertThat(r.flow().retransmissions()).as("extra symbols").isEqualTo(streamed);
        assertThat(r.tap().firstSentPs(0, PACKETS + (int) streamed - 1)).isEqualTo(resend + (streamed - 1) * SLOT_PS);
        assertThat(r.tap().sends(0, PACKETS + (int) streamed)).isZero();
        assertThat(r.flow().timeouts()).as("one wait of one smoothed RTT").isEqualTo(1);
    }

    @Test
    void aLostResendIsFollowedByTheNextSymbolOneSlotLaterNotByAnotherWait() {
        Run r = run(PACKETS - 1, PACKETS);
        long resend = PACKETS * SLOT_PS + htsimSrtt(RTT_PS, PACKETS - 1);
        assertThat(r.tap().firstSentPs(0, PACKETS)).isEqualTo(resend);
        assertThat(r.tap().firstSentPs(0, PACKETS + 1)).isEqualTo(resend + SLOT_PS);
        assertThat(r.flow().fctPs()).as("completed by the ACK of the symbol after the lost resend").isEqualTo(resend + SLOT_PS + RTT_PS);
        assertThat(r.flow().timeouts()).isEqualTo(1);
    }

    @Test
    void nothingMoreIsSentWhenEverythingArrives() {
        Run r = run();
        assertThat(r.flow().fctPs()).isEqualTo((PACKETS - 1) * SLOT_PS + RTT_PS);
        assertThat(r.flow().packetsSent()).isEqualTo(PACKETS);
        assertThat(r.flow().retransmissions()).isZero();
        assertThat(r.flow().timeouts()).isZero();
        assertThat(r.tap().sends(0, PACKETS)).isZero();
        assertThat(r.passEndPs()).isEqualTo(PACKETS * SLOT_PS);
    }

    @Test
    void aSymbolMissingBelowTheHighestAckIsReplacedWithoutAnyWait() {
        // PSN 10's loss shows when PSN 11 is acked, about 50 slots later, long before the pass ends:
        // at the end of the pass the sender counts it lost and sends one more symbol straight away.
        Run r = run(10);
        assertThat(r.tap().firstSentPs(0, PACKETS)).isEqualTo(PACKETS * SLOT_PS);
        assertThat(r.flow().retransmissions()).isEqualTo(1);
        assertThat(r.flow().fctPs()).isEqualTo(PACKETS * SLOT_PS + RTT_PS);
        assertThat(r.flow().timeouts()).isZero();
        assertThat(r.passEndPs()).isEqualTo((PACKETS + 1) * SLOT_PS);
    }
}
