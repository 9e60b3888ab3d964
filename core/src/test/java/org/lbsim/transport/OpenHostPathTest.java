package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
import org.lbsim.net.Packet;
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
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.PacketKinds;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;
import org.lbsim.spi.SenderHooks;
import org.lbsim.spi.SenderQp;

/**
 * The host side of the opened packet path, on one flow from host 0 to host 3 of a 2-leaf, 2-spine
 * fabric (100 Gb/s, 100 ns links, ECMP, a line-rate sender): nothing queues, so every time is analytic.
 * Receiver policies with timers, scheme packet kinds, NIC timestamps, sender-injected extras and
 * bundles whose parts share state, each checked to the picosecond.
 */
class OpenHostPathTest {
    private static final ComponentSpec NIC_SR = new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));
    private static final long RATE_MBPS = 100_000;
    private static final long HOP_DELAY_PS = Time.ns(100);
    private static final PacketSpec PK = PacketSpec.defaults();
    /** The sender puts a data packet on the wire every frame plus gap. */
    private static final long PERIOD_PS = ser(PK.mtuBytes() + PK.headerBytes()) + ser(PK.interFrameGapBytes());
    /** Store and forward over 4 links (host, leaf, spine, leaf, host) on an idle fabric. */
    private static final long DATA_OWD_PS = owd(PK.mtuBytes() + PK.headerBytes());
    private static final long ACK_OWD_PS = owd(PK.ackBytes());

    @TempDir
    Path dir;

    private static long ser(int bytes) {
        return Time.serializationPs(bytes, RATE_MBPS);
    }

    private static long owd(int bytes) {
        return 4 * (ser(bytes) + HOP_DELAY_PS);
    }

    /** When data PSN {@code psn} reaches the receiver's NIC, sent back to back from time 0. */
    private static long arrivalPs(int psn) {
        return psn * PERIOD_PS + DATA_OWD_PS;
    }

    private Scenario oneFlow(int packets) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 2, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        return new Scenario("open-host-path", 1, topo, PK, switches, TestScenarios.lb("ecmp"), TestScenarios.lineRate(), NIC_SR,
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 3, packets * (long) PK.mtuBytes()))),
                new FailureSpec(List.of(), 0, 0, List.of()), LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    /** An entropy policy that passes everything to the load balancer's and lets a test watch stamps and ACKs. */
    private static class Watching implements EntropyPolicy {
        final EntropyPolicy inner;

        Watching(EntropyPolicy inner) {
            this.inner = inner;
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            return inner.entropyFor(psn, retransmission);
        }

        @Override
        public void stamp(Packet p) {
            inner.stamp(p);
        }

        @Override
        public void onAck(Packet ack, long nowPs) {
            inner.onAck(ack, nowPs);
        }

        @Override
        public void onLoss(int entropy) {
            inner.onLoss(entropy);
        }
    }

    @Test
    void theOneWayDelayAnAckEchoesIsTheAnalyticPathLatencyOnAnIdleFabric() {
        int packets = 40;
        List<long[]> echoes = new ArrayList<>(); // psn, t1, t2
        BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> scheme = (lb, rec) -> sender -> {
            QpParts d = QueuePairScheme.separate(lb, rec).create(sender);
            return new QpParts(new Watching(d.entropy()) {
                @Override
                public void onAck(Packet ack, long nowPs) {
                    echoes.add(new long[] {ack.psn, ack.echoSentPs, ack.echoNicRxPs});
                    super.onAck(ack, nowPs);
                }
            }, d.recovery(), d.receiver());
        };
        CheckedRun run = CheckedRun.of(oneFlow(packets), dir, scheme, r -> { });

        assertThat(run.result().flowResults().get(0).finished()).isTrue();
        assertThat(echoes).hasSize(packets);
        for (long[] e : echoes) {
            int psn = (int) e[0];
            assertThat(e[1]).as("t1 of PSN %d: when the sender NIC put it on the wire", psn).isEqualTo(psn * PERIOD_PS);
            assertThat(e[2]).as("t2 of PSN %d: when the receiver NIC took it off", psn).isEqualTo(arrivalPs(psn));
            assertThat(e[2] - e[1]).as("one-way delay t2 - t1 of PSN %d", psn).isEqualTo(DATA_OWD_PS);
        }
    }

    /**
     * DLBF III-D, case 1 as a receiver policy: behind a hole the receiver keeps data without
     * answering and waits theta from the first out-of-order arrival; only if the hole is still open
     * then does it treat it as a loss (a NACK with the ePSN). When its reorder buffer reaches a
     * threshold it tells the sender with a packet of a kind the scheme registered.
     */
    static final class ThetaWait implements ReceiverPolicy {
        private final long thetaPs;
        private final int bufferHighPackets;
        private final byte bufferHighKind;
        private boolean signalled;

        ThetaWait(long thetaPs, int bufferHighPackets, byte bufferHighKind) {
            this.thetaPs = thetaPs;
            this.bufferHighPackets = bufferHighPackets;
            this.bufferHighKind = bufferHighKind;
        }

        @Override
        public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
            rx.keep(data);
            if (rx.timerPs() == Long.MAX_VALUE) {
                rx.setTimer(nowPs + thetaPs);
            }
            if (!signalled && rx.heldOutOfOrder() >= bufferHighPackets) {
                signalled = true;
                Packet p = rx.newControl(bufferHighKind);
                p.schemeBits = rx.heldOutOfOrder();
                rx.send(p);
            }
        }

        @Override
        public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
            if (rx.heldOutOfOrder() == 0) {
                rx.cancelTimer(); // the hole filled
            }
            rx.ack();
        }

        @Override
        public void onTimer(ReceiverQp rx, long nowPs) {
            rx.nack(); // theta expired with the hole still open: a loss
        }
    }

    @Test
    void aReceiverPolicyWaitsThetaBehindAHoleThenNacksAndSignalsItsBufferThresholdWithItsOwnPacketKind() {
        long thetaPs = Time.us(5);
        int threshold = 8;
        int lost = GoBackNSingleDropTest.LOST;
        List<long[]> signals = new ArrayList<>(); // arrival time, schemeBits
        byte[] kind = new byte[1];
        BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> scheme = (lb, rec) -> new QueuePairScheme() {
            @Override
            public void registerKinds(PacketKinds kinds) {
                kind[0] = kinds.register("BUFFER_HIGH", PacketKinds.TO_SENDER);
            }

            @Override
            public QpParts create(HostContext sender) {
                QpParts d = QueuePairScheme.separate(lb, rec).create(sender);
                return new QpParts(d.entropy(), d.recovery(), new ThetaWait(thetaPs, threshold, kind[0]), new SenderHooks() {
                    @Override
                    public void onSchemePacket(SenderQp s, Packet p, long nowPs) {
                        assertThat(p.kind).isEqualTo(kind[0]);
                        signals.add(new long[] {nowPs, p.schemeBits});
                    }
                });
            }
        };
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(GoBackNSingleDropTest.oneFlowOneDrop(dir, NIC_SR, TestScenarios.lineRate()), dir, scheme,
                r -> tap[0] = WireTap.attach(r));
        FlowResult f = run.result().flowResults().get(0);
        ReceiverQp rx = run.prepared().transport().receiverOf(0);

        assertThat(kind[0]).as("the first kind a scheme registers").isEqualTo(Packet.FIRST_SCHEME_KIND);
        assertThat(run.prepared().transport().kinds().name(kind[0])).isEqualTo("BUFFER_HIGH");
        assertThat(f.finished()).isTrue();
        assertThat(f.timeouts()).isZero();
        // the buffer reaches the threshold when PSN lost + threshold arrives; the signal comes back as an ACK would
        assertThat(signals).hasSize(1);
        assertThat(signals.get(0)[0]).as("when the buffer signal reached the sender").isEqualTo(arrivalPs(lost + threshold) + ACK_OWD_PS);
        assertThat(signals.get(0)[1]).as("buffer occupancy it carried").isEqualTo(threshold);
        // one NACK, sent exactly theta after the first packet behind the hole arrived
        assertThat(rx.nacks()).isEqualTo(1);
        assertThat(tap[0].nacks()).hasSize(1);
        assertThat(tap[0].nacks().get(0).epsn()).isEqualTo(lost);
        assertThat(tap[0].nacks().get(0).atPs()).as("NACK arrival at the sender")
                .isEqualTo(arrivalPs(lost + 1) + thetaPs + ACK_OWD_PS);
        assertThat(f.retransmissions()).isEqualTo(1);
        assertThat(tap[0].sends(0, lost)).isEqualTo(2);
        assertThat(rx.timerPs()).as("the filled hole cancelled the timer").isEqualTo(Long.MAX_VALUE);
        assertThat(rx.expectedPsn()).isEqualTo(GoBackNSingleDropTest.PACKETS);
    }

    /** Records the scheme packets that reach a receiver, otherwise NIC selective repeat. */
    static final class NotifiedReceiver implements ReceiverPolicy {
        private final ReceiverPolicy inner = new NicSelectiveRepeatReceiver();
        final List<long[]> notifications = new ArrayList<>(); // sentPs, nicRxPs, schemeBits, now

        @Override
        public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
            inner.onOutOfOrder(rx, data, nowPs);
        }

        @Override
        public void onSchemePacket(ReceiverQp rx, Packet p, long nowPs) {
            notifications.add(new long[] {p.sentPs, p.nicRxPs, p.schemeBits, nowPs});
        }
    }

    @Test
    void aSenderInjectedDuplicateCountsAsADuplicateAndANotificationReachesItsHandlerNeitherAsRetransmission() {
        int packets = 60;
        int ackedPsn = 20;
        int copied = 21;
        NotifiedReceiver[] receiver = new NotifiedReceiver[1];
        BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> scheme = (lb, rec) -> new QueuePairScheme() {
            byte notify;

            @Override
            public void registerKinds(PacketKinds kinds) {
                notify = kinds.register("NOTIFY", PacketKinds.TO_RECEIVER);
            }

            @Override
            public QpParts create(HostContext ctx) {
                QpParts d = QueuePairScheme.separate(lb, rec).create(ctx);
                SenderQp[] sender = new SenderQp[1];
                receiver[0] = new NotifiedReceiver();
                EntropyPolicy entropy = new Watching(d.entropy()) {
                    @Override
                    public void onAck(Packet ack, long nowPs) {
                        super.onAck(ack, nowPs);
                        if (ack.psn == ackedPsn) {
                            // DLBF III-C/D: a duplicate of a packet in flight, then a payload-free notification
                            sender[0].inject(sender[0].newDuplicate(copied));
                            Packet n = sender[0].newControl(notify);
                            n.entropy = sender[0].entropyOf(copied);
                            n.schemeBits = 0xBEEF;
                            sender[0].inject(n);
                        }
                    }
                };
                return new QpParts(entropy, d.recovery(), receiver[0], new SenderHooks() {
                    @Override
                    public void attach(SenderQp s) {
                        sender[0] = s;
                    }
                });
            }
        };
        CheckedRun run = CheckedRun.of(oneFlow(packets), dir, scheme, r -> { });
        FlowResult f = run.result().flowResults().get(0);
        SenderQp s = run.prepared().transport().senderOf(0);

        assertThat(f.finished()).isTrue();
        assertThat(s.duplicatesSent()).isEqualTo(1);
        assertThat(s.notificationsSent()).isEqualTo(1);
        assertThat(run.prepared().transport().duplicatesSent()).isEqualTo(1);
        assertThat(f.retransmissions()).as("a duplicate is not a retransmission").isZero();
        assertThat(f.spuriousRetransmissions()).isZero();
        assertThat(f.packetsSent()).as("data packets sent").isEqualTo(packets);
        assertThat(f.duplicatesReceived()).as("the copy arrived after the original").isEqualTo(1);
        assertThat(run.prepared().network().nic(0).txPackets()).as("frames the sender's NIC sent").isEqualTo(packets + 2);
        assertThat(run.result().counters().dropped()).isZero();
        // injected when the ACK of PSN 20 arrives; the duplicate takes the next free slot of the line, the notification the one after
        long ackArrival = ackedPsn * PERIOD_PS + DATA_OWD_PS + ACK_OWD_PS;
        long duplicateSent = (ackArrival + PERIOD_PS - 1) / PERIOD_PS * PERIOD_PS;
        assertThat(ackArrival % PERIOD_PS).as("no tie between the ACK and the line").isNotZero();
        assertThat(receiver[0].notifications).hasSize(1);
        long[] n = receiver[0].notifications.get(0);
        assertThat(n[0]).as("notification on the wire").isEqualTo(duplicateSent + PERIOD_PS);
        // a small frame one line slot behind the duplicate on the same path catches up with it at the first switch and
        // then leaves every switch when the duplicate and its gap have gone: 3 data frames + its own frame + 4 link delays
        long behindDataOwd = 3 * ser(PK.mtuBytes() + PK.headerBytes()) + ser(PK.headerBytes()) + 4 * HOP_DELAY_PS;
        assertThat(n[1] - n[0]).as("its one-way delay t2 - t1, headers only").isEqualTo(behindDataOwd);
        assertThat(n[3]).as("delivered to the receiver policy when the NIC took it").isEqualTo(n[1]);
        assertThat(n[2]).isEqualTo(0xBEEF);
    }

    @Test
    void theReceiverAndTheSenderOfABundleShareState() {
        int packets = 30;
        List<int[]> seen = new ArrayList<>(); // psn, the receiver's expected PSN the sender read when stamping it
        int[] bundles = new int[1];
        BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> scheme = (lb, rec) -> sender -> {
            bundles[0]++;
            QpParts d = QueuePairScheme.separate(lb, rec).create(sender);
            int[] receiverExpected = new int[1]; // the state both halves share
            ReceiverPolicy receiver = new ReceiverPolicy() {
                private final ReceiverPolicy inner = new NicSelectiveRepeatReceiver();

                @Override
                public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
                    inner.onOutOfOrder(rx, data, nowPs);
                }

                @Override
                public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
                    receiverExpected[0] = rx.expectedPsn();
                    inner.onInOrder(rx, data, nowPs);
                }
            };
            EntropyPolicy entropy = new Watching(d.entropy()) {
                @Override
                public void stamp(Packet p) {
                    seen.add(new int[] {p.psn, receiverExpected[0]});
                    super.stamp(p);
                }
            };
            return new QpParts(entropy, d.recovery(), receiver);
        };
        CheckedRun run = CheckedRun.of(oneFlow(packets), dir, scheme, r -> { });

        assertThat(run.result().flowResults().get(0).finished()).isTrue();
        assertThat(bundles[0]).as("one bundle per queue pair").isEqualTo(1);
        assertThat(seen).hasSize(packets);
        for (int[] s : seen) {
            int psn = s[0];
            int arrived = 0; // data packets that reached the receiver before PSN psn went on the wire
            for (int k = 0; k < psn; k++) {
                arrived += arrivalPs(k) < psn * PERIOD_PS ? 1 : 0;
            }
            assertThat(s[1]).as("receiver's expected PSN read by the sender when stamping PSN %d", psn).isEqualTo(arrived);
        }
        assertThat(seen.get(packets - 1)[1]).as("the sender saw the receiver progress").isGreaterThan(0);
    }

    @Test
    void kindsKeepTheirBuiltInValuesAndSchemeKindsAreNumberedInRegistrationOrder() {
        PacketKinds kinds = new PacketKinds();
        assertThat(new byte[] {Packet.DATA, Packet.ACK, Packet.NACK, Packet.CNP}).containsExactly(0, 1, 2, 3);
        assertThat(kinds.name(Packet.NACK)).isEqualTo("NACK");
        assertThat(kinds.register("NOTIFY", PacketKinds.TO_RECEIVER)).isEqualTo((byte) 4);
        assertThat(kinds.register("PROBE", PacketKinds.TO_RECEIVER)).isEqualTo((byte) 5);
        assertThat(kinds.count()).isEqualTo(6);
        assertThatThrownBy(() -> kinds.register("PROBE", PacketKinds.TO_SENDER)).hasMessageContaining("already registered");
        assertThat(kinds.name(9)).contains("unregistered");
    }
}
