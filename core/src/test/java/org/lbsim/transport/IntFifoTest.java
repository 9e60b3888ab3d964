package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The resend queue of PSNs: first in, first out, across the ring's wrap and its doubling. */
class IntFifoTest {

    private static List<Integer> drain(IntFifo fifo) {
        List<Integer> out = new ArrayList<>();
        while (!fifo.isEmpty()) {
            out.add(fifo.peek());
            fifo.poll();
        }
        return out;
    }

    @Test
    void aQueueOfCapacityZeroStillHoldsItsElementsInOrder() {
        IntFifo fifo = new IntFifo(0);
        assertThat(fifo.isEmpty()).isTrue();
        fifo.add(7);
        assertThat(fifo.isEmpty()).isFalse();
        assertThat(fifo.peek()).isEqualTo(7);
        fifo.add(8);
        fifo.add(9);
        assertThat(drain(fifo)).containsExactly(7, 8, 9);
    }

    @Test
    void elementsComeOutInOrderWhenTheRingDoublesWhileWrapped() {
        IntFifo fifo = new IntFifo(3);
        fifo.add(1);
        fifo.add(2);
        fifo.add(3);
        fifo.poll();
        fifo.poll();
        fifo.add(4);
        fifo.add(5); // wrapped: 3 at the ring's end, 4 and 5 at its start
        assertThat(fifo.peek()).isEqualTo(3);
        fifo.add(6); // full: the ring doubles, oldest first
        fifo.add(7);
        assertThat(drain(fifo)).containsExactly(3, 4, 5, 6, 7);
        fifo.add(8);
        assertThat(drain(fifo)).containsExactly(8);
    }

    @Test
    void anyMixOfAddsAndPollsKeepsFirstInFirstOut() {
        SplittableRandom rng = new SplittableRandom(11);
        IntFifo fifo = new IntFifo(2);
        ArrayDeque<Integer> model = new ArrayDeque<>();
        for (int step = 0; step < 2000; step++) {
            if (model.isEmpty() || rng.nextInt(3) > 0) {
                fifo.add(step);
                model.add(step);
            } else {
                assertThat(fifo.peek()).isEqualTo(model.peek());
                fifo.poll();
                model.poll();
            }
            assertThat(fifo.isEmpty()).isEqualTo(model.isEmpty());
        }
        assertThat(drain(fifo)).containsExactlyElementsOf(model);
    }
}
