package org.lbsim.transport;

import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * Commodity NIC selective repeat at the receiver (Themis 2.2): keep out-of-order PSNs in the
 * bitmap; the first arrival beyond the expected PSN (ePSN) triggers one NACK carrying only the
 * ePSN, and each ePSN triggers at most one NACK (or, with {@code nackGeneration:
 * epsn-change-or-interval}, again once the NACK interval has passed: {@link NackGeneration}). ACKs
 * are cumulative, without a selective-ack map.
 */
public final class NicSelectiveRepeatReceiver implements ReceiverPolicy {
    private final NackGeneration nacks;

    /** At most one NACK per expected PSN. */
    public NicSelectiveRepeatReceiver() {
        this(new NackGeneration(0));
    }

    NicSelectiveRepeatReceiver(NackGeneration nacks) {
        this.nacks = nacks;
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.keep(data);
        // Themis 2.2: one NACK per ePSN, carrying only the ePSN (or the ns-3 receiver's rule, see NackGeneration)
        if (nacks.nackNow(rx.expectedPsn(), nowPs)) {
            rx.nack();
        }
    }
}
