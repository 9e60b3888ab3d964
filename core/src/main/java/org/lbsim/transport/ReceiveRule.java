package org.lbsim.transport;

/** How an RNIC's receiver treats data that does not arrive in PSN order. */
public enum ReceiveRule {
    /** Keep every new PSN and answer each data packet with an ACK carrying a selective-ack map (SACK, erasure coding, IRN-like). */
    ACCEPT_ALL,
    /** Go-back-N: keep only the expected PSN; on a later one, discard it and send one NACK with the expected PSN. */
    IN_ORDER_ONLY,
    /**
     * Commodity NIC selective repeat (Themis 2.2): keep out-of-order PSNs in a bitmap; the first
     * arrival beyond the expected PSN (ePSN) triggers one NACK carrying only the ePSN, and each ePSN
     * triggers at most one NACK.
     */
    NIC_SELECTIVE_REPEAT
}
