package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A NIC that leaves out wake-ups whose outcome is known ({@link Network#skipIdleNicWakes}), on
 * {@link SmallFabric} (80 ps per byte, 20 B gap: 1,600 ps, 100,000 ps links). The wake-up at the end of
 * a frame's gap is left out only when the stack says it stays idle, the frame and its gap are shorter
 * than the link in, and nothing on that link arrives by the end of the gap.
 */
class NicSkippedWakeTest {
    private final SmallFabric f = new SmallFabric(20);
    private final Nic h0 = f.net.nic(0);

    private void skipping() {
        assertThat(f.net.skipIdleNicWakes()).as("every NIC has one link in").isEqualTo(4);
        f.stacks[0].claimsIdle = true;
    }

    @Test
    void theWakeUpAfterTheLastFrameIsLeftOutAndAKickLaterSendsAsUsual() {
        skipping();
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.at(200_000, () -> f.send(0, f.frame(0, 1, 1, 1000, 0), 200_000));
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 200_000L);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::sentPs).containsExactly(0L, 200_000L);
        assertThat(h0.wakesSkipped()).isEqualTo(2);
        assertThat(f.net.nicWakesSkipped()).isEqualTo(2);
        assertThat(h0.kicksInSkippedWindow()).isZero();
        assertThat(f.net.nicKicksInSkippedWindows()).isZero();
    }

    @Test
    void withoutSkippingEveryGapEndsWithAWakeUp() {
        f.stacks[0].claimsIdle = true;
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 81_600L);
        assertThat(h0.wakesSkipped()).isZero();
        assertThat(h0.idleNowPossible()).isFalse();
    }

    @Test
    void aStackThatMayGetWorkKeepsTheWakeUp() {
        f.net.skipIdleNicWakes();
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 81_600L);
        assertThat(h0.wakesSkipped()).isZero();
    }

    /** A stack that does not say whether it stays idle ({@link PacketSource#idleThrough}'s default) is taken as one that may get work. */
    @Test
    void aStackThatDoesNotSayItStaysIdleKeepsTheWakeUp() {
        f.net.skipIdleNicWakes();
        List<Long> polledPs = new ArrayList<>();
        Packet[] next = {f.frame(0, 1, 0, 1000, 0)};
        h0.attach(new PacketSource() {
            @Override
            public Packet poll(long nowPs) {
                polledPs.add(nowPs);
                Packet p = next[0];
                next[0] = null;
                return p;
            }

            @Override
            public long nextReadyPs(long nowPs) {
                return Long.MAX_VALUE;
            }

            @Override
            public void deliver(Packet packet) {
                f.net.pool().release(packet);
            }
        });
        h0.kick();
        f.sim.run(Long.MAX_VALUE);
        assertThat(polledPs).containsExactly(0L, 81_600L);
        assertThat(h0.wakesSkipped()).isZero();
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::psn).containsExactly(0);
    }

    @Test
    void aKickInsideTheLeftOutWindowIsCountedAndWaitsForTheGapToEnd() {
        skipping();
        f.send(0, f.frame(0, 1, 0, 1000, 0), 0);
        // the stack broke its word: work before 81,600, at the end of the window itself, and after it
        f.at(50_000, () -> f.send(0, f.frame(0, 1, 1, 1000, 0), 50_000));
        f.at(163_200, () -> f.send(0, f.frame(0, 1, 2, 1000, 0), 163_200));
        f.at(300_000, () -> f.send(0, f.frame(0, 1, 3, 1000, 0), 300_000));
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[1].arrivals).extracting(SmallFabric.Arrival::sentPs).containsExactly(0L, 81_600L, 163_200L, 300_000L);
        assertThat(h0.kicksInSkippedWindow()).isEqualTo(2);
        assertThat(f.net.nicKicksInSkippedWindows()).isEqualTo(2);
        assertThat(h0.wakesSkipped()).isEqualTo(4);
    }

    @Test
    void aFrameAndGapAsLongAsTheLinkInKeepTheWakeUpAndOneShorterDoesNot() {
        skipping();
        f.send(0, f.frame(0, 1, 0, 1230, 0), 0); // 98,400 + 1,600 = 100,000: a frame sent back could arrive by then
        f.at(200_000, () -> f.send(0, f.frame(0, 1, 1, 1229, 0), 200_000)); // 98,320 + 1,600 = 99,920
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 100_000L, 200_000L);
        assertThat(h0.wakesSkipped()).isEqualTo(1);
    }

    /** h1 sends h0 a 1000 B frame at 0: on l0's port to h0 from 180,000, in h0 at 360,000. */
    private void frameToH0() {
        f.send(1, f.frame(1, 0, 9, 1000, 0), 0);
    }

    @Test
    void aGapEndingWhenAFrameArrivesKeepsTheWakeUpAndOneEndingJustBeforeDoesNot() {
        skipping();
        frameToH0();
        f.send(0, f.frame(0, 1, 0, 1000, 0), 278_400); // gap ends at 360,000
        f.sim.run(Long.MAX_VALUE);
        assertThat(f.stacks[0].polledPs).containsExactly(0L, 278_400L, 360_000L);
        assertThat(h0.wakesSkipped()).isZero();
        assertThat(f.stacks[0].arrivals).extracting(SmallFabric.Arrival::nicRxPs).containsExactly(360_000L);

        SmallFabric g = new SmallFabric(20);
        assertThat(g.net.skipIdleNicWakes()).isEqualTo(4);
        g.stacks[0].claimsIdle = true;
        g.send(1, g.frame(1, 0, 9, 1000, 0), 0);
        g.send(0, g.frame(0, 1, 0, 1000, 0), 278_399); // gap ends at 359,999
        g.sim.run(Long.MAX_VALUE);
        assertThat(g.stacks[0].polledPs).containsExactly(0L, 278_399L);
        assertThat(g.net.nic(0).wakesSkipped()).isEqualTo(1);
    }

    @Test
    void idleNowOnlyWhenSkippingAndTheLineIsFreeNoWakeUpIsPendingAndNothingArrivesNow() {
        SmallFabric plain = new SmallFabric(20);
        boolean[] plainIdle = {true};
        plain.first(10_000, () -> plainIdle[0] = plain.net.nic(0).idleNow());
        plain.sim.run(Long.MAX_VALUE);
        assertThat(plainIdle[0]).as("not skipping").isFalse();

        skipping();
        frameToH0();
        f.send(0, f.frame(0, 1, 0, 1000, 0), 20_000); // on the line from 20,000 to 100,000, its gap to 101,600, no wake-up then
        List<Boolean> idle = new ArrayList<>();
        for (long t : new long[] {15_000, 50_000, 101_599, 101_600, 359_999, 360_000, 370_000}) {
            f.first(t, () -> idle.add(h0.idleNow()));
        }
        f.sim.run(Long.MAX_VALUE);
        assertThat(idle).containsExactly(
                false, // a wake-up is pending for 20,000
                false, false, // the line is busy
                true, true,
                false, // h1's frame arrives at 360,000
                true);
        assertThat(h0.wakesSkipped()).isEqualTo(1);
        h0.wakeSkipped();
        assertThat(h0.wakesSkipped()).as("a stack that left out a wake-up says so").isEqualTo(2);
    }
}
