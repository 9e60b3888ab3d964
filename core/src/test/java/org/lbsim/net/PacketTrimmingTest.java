package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;
import org.lbsim.transport.NicSelectiveRepeat;

/**
 * {@code switches.overflow: trim} on a 3-host incast: one leaf, h1 and h2 each send 64 packets to h0
 * at 100 Gb/s line rate; the leaf's port to h0 holds 3 frames. With drop-tail the port drops; with
 * trimming it drops nothing, every trimmed header reaches h0 ahead of the data, h0 NACKs exactly
 * that PSN and NIC selective repeat resends exactly that packet, so resends equal trims.
 */
class PacketTrimmingTest {
    private static final int FRAME_BYTES = 4096 + 62;
    private static final long MESSAGE_BYTES = 64 * 4096L;

    @TempDir
    Path dir;

    private Scenario incast(String overflow) {
        TopologySpec topo = new TopologySpec.LeafSpine(3, 1, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(new BufferSpec.PerPort(3 * FRAME_BYTES), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults(), false,
                overflow);
        List<long[]> rows = new ArrayList<>();
        rows.add(ScenarioTweaks.flow(1, 0, MESSAGE_BYTES));
        rows.add(ScenarioTweaks.flow(2, 0, MESSAGE_BYTES));
        return new Scenario("trim-incast", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(),
                new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)), ScenarioTweaks.trace(dir, "incast.csv", rows),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    @Test
    void dropTailDropsWhereTrimmingCutsAndResendsEachTrimmedPacketOnce() {
        RunResult dropTail = CheckedRun.of(incast("drop-tail"), dir).result();
        assertThat(dropTail.counters().drops()).as("drop-tail: the 3-frame port overflows").isPositive();
        assertThat(dropTail.schemeCounters()).as("drop-tail registers no counter").doesNotContainKey("switch.trimmed");

        CheckedRun run = CheckedRun.of(incast("trim"), dir);
        RunResult trim = run.result();
        long trimmed = trim.schemeCounters().get("switch.trimmed").longValue();
        assertThat(trim.counters().dropped()).as("nothing dropped anywhere").isZero();
        assertThat(trimmed).isPositive();
        assertThat(trim.counters().retransmissions()).as("one resend per trimmed packet").isEqualTo(trimmed);
        assertThat(trim.counters().timeouts()).isZero();
        assertThat(trim.counters().spuriousRetransmissions()).isZero();
        assertThat(trim.counters().nacks()).as("one NACK per trimmed header").isEqualTo(trimmed);
        assertThat(trim.flowsFinished()).isEqualTo(2);
        assertThat(trim.counters().delivered()).as("packets conserved: trimmed headers are delivered, not lost")
                .isEqualTo(trim.counters().injected());
        assertThat(trim.flowResults().stream().mapToLong(f -> f.duplicatesReceived()).sum()).isZero();
    }

    /**
     * The first trim, by hand: a frame is 4158 B (332,640 ps at 100 Gb/s) plus a 20 B gap (1,600 ps), so each
     * sender's frame k reaches the leaf at k x 334,240 + 332,640 + 100,000 ps. Both frames 0 fit (8,316 B) and
     * the first starts at once; at 334,240 later the first has ended its gap and frames 1 join (12,474 B: full);
     * at 2 x 334,240 later frame 1 of one sender is in service, the other is waiting, so the second frame 2 that
     * arrives is trimmed, at 432,640 + 668,480 = 1,101,120 ps, behind the frame in service (it ends its gap at
     * 1,435,360). The 62 B header leaves first (4,960 ps) and crosses the 100 ns link: at h0 at 1,540,320 ps.
     */
    @Test
    void theFirstTrimmedHeaderReachesTheReceiverAtTheInstantComputedByHand() {
        long[] firstHeader = firstHeader(prepared -> { });
        assertThat(firstHeader[0]).isEqualTo(1_540_320L);
        assertThat(firstHeader[1]).as("the PSN of the trimmed frame 2").isEqualTo(2);
        assertThat(firstHeader[2]).as("the data header alone").isEqualTo(62);
    }

    /** A dequeue strategy that serves the data FIFO first holds the headers back while data waits: the first arrives later, all flows still finish. */
    @Test
    void aDequeueStrategyDecidesWhenTheHeaderLeaves() {
        long[] dataFirst = firstHeader(prepared -> prepared.network().setDequeueStrategy(port -> p -> false));
        assertThat(dataFirst[0]).isGreaterThan(1_540_320L + 334_240L);
    }

    private long[] firstHeader(java.util.function.Consumer<org.lbsim.sim.PreparedRun> beforeRun) {
        long[] firstHeader = {-1, -1, -1};
        CheckedRun run = CheckedRun.of(incast("trim"), dir, (lb, recovery) -> sender -> {
            QpParts parts = QueuePairScheme.separate(lb, recovery).create(sender);
            ReceiverPolicy nic = parts.receiver();
            ReceiverPolicy watching = new ReceiverPolicy() {
                @Override
                public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
                    nic.onOutOfOrder(rx, data, nowPs);
                }

                @Override
                public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
                    nic.onInOrder(rx, data, nowPs);
                }

                @Override
                public void onDuplicate(ReceiverQp rx, Packet data, long nowPs) {
                    nic.onDuplicate(rx, data, nowPs);
                }

                @Override
                public void onTrimmed(ReceiverQp rx, Packet header, long nowPs) {
                    if (firstHeader[0] < 0) {
                        firstHeader[0] = nowPs;
                        firstHeader[1] = header.psn;
                        firstHeader[2] = header.sizeBytes;
                    }
                    nic.onTrimmed(rx, header, nowPs);
                }
            };
            return new QpParts(parts.entropy(), parts.recovery(), watching, parts.sender());
        }, beforeRun);
        assertThat(run.result().flowsFinished()).isEqualTo(2);
        return firstHeader;
    }

    @Test
    void anUnknownOverflowPolicyIsRejectedNamingTheFieldAndTheAllowedValues() {
        assertThatThrownBy(() -> Simulation.prepare(incast("tail-drop"), dir))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("switches.overflow")
                .hasMessageContaining("allowed: drop-tail, trim");
    }
}
