package org.lbsim.transport;

import org.lbsim.net.Packet;

/**
 * Go-back-N's receiver: keep only the expected PSN; data beyond it is thrown away and the first
 * such arrival for an expected PSN is answered with one NACK carrying that PSN. ACKs are cumulative.
 */
public final class InOrderOnlyReceiver implements ReceiverPolicy {
    private int nackedFor = -1;

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.discard();
        if (nackedFor != rx.expectedPsn()) {
            nackedFor = rx.expectedPsn();
            rx.nack();
        }
    }
}
