package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;

/**
 * Retransmissions split into necessary and spurious (a copy of a PSN the receiver already held).
 * SACK over ECMP only resends what was really lost, so none of its retransmissions is spurious;
 * commodity NIC-SR under packet spraying takes reordering for loss (Themis 2.2), so on a fabric that
 * loses nothing every one of its retransmissions is spurious.
 */
class SpuriousVersusNecessaryTest {
    private static final int PACKETS = 128;
    private static final int DROPS = 8;

    private static Scenario permutation(String lb, ComponentSpec recovery, List<DroppedPacket> drops, long seed) {
        return new Scenario("spurious", seed, TestScenarios.fatTree(4), PacketSpec.defaults(), SwitchSpec.defaults(), TestScenarios.lb(lb),
                TestScenarios.lineRate(), recovery, new WorkloadSpec.Permutation(PACKETS * 4096L, 0), new FailureSpec(List.of(), 0, 0, drops),
                LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    /** {@link #DROPS} distinct (queue pair, PSN) pairs drawn from the seed, the last packet of a flow included now and then. */
    private static List<DroppedPacket> randomDrops(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        Set<Long> seen = new HashSet<>();
        List<DroppedPacket> drops = new ArrayList<>();
        while (drops.size() < DROPS) {
            int qp = rng.nextInt(16);
            int psn = rng.nextInt(4) == 0 ? PACKETS - 1 - rng.nextInt(4) : rng.nextInt(PACKETS);
            if (seen.add(((long) qp << 32) | psn)) {
                drops.add(new DroppedPacket(qp, psn));
            }
        }
        return drops;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void sackOverEcmpResendsExactlyTheLostPacketsAndNothingSpurious(long seed) {
        List<DroppedPacket> drops = randomDrops(seed);
        CheckedRun run = CheckedRun.of(permutation("ecmp", new ComponentSpec("sack", new SackThreshold.Params(32, 80)), drops, seed));
        RunResult r = run.result();
        Transport t = run.prepared().transport();
        long lost = 0;
        for (int q = 0; q < t.flowCount(); q++) {
            lost += t.lostData(q);
        }
        String measured = "drops " + drops + ": injected " + run.prepared().network().injectedDrops() + ", data lost " + lost
                + ", retransmissions " + r.counters().retransmissions() + ", spurious " + r.counters().spuriousRetransmissions()
                + ", timeouts " + r.counters().timeouts();

        assertThat(r.flowsFinished()).as(measured).isEqualTo(16);
        assertThat(run.prepared().network().injectedDrops()).as(measured).isEqualTo(DROPS);
        assertThat(r.counters().spuriousRetransmissions()).as(measured).isZero();
        assertThat(r.counters().retransmissions()).as("one resend per lost packet; " + measured).isEqualTo(lost);
        for (FlowResult f : r.flowResults()) {
            assertThat(f.duplicatesReceived()).as("flow %d; %s", f.flow(), measured).isZero();
            assertThat(f.retransmissions()).as("flow %d; %s", f.flow(), measured).isEqualTo(t.lostData(f.flow()));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void nicSelectiveRepeatUnderSprayingWithoutLossRetransmitsOnlySpuriously(long seed) {
        CheckedRun run = CheckedRun.of(permutation("host-spray", new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)), List.of(), seed));
        RunResult r = run.result();
        long sent = r.flowResults().stream().mapToLong(FlowResult::packetsSent).sum();
        String measured = "retransmissions " + r.counters().retransmissions() + " of " + sent + " packets sent, spurious "
                + r.counters().spuriousRetransmissions() + ", out-of-order arrivals " + r.outOfOrder().arrivals();

        assertThat(r.flowsFinished()).as(measured).isEqualTo(16);
        assertThat(r.counters().dropped()).as(measured).isZero();
        assertThat(r.counters().timeouts()).as(measured).isZero();
        assertThat(r.counters().retransmissions()).as(measured).isPositive();
        assertThat(r.counters().spuriousRetransmissions()).as(measured).isEqualTo(r.counters().retransmissions());
        for (FlowResult f : r.flowResults()) {
            assertThat(f.duplicatesReceived()).as("flow %d; %s", f.flow(), measured).isEqualTo(f.retransmissions());
            assertThat(f.packetsSent()).as("flow %d; %s", f.flow(), measured).isEqualTo(PACKETS + f.retransmissions());
        }
    }
}
