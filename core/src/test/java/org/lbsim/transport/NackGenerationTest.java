package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.Dcqcn;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketSource;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
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
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.ReceiverQp;

/**
 * The HPCC / ConWeave ns-3 reading of the receiving RNIC and of DCQCN's reaction to a NACK
 * (conweave-ns3 src/point-to-point/model/rdma-hw.cc): a NACK goes out when the expected PSN differs
 * from the last NACKed one or the NACK interval has passed since the last NACK (ReceiverCheckSeq,
 * lines 651-658), every NACK carries the CNP flag (657, 348-353), and the sender's Mellanox DCQCN
 * notes it (546-549, 928-943) and cuts at its next rate-decrease check (945-964).
 *
 * <p>Two hosts under two leaves joined by one spine, 100 Gb/s links of 100 ns, ECN off (so a NACK
 * is the only congestion signal); one flow of {@value #PACKETS} packets of 4096 B loses the first
 * transmission of PSN {@value #LOST}, so the receiver's ePSN sticks at {@value #LOST} for about
 * one round trip (~2.5 us) while later packets keep arriving every ~0.34 us.
 */
class NackGenerationTest {
    private static final int PACKETS = 1000;
    private static final int LOST = 10;
    private static final long LINE_MBPS = 100_000;
    /** One data frame at 100 Gb/s: 4096 B payload plus headers and gap. */
    private static final long FRAME_PS = frameTimePs();

    @TempDir
    Path dir;

    private static long frameTimePs() {
        PacketSpec p = PacketSpec.defaults();
        return Time.serializationPs(p.mtuBytes() + p.headerBytes() + p.interFrameGapBytes(), LINE_MBPS);
    }

