package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * Host-side load balancing for one queue pair: the flow label (UDP source port) each packet
 * carries (and, for source-routed schemes, its path id), and what the host learns from ACKs and
 * timeouts about the labels it used.
 */
public interface EntropyPolicy {
    /** Entropy for the packet about to be sent with this PSN. */
    int entropyFor(int psn, boolean retransmission);

    /** Writes the load-balancing fields of a data packet about to be sent (psn and retransmission are set). */
    default void stamp(Packet p) {
        p.entropy = entropyFor(p.psn, p.retransmission);
    }

    /** An ACK came back (its entropy and echoed send time are those of the data packet it answers). */
    default void onAck(Packet ack, long nowPs) {
        onAck(ack.entropy, ack.ecnEcho);
    }

    /** An ACK came back for a packet that carried {@code entropy}. */
    default void onAck(int entropy, boolean ecnEcho) {
    }

    /** A packet that carried {@code entropy} is presumed lost (timeout). */
    default void onLoss(int entropy) {
    }

    /**
     * Whether every packet of the queue pair carries the same label and nothing else: {@link #entropyFor}
     * always returns it, {@link #stamp} is the default, and ACKs teach the policy nothing ({@link #onAck}
     * does nothing). The sender then stamps that label itself and does not tell the policy of ACKs, so a
     * packet touches no per-queue-pair policy state (an all-to-all has a million queue pairs). False
     * unless the policy says so.
     */
    default boolean fixedLabel() {
        return false;
    }

    /** The policy of a queue pair whose packets all carry {@code label} (an ECMP flow's source port). */
    static EntropyPolicy fixed(int label) {
        return new FixedLabel(label);
    }

    /**
     * One random label for the whole queue pair, drawn from the host's stream when the queue pair is
     * created: the host side of every switch- and ToR-driven scheme (ACKs and control packets hash on it).
     */
    static EntropyPolicy randomFixed(HostContext host) {
        return new FixedLabel(host.rng().nextInt(1 << 16));
    }
}
