package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lbsim.cc.Dcqcn;
import org.lbsim.cc.FixedRate;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/**
 * The life of queue pairs: those of dependent connections are built when they start (with the
 * fabric's rho_max as it is then) and released once done and unreferenced; what the results need of
 * them is kept, so that every reading of a released queue pair, and every total over queue pairs, is
 * the one a run that keeps every queue pair gives. Persistent queue pairs pass their congestion
 * control on to the next message.
 */
class QueuePairLifecycleTest {
    private static final int MTU = 4096;

    @TempDir
    Path dir;

    /**
     * 8 hosts, 4 per leaf, at 100 Gb/s, 1 us links. Flow 0 (h0 -> h1, 40 kB) first; then flows 1-6
     * (h2 .. h7 -> h1, 300 kB each) wait for it: an incast under DCQCN that marks, sends CNPs and
     * overflows; flow 7 (h1 -> h0, 40 kB) waits for all six, 100 ns after the last. PSN 5 of flow 3
     * and PSN 2 of flow 7 are dropped at the first switch (NIC-SR resends each on its NACK).
     */
    private Scenario incastThenReply(String lb) throws Exception {
        StringBuilder rows = new StringBuilder("id,src,dst,bytes,deps,gap_ns\n0,0,1,40000,,0\n");
        for (int i = 1; i <= 6; i++) {
            rows.append(i).append(',').append(i + 1).append(",1,300000,0,0\n");
        }
        rows.append("7,1,0,40000,1;2;3;4;5;6,100\n");
        Files.writeString(dir.resolve("incast.csv"), rows);
        TopologySpec topo = new TopologySpec.LeafSpine(4, 2, 1, 1, new LinkSpec(100, 1000), new LinkSpec(100, 1000));
        Scenario s = TestScenarios.scenario(topo, lb, new WorkloadSpec.DagTrace("incast.csv"), 3);
        FailureSpec drops = new FailureSpec(List.of(), 0, 0, List.of(new FailureSpec.DroppedPacket(3, 5), new FailureSpec.DroppedPacket(7, 2)));
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(),
                new ComponentSpec("dcqcn", Dcqcn.Params.defaults()), new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)),
                s.workload(), drops, s.limits());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ecmp, 2", "dlbf, 5"})
    void aReleasedQueuePairReadsAsTheKeptOneAndTotalsAddTheReleasedToTheLive(String lb, long totalNacks) throws Exception {
        // under DLBF the senders also send notifications on unprobed paths
        Scenario s = incastThenReply(lb);
        CheckedRun released = CheckedRun.of(s, dir);
        CheckedRun kept = CheckedRun.of(s, dir, r -> r.transport().keepAllQueuePairs());
        Transport t = released.prepared().transport();
        Transport k = kept.prepared().transport();
        RunResult r = released.result();
        assertThat(r).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(kept.result());
        assertThat(r.flowsFinished()).isEqualTo(8);

        // the sampler keeps queue pairs 0-3 (its rate series); 4-7 are released once done
        assertThat(t.releasedQueuePairs()).isEqualTo(4);
        assertThat(k.releasedQueuePairs()).isZero();
        for (int q = 0; q < 8; q++) {
            assertThat(t.senderOf(q) == null).as("queue pair %d released", q).isEqualTo(q >= 4);
            assertThat(t.receiverOf(q) == null).as("queue pair %d released", q).isEqualTo(q >= 4);
            assertThat(t.sentPackets(q)).as("queue pair %d", q).isEqualTo(k.senderOf(q).sentPackets());
            assertThat(t.retransmissions(q)).as("queue pair %d", q).isEqualTo(k.senderOf(q).recovery().retransmissions());
            assertThat(t.timeouts(q)).as("queue pair %d", q).isEqualTo(k.senderOf(q).recovery().timeouts());
            assertThat(t.duplicatesSent(q)).as("queue pair %d", q).isEqualTo(k.senderOf(q).duplicatesSent());
            assertThat(t.duplicatesReceived(q)).as("queue pair %d", q).isEqualTo(k.receiverOf(q).duplicates());
            assertThat(t.receiverCompletedPs(q)).as("queue pair %d", q).isEqualTo(k.receiverOf(q).completedPs()).isPositive();
            assertThat(k.sentPackets(q)).isEqualTo(k.senderOf(q).sentPackets());
            assertThat(k.retransmissions(q)).isEqualTo(k.senderOf(q).recovery().retransmissions());
            assertThat(k.timeouts(q)).isEqualTo(k.senderOf(q).recovery().timeouts());
            assertThat(k.duplicatesReceived(q)).isEqualTo(k.receiverOf(q).duplicates());
            assertThat(k.receiverCompletedPs(q)).isEqualTo(k.receiverOf(q).completedPs());
        }
        // flow 7 ran alone after the incast: its 10 packets and the one resend of PSN 2
        assertThat(t.sentPackets(7)).isEqualTo((40000 + MTU - 1) / MTU + 1);
        assertThat(t.retransmissions(7)).isEqualTo(1);
        assertThat(t.timeouts(7)).isZero();
        assertThat(t.retransmissions(4)).as("the incast overflowed").isPositive();
        assertThat(t.timeouts(4)).isPositive();
        assertThat(t.duplicatesReceived(3)).isEqualTo(1);

        long nacks = 0;
        long cnps = 0;
        long notifications = 0;
        long duplicates = 0;
        for (int q = 0; q < 8; q++) {
            nacks += k.receiverOf(q).nacks();
            cnps += k.receiverOf(q).cnps();
            notifications += k.senderOf(q).notificationsSent();
            duplicates += k.senderOf(q).duplicatesSent();
        }
        assertThat(k.receiverOf(7).nacks()).as("the hole at PSN 2 of the released queue pair 7").isEqualTo(1);
        assertThat(k.receiverOf(4).cnps()).as("released queue pair 4 was marked").isPositive();
        assertThat(nacks).isEqualTo(totalNacks);
        if (lb.equals("dlbf")) {
            assertThat(k.senderOf(4).notificationsSent()).as("released queue pair 4 sent notifications").isPositive();
        }
        assertThat(List.of(t.nacksSent(), t.cnpsSent(), t.notificationsSent(), t.duplicatesSent()))
                .isEqualTo(List.of(k.nacksSent(), k.cnpsSent(), k.notificationsSent(), k.duplicatesSent()))
                .isEqualTo(List.of(nacks, cnps, notifications, duplicates));
    }

    @Test
    void atMostTheIndependentQueuePairsAndThoseInProgressAreAliveAtOnce() throws Exception {
        Scenario s = incastThenReply("ecmp");
        CheckedRun released = CheckedRun.of(s, dir);
        // flow 0 built up front; flows 1-6 when it completes; the sampler's four kept; flow 7 after 4-6 were released
        assertThat(released.prepared().transport().maxLiveQueuePairs()).isEqualTo(7);
        CheckedRun kept = CheckedRun.of(s, dir, r -> r.transport().keepAllQueuePairs());
        assertThat(kept.prepared().transport().maxLiveQueuePairs()).as("all built before the run").isEqualTo(8);
    }

    /**
     * A chain of three 10-packet messages h0 -> h1 under one leaf at 400 Gb/s, 1 us links, each waiting for the one
     * before; no time series, so the sampler keeps no queue pair.
     */
    private Scenario chainOfThree(ComponentSpec cc, String queuePairs) throws Exception {
        return chainOfThree(cc, queuePairs, 1);
    }

    private Scenario chainOfThree(ComponentSpec cc, String queuePairs, int qpsPerConnection) throws Exception {
        Files.writeString(dir.resolve("chain.csv"), "id,src,dst,bytes,deps,gap_ns\n0,0,1,40960,,0\n1,0,1,40960,0,0\n2,0,1,40960,1,0\n");
        TopologySpec topo = new TopologySpec.LeafSpine(2, 1, 1, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        Scenario s = TestScenarios.scenario(topo, "ecmp", new WorkloadSpec.DagTrace("chain.csv"), 1);
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), cc, s.lossRecovery(),
                s.workload(), s.failures(), s.limits(), new MetricsSpec(0, 0), new NicSpec(qpsPerConnection, 1, queuePairs));
    }

    @Test
    void aQueuePairBuiltAfterRhoMaxChangedPacesAtTheNewRateAsDoTheOnesBuiltBefore() throws Exception {
        // rho_max senders that follow the fabric's rho_max: at 400 Gb/s with one path they start unpaced; told
        // rho_max is 100 Gb/s before the run, the message built up front and the two built later all pace at it
        ComponentSpec rhoMax = new ComponentSpec("fixed-rate", new FixedRate.Params(true, 0, false, true));
        long frame = MTU + PacketSpec.defaults().headerBytes() + PacketSpec.defaults().interFrameGapBytes();
        WireTap[] tap = new WireTap[1];
        CheckedRun told = CheckedRun.of(chainOfThree(rhoMax, "per-message"), dir, r -> {
            r.transport().setRhoMaxMbps(100_000);
            tap[0] = WireTap.attach(r);
        });
        for (int q = 0; q < 3; q++) {
            for (int psn = 1; psn < 10; psn++) {
                assertThat(tap[0].firstSentPs(q, psn) - tap[0].firstSentPs(q, psn - 1)).as("queue pair %d, PSN %d", q, psn)
                        .isEqualTo(Time.serializationPs(frame, 100_000));
            }
        }
        assertThat(told.result().flowResults().get(2).startPs()).as("built when its dependency completed").isPositive();
        WireTap[] untold = new WireTap[1];
        CheckedRun.of(chainOfThree(rhoMax, "per-message"), dir, r -> untold[0] = WireTap.attach(r));
        assertThat(untold[0].firstSentPs(2, 1) - untold[0].firstSentPs(2, 0)).as("at the line rate")
                .isEqualTo(Time.serializationPs(frame, 400_000));
    }

    @Test
    void keptQueuePairsAreBuiltBeforeTheRunExceptLaterMessagesOfAPersistentQueuePair() throws Exception {
        CheckedRun perMessage = CheckedRun.of(chainOfThree(TestScenarios.lineRate(), "per-message"), dir, r -> {
            Transport t = r.transport();
            assertThat(t.senderOf(1)).as("dependent: built when it starts").isNull();
            t.keepQueuePairs(2);
            assertThat(t.senderOf(0)).isNotNull();
            assertThat(t.senderOf(1)).as("kept: built now").isNotNull();
            assertThat(t.receiverOf(1)).isNotNull();
            assertThat(t.senderOf(2)).isNull();
            t.keepQueuePairs(10);
            assertThat(t.senderOf(2)).as("a count beyond the queue pairs keeps them all").isNotNull();
        });
        assertThat(perMessage.prepared().transport().releasedQueuePairs()).isZero();
        assertThat(perMessage.prepared().transport().maxLiveQueuePairs()).isEqualTo(3);

        var firstCc = new Object[1];
        CheckedRun persistent = CheckedRun.of(chainOfThree(TestScenarios.lineRate(), "persistent"), dir, r -> {
            Transport p = r.transport();
            p.keepAllQueuePairs();
            assertThat(p.senderOf(0)).isNotNull();
            assertThat(p.senderOf(1)).as("built from the previous message when it starts").isNull();
            assertThat(p.senderOf(2)).isNull();
            firstCc[0] = p.senderOf(0).congestionControl();
            assertThat(p.congestionControlOf(2)).as("the persistent queue pair's congestion control").isSameAs(firstCc[0]);
        });
        Transport p = persistent.prepared().transport();
        assertThat(p.senderOf(2).congestionControl()).isSameAs(firstCc[0]);
        assertThat(p.releasedQueuePairs()).isZero();
    }

    @Test
    void aLaterMessageOfAPersistentQueuePairReadsTheCongestionControlOfTheQueuePairWhileItsMessagesComeAndGo() throws Exception {
        // only the first message kept: the later ones are built from it in turn and released once done
        var firstCc = new Object[1];
        CheckedRun run = CheckedRun.of(chainOfThree(new ComponentSpec("dcqcn", Dcqcn.Params.defaults()), "persistent"), dir, r -> {
            Transport t = r.transport();
            t.keepQueuePairs(1);
            firstCc[0] = t.senderOf(0).congestionControl();
            for (int q = 0; q < 3; q++) {
                assertThat(t.congestionControlOf(q)).as("queue pair %d before the run", q).isSameAs(firstCc[0]);
            }
        });
        Transport t = run.prepared().transport();
        assertThat(t.senderOf(1)).as("released").isNull();
        for (int q = 0; q < 3; q++) {
            assertThat(t.congestionControlOf(q)).as("queue pair %d after the run", q).isSameAs(firstCc[0]);
        }
        assertThat(t.releasedQueuePairs()).isPositive();
    }

    @Test
    void aPacedQueuePairBuiltWhenItStartsTakesItsPlaceInTheHostsPeriodFromItsStart() throws Exception {
        // two queue pairs per message, paced at 100 Gb/s with their phases spread: each first sends its phase's
        // share of the packet period after its message started, a dependent message's counted from its actual start
        ComponentSpec paced = new ComponentSpec("fixed-rate", new FixedRate.Params(false, 100));
        long frame = MTU + PacketSpec.defaults().headerBytes() + PacketSpec.defaults().interFrameGapBytes();
        long periodPs = Time.serializationPs(frame, 100_000);
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(chainOfThree(paced, "per-message", 2), dir, r -> {
            r.transport().keepAllQueuePairs();
            tap[0] = WireTap.attach(r);
        });
        Transport t = run.prepared().transport();
        assertThat(t.flowCount()).isEqualTo(6);
        boolean someLater = false;
        for (int q = 2; q < 6; q++) {
            long phasePs = Math.round(t.senderOf(q).ctx.hostPhase() * periodPs);
            someLater |= phasePs > 0;
            long startPs = run.result().flowResults().get(t.connectionOf(q)).startPs();
            assertThat(startPs).isPositive();
            assertThat(tap[0].firstSentPs(q, 0)).as("queue pair %d", q).isEqualTo(startPs + phasePs);
        }
        assertThat(someLater).isTrue();
    }
}
