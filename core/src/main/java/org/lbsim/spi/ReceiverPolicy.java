package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * What the receiving RNIC of one queue pair does with the data it gets: what it keeps and what it
 * answers (ACK, ACK with a selective-ack map, NACK carrying the expected PSN, a packet of a
 * scheme's own kind), which is all the sender's loss recovery ever learns. One instance per queue
 * pair, so a policy may keep state (one NACK per ePSN, an out-of-order window, a wait timer).
 *
 * <p>{@link ReceiverQp} does the bookkeeping every RNIC does before a policy is asked: counting,
 * the bitmap of PSNs held, the expected PSN, CNPs and out-of-order statistics. The policy acts
 * through the {@link ReceiverQp} it is handed: {@link ReceiverQp#keep}, {@link ReceiverQp#discard},
 * {@link ReceiverQp#ack}, {@link ReceiverQp#sack}, {@link ReceiverQp#nack}, {@link ReceiverQp#send},
 * and one timer per queue pair ({@link ReceiverQp#setTimer}) that calls {@link #onTimer} back.
 * Answers refer to the latest data packet that arrived (its PSN, entropy and timestamps).
 */
public interface ReceiverPolicy {
    /**
     * New data beyond the expected PSN (out of order; the out-of-order statistics already saw it).
     * Keep it ({@link ReceiverQp#keep}) or throw it away ({@link ReceiverQp#discard}), and answer.
     */
    void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs);

    /** Data with the expected PSN: already kept and the expected PSN advanced. By default a cumulative ACK. */
    default void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.ack();
    }

    /** Data the receiver already holds (counted as a duplicate; RNICs drop it). By default a cumulative ACK. */
    default void onDuplicate(ReceiverQp rx, Packet data, long nowPs) {
        rx.ack();
    }

    /**
     * A data packet whose payload a switch cut reached the receiver: only its header, {@link Packet#headerOnly}
     * (packet trimming; NDP 3.1-3.2). Nothing is kept. By default a NACK for exactly that PSN
     * ({@link ReceiverQp#nackTrimmed}), or a cumulative ACK when the receiver already holds it.
     */
    default void onTrimmed(ReceiverQp rx, Packet header, long nowPs) {
        if (rx.holds(header.psn)) {
            rx.ack();
        } else {
            rx.nackTrimmed(header.psn);
        }
    }

    /** The timer set with {@link ReceiverQp#setTimer} expired. */
    default void onTimer(ReceiverQp rx, long nowPs) {
    }

    /** A packet of a scheme's own kind reached this receiver (see {@link PacketKinds#TO_RECEIVER}); the stack releases it after. */
    default void onSchemePacket(ReceiverQp rx, Packet p, long nowPs) {
        throw new IllegalStateException("receiver policy " + getClass().getSimpleName() + " does not handle packet kind " + p.kind);
    }
}
