package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.transport.ErasureSrttAfterPassTest.LINK_DELAY_NS;
import static org.lbsim.transport.ErasureSrttAfterPassTest.PACKETS;
import static org.lbsim.transport.ErasureSrttAfterPassTest.RATE_MBPS;
import static org.lbsim.transport.ErasureSrttAfterPassTest.RTT_PS;
import static org.lbsim.transport.ErasureSrttAfterPassTest.SLOT_PS;
import static org.lbsim.transport.ErasureSrttAfterPassTest.WIRE;
import static org.lbsim.transport.ErasureSrttAfterPassTest.htsimSrtt;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;

/**
 * The ideal erasure sender's default end of message is the OFAN authors' (csg-htsim
 * constant_cca_erasure.cpp, {@code endOfMessage: srtt-after-pass}); the 80 us timer is the named
 * reading {@code endOfMessage: rto}. On the 2-host fabric of {@link ErasureSrttAfterPassTest}, a
 * lost last symbol is recovered one smoothed RTT after the first pass under the default, and only
 * after the 80 us RTO under {@code rto}.
 */
class ErasureDefaultEndOfMessageTest {
    @TempDir
    Path dir;

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** The loss recovery a scenario file gets from {@code lossRecovery: {type: erasure, ...}}. */
    private static ComponentSpec bound(Object... keys) {
        Map<String, Object> recovery = map(keys);
        recovery.put("type", "erasure");
        return ScenarioBinder.bind(map("lossRecovery", recovery)).lossRecovery();
    }

    private FlowResult lastSymbolLost(ComponentSpec recovery) {
        TopologySpec topo = new TopologySpec.Custom(2, List.of("s0"), List.of("h0 s0", "h1 s0"), RATE_MBPS / 1000.0, LINK_DELAY_NS, List.of());
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        Scenario s = new Scenario("eom-default", 1, topo, WIRE, switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(), recovery,
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 1, PACKETS * (long) WIRE.mtuBytes()))),
                new FailureSpec(List.of(), 0, 0, List.of(new DroppedPacket(0, PACKETS - 1))), LimitsSpec.defaults(), new MetricsSpec(0, 0),
                NicSpec.defaults());
        CheckedRun r = CheckedRun.of(s, dir);
        assertThat(r.prepared().network().injectedDrops()).as("injected drops").isEqualTo(1);
        return r.result().flowResults().get(0);
    }

    @Test
    void anErasureSenderNamedOnlyByTypeEndsItsMessagesAsTheAuthorsSimulator() {
        assertThat(bound().params()).isEqualTo(new IdealErasure.Params(80, false, IdealErasure.END_SRTT_AFTER_PASS));
        assertThat(bound("rtoUs", 80).params()).as("an RTO alone does not select the timer")
                .isEqualTo(new IdealErasure.Params(80, false, IdealErasure.END_SRTT_AFTER_PASS));
        assertThat(bound("endOfMessage", "rto").params()).as("the timer is a named reading")
                .isEqualTo(new IdealErasure.Params(80, false, IdealErasure.END_RTO));
        assertThat(LossRecoveries.REGISTRY.find("erasure").orElseThrow().defaults()).isEqualTo(IdealErasure.Params.defaults());
    }

    @Test
    void byDefaultALostLastSymbolIsRecoveredOneSmoothedRttAfterThePassNotAfterTheTimer() {
        FlowResult flow = lastSymbolLost(bound());
        long resend = PACKETS * SLOT_PS + htsimSrtt(RTT_PS, PACKETS - 1);
        assertThat(flow.fctPs()).as("completed by the ACK of the first symbol sent one srtt after the pass").isEqualTo(resend + RTT_PS);
        assertThat(flow.fctPs()).isLessThan(Time.us(80));
        assertThat(flow.timeouts()).isEqualTo(1);
    }

    @Test
    void theRtoReadingWaitsForItsTimerBeforeSendingMore() {
        FlowResult flow = lastSymbolLost(bound("endOfMessage", "rto"));
        assertThat(flow.fctPs()).as("after the 80 us RTO, then one more symbol's round trip")
                .isGreaterThan(Time.us(80)).isLessThan(Time.us(80) + PACKETS * SLOT_PS + 2 * RTT_PS);
        assertThat(flow.timeouts()).isEqualTo(1);
        assertThat(flow.retransmissions()).as("one fresh symbol replaces the lost one").isEqualTo(1);
    }
}
