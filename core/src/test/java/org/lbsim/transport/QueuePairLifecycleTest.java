package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lbsim.api.Lbsim;
import org.lbsim.cc.Dcqcn;
import org.lbsim.cc.FixedRate;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.lb.FlowEcmp;
import org.lbsim.lb.dlbf.Dlbf;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
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
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;

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
    private Scenario incastThenReply(ComponentSpec lb) throws Exception {
        StringBuilder rows = new StringBuilder("id,src,dst,bytes,deps,gap_ns\n0,0,1,40000,,0\n");
        for (int i = 1; i <= 6; i++) {
            rows.append(i).append(',').append(i + 1).append(",1,300000,0,0\n");
        }
        rows.append("7,1,0,40000,1;2;3;4;5;6,100\n");
        Files.writeString(dir.resolve("incast.csv"), rows);
        TopologySpec topo = new TopologySpec.LeafSpine(4, 2, 1, 1, new LinkSpec(100, 1000), new LinkSpec(100, 1000));
        Scenario s = TestScenarios.scenario(topo, "ecmp", new WorkloadSpec.DagTrace("incast.csv"), 3);
        FailureSpec drops = new FailureSpec(List.of(), 0, 0, List.of(new FailureSpec.DroppedPacket(3, 5), new FailureSpec.DroppedPacket(7, 2)));
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), lb,
                new ComponentSpec("dcqcn", Dcqcn.Params.defaults()), new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)),
                s.workload(), drops, s.limits());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ecmp, 2", "dlbf, 5"})
    void aReleasedQueuePairReadsAsTheKeptOneAndTotalsAddTheReleasedToTheLive(String lb, long totalNacks) throws Exception {
        // under DLBF the senders also send notifications on unprobed paths
        Scenario s = incastThenReply(TestScenarios.lb(lb));
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
    void aReleasedQueuePairsDuplicatesReadAsTheKeptOnesAndAddToTheTotal() throws Exception {
        // DLBF with selective duplicates instead of notifications: the released queue pairs of the incast send duplicates
        Dlbf.Params d = Dlbf.Params.defaults();
        Scenario s = incastThenReply(new ComponentSpec("dlbf", new Dlbf.Params(d.paths(), d.availUs(), d.unavailUs(), d.thetaUs(),
                d.bufferThresholdPackets(), false, d.clockOffsetNs(), d.pathStates())));
        CheckedRun released = CheckedRun.of(s, dir);
        CheckedRun kept = CheckedRun.of(s, dir, r -> r.transport().keepAllQueuePairs());
        Transport t = released.prepared().transport();
        Transport k = kept.prepared().transport();
        assertThat(released.result()).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(kept.result());
        assertThat(t.releasedQueuePairs()).isEqualTo(4);
        long sentByReleased = 0;
        long receivedByReleased = 0;
        for (int q = 4; q < 8; q++) {
            assertThat(t.senderOf(q)).as("queue pair %d released", q).isNull();
            assertThat(t.duplicatesSent(q)).as("queue pair %d", q).isEqualTo(k.senderOf(q).duplicatesSent());
            assertThat(t.duplicatesReceived(q)).as("queue pair %d", q).isEqualTo(k.receiverOf(q).duplicates());
            sentByReleased += t.duplicatesSent(q);
            receivedByReleased += t.duplicatesReceived(q);
        }
        assertThat(sentByReleased).isPositive();
        assertThat(receivedByReleased).isPositive();
        long total = 0;
        for (int q = 0; q < 8; q++) {
            total += k.senderOf(q).duplicatesSent();
        }
        assertThat(t.duplicatesSent()).isEqualTo(k.duplicatesSent()).isEqualTo(total);
    }

    @Test
    void atMostTheIndependentQueuePairsAndThoseInProgressAreAliveAtOnce() throws Exception {
        Scenario s = incastThenReply(TestScenarios.lb("ecmp"));
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
        return twoHosts(cc, queuePairs, qpsPerConnection, "0,0,1,40960,,0", "1,0,1,40960,0,0", "2,0,1,40960,1,0");
    }

    /** The messages {@code rows} (id,src,dst,bytes,deps,gap_ns) between two hosts under one leaf at 400 Gb/s, 1 us links. */
    private Scenario twoHosts(ComponentSpec cc, String queuePairs, int qpsPerConnection, String... rows) throws Exception {
        Files.writeString(dir.resolve("chain.csv"), "id,src,dst,bytes,deps,gap_ns\n" + String.join("\n", rows) + "\n");
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
    void aRhoMaxSetBeforeAQueuePairIsBuiltReachesItToo() throws Exception {
        // rho_max senders capped at the 400 Gb/s line rate, told 1 Gb/s before the run: the message built up front and
        // the two built later (kept for reading) all take it as their rate
        ComponentSpec rhoMax = new ComponentSpec("fixed-rate", new FixedRate.Params(true, 0, false, true));
        Transport t = Simulation.prepare(chainOfThree(rhoMax, "per-message"), dir).transport();
        assertThat(t.senderOf(0).congestionControl().rateMbps()).isEqualTo(400_000);
        t.setRhoMaxMbps(1_000);
        assertThat(t.senderOf(1)).isNull();
        t.keepAllQueuePairs();
        for (int q = 0; q < 3; q++) {
            assertThat(t.senderOf(q).congestionControl().rateMbps()).as("queue pair %d", q).isEqualTo(1_000);
        }
    }

    /** ECMP, remembering the routes each queue pair's sender was built with. */
    static final class RoutesSeen implements LoadBalancer {
        private static final FlowEcmp ECMP = new FlowEcmp();
        final Fib[] byQp;

        RoutesSeen(int qps) {
            byQp = new Fib[qps];
        }

        @Override
        public EntropyPolicy newEntropyPolicy(HostContext host) {
            byQp[host.qp().qp()] = host.convergedFib();
            return ECMP.newEntropyPolicy(host);
        }

        @Override
        public PortSelector newPortSelector(SwitchContext sw) {
            return ECMP.newPortSelector(sw);
        }
    }

    @Test
    void aQueuePairBuiltAfterRoutingConvergedAroundAFailureSeesTheNewRoutes() throws Exception {
        // 2 hosts on each of 2 leaves, 2 spines; l0 - s0 fails at 0 and routing converges 1 us later. Message 0 (h0 -> h1,
        // under l0) is built up front with both uplinks; message 1 (h0 -> h2, across the spines) starts 5 us after it
        Files.writeString(dir.resolve("after.csv"), "id,src,dst,bytes,deps,gap_ns\n0,0,1,40960,,0\n1,0,2,40960,0,5000\n");
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 2, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        Scenario b = TestScenarios.scenario(topo, "ecmp", new WorkloadSpec.DagTrace("after.csv"), 1);
        FailureSpec failure = new FailureSpec(List.of(), 0, 1000, List.of(), -1).withEvents(List.of(FailureSpec.Event.link(0, "l0", "s0", 0, "down", 0)));
        // no time series: the sampler keeps (and so builds up front) no queue pair
        Scenario s = new Scenario(b.name(), b.seed(), b.topology(), b.packets(), b.switches(), b.loadBalancing(), b.congestionControl(),
                b.lossRecovery(), b.workload(), failure, b.limits(), new MetricsSpec(0, 0), NicSpec.defaults());
        RoutesSeen lb = new RoutesSeen(2);
        PreparedRun run = Lbsim.scenario(s).baseDir(dir).prepare(lb);
        RunResult r = run.run();
        Invariants.check(run);
        assertThat(r.flowsFinished()).isEqualTo(2);
        assertThat(r.flowResults().get(1).startPs()).as("after the convergence").isGreaterThan(Time.us(1));
        int l0 = run.topology().nodeByName("l0");
        assertThat(lb.byQp[0].groupSize(lb.byQp[0].group(l0, 2))).as("before the failure: both spines").isEqualTo(2);
        assertThat(lb.byQp[1].groupSize(lb.byQp[1].group(l0, 2))).as("after it: s1 only").isEqualTo(1);
    }

    /** Runs {@code action} at {@code atPs} of {@code run}'s simulated time. */
    private static void at(PreparedRun run, long atPs, Runnable action) {
        Simulator sim = run.simulator();
        sim.schedule(sim.register((kind, tag) -> action.run()), atPs, 0, 0);
    }

    @Test
    void aLaterMessageNotBuiltYetReadsTheCongestionControlItsReleasedPredecessorLeftIt() throws Exception {
        // message 1 (h0 -> h1) waits for message 0 (h1 -> h0), message 2 follows it on its persistent queue pair 1 us after
        // it completed: in between, message 1 is released and message 2 not built, and only the held sender has the state
        Scenario s = twoHosts(new ComponentSpec("dcqcn", Dcqcn.Params.defaults()), "persistent", 1,
                "0,1,0,40960,,0", "1,0,1,40960,0,0", "2,0,1,40960,1,1000");
        List<FlowResult> f = CheckedRun.of(s, dir).result().flowResults();
        long secondStartPs = f.get(1).startPs();
        long thirdStartPs = f.get(2).startPs();
        assertThat(thirdStartPs).isEqualTo(secondStartPs + f.get(1).fctPs() + Time.ns(1000));
        Object[] seen = new Object[4];
        CheckedRun.of(s, dir, r -> {
            Transport t = r.transport();
            at(r, secondStartPs + 1, () -> seen[0] = t.senderOf(1).congestionControl());
            at(r, thirdStartPs - 1, () -> {
                seen[1] = t.senderOf(1) == null && t.senderOf(2) == null;
                seen[2] = t.congestionControlOf(2);
                seen[3] = t.congestionControlOf(1);
            });
        });
        assertThat(seen[0]).isNotNull();
        assertThat(seen[1]).as("message 1 released, message 2 not built").isEqualTo(true);
        assertThat(seen[2]).as("message 2's queue pair's").isSameAs(seen[0]);
        assertThat(seen[3]).as("message 1's, released and handed on").isNull();
    }

    /** The receiver policy {@code inner}, whose timer runs on for {@code lingerPs} after every in-order arrival. */
    static final class Lingering implements ReceiverPolicy {
        private final ReceiverPolicy inner;
        private final long lingerPs;

        Lingering(ReceiverPolicy inner, long lingerPs) {
            this.inner = inner;
            this.lingerPs = lingerPs;
        }

        @Override
        public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
            inner.onOutOfOrder(rx, data, nowPs);
        }

        @Override
        public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
            inner.onInOrder(rx, data, nowPs);
            rx.setTimer(nowPs + lingerPs);
        }

        @Override
        public void onDuplicate(ReceiverQp rx, Packet data, long nowPs) {
            inner.onDuplicate(rx, data, nowPs);
        }
    }

    @Test
    void aDoneQueuePairIsReleasedOnlyOnceItsReceiversTimerHasFired() throws Exception {
        // message 1 waits for message 0; its receiver's timer runs until 20 us after its last packet arrived, well
        // after the sender has everything acknowledged
        long lingerPs = Time.us(20);
        Scenario s = chainOfThree(TestScenarios.lineRate(), "per-message");
        BiFunction<LoadBalancer, LossRecoveryFactory, QueuePairScheme> lingering = (lb, rec) -> ctx -> {
            QpParts d = QueuePairScheme.separate(lb, rec).create(ctx);
            return new QpParts(d.entropy(), d.recovery(), new Lingering(d.receiver(), lingerPs));
        };
        List<FlowResult> f = CheckedRun.of(s, dir, lingering, r -> { }).result().flowResults();
        long doneAtPs = f.get(1).startPs() + f.get(1).fctPs();
        boolean[] heldAfterDone = new boolean[1];
        CheckedRun run = CheckedRun.of(s, dir, lingering,
                r -> at(r, doneAtPs + Time.us(1), () -> heldAfterDone[0] = r.transport().senderOf(1) != null));
        Transport t = run.prepared().transport();
        assertThat(heldAfterDone[0]).as("done, but its receiver's timer still runs").isTrue();
        assertThat(t.senderOf(1)).as("released when the timer fired").isNull();
        assertThat(t.senderOf(2)).isNull();
        assertThat(t.releasedQueuePairs()).isEqualTo(2);
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
