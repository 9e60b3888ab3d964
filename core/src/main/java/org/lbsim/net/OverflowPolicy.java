package org.lbsim.net;

/**
 * What a switch's egress port does with a packet its buffer refuses (the admission said no: the
 * port's share of the buffer, or PFC's accounting, is full). The default, {@link #DROP_TAIL}, drops
 * it and the port counts the drop, as every port always did. A policy may instead rewrite the
 * packet and hand it back to the port through {@link EgressPort#enqueuePriority} (packet trimming:
 * the payload cut, the header sent ahead of the data). One policy object serves every switch port of
 * a run ({@link Network#setOverflowPolicy}); it is called only on overflow, never for a packet that fits.
 * It must allocate, box and hash nothing; counts go to {@link Network#counter} slots.
 */
public interface OverflowPolicy {
    /** Drop-tail: the refused packet is dropped and counted as a buffer drop. */
    OverflowPolicy DROP_TAIL = new DropTail();

    /**
     * {@code p} does not fit in {@code port}'s buffer. Return true once the policy has taken it
     * (queued it with {@link EgressPort#enqueuePriority}); false lets the port drop and count it.
     */
    boolean onOverflow(EgressPort port, Packet p);

    /**
     * Whether packets this policy queues may overtake data already queued at the port: the port then
     * keeps the exact path (a wake-up per dequeue), since a departure is no longer known at enqueue.
     */
    default boolean reorders() {
        return false;
    }

    /** Builds a run's policy (registered in {@code org.lbsim.registry.OverflowPolicies}). */
    @FunctionalInterface
    interface Factory {
        /** @param headerBytes the header of a data packet (the run's {@code packets.headerBytes}) */
        OverflowPolicy create(Network network, int headerBytes);
    }

    /** The Null Object. */
    final class DropTail implements OverflowPolicy {
        private DropTail() {
        }

        @Override
        public boolean onOverflow(EgressPort port, Packet p) {
            return false;
        }
    }
}