    private Scenario twoHostsOneDrop(ComponentSpec recovery, ComponentSpec cc, String name) {
        TopologySpec topo = new TopologySpec.LeafSpine(1, 2, 1, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        FailureSpec drop = new FailureSpec(List.of(), 0, 0, List.of(new DroppedPacket(0, LOST)));
        return new Scenario("nack-generation", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"), cc, recovery,
                ScenarioTweaks.trace(dir, name + ".csv", List.of(ScenarioTweaks.flow(0, 1, PACKETS * 4096L))), drop, LimitsSpec.defaults(),
                new MetricsSpec(0, 0), NicSpec.defaults());
    }

    private static ComponentSpec nicSr(String mode, double intervalUs) {
        return new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80, mode, intervalUs));
    }

    private static ComponentSpec dcqcn(boolean nackCarriesCnp) {
        Dcqcn.Params p = Dcqcn.Params.defaults();
        return new ComponentSpec("dcqcn", new Dcqcn.Params(p.rateIncreaseTimerUs(), p.rateDecreaseIntervalUs(), p.byteCounterBytes(),
                p.additiveIncreaseGbps(), p.hyperIncreaseGbps(), p.alphaGain(), p.alphaUpdateUs(), p.fastRecoveryStages(),
                p.minRateGbps(), p.cnpIntervalUs(), p.clampTargetRate(), nackCarriesCnp));
    }

    @Test
    void withTheIntervalReadingAHoleThatOutlastsTheIntervalIsNackedAgainAtTheFirstOutOfOrderArrivalAfterIt() {
        double intervalUs = 1;
        long intervalPs = Time.us(intervalUs);
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(twoHostsOneDrop(nicSr("epsn-change-or-interval", intervalUs), TestScenarios.lineRate(), "i1"), dir,
                r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        ReceiverQp receiver = run.prepared().transport().receiverOf(0);
        List<WireTap.NackArrival> nacks = tap[0].nacks();
        String counts = "NACK arrivals " + nacks + ", retransmissions " + f.retransmissions() + ", spurious " + f.spuriousRetransmissions();

        assertThat(f.finished()).isTrue();
        assertThat(f.timeouts()).as(counts).isZero();
        // the hole lasts about 2.5 us, so a 1 us interval repeats the NACK for the same ePSN
        assertThat(receiver.nacks()).as(counts).isBetween(2L, 4L);
        assertThat(nacks).as(counts).hasSize((int) receiver.nacks()).allSatisfy(n -> assertThat(n.epsn()).isEqualTo(LOST));
        // NACKs share one path with nothing else on it (out-of-order data is not ACKed), so their
        // spacing at the sender is their spacing at the receiver: never within the interval, and
        // no later than the first out-of-order arrival after it (one frame time)
        for (int i = 1; i < nacks.size(); i++) {
            long gap = nacks.get(i).atPs() - nacks.get(i - 1).atPs();
            assertThat(gap).as("gap between NACK %d and %d (%s)", i - 1, i, counts).isBetween(intervalPs, intervalPs + FRAME_PS);
        }
        // NIC-SR resends the ePSN packet once per NACK; only the first copy was needed
        assertThat(tap[0].sends(0, LOST)).as(counts).isEqualTo(1 + nacks.size());
        assertThat(f.retransmissions()).as(counts).isEqualTo(nacks.size());
        assertThat(f.spuriousRetransmissions()).as(counts).isEqualTo(nacks.size() - 1);
        assertThat(f.packetsSent()).isEqualTo(PACKETS + nacks.size());
    }

    @Test
    void anIntervalLongerThanTheHoleGivesTheSameRunAsOneNackPerEpsnToThePicosecond() {
        CheckedRun once = CheckedRun.of(twoHostsOneDrop(new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)), dcqcn(true), "d"), dir);
        CheckedRun hpcc = CheckedRun.of(twoHostsOneDrop(nicSr("epsn-change-or-interval", 500), dcqcn(true), "h"), dir);
        FlowResult a = once.result().flowResults().get(0);
        FlowResult b = hpcc.result().flowResults().get(0);

        assertThat(once.prepared().transport().receiverOf(0).nacks()).isEqualTo(1);
        assertThat(hpcc.prepared().transport().receiverOf(0).nacks()).isEqualTo(1);
        assertThat(b.fctPs()).isEqualTo(a.fctPs());
        assertThat(hpcc.result().cctPs()).isEqualTo(once.result().cctPs());
        assertThat(b.packetsSent()).isEqualTo(a.packetsSent()).isEqualTo(PACKETS + 1);
        assertThat(b.retransmissions()).isEqualTo(a.retransmissions()).isEqualTo(1);
    }

    @Test
    void goBackNTakesTheSameIntervalReadingAndRewindsOnEveryRepeatedNack() {
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(twoHostsOneDrop(new ComponentSpec("go-back-n", new GoBackN.Params(80, "epsn-change-or-interval", 1, GoBackN.ON_PROGRESS, GoBackN.TO_NACK_EPSN)),
                TestScenarios.lineRate(), "g"), dir, r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        List<WireTap.NackArrival> nacks = tap[0].nacks();

        assertThat(f.finished()).isTrue();
        assertThat(nacks).as("NACK arrivals").hasSizeGreaterThanOrEqualTo(2).allSatisfy(n -> assertThat(n.epsn()).isEqualTo(LOST));
        // every NACK rewinds the sender to the lost PSN, which therefore goes out once more per NACK
        assertThat(tap[0].sends(0, LOST)).as("NACK arrivals %s", nacks).isEqualTo(1 + nacks.size());
        // the default go-back-N NACKs once
        CheckedRun once = CheckedRun.of(twoHostsOneDrop(new ComponentSpec("go-back-n", new GoBackN.Params(80)), TestScenarios.lineRate(), "g1"), dir);
        assertThat(once.prepared().transport().receiverOf(0).nacks()).isEqualTo(1);
    }

    /** Each data packet the sender put on the wire, with the DCQCN rate at that instant, and the time of the first NACK. */
    private static final class RateTap {
        final List<long[]> sends = new ArrayList<>(); // {timePs, rateMbps}
        long firstNackPs = -1;

        static RateTap attach(PreparedRun run) {
            RateTap tap = new RateTap();
            HostStack stack = run.transport().stack(0);
            run.network().nic(0).attach(new PacketSource() {
                @Override
                public Packet poll(long nowPs) {
                    Packet p = stack.poll(nowPs);
                    if (p != null && p.kind == Packet.DATA) {
                        tap.sends.add(new long[] {nowPs, run.transport().senderOf(0).congestionControl().rateMbpsAt(nowPs)});
                    }
                    return p;
                }

                @Override
                public long nextReadyPs(long nowPs) {
                    return stack.nextReadyPs(nowPs);
                }

                @Override
                public void deliver(Packet p) {
                    if (p.kind == Packet.NACK && tap.firstNackPs < 0) {
                        tap.firstNackPs = run.simulator().nowPs();
                    }
                    stack.deliver(p);
                }
            });
            return tap;
        }
    }

    @Test
    void aNackCarryingTheCnpFlagCutsTheDcqcnRateAtTheNextDecreaseCheckAndNotBefore() {
        RateTap[] tap = new RateTap[1];
        CheckedRun run = CheckedRun.of(twoHostsOneDrop(nicSr("epsn-change-or-interval", 500), dcqcn(true), "cnp"), dir,
                r -> tap[0] = RateTap.attach(r));
        Dcqcn cc = (Dcqcn) run.prepared().transport().senderOf(0).congestionControl();
        Dcqcn.Params p = Dcqcn.Params.defaults();
        long checkPs = tap[0].firstNackPs + Time.us(p.rateDecreaseIntervalUs());
        // rdma-hw.cc:928-943 and 945-964: the first CNP sets alpha to 1 and starts the timers; alpha
        // then decays at each 1 us update without a new CNP, and the check one T_D later cuts by alpha / 2
        double alpha = Math.pow(1 - p.alphaGain(), Math.round(p.rateDecreaseIntervalUs() / p.alphaUpdateUs()));
        long cutMbps = (long) (LINE_MBPS * (1 - alpha / 2));

        assertThat(run.result().flowResults().get(0).finished()).isTrue();
        assertThat(run.prepared().transport().receiverOf(0).cnps()).as("CNPs (ECN is off)").isZero();
        assertThat(tap[0].firstNackPs).isPositive();
        long[] firstAfter = null;
        for (long[] s : tap[0].sends) {
            if (s[0] < checkPs) {
                assertThat(s[1]).as("rate at %d ps, before the decrease check at %d ps", s[0], checkPs).isEqualTo(LINE_MBPS);
            } else if (firstAfter == null) {
                firstAfter = s;
            }
        }
        assertThat(firstAfter).as("a data packet sent after the decrease check").isNotNull();
        assertThat(firstAfter[1]).as("rate of the first packet sent at or after %d ps", checkPs).isEqualTo(cutMbps);
        assertThat(cc.cuts()).as("one NACK, one cut").isEqualTo(1);
        assertThat(cc.signals()).isEqualTo(1);
    }

    @Test
    void aNackWithoutTheCnpFlagLeavesTheRateAlone() {
        RateTap[] tap = new RateTap[1];
        CheckedRun run = CheckedRun.of(twoHostsOneDrop(nicSr("epsn-change-or-interval", 500), dcqcn(false), "nocnp"), dir,
                r -> tap[0] = RateTap.attach(r));
        Dcqcn cc = (Dcqcn) run.prepared().transport().senderOf(0).congestionControl();

        assertThat(run.prepared().transport().receiverOf(0).nacks()).isEqualTo(1);
        assertThat(cc.cuts()).isZero();
        assertThat(tap[0].sends).allSatisfy(s -> assertThat(s[1]).isEqualTo(LINE_MBPS));
    }

    @Test
    void oncePerEpsnNeverRepeatsANackForTheSameEpsnButNacksEveryNewOne() {
        NackGeneration once = new NackGeneration(NackGeneration.repeatAfterPs(NackGeneration.ONCE_PER_EPSN, 4));
        assertThat(once.nackNow(5, 0)).isTrue();
        assertThat(once.nackNow(5, 0)).isFalse();
        assertThat(once.nackNow(5, Time.us(1000))).as("however long the hole lasts").isFalse();
        assertThat(once.nackNow(6, Time.us(1000))).isTrue();
        assertThat(once.nackNow(5, Time.us(1000))).as("an ePSN other than the last NACKed one").isTrue();
    }

    @Test
    void theIntervalReadingRepeatsANackOnceTheIntervalHasPassedAndRestartsItThen() {
        long intervalPs = NackGeneration.repeatAfterPs(NackGeneration.EPSN_CHANGE_OR_INTERVAL, 4);
        assertThat(intervalPs).isEqualTo(4_000_000);
        NackGeneration ns3 = new NackGeneration(intervalPs);
        assertThat(ns3.nackNow(5, 1_000)).isTrue();
        assertThat(ns3.nackNow(5, 1_000 + intervalPs - 1)).isFalse();
        assertThat(ns3.nackNow(5, 1_000 + intervalPs)).as("now >= the NACK timer").isTrue();
        assertThat(ns3.nackNow(5, 1_000 + intervalPs + 1)).as("the interval started over").isFalse();
        assertThat(ns3.nackNow(7, 1_000 + intervalPs + 2)).as("a new ePSN at once").isTrue();
        assertThat(ns3.nackNow(7, 1_000 + 2 * intervalPs + 1)).isFalse();
        assertThat(ns3.nackNow(7, 1_000 + 2 * intervalPs + 2)).isTrue();
        // an interval that rounds to 0 ps still repeats only after 1 ps, not at the same instant
        NackGeneration tiny = new NackGeneration(NackGeneration.repeatAfterPs(NackGeneration.EPSN_CHANGE_OR_INTERVAL, 1e-7));
        assertThat(tiny.nackNow(3, 10)).isTrue();
        assertThat(tiny.nackNow(3, 10)).isFalse();
        assertThat(tiny.nackNow(3, 11)).isTrue();
    }

    @Test
    void badNackGenerationInputIsRejectedNamingTheField() {
        assertThatThrownBy(() -> new NicSelectiveRepeat.Params(80, "sometimes", 500)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("nackGeneration").hasMessageContaining("once-per-epsn").hasMessageContaining("epsn-change-or-interval");
        assertThatThrownBy(() -> new GoBackN.Params(80, "epsn-change-or-interval", 0, GoBackN.ON_PROGRESS, GoBackN.TO_NACK_EPSN)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("nackIntervalUs");
    }
}
