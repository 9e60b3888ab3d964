package org.lbsim.transport;

import org.lbsim.net.Packet;

/**
 * Commodity NIC selective repeat at the receiver (Themis 2.2): keep out-of-order PSNs in the
 * bitmap; the first arrival beyond the expected PSN (ePSN) triggers one NACK carrying only the
 * ePSN, and each ePSN triggers at most one NACK. ACKs are cumulative, without a selective-ack map.
 */
public final class NicSelectiveRepeatReceiver implements ReceiverPolicy {
    private int nackedFor = -1;

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.keep(data);
        // Themis 2.2: one NACK per ePSN, carrying only the ePSN
        if (nackedFor != rx.expectedPsn()) {
            nackedFor = rx.expectedPsn();
            rx.nack();
        }
    }
}
