package org.lbsim.lb;

/**
 * Host-side load balancing for one queue pair: the flow label (UDP source port) each packet
 * carries, and what the host learns from ACKs and timeouts about the labels it used.
 */
public interface EntropyPolicy {
    /** Entropy for the packet about to be sent with this PSN. */
    int entropyFor(int psn, boolean retransmission);

    /** An ACK came back for a packet that carried {@code entropy}. */
    default void onAck(int entropy, boolean ecnEcho) {
    }

    /** A packet that carried {@code entropy} is presumed lost (timeout). */
    default void onLoss(int entropy) {
    }
}
