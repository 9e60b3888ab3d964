package org.lbsim.net;

/**
 * Per-switch code that watches its egress queues: a packet admitted to a port's queue, and a packet
 * starting its transmission (leaving the switch). Themis-D fills its per-QP PSN ring as data leaves
 * the destination ToR for the NIC (Themis 3.3). Observes only: it cannot drop or reorder (an
 * {@link IngressStage} does that). {@link #NONE} by default.
 */
public interface EgressStage {
    EgressStage NONE = new None();

    /** {@code p} joined the queue of {@code port}; {@code queueBytes} now includes it. */
    void onEnqueue(Packet p, int port, long queueBytes);

    /** {@code p} starts leaving on {@code port}; {@code queueBytes} still counts it (it holds its buffer until its gap ends). */
    void onDequeue(Packet p, int port, long queueBytes);

    /** The Null Object. */
    final class None implements EgressStage {
        private None() {
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }
    }
}
