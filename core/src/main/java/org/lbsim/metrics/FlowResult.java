package org.lbsim.metrics;

/**
 * Outcome of one flow. Times in picoseconds; -1 when the flow did not finish within the run.
 *
 * @param fctPs           from start until the sender held the ACK of the whole message
 * @param receiverDonePs  absolute time the receiver first held the whole message
 * @param retransmissions data packets sent again (for erasure coding: symbols beyond the message)
 * @param spuriousRetransmissions retransmissions the receiver did not need because it already held
 *                        that PSN (counted at the receiver; the run drains the fabric after the last
 *                        completion so late copies are counted too); the rest were necessary
 * @param duplicatesReceived data packets the receiver already had when they arrived
 */
public record FlowResult(int flow, int src, int dst, long bytes, long startPs, long fctPs, long receiverDonePs,
                         long packetsSent, long retransmissions, long spuriousRetransmissions, long duplicatesReceived,
                         long timeouts) {
    public boolean finished() {
        return fctPs >= 0;
    }
}
