package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cc.FixedRate;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;

/**
 * What a sender leaves out for the policies that say it may: a fixed label is stamped by the sender and
 * not recorded per PSN ({@link EntropyPolicy#fixedLabel}), and an unpaced fixed rate is neither asked
 * when to send nor told of sends until rho_max changes ({@link org.lbsim.spi.CongestionControl#unpacedUntilRhoMaxChange}).
 */
class SenderShortcutsTest {
    private static final int MTU = PacketSpec.defaults().mtuBytes();

    @TempDir
    Path dir;

    /** The wrapped policy, saying {@code fixedLabel} only when {@code passFixed}; records every loss reported to it. */
    private static final class Labels implements EntropyPolicy {
        private final EntropyPolicy inner;
        private final boolean passFixed;
        private final List<String> losses;
        private final int qp;

        Labels(EntropyPolicy inner, boolean passFixed, List<String> losses, int qp) {
            this.inner = inner;
            this.passFixed = passFixed;
            this.losses = losses;
            this.qp = qp;
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            return inner.entropyFor(psn, retransmission);
        }

        @Override
        public void onAck(Packet ack, long nowPs) {
            inner.onAck(ack, nowPs);
        }

        @Override
        public void onLoss(int entropy) {
            losses.add(qp + ":" + entropy);
            inner.onLoss(entropy);
        }

        @Override
        public boolean fixedLabel() {
            return passFixed && inner.fixedLabel();
        }
    }

    /** Rows of 4, 12 and 400 packets from every host of a k = 4 fat tree, in this order (flow i is queue pair i). */
    private static final int[] PACKETS = {4, 12, 400};

    private CheckedRun flows(long seed, boolean passFixed, List<String> losses) {
        // the short messages lose a packet each now and then and time out; the long ones are cut off mid-message
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < 16 * PACKETS.length; i++) {
            int src = i % 16;
            rows.add(ScenarioTweaks.flow(src, (src + 1 + i / 16) % 16, (long) PACKETS[i / 16] * MTU));
        }
        SplittableRandom rng = new SplittableRandom(seed);
        Set<FailureSpec.DroppedPacket> drops = new LinkedHashSet<>();
        while (drops.size() < 12) {
            int qp = rng.nextInt(32);
            drops.add(new FailureSpec.DroppedPacket(qp, rng.nextInt(PACKETS[qp / 16])));
        }
        Scenario base = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", ScenarioTweaks.trace(dir, "t.csv", rows), seed);
        Scenario s = TestScenarios.withRecovery(TestScenarios.withFailures(base, new FailureSpec(List.of(), 0, 0, List.copyOf(drops))),
                new ComponentSpec("erasure", IdealErasure.Params.rto(5)));
        s = ScenarioTweaks.withLimits(s, new LimitsSpec(12 + rng.nextInt(5)));
        BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> scheme = (lb, rec) -> sender -> {
            QpParts d = QueuePairScheme.separate(lb, rec).create(sender);
            return new QpParts(new Labels(d.entropy(), passFixed, losses, sender.qp().qp()), d.recovery(), d.receiver());
        };
        return CheckedRun.of(s, dir, scheme, r -> r.transport().keepAllQueuePairs());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void aFixedLabelLeftUnrecordedReadsAsARecordPerPsn(long seed) {
        List<String> shortcutLosses = new ArrayList<>();
        List<String> recordedLosses = new ArrayList<>();
        CheckedRun shortcut = flows(seed, true, shortcutLosses);
        CheckedRun recorded = flows(seed, false, recordedLosses);
        Transport a = shortcut.prepared().transport();
        Transport b = recorded.prepared().transport();
        assertThat(a.senderOf(0).entropyPolicy().fixedLabel()).as("ECMP's label is fixed").isTrue();
        assertThat(shortcut.result().flowResults()).isEqualTo(recorded.result().flowResults());
        assertThat(shortcutLosses).as("timeouts reported losses").isNotEmpty();
        assertThat(shortcutLosses).isEqualTo(recordedLosses);
        int unsent = 0;
        for (int q = 0; q < 16 * PACKETS.length; q++) {
            for (int psn = 0; psn < PACKETS[q / 16] + 8; psn++) {
                int label = b.senderOf(q).entropyOf(psn);
                assertThat(a.senderOf(q).entropyOf(psn)).as("queue pair %d, PSN %d", q, psn).isEqualTo(label);
                assertThat(a.senderOf(q).newDuplicate(psn).entropy).as("duplicate of queue pair %d, PSN %d", q, psn).isEqualTo(label);
                unsent += psn < PACKETS[q / 16] && a.senderOf(q).sentPackets() <= psn ? 1 : 0;
            }
        }
        assertThat(unsent).as("PSNs of messages cut off before they were sent").isPositive();
        assertThat(shortcut.result().flowResults()).as("long messages cut off").anyMatch(f -> !f.finished());
    }

    @Test
    void anUnpacedFixedRateSenderIsAskedAgainOnceRhoMaxChanges() {
        // one flow on a healthy fat tree: rho_max is the line rate, so the rho_max sender starts unpaced
        Scenario s = new Scenario("unpaced", 1, TestScenarios.fatTree(4), PacketSpec.defaults(), SwitchSpec.defaults(),
                TestScenarios.lb("ecmp"), new ComponentSpec("fixed-rate", new FixedRate.Params(true, 0)), TestScenarios.erasure(),
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 15, 40L * MTU))), FailureSpec.defaults(),
                LimitsSpec.defaults());
        PreparedRun run = Simulation.prepare(s, dir);
        Transport t = run.transport();
        SenderQueuePair sender = t.senderOf(0);
        long lineMbps = sender.context().lineRateMbps();
        assertThat(sender.congestionControl().rateMbps()).as("unpaced at first").isEqualTo(lineMbps);
        assertThat(sender.poll(0)).isNotNull();
        assertThat(sender.poll(0)).as("back to back: nothing holds an unpaced sender").isNotNull();

        t.setRhoMaxMbps(lineMbps / 2);
        assertThat(sender.poll(0)).isNotNull();
        assertThat(sender.poll(0)).as("paced at half the line rate now").isNull();
        PacketSpec pk = PacketSpec.defaults();
        assertThat(sender.eligiblePs).isEqualTo(Time.serializationPs(MTU + pk.headerBytes() + pk.interFrameGapBytes(), lineMbps / 2));

        t.setRhoMaxMbps(lineMbps);
        assertThat(sender.poll(0)).as("unpaced again").isNotNull();
        assertThat(sender.poll(0)).isNotNull();
    }
}
