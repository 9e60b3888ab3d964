package org.lbsim.metrics;

/**
 * Outcome of one flow. Times in picoseconds; -1 when the flow did not finish within the run.
 *
 * @param fctPs           from start until the sender held the ACK of the whole message
 * @param receiverDonePs  absolute time the receiver first held the whole message
 * @param retransmissions data packets sent again (for erasure coding: symbols beyond the message)
 * @param spuriousRetransmissions retransmissions not made necessary by a loss: retransmissions minus
 *                        the flow's lost data packets (at least 0)
 * @param duplicatesReceived data packets the receiver already had when they arrived
 */
public record FlowResult(int flow, int src, int dst, long bytes, long startPs, long fctPs, long receiverDonePs,
                         long packetsSent, long retransmissions, long spuriousRetransmissions, long duplicatesReceived,
                         long timeouts) {
    public boolean finished() {
        return fctPs >= 0;
    }
}
