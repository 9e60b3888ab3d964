package org.lbsim.net;

/**
 * Which of an egress port's two queues sends next when both hold a frame the line may take: the
 * priority queue (control packets of a priority kind, trimmed headers) or the data FIFO. Asked only
 * then, once per frame started; the data FIFO is FIFO, and a data queue paused by PFC never sends.
 * The default, {@link #STRICT_PRIORITY}, always serves the priority queue first (ns-3's queue index 0;
 * htsim's CompositeQueue, whose 100000:1 ratio makes it strict in practice). A strategy with per-port state
 * (a weighted round robin) is one object per port, set with {@link Network#setDequeueStrategy}.
 */
public interface DequeueStrategy {
    /** The priority queue first, always. */
    DequeueStrategy STRICT_PRIORITY = new StrictPriority();

    /** Both queues of {@code port} have a frame ready: true sends the priority queue's head, false the data FIFO's. */
    boolean priorityNext(int port);

    /** The Null Object. */
    final class StrictPriority implements DequeueStrategy {
        private StrictPriority() {
        }

        @Override
        public boolean priorityNext(int port) {
            return true;
        }
    }
}
