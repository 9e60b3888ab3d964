package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.MSwift;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.sim.TestScenarios;

/**
 * What a sender hands its congestion control, seen through MSwift's window on {@link ForcedTimeoutTest}'s
 * two hosts (six packets, go-back-N with an 80 us timeout): on an idle fabric every ACK comes back below
 * MSwift's target delay, so each adds {@code additiveIncrease / window}; a retransmission timeout cuts the
 * window by {@code maxDecrease}. The expected window is replayed step by step from the window the queue
 * pair starts with.
 */
class SenderCongestionControlWiringTest {
    private static final MSwift.Params SWIFT = new MSwift.Params(113_000, 1.0, 0.8, 0.5, 0.1);
    private static final ComponentSpec GO_BACK_N = new ComponentSpec("go-back-n", new GoBackN.Params(80));

    @TempDir
    Path dir;

    private static Scenario withSwift(Scenario s) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(),
                new ComponentSpec("mswift", SWIFT), s.lossRecovery(), s.workload(), s.failures(), s.limits(), s.metrics(), s.nic(),
                s.trafficClasses());
    }

    private static double afterAcks(double window, int acks) {
        double w = window;
        for (int i = 0; i < acks; i++) {
            w += SWIFT.additiveIncrease() / Math.max(1, w);
        }
        return w;
    }

    private PreparedRun ran(List<DroppedPacket> drops, double[] startWindow) {
        Scenario s = withSwift(ForcedTimeoutTest.twoHosts(dir, TestScenarios.lb("ecmp"), GO_BACK_N, ForcedTimeoutTest.PACKETS, drops));
        PreparedRun run = Simulation.prepare(s, dir);
        run.transport().keepAllQueuePairs();
        startWindow[0] = ((MSwift) run.transport().congestionControlOf(0)).windowPackets();
        run.run();
        Invariants.check(run);
        return run;
    }

    @Test
    void everyAckOfTheMessageReachesTheCongestionControl() {
        double[] start = new double[1];
        PreparedRun run = ran(List.of(), start);
        MSwift cc = (MSwift) run.transport().congestionControlOf(0);
        assertThat(run.transport().timeouts(0)).isZero();
        assertThat(cc.windowPackets()).isEqualTo(afterAcks(start[0], ForcedTimeoutTest.PACKETS));
    }

    @Test
    void aRetransmissionTimeoutReachesTheCongestionControlBetweenTheAcksBeforeAndAfterIt() {
        double[] start = new double[1];
        PreparedRun run = ran(List.of(new DroppedPacket(0, ForcedTimeoutTest.LOST)), start);
        MSwift cc = (MSwift) run.transport().congestionControlOf(0);
        assertThat(run.transport().timeouts(0)).isEqualTo(1);
        double beforeTimeout = afterAcks(start[0], ForcedTimeoutTest.LOST);
        double cut = Math.max(SWIFT.minWindowPackets(), beforeTimeout * (1 - SWIFT.maxDecrease()));
        assertThat(cc.windowPackets()).isEqualTo(afterAcks(cut, 1));
    }
}
