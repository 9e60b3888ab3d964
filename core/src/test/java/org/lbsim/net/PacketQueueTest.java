package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The intrusive FIFO: first in, first out, its head visible without taking it. */
class PacketQueueTest {
    @Test
    void peekShowsTheOldestPacketAndPollTakesItInOrderOfArrival() {
        PacketPool pool = new PacketPool();
        Packet a = pool.acquire();
        Packet b = pool.acquire();
        PacketQueue q = new PacketQueue();
        assertThat(q.peek()).isNull();
        assertThat(q.isEmpty()).isTrue();
        q.add(a);
        q.add(b);
        assertThat(q.peek()).isSameAs(a);
        assertThat(q.size()).isEqualTo(2);
        assertThat(q.poll()).isSameAs(a);
        assertThat(a.next).as("a polled packet is unlinked").isNull();
        assertThat(q.peek()).isSameAs(b);
        assertThat(q.poll()).isSameAs(b);
        assertThat(q.peek()).isNull();
        assertThat(q.poll()).isNull();
        assertThat(q.size()).isZero();
        q.add(a);
        assertThat(q.peek()).as("usable again once drained").isSameAs(a);
    }
}
