package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * How fast one queue pair may send. Rate-based algorithms answer with the earliest time of the
 * next packet; window-based ones answer {@link Long#MAX_VALUE} while the window is full and are
 * asked again when an ACK arrives.
 */
public interface CongestionControl {
    /** Earliest time the next data packet may start; {@code <= nowPs} means now. */
    long earliestSendPs(long nowPs, long inflightBytes);

    /** Whether {@link #earliestSendPs} only reads state, so asking it once more changes nothing. */
    default boolean earliestSendPsIsPure() {
        return false;
    }

    /**
     * Whether {@link #earliestSendPs}, once later than now, gives that same time at every instant before it
     * until this queue pair sends, starts ({@link #onStart}) or hears of a new rho_max: no ACK, NACK, CNP or
     * timeout moves it. Its host may then leave such a queue pair unasked while it is held back.
     */
    default boolean pacingIgnoresFeedback() {
        return false;
    }

    /** A data packet of {@code wireBytes} (headers included) started at {@code nowPs}. */
    void onSent(int wireBytes, long nowPs);

    /** An ACK arrived (carries ECN echo and the echoed send time). */
    /**
     * The queue pair starts sending now: at its start time, or, for a step of a collective, when its
     * dependencies completed (which nobody knew when this was created).
     */
    default void onStart(long nowPs) {
    }

    default void onAck(Packet ack, long nowPs) {
    }

    /**
     * Whether {@link #onAck} may do anything; false lets the sender leave the call out, so an ACK does
     * not touch this object (an all-to-all has a million of them). True unless the control says so.
     */
    default boolean hearsAcks() {
        return true;
    }

    /**
     * Whether, until the next {@link #onRhoMaxChange}, {@link #earliestSendPs} is now whatever is in flight
     * and {@link #onSent} changes nothing: the sender then leaves both calls out, so sending does not touch
     * this object either. False unless the control says so.
     */
    default boolean unpacedUntilRhoMaxChange() {
        return false;
    }

    /** A congestion notification packet (CNP) arrived for this queue pair. */
    default void onCnp(long nowPs) {
    }

    /** A NACK arrived; commodity RNICs treat it as a congestion signal too (Themis 2.2). */
    default void onNack(long nowPs) {
    }

    /** The loss-recovery layer declared a timeout. */
    /**
     * Routing converged around a failure or repair during the run and rho_max (OFAN App. A) of the
     * fabric as it is now is {@code rhoMaxMbps}; only a sender paced at rho_max cares.
     */
    default void onRhoMaxChange(long rhoMaxMbps, long nowPs) {
    }

    default void onTimeout(long nowPs) {
    }

    /** Current sending rate in Mb/s. */
    long rateMbps();

    /** The sending rate at {@code nowPs}, with any timers due by then applied (for samplers). */
    default long rateMbpsAt(long nowPs) {
        return rateMbps();
    }
}
