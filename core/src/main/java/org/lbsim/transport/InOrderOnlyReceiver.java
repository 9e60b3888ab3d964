package org.lbsim.transport;

import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * Go-back-N's receiver: keep only the expected PSN; data beyond it is thrown away and the first
 * such arrival for an expected PSN is answered with one NACK carrying that PSN (or, with
 * {@code nackGeneration: epsn-change-or-interval}, again once the NACK interval has passed: the
 * HPCC / ConWeave ns-3 receiver, {@link NackGeneration}). ACKs are cumulative.
 */
public final class InOrderOnlyReceiver implements ReceiverPolicy {
    private final NackGeneration nacks;

    /** At most one NACK per expected PSN. */
    public InOrderOnlyReceiver() {
        this(new NackGeneration(0));
    }

    InOrderOnlyReceiver(NackGeneration nacks) {
        this.nacks = nacks;
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.discard();
        if (nacks.nackNow(rx.expectedPsn(), nowPs)) {
            rx.nack();
        }
    }
}
