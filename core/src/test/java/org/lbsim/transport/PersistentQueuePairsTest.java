package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cc.Dcqcn;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FlowResult;
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
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;

/**
 * Persistent queue pairs ({@code nic.queuePairs: persistent}): successive messages between the same two
 * hosts of a job share one queue pair's congestion control and scheme state, follow each other in order
 * and stay flows of their own; the default keeps one queue pair per message.
 */
class PersistentQueuePairsTest {
    private static final ComponentSpec NIC_SR = new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));
    private static final ComponentSpec DCQCN = new ComponentSpec("dcqcn", Dcqcn.Params.defaults());
    private static final int MTU = 4096;

    @TempDir
    Path dir;

    /** Two hosts under one leaf at 400 Gb/s (20 ps per byte), 1 us links: every path is 2 hops. */
    private static TopologySpec twoHosts() {
        return new TopologySpec.LeafSpine(2, 1, 1, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
    }

    private static Scenario with(Scenario s, ComponentSpec cc, ComponentSpec recovery, FailureSpec failures, String queuePairs) {
        SwitchSpec noEcn = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        return new Scenario(s.name(), s.seed(), s.topology(), PacketSpec.defaults(), noEcn, s.loadBalancing(), cc, recovery, s.workload(),
                failures, LimitsSpec.defaults(), new MetricsSpec(0, 0), new NicSpec(1, 1, queuePairs));
    }

    private static Scenario with(Scenario s, String queuePairs) {
        return with(s, s.congestionControl(), s.lossRecovery(), s.failures(), queuePairs);
    }

    private WorkloadSpec.DagTrace dag(String name, String... rows) throws Exception {
        Files.writeString(dir.resolve(name), "id,src,dst,bytes,deps,gap_ns\n" + String.join("\n", rows) + "\n");
        return new WorkloadSpec.DagTrace(name);
    }

    /** Idle 2-hop path at 400 Gb/s, 1 us links: the frame-by-frame time of one message alone (App. B). */
    private static long alonePs(long bytes) {
        return org.lbsim.sim.SingleMessageAnalyticTest.expectedFctPs(2, bytes, 20, 1_000_000);
    }

    @Test
    void twoMessagesPostedTogetherOnAnIdleFabricRunBackToBackOnOneQueuePair() {
        // both messages 0 -> 1 at t = 0, independent: with a queue pair each the NIC interleaves them; on one
        // persistent queue pair the second starts when the first is acknowledged, then runs alone
        long a = 300 * MTU + 100;
        long b = 200 * MTU;
        Scenario base = TestScenarios.scenario(twoHosts(), "ecmp",
                ScenarioTweaks.trace(dir, "two.csv", List.of(new long[] {0, 1, a, 0}, new long[] {0, 1, b, 0})), 1);
        CheckedRun persistent = CheckedRun.of(with(base, "persistent"), dir);
        List<FlowResult> f = persistent.result().flowResults();
        assertThat(f.get(0).startPs()).isZero();
        assertThat(f.get(0).fctPs()).isEqualTo(alonePs(a));
        assertThat(f.get(1).startPs()).as("the second message starts when the first is acknowledged").isEqualTo(alonePs(a));
        assertThat(f.get(1).fctPs()).isEqualTo(alonePs(b));
        assertThat(persistent.cctPs()).isEqualTo(alonePs(a) + alonePs(b));

        CheckedRun perMessage = CheckedRun.of(with(base, "per-message"), dir);
        assertThat(perMessage.result().flowResults().get(1).startPs()).as("own queue pair: starts at once").isZero();
        assertThat(perMessage.fctPs(0)).as("interleaved with the other").isGreaterThan(alonePs(a));
    }

    @Test
    void chainedStepsOnAnIdleFabricTakeTheSumOfTheirAloneTimesUnderBothReadings() throws Exception {
        long a = 256 * MTU;
        long b = 100 * MTU + 7;
        WorkloadSpec chain = dag("chain.csv", "0,0,1," + a + ",,0", "1,0,1," + b + ",0,0");
        for (String mode : List.of("per-message", "persistent")) {
            CheckedRun run = CheckedRun.of(with(TestScenarios.scenario(twoHosts(), "ecmp", chain, 1), mode), dir);
            assertThat(run.fctPs(0)).as(mode).isEqualTo(alonePs(a));
            assertThat(run.result().flowResults().get(1).startPs()).as(mode).isEqualTo(alonePs(a));
            assertThat(run.fctPs(1)).as(mode).isEqualTo(alonePs(b));
        }
    }

    @Test
    void aMessageDueWhileItsQueuePairStillCarriesTheOneBeforeStartsAtThatOnesAcknowledgement() throws Exception {
        // flow 0 (0 -> 1) waits for flow 2 (1 -> 0, one packet); flow 1 (0 -> 1) is independent, so in the order of
        // the dependencies flow 0 follows flow 1 on their queue pair: due when flow 2 completes, it waits for flow 1
        long big = 100 * MTU;
        long small = 10 * MTU;
        WorkloadSpec dag = dag("late.csv", "0,0,1," + small + ",2,0", "1,0,1," + big + ",,0", "2,1,0," + MTU + ",,0");
        CheckedRun run = CheckedRun.of(with(TestScenarios.scenario(twoHosts(), "ecmp", dag, 1), "persistent"), dir);
        List<FlowResult> f = run.result().flowResults();
        assertThat(f.get(2).fctPs()).as("flow 2 is done long before flow 1").isLessThan(f.get(1).fctPs());
        assertThat(f.get(0).finished()).isTrue();
        assertThat(f.get(0).startPs()).as("at flow 1's acknowledgement").isEqualTo(f.get(1).startPs() + f.get(1).fctPs());
        assertThat(f.get(0).fctPs()).isEqualTo(alonePs(small));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void messagesOnOnePersistentQueuePairAreConservedAndCompleteInOrder(long seed) {
        // random sizes and start times between two hosts: each message starts at the later of its start time and the
        // previous message's acknowledgement, and then runs alone (line rate, idle path)
        SplittableRandom rng = new SplittableRandom(seed);
        List<long[]> rows = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < 6; i++) {
            rows.add(new long[] {0, 1, 1 + rng.nextInt(40 * MTU), at});
            at += rng.nextInt(30_000);
        }
        Scenario s = with(TestScenarios.scenario(twoHosts(), "ecmp", ScenarioTweaks.trace(dir, "r.csv", rows), seed), "persistent");
        CheckedRun run = CheckedRun.of(s, dir); // checks packets conserved, queues never negative, pool not leaking
        List<FlowResult> f = run.result().flowResults();
        long previousDone = 0;
        for (int i = 0; i < rows.size(); i++) {
            long start = Math.max(rows.get(i)[3] * 1000, previousDone);
            assertThat(f.get(i).finished()).isTrue();
            assertThat(f.get(i).startPs()).as("message %d", i).isEqualTo(start);
            assertThat(f.get(i).fctPs()).as("message %d", i).isEqualTo(alonePs(rows.get(i)[2]));
            assertThat(f.get(i).packetsSent()).isEqualTo((rows.get(i)[2] + MTU - 1) / MTU);
            previousDone = start + f.get(i).fctPs();
        }
        assertThat(run.result().counters().dropped()).isZero();
    }

    /**
     * Two chained messages 0 -> 1 over NIC-SR + DCQCN; packet 10 of the first is dropped, so its NACK cuts the
     * rate (Themis 2.2) at the next T_D check. T_I = 900 us is far beyond the run, so the rate stays cut.
     */
    private CheckedRun cutThenNext(String queuePairs, WireTap[] tap) throws Exception {
        WorkloadSpec chain = dag("dc.csv", "0,0,1," + 200 * MTU + ",,0", "1,0,1," + 100 * MTU + ",0,0");
        FailureSpec drop = new FailureSpec(List.of(), 0, 0, List.of(new FailureSpec.DroppedPacket(0, 10)));
        Scenario s = with(TestScenarios.scenario(twoHosts(), "ecmp", chain, 1), DCQCN, NIC_SR, drop, queuePairs);
        return CheckedRun.of(s, dir, r -> {
            r.transport().keepAllQueuePairs();
            tap[0] = WireTap.attach(r);
        });
    }

    @Test
    void theDcqcnRateAtTheStartOfTheNextStepIsTheRateAtTheEndOfThePreviousOne() throws Exception {
        WireTap[] tap = new WireTap[1];
        CheckedRun run = cutThenNext("persistent", tap);
        Transport t = run.prepared().transport();
        Dcqcn first = (Dcqcn) t.senderOf(0).congestionControl();
        assertThat(t.senderOf(1).congestionControl()).as("one queue pair, one DCQCN state").isSameAs(first);
        assertThat(first.cuts()).isEqualTo(1);
        long cutMbps = first.rateMbps();
        assertThat(cutMbps).as("cut below line rate").isLessThan(400_000);
        // the first message's last packets and the second message's first ones leave paced at that same rate
        long frame = MTU + PacketSpec.defaults().headerBytes() + PacketSpec.defaults().interFrameGapBytes();
        long paced = Time.serializationPs(frame, cutMbps);
        assertThat(tap[0].firstSentPs(0, 199) - tap[0].firstSentPs(0, 198)).as("end of step 1").isEqualTo(paced);
        assertThat(tap[0].firstSentPs(1, 1) - tap[0].firstSentPs(1, 0)).as("start of step 2").isEqualTo(paced);
        assertThat(tap[0].firstSentPs(1, 0)).as("step 2 waits for step 1's last ACK")
                .isEqualTo(run.result().flowResults().get(1).startPs());
        assertThat(tap[0].resends(1)).isZero();

        WireTap[] fresh = new WireTap[1];
        CheckedRun perMessage = cutThenNext("per-message", fresh);
        Transport u = perMessage.prepared().transport();
        assertThat(u.senderOf(1).congestionControl()).isNotSameAs(u.senderOf(0).congestionControl());
        assertThat(((Dcqcn) u.senderOf(1).congestionControl()).signals()).isZero();
        assertThat(fresh[0].firstSentPs(1, 1) - fresh[0].firstSentPs(1, 0)).as("a fresh queue pair starts at line rate")
                .isEqualTo(Time.serializationPs(frame, 400_000));
        assertThat(perMessage.fctPs(1)).isLessThan(run.fctPs(1));
        assertThat(perMessage.fctPs(0)).isEqualTo(run.fctPs(0));
    }

    /**
     * Into h1 under one leaf (400 Gb/s, 100 ns links): two 2 MB messages from h2 and h3 from t = 0, whose DCQCN holds
     * back at most one cut per CNP interval, so h1's queue keeps growing and marks; and a chain of six 10-packet
     * messages h0 -> h1 (queue pairs 2-7), each waiting for the one before; the CNP interval is 100 us.
     */
    private CheckedRun chainIntoAGrowingQueue(String queuePairs) throws Exception {
        List<String> rows = new ArrayList<>(List.of("0,2,1,2000000,,0", "1,3,1,2000000,,0", "2,0,1," + 10 * MTU + ",,0"));
        for (int i = 3; i < 8; i++) {
            rows.add(i + ",0,1," + 10 * MTU + "," + (i - 1) + ",0");
        }
        WorkloadSpec w = dag("cnp.csv", rows.toArray(String[]::new));
        TopologySpec fourHosts = new TopologySpec.LeafSpine(4, 1, 1, 1, new LinkSpec(400, 100), new LinkSpec(400, 100));
        Scenario b = TestScenarios.scenario(fourHosts, "ecmp", w, 1);
        ComponentSpec slowCnps = new ComponentSpec("dcqcn", new Dcqcn.Params(900, 4, 0, 0.05, 0.1, 1.0 / 256, 1, 1, 0.1, 100, false, true));
        Scenario s = new Scenario(b.name(), b.seed(), b.topology(), PacketSpec.defaults(), b.switches(), b.loadBalancing(), slowCnps, NIC_SR,
                w, FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), new NicSpec(1, 1, queuePairs));
        return CheckedRun.of(s, dir, r -> r.transport().keepAllQueuePairs());
    }

    private static List<Long> cnpsOfTheChain(CheckedRun run) {
        List<Long> cnps = new ArrayList<>();
        for (int q = 2; q < 8; q++) {
            cnps.add(run.prepared().transport().receiverOf(q).cnps());
        }
        return cnps;
    }

    @Test
    void thePersistentQueuePairsReceiverSendsItsNextCnpOnlyOneCnpIntervalAfterThePreviousMessagesLast() throws Exception {
        CheckedRun perMessage = chainIntoAGrowingQueue("per-message");
        CheckedRun persistent = chainIntoAGrowingQueue("persistent");
        List<FlowResult> f = persistent.result().flowResults();
        assertThat(cnpsOfTheChain(perMessage)).as("a queue pair per message: marked messages get a CNP each").containsExactly(0L, 0L, 1L, 1L, 1L, 1L);
        assertThat(f).allMatch(FlowResult::finished);
        assertThat(cnpsOfTheChain(persistent)).as("one queue pair: one CNP per interval across its messages").containsExactly(0L, 0L, 1L, 0L, 0L, 0L);
    }

    @Test
    void aPersistentQueuePairKeepsItsFlowLabelAndAFreshOneDrawsItsOwn() throws Exception {
        // a k = 4 fat tree, hosts 0 -> 15 in different pods: ECMP's label decides the path
        WorkloadSpec chain = dag("fl.csv", "0,0,15," + 20 * MTU + ",,0", "1,0,15," + 20 * MTU + ",0,0", "2,0,15," + 20 * MTU + ",1,0");
        Scenario base = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", chain, 3);
        CheckedRun persistent = CheckedRun.of(with(base, "persistent"), dir, r -> r.transport().keepAllQueuePairs());
        Transport t = persistent.prepared().transport();
        assertThat(t.senderOf(1).entropyPolicy()).isSameAs(t.senderOf(0).entropyPolicy());
        assertThat(t.senderOf(1).entropyOf(0)).isEqualTo(t.senderOf(0).entropyOf(19));
        assertThat(t.senderOf(2).entropyOf(0)).isEqualTo(t.senderOf(0).entropyOf(0));
        CheckedRun perMessage = CheckedRun.of(with(base, "per-message"), dir, r -> r.transport().keepAllQueuePairs());
        Transport u = perMessage.prepared().transport();
        assertThat(u.senderOf(1).entropyPolicy()).isNotSameAs(u.senderOf(0).entropyPolicy());
        assertThat(List.of(u.senderOf(1).entropyOf(0), u.senderOf(2).entropyOf(0))).as("fresh labels (this seed)")
                .doesNotContain(u.senderOf(0).entropyOf(0));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ring", "tree"})
    void aPersistentAllReduceUnderDcqcnIsDeterministicConservedAndChainsEachPeersSteps(String algorithm) {
        WorkloadSpec ar = new WorkloadSpec.Collective("all-reduce", algorithm, 2L << 20, 8, "random", 1, 0, 2, 0);
        Scenario s = with(TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", ar, 5), DCQCN, NIC_SR, FailureSpec.defaults(), "persistent");
        CheckedRun a = CheckedRun.of(s, dir);
        CheckedRun b = CheckedRun.of(s, dir);
        assertThat(b.result().flowResults()).isEqualTo(a.result().flowResults());
        assertThat(b.cctPs()).isEqualTo(a.cctPs());
        List<FlowResult> f = a.result().flowResults();
        assertThat(f).allMatch(FlowResult::finished);
        // on each (src, dst, channel) queue pair a message starts only once the previous one there is done
        var flows = a.prepared().workload().flows();
        java.util.Map<List<Integer>, Long> lastDone = new java.util.HashMap<>();
        for (int i = 0; i < f.size(); i++) {
            List<Integer> key = List.of(flows.get(i).src(), flows.get(i).dst(), flows.get(i).channel());
            Long done = lastDone.get(key);
            if (done != null) {
                assertThat(f.get(i).startPs()).as("flow %d", i).isGreaterThanOrEqualTo(done);
            }
            lastDone.put(key, f.get(i).startPs() + f.get(i).fctPs());
        }
        assertThat(a.prepared().transport().releasedQueuePairs()).as("finished messages are still released").isPositive();
    }

    @Test
    void theDefaultIsOneQueuePairPerMessageAndGivesTheSameRunAsSayingSo() {
        assertThat(NicSpec.defaults().queuePairs()).isEqualTo("per-message");
        assertThat(new NicSpec(1, 1).persistentQueuePairs()).isFalse();
        WorkloadSpec ar = new WorkloadSpec.Collective("all-reduce", "ring", 1L << 20, 6, "random", 1, 0, 1, 0);
        Scenario base = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", ar, 2);
        Scenario unsaid = new Scenario(base.name(), base.seed(), base.topology(), base.packets(), base.switches(), base.loadBalancing(), DCQCN,
                NIC_SR, ar, base.failures(), base.limits());
        Scenario said = new Scenario(base.name(), base.seed(), base.topology(), base.packets(), base.switches(), base.loadBalancing(), DCQCN,
                NIC_SR, ar, base.failures(), base.limits(), MetricsSpec.defaults(), new NicSpec(1, 1, "per-message"));
        CheckedRun a = CheckedRun.of(unsaid);
        assertThat(a.prepared().scenario().nic().persistentQueuePairs()).isFalse();
        assertThat(CheckedRun.of(said).result().flowResults()).isEqualTo(a.result().flowResults());
    }

    @Test
    void anUnknownQueuePairModeIsRejectedNamingTheField() {
        assertThatThrownBy(() -> new NicSpec(1, 1, "sometimes")).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("queuePairs").hasMessageContaining("per-message, persistent");
    }
}
