package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.Dcqcn;
import org.lbsim.cc.FixedRate;
import org.lbsim.kernel.Time;
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
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;

/**
 * A host's round robin over its queue pairs, asked directly on a built run before it starts: host 0
 * of a 2-leaf fabric holds queue pairs 0 .. 5 (to hosts 1, 2, 3, 1, 2, 3, of {@link #PACKETS}
 * packets), NIC selective repeat with a window larger than any message, so a queue pair is held back
 * only by its congestion control or by having sent its whole message.
 */
class HostStackRingTest {
    static final int[] PACKETS = {4, 6, 3, 5, 1, 2};
    private static final PacketSpec PK = PacketSpec.defaults();
    private static final ComponentSpec NIC_SR = new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));
    /** Paced at half the line rate, every queue pair from the same instant. */
    static final ComponentSpec HALF_RATE = new ComponentSpec("fixed-rate", new FixedRate.Params(false, 50, false));
    static final long HALF_RATE_PERIOD_PS = Time.serializationPs(PK.mtuBytes() + PK.headerBytes() + PK.interFrameGapBytes(), 50_000);

    @TempDir
    Path dir;

    /** The six queue pairs of host 0, all starting at time 0, under ECMP. */
    static Scenario scenario(Path dir, ComponentSpec cc, NicSpec nic) {
        return scenario(dir, "ecmp", cc, nic);
    }

    /** The six queue pairs of host 0, all starting at time 0, under load balancer {@code lb}. */
    static Scenario scenario(Path dir, String lb, ComponentSpec cc, NicSpec nic) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 2, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        List<long[]> rows = new ArrayList<>();
        for (int q = 0; q < PACKETS.length; q++) {
            rows.add(ScenarioTweaks.flow(0, 1 + q % 3, PACKETS[q] * (long) PK.mtuBytes()));
        }
        return new Scenario("host-ring", 1, topo, PK, switches, TestScenarios.lb(lb), cc, NIC_SR,
                ScenarioTweaks.trace(dir, "ring.csv", rows), FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(0, 0), nic);
    }

    /** The built run (nothing simulated yet); {@code exact}: without the shortcuts, every look made. */
    static PreparedRun built(Path dir, ComponentSpec cc, NicSpec nic, boolean exact) {
        Scenario s = scenario(dir, cc, nic);
        return exact ? Simulation.prepareExact(s, dir) : Simulation.prepare(s, dir);
    }

    private PreparedRun lineRate(int batchPackets, boolean controlPriority) {
        return built(dir, TestScenarios.lineRate(), new NicSpec(1, batchPackets, "per-message", controlPriority), false);
    }

    /** "q:psn" of each poll at {@code nowPs} until {@code polls} were made ("-" for none). */
    private static List<String> polls(HostStack stack, long nowPs, int polls) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            out.add(name(stack.poll(nowPs)));
        }
        return out;
    }

    private static String name(Packet p) {
        if (p == null) {
            return "-";
        }
        return p.kind == Packet.DATA ? p.flow + ":" + p.psn : "ctl" + p.psn;
    }

    private static void activate(Transport t, int... qps) {
        for (int q : qps) {
            t.stack(0).activate(t.senderOf(q));
        }
    }

    @Test
    void queuePairsTakeTurnsOnePacketEachAndTheRoundClosesOverThoseStillSending() {
        Transport t = lineRate(1, false).transport();
        activate(t, 0, 1, 2, 3, 4, 5);

        assertThat(polls(t.stack(0), 0, 23)).containsExactly(
                "0:0", "1:0", "2:0", "3:0", "4:0", "5:0",
                "0:1", "1:1", "2:1", "3:1", "5:1",
                "0:2", "1:2", "2:2", "3:2",
                "0:3", "1:3", "3:3",
                "1:4", "3:4",
                "1:5",
                "-", "-");
        assertThat(t.stack(0).nextReadyPs(0)).as("nothing paced: nothing to wait for but feedback").isEqualTo(Long.MAX_VALUE);
        assertThat(t.stack(0).pacedLooksSkipped()).as("an empty ring is no paced ring").isZero();
    }

    @Test
    void withBatchesOfTwoEachQueuePairSendsTwoInARowBeforeTheNextOne() {
        Transport t = lineRate(2, false).transport();
        activate(t, 0, 1, 2, 3, 4, 5);

        assertThat(polls(t.stack(0), 0, 22)).containsExactly(
                "0:0", "0:1", "1:0", "1:1", "2:0", "2:1", "3:0", "3:1", "4:0", "5:0", "5:1",
                "0:2", "0:3", "1:2", "1:3", "2:2", "3:2", "3:3",
                "1:4", "1:5", "3:4",
                "-");
    }

    @Test
    void aQueuePairThatJoinsIsServedAtTheEndOfTheRound() {
        Transport t = lineRate(1, false).transport();
        activate(t, 0, 1);
        assertThat(polls(t.stack(0), 0, 3)).containsExactly("0:0", "1:0", "0:1");
        activate(t, 2);
        assertThat(polls(t.stack(0), 0, 6)).containsExactly("1:1", "0:2", "2:0", "1:2", "0:3", "2:1");
        activate(t, 3);
        assertThat(polls(t.stack(0), 0, 6)).containsExactly("1:3", "2:2", "3:0", "1:4", "3:1", "1:5");
    }

    @Test
    void controlAndDataAlternateWhileBothWaitUnlessControlHasPriority() {
        PreparedRun alternating = lineRate(1, false);
        HostStack stack = alternating.transport().stack(0);
        activate(alternating.transport(), 0);
        addControl(alternating, 2);
        assertThat(stack.controlBacklog()).isEqualTo(2);
        assertThat(stack.pollUnpaused(0)).as("without priority a pause stops control too").isNull();
        assertThat(polls(stack, 0, 6)).containsExactly("0:0", "ctl0", "0:1", "ctl1", "0:2", "0:3");
        assertThat(stack.controlBacklog()).isZero();

        PreparedRun priority = lineRate(1, true);
        HostStack first = priority.transport().stack(0);
        activate(priority.transport(), 0);
        addControl(priority, 2);
        assertThat(name(first.pollUnpaused(0))).as("control leaves a paused NIC").isEqualTo("ctl0");
        addControl(priority, 1);
        assertThat(polls(first, 0, 4)).containsExactly("ctl1", "ctl0", "0:0", "0:1");
        assertThat(first.pollUnpaused(0)).as("no control waiting").isNull();
    }

    /** Queues {@code n} ACKs on host 0, numbered by their PSN from 0. */
    private static void addControl(PreparedRun run, int n) {
        for (int i = 0; i < n; i++) {
            Packet ack = run.network().pool().acquire();
            ack.kind = Packet.ACK;
            ack.psn = i;
            run.transport().stack(0).controlQueue().add(ack);
        }
    }

    @Test
    void aRingWhoseQueuePairsAllWaitForPacingThatNoFeedbackMovesIsNotLookedAtAgainBeforeTheEarliestMaySend() {
        long period = HALF_RATE_PERIOD_PS;
        for (boolean exact : new boolean[] {false, true}) {
            Transport t = built(dir, HALF_RATE, new NicSpec(1, 1), exact).transport();
            HostStack stack = t.stack(0);
            activate(t, 0, 1);
            assertThat(t.senderOf(0).pacingIgnoresFeedback).isTrue();
            assertThat(polls(stack, 0, 3)).containsExactly("0:0", "1:0", "-");
            assertThat(stack.nextReadyPs(0)).as("both may send again one period on").isEqualTo(period);
            assertThat(polls(stack, 1, 1)).containsExactly("-");
            assertThat(polls(stack, period - 1, 1)).containsExactly("-");
            assertThat(stack.pacedLooksSkipped()).as("exact %s", exact).isEqualTo(exact ? 0 : 2);
            assertThat(polls(stack, period, 3)).containsExactly("0:1", "1:1", "-");
            assertThat(stack.nextReadyPs(period)).isEqualTo(2 * period);

            // a queue pair joining makes the next look ask; the others are passed on their last answer
            activate(t, 2);
            assertThat(polls(stack, period + 5, 2)).containsExactly("2:0", "-");
            assertThat(stack.nextReadyPs(period + 5)).as("the earliest of the passed and the asked").isEqualTo(2 * period);
            assertThat(stack.heldQpsPassed()).as("exact %s", exact).isEqualTo(exact ? 0 : 4);
            assertThat(polls(stack, period + 6, 1)).containsExactly("-");
            assertThat(stack.pacedLooksSkipped()).as("exact %s", exact).isEqualTo(exact ? 0 : 3);

            // a pacing change (here rho_max, which a fixed rate ignores) makes the next look ask every queue pair
            t.setRhoMaxMbps(25_000);
            assertThat(polls(stack, period + 7, 1)).containsExactly("-");
            assertThat(stack.pacedLooksSkipped()).as("exact %s", exact).isEqualTo(exact ? 0 : 3);
            assertThat(stack.heldQpsPassed()).as("exact %s", exact).isEqualTo(exact ? 0 : 4);
            assertThat(polls(stack, period + 8, 1)).containsExactly("-");
            assertThat(stack.pacedLooksSkipped()).as("exact %s", exact).isEqualTo(exact ? 0 : 4);
            assertThat(polls(stack, 2 * period, 4)).containsExactly("0:2", "1:2", "-", "-");
            assertThat(t.pacedLooksSkipped()).isEqualTo(stack.pacedLooksSkipped());
            assertThat(t.heldQpsPassed()).isEqualTo(stack.heldQpsPassed());
        }
    }

    @Test
    void aRingPacedByACutDcqcnRateIsLookedAtEveryTimeForItsPacingMovesWithFeedback() {
        Dcqcn.Params dcqcn = Dcqcn.Params.defaults();
        Transport t = built(dir, new ComponentSpec("dcqcn", dcqcn), new NicSpec(1, 1), false).transport();
        HostStack stack = t.stack(0);
        t.senderOf(0).onCnp(0); // the first cut comes at the first decrease check; the CNP puts each in the ring
        t.senderOf(1).onCnp(0);
        long cutPs = Time.us(dcqcn.rateDecreaseIntervalUs());
        assertThat(t.senderOf(0).pacingIgnoresFeedback).isFalse();
        assertThat(polls(stack, cutPs, 3)).containsExactly("0:0", "1:0", "-");
        assertThat(stack.nextReadyPs(cutPs)).isGreaterThan(cutPs).isLessThan(Long.MAX_VALUE);
        assertThat(polls(stack, cutPs + 1, 2)).containsExactly("-", "-");
        assertThat(stack.pacedLooksSkipped()).isZero();
        assertThat(stack.heldQpsPassed()).isZero();
    }

    /** Delivers queue pair {@code q}'s data PSNs 0 .. {@code psns - 1} to its receiver's host, and every answer back to host 0. */
    private static void acknowledge(Transport t, int q, int psns) {
        HostStack receiverHost = t.stack(1 + q % 3);
        for (int psn = 0; psn < psns; psn++) {
            receiverHost.deliver(t.senderOf(q).newDuplicate(psn));
        }
        while (receiverHost.controlBacklog() > 0) {
            t.stack(0).deliver(receiverHost.controlQueue().poll());
        }
    }

    @Test
    void aQueuePairThatCompletesBetweenLooksLeavesTheRoundAndTheOthersKeepTheirTurns() {
        List<String> afterRoundOne = List.of("0:1", "1:1", "2:1", "3:1", "5:1", "0:2", "1:2", "2:2", "3:2", "0:3", "1:3", "3:3", "1:4", "3:4",
                "1:5", "-");
        // behind the cursor: the round goes on where it was
        Transport behind = lineRate(1, false).transport();
        activate(behind, 0, 1, 2, 3, 4, 5);
        assertThat(polls(behind.stack(0), 0, 6)).containsExactly("0:0", "1:0", "2:0", "3:0", "4:0", "5:0");
        acknowledge(behind, 4, 1);
        assertThat(behind.senderOf(4).completedPs()).isZero();
        assertThat(behind.completedFlows()).isEqualTo(1);
        assertThat(polls(behind.stack(0), 0, 16)).containsExactlyElementsOf(afterRoundOne);

        // at the cursor: the next one in the round has its turn
        Transport at = lineRate(1, false).transport();
        activate(at, 0, 1, 2, 3, 4, 5);
        assertThat(polls(at.stack(0), 0, 10)).endsWith("0:1", "1:1", "2:1", "3:1");
        acknowledge(at, 4, 1);
        assertThat(polls(at.stack(0), 0, 12)).containsExactlyElementsOf(afterRoundOne.subList(4, 16));

        // at the cursor in the last slot: the round starts again at the first
        Transport last = lineRate(1, false).transport();
        activate(last, 0, 1, 2, 3, 4, 5);
        assertThat(polls(last.stack(0), 0, 18)).endsWith("0:3", "1:3", "3:3");
        acknowledge(last, 0, 4);
        assertThat(last.senderOf(0).completedPs()).isZero();
        assertThat(polls(last.stack(0), 0, 4)).containsExactly("1:4", "3:4", "1:5", "-");
    }
}
