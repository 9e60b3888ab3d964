package org.lbsim.spi;

import java.util.function.IntConsumer;
import org.lbsim.net.Packet;

/**
 * The sender side of loss recovery for one queue pair: which PSN goes out next (new or resent),
 * what an ACK teaches, and when a timer must fire. Congestion control decides when; this decides what.
 */
public interface LossRecovery {
    /** The PSN to send now, or -1 when nothing may be sent until an ACK or the timer. */
    int nextPsn(long nowPs);

    /**
     * Whether {@link #nextPsn} returns -1 now and keeps doing so, with no side effect, until an ACK, a NACK
     * or the timer changes this recovery's state (so the NIC need not wake up to ask). False when unsure.
     */
    default boolean idleUntilFeedback() {
        return false;
    }

    /** The PSN returned by {@link #nextPsn} went out; {@code retransmission} if it had been sent before. */
    void onSent(int psn, long nowPs);

    /** Whether sending this PSN now is a retransmission (it was sent before). */
    boolean isRetransmission(int psn);

    /** An ACK arrived. Returns true when it made progress (newly acknowledged data). */
    boolean onAck(Packet ack, long nowPs);

    /** A NACK arrived (it carries the receiver's expected PSN in {@code psn} and {@code cumAck}). */
    default boolean onNack(Packet nack, long nowPs) {
        return false;
    }

    /** The whole message is known to be delivered. */
    boolean complete();

    /** When the recovery wants {@link #onTimer} called, or {@link Long#MAX_VALUE}. */
    long timerDeadlinePs();

    /**
     * The deadline passed: declare losses, reporting each PSN presumed lost to {@code lost}
     * (host load balancers learn which paths failed from it); returns true when something became sendable.
     */
    boolean onTimer(long nowPs, IntConsumer lost);

    /**
     * Whether a firing of this recovery's timer is a retransmission timeout that congestion control
     * must hear of. Only the erasure sender's end-of-message wake-up ({@link ErasureSrttAfterPass})
     * is not: it merely lets the sender send again.
     */
    default boolean timerIsRetransmissionTimeout() {
        return true;
    }

    /** Bytes sent and not yet acknowledged nor declared lost. */
    long inflightBytes();

    /** Retransmissions sent so far. */
    long retransmissions();

    /** Timeouts that fired so far. */
    long timeouts();
}
