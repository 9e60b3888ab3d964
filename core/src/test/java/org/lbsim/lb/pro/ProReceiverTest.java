package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.testing.ReceivingQp;

/**
 * PRO's receiver (III-B, Algorithm 2) driven by hand: every arrival is ACKed, a PSN older than
 * tail - wnd is NACKed once, and QP_TIMEOUT halves the window when the head has not moved for the
 * timeout while a hole is open.
 */
class ProReceiverTest {
    private static final long TIMEOUT = Time.us(80);
    private final ProCounters counters = new ProCounters();

    private ReceivingQp receiver(int window) {
        return new ReceivingQp(new ProReceiver(window, TIMEOUT, counters));
    }

    private static int window(ReceivingQp rx) {
        return ((ProReceiver) rx.policy()).window();
    }

    @Test
    void everyArrivalIsAckedAndARepeatedOneWidensTheWindowByOne() {
        ReceivingQp rx = receiver(4);
        rx.arrive(0, 0);
        rx.arrive(2, 10);
        rx.arrive(0, 20);
        assertThat(rx.acks).as("in order, out of order, repeated").isEqualTo(3);
        assertThat(window(rx)).isEqualTo(5);
        assertThat(counters.repeats).isEqualTo(1);
    }

    @Test
    void aMissingPsnOlderThanTailMinusTheWindowIsNackedOnceFromPsnZeroOn() {
        ReceivingQp rx = receiver(2);
        rx.arrive(1, 0);
        rx.arrive(2, 0);
        assertThat(rx.sentPsns()).as("0 = tail - wnd: still reordering").isEmpty();
        rx.arrive(3, 0);
        assertThat(rx.sentPsns()).containsExactly(0);
        rx.arrive(5, 0);
        rx.arrive(6, 0);
        assertThat(rx.sentPsns()).as("0 once; 4 = 6 - 2 is still reordering").containsExactly(0);
        rx.arrive(7, 0);
        assertThat(rx.sentPsns()).as("4 < 7 - 2").containsExactly(0, 4);
        assertThat(counters.nacks).isEqualTo(2);
    }

    @Test
    void arrivalsThatLeaveTheHeadWhereItWasDoNotPostponeTheTimeout() {
        ReceivingQp rx = receiver(8);
        rx.arrive(0, 0);
        assertThat(rx.timer).as("no hole").isEqualTo(Long.MAX_VALUE);
        rx.arrive(2, Time.us(10));
        assertThat(rx.timer).as("the hole at 1 opens: its clock starts").isEqualTo(Time.us(90));
        rx.arrive(3, Time.us(50));
        rx.fire();
        assertThat(window(rx)).as("QP_TIMEOUT: the head has stood at 1 since 10 us").isEqualTo(4);
        assertThat(counters.timeouts).isEqualTo(1);
        assertThat(rx.timer).as("re-armed while the hole is open").isEqualTo(Time.us(170));
    }

    @Test
    void aTimerThatFiresAfterTheHeadMovedIsPostponedToOneTimeoutAfterThatMove() {
        ReceivingQp rx = receiver(8);
        rx.arrive(0, 0);
        rx.arrive(2, Time.us(10));
        rx.arrive(4, Time.us(20));
        rx.arrive(1, Time.us(30)); // the head moves to 3; the hole at 3 is still open
        assertThat(rx.timer).isEqualTo(Time.us(90));
        rx.fire();
        assertThat(window(rx)).as("no timeout: the head moved 60 us ago").isEqualTo(8);
        assertThat(rx.timer).isEqualTo(Time.us(110));
        rx.fire();
        assertThat(window(rx)).isEqualTo(4);
        assertThat(counters.timeouts).isEqualTo(1);
    }

    @Test
    void aHoleThatOpensAfterTheLastOneClosedStartsItsOwnTimeout() {
        ReceivingQp rx = receiver(8);
        rx.arrive(1, 0);
        assertThat(rx.timer).isEqualTo(Time.us(80));
        rx.arrive(0, Time.us(5));
        assertThat(rx.timer).as("the hole closed: nothing can time out").isEqualTo(Long.MAX_VALUE);
        rx.arrive(3, Time.us(50));
        assertThat(rx.timer).isEqualTo(Time.us(130));
    }
}
