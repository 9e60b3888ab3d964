package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A NIC's transmitter on {@link SmallFabric} (100 Gb/s: 80 ps per byte; 20 B gap: 1,600 ps; 100 ns
 * links): when it sends, what it counts, how it treats a stale wake-up, and PFC pause and resume.
 */
class NicTimingTest {
    private final SmallFabric f = new SmallFabric(20);
    private final Nic h0 = f.net.nic(0);

    private List<Long> sentAtH1() {
        return f.stacks[1].arrivals.stream().map(SmallFabric.Arrival::sentPs).toList();
    }

    private List<Long> arrivedAtH1() {
        return f.stacks[1].arrivals.stream().map(SmallFabric.Arrival::nicRxPs).toList();
    }

    @Test
    void backToBackFramesLeaveAtLineRateEachFollowedByTheGapAndAreCounted() {
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 1, 1, 500, 0), 0);
        f.send(0, f.frame(0, 1, 2, 64, 0), 0);
        f.sim.run(Long.MAX_VALUE);
        // 1000 B: 0 to 80,000, gap to 81,600; 500 B: to 121,600, gap to 123,200; 64 B: 5,120 ps, to 128,320, gap to 129,920
        assertThat(sentAtH1()).containsExactly(0L, 81_600L, 123_200L);
        assertThat(f.stacks[0].polledPs).as("one wake-up per frame, and one more at the end of the last gap").containsExactly(0L, 81_600L, 123_200L, 129_920L);
        // at l0 at 180,000, 221,600 and 228,320; l0's port sends them from 180,000, 261,600 and 303,200 (each after the gap of the one before)
        assertThat(arrivedAtH1()).containsExactly(360_000L, 401_600L, 408_320L);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::hops).containsOnly(1);
        assertThat(h0.txPackets()).isEqualTo(3);
        assertThat(h0.txBytes()).isEqualTo(1564);
        assertThat(h0.rxPackets()).isZero();
        assertThat(f.net.nic(1).rxPackets()).isEqualTo(3);
        assertThat(f.net.nic(1).txPackets()).isZero();
        assertThat(f.net.injected()).isEqualTo(3);
        assertThat(f.net.delivered()).isEqualTo(3);
        assertThat(f.net.txBytes(f.topo.hostPort(0))).as("a host port's bytes are its NIC's").isEqualTo(1564);
        assertThat(f.conserved()).isTrue();
    }

    @Test
    void aNicKnowsItsHostPortRateAndLink() {
        Nic h2 = f.net.nic(2);
        assertThat(h2.host()).isEqualTo(2);
        assertThat(h2.port()).isEqualTo(f.topo.hostPort(2)).isNotZero();
        assertThat(h2.rateMbps()).isEqualTo(100_000);
        assertThat(h2.link()).isSameAs(f.net.link(f.topo.hostPort(2)));
        assertThat(h2.controlPriority()).isFalse();
        f.net.setNicControlPriority();
        assertThat(h2.controlPriority()).isTrue();
    }

    @Test
    void aFrameReadyLaterIsSentAtItsReadyTime() {
        f.send(0, f.frame(0, 1, 0, 1000, 0), 300_000);
        f.sim.run(Long.MAX_VALUE);
        assertThat(sentAtH1()).containsExactly(300_000L);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 300_000L, 381_600L);
    }

    @Test
    void aKickWhileAFrameIsOnTheLineWaitsForItsGapToEnd() {
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        int[] pending = new int[1];
        f.at(10_000, () -> {
            f.send(0, f.frame(0, 1, 1, 1000, 0), 10_000);
            pending[0] = f.sim.pendingEvents();
        });
        f.sim.run(Long.MAX_VALUE);
        assertThat(pending[0]).as("the kick adds no wake-up to the one pending for 81,600; frame 0's arrival in l0 is the other").isEqualTo(2);
        assertThat(sentAtH1()).containsExactly(0L, 81_600L);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 81_600L, 163_200L);
    }

    @Test
    void aWakeUpReplacedByAnEarlierOneIsIgnoredWhenItComes() {
        // A is due at 500,000; B, handed over at 450,000 and ready then, goes first and holds the line to 531,600:
        // the wake-up asked for A at 500,000 is stale, A waits for the end of B's gap
        f.send(0, f.frame(0, 1, 0, 1000, 0), 500_000);
        f.at(450_000, () -> f.send(0, f.frame(0, 1, 1, 1000, 0), 450_000));
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(1, 0);
        assertThat(sentAtH1()).containsExactly(450_000L, 531_600L);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 450_000L, 531_600L, 613_200L);
    }

    private void pause(Nic nic, long atPs) {
        f.at(atPs, () -> nic.onEvent(EgressPort.PAUSE, 0));
    }

    private void resume(Nic nic, long atPs) {
        f.at(atPs, () -> nic.onEvent(EgressPort.RESUME, 0));
    }

    @Test
    void aPausedNicFinishesItsFrameSendsNothingMoreAndResumesAtTheResume() {
        for (int i = 0; i < 3; i++) {
            f.send(0, f.frame(0, 1, i, 1000, 0), 0);
        }
        List<Long> pausedPs = new ArrayList<>();
        resume(h0, 50_000); // not paused: changes nothing
        pause(h0, 100_000); // frame 1 is on the line, 81,600 to 161,600
        pause(h0, 120_000); // already paused: changes nothing
        f.at(250_000, () -> {
            assertThat(h0.isPaused()).isTrue();
            pausedPs.add(h0.pausedPs(f.sim.nowPs()));
        });
        resume(h0, 300_000);
        f.sim.run(Long.MAX_VALUE);
        assertThat(sentAtH1()).containsExactly(0L, 81_600L, 300_000L);
        assertThat(f.stacks[0].polledPs).as("the wake-up at 163,200 asks the stack nothing").containsExactly(0L, 81_600L, 300_000L, 381_600L);
        assertThat(h0.isPaused()).isFalse();
        assertThat(h0.pauseEvents()).isEqualTo(1);
        assertThat(pausedPs).containsExactly(150_000L);
        assertThat(h0.pausedPs(1_000_000)).isEqualTo(200_000);
    }

    @Test
    void twoPausesAddUpAndTheOpenOneCountsUntilNow() {
        pause(h0, 100_000);
        resume(h0, 130_000);
        pause(h0, 200_000);
        f.sim.run(Long.MAX_VALUE);
        assertThat(h0.pauseEvents()).isEqualTo(2);
        assertThat(h0.isPaused()).isTrue();
        assertThat(h0.pausedPs(200_000)).isEqualTo(30_000);
        assertThat(h0.pausedPs(260_000)).isEqualTo(90_000);
    }

    private Packet ack(int psn) {
        Packet p = f.frame(0, 1, psn, 64, 0);
        p.kind = Packet.ACK;
        return p;
    }

    @Test
    void withControlPriorityAPausedNicStillSendsItsControlFramesButNoData() {
        h0.controlPriority(true);
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 1, 1, 1000, 0), 0);
        f.send(0, ack(2), 0);
        pause(h0, 40_000);
        resume(h0, 300_000);
        f.sim.run(Long.MAX_VALUE);
        // paused at 40,000 with frame 0 on the line: the ACK leaves at 81,600 (64 B, to 86,720, gap to 88,320), frame 1 at the resume
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 2, 1);
        assertThat(sentAtH1()).containsExactly(0L, 81_600L, 300_000L);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 81_600L, 88_320L, 300_000L, 381_600L);
    }

    @Test
    void withoutControlPriorityAPausedNicHoldsItsControlFramesToo() {
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.send(0, f.frame(0, 1, 1, 1000, 0), 0);
        f.send(0, ack(2), 0);
        pause(h0, 40_000);
        resume(h0, 300_000);
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0, 1, 2);
        assertThat(sentAtH1()).containsExactly(0L, 300_000L, 381_600L);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 300_000L, 381_600L, 388_320L);
    }
}
