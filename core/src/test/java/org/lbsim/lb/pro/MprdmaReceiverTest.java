package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lbsim.testing.ReceivingQp;

/** The MPRDMA-style receiver (PRO Fig. 13's baseline): out-of-order data is kept and ACKed; with 'drop' only within L slots of rcv_nxt. */
class MprdmaReceiverTest {
    private final ProCounters counters = new ProCounters();

    @Test
    void withDropThePsnExactlyLBeyondTheExpectedOneIsDroppedAndNackedAndTheOneBelowIsKept() {
        ReceivingQp rx = new ReceivingQp(new MprdmaReceiver(4, counters));
        rx.arrive(0, 0);
        rx.arrive(1, 0);
        rx.arrive(5, 0); // rcv_nxt = 2: 3 beyond, the last slot
        assertThat(rx.holds(5)).isTrue();
        assertThat(rx.discarded()).isZero();
        rx.arrive(6, 0); // 4 = L beyond: no slot
        assertThat(rx.holds(6)).isFalse();
        assertThat(rx.discarded()).isEqualTo(1);
        assertThat(rx.expectedNacks).as("a NACK naming rcv_nxt").containsExactly(2);
        assertThat(rx.acks).as("0, 1 and 5").isEqualTo(3);
        assertThat(counters.mprdmaBitmapDrops).isEqualTo(1);
    }

    @Test
    void withHoldNoPsnIsBeyondTheBitmap() {
        ReceivingQp rx = new ReceivingQp(new MprdmaReceiver(Integer.MAX_VALUE, counters));
        rx.arrive(1_000_000, 0);
        assertThat(rx.holds(1_000_000)).isTrue();
        assertThat(rx.acks).isEqualTo(1);
        assertThat(rx.discarded()).isZero();
    }
}
