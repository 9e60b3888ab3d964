package org.lbsim.metrics;

/**
 * Outcome of one flow. Times in picoseconds; -1 when the flow did not finish within the run.
 *
 * @param fctPs           from start until the sender held the ACK of the whole message
 * @param receiverDonePs  absolute time the receiver first held the whole message
 */
public record FlowResult(int flow, int src, int dst, long bytes, long startPs, long fctPs, long receiverDonePs,
                         long packetsSent, long retransmissions, long duplicatesReceived, long timeouts) {
    public boolean finished() {
        return fctPs >= 0;
    }
}
