package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * The receiving half of one queue pair as its {@link ReceiverPolicy} sees it: the policy keeps,
 * discards and answers data through it and may set one timer. Answers refer to the latest data
 * packet that arrived (its PSN, entropy and timestamps).
 */
public interface ReceiverQp {
    /** Keeps an out-of-order data packet (only from {@link ReceiverPolicy#onOutOfOrder}): it joins the reorder buffer. */
    void keep(Packet data);

    /** Throws an out-of-order data packet away (counted; go-back-N). */
    void discard();

    /** Answers the latest data packet with a cumulative ACK. */
    void ack();

    /** Answers the latest data packet with an ACK carrying the selective-ack map of the 64 PSNs above the cumulative ack. */
    void sack();

    /** Sends a NACK carrying the expected PSN (in {@code psn} and {@code cumAck}). */
    void nack();

    /**
     * NACKs {@code psn}, whose payload a switch cut (NDP 3.2: the receiver answers a trimmed header with a
     * NACK): the NACK carries {@code psn} and the expected PSN as {@code cumAck}. The next {@link #nack()}
     * for that same expected PSN is then not sent (this one already asked for it).
     */
    void nackTrimmed(int psn);

    /**
     * A payload-free packet of {@code kind} (a scheme's registered kind) to the sender, labelled and
     * timestamped like an ACK of the latest data packet; fill in what else it carries, then {@link #send} it.
     */
    Packet newControl(byte kind);

    /** Queues a packet made by {@link #newControl} for the NIC. */
    void send(Packet p);

    /**
     * Sets the policy's one timer to fire at {@code atPs} (replacing any pending one); the policy's
     * {@link ReceiverPolicy#onTimer} is then called. A pending timer keeps the simulation running: cancel it when done.
     */
    void setTimer(long atPs);

    /** Cancels the pending timer, if any. */
    void cancelTimer();

    /** When the policy's timer fires, or {@link Long#MAX_VALUE}. */
    long timerPs();

    /** Whether the receiver holds data PSN {@code psn}. */
    boolean holds(int psn);

    int qp();

    ReceiverPolicy policy();

    /** When the receiver first held the whole message, or -1. */
    long completedPs();

    long receivedPackets();

    /** Data packets that arrived although the receiver already had them. */
    long duplicates();

    /** Out-of-order data thrown away (go-back-N). */
    long discarded();

    long nacks();

    /** Out-of-order packets this receiver holds now (its reorder buffer). */
    int heldOutOfOrder();

    long cnps();

    /** The next PSN the receiver expects. */
    int expectedPsn();

    /** A packet of a scheme's own kind reached this receiver ({@link PacketKinds#TO_RECEIVER}): its policy handles it; the stack releases it. */
    void onSchemePacket(Packet p, long nowPs);
}
