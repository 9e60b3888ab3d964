package org.lbsim.lb.pro;

import org.lbsim.net.Packet;
import org.lbsim.transport.ReceiverPolicy;
import org.lbsim.transport.ReceiverQp;

/**
 * The receiving side of the MPRDMA-style baseline: out-of-order data is placed at once (a bit in
 * MP-RDMA's bitmap) and every arrival is answered with an ACK naming its PSN and the cumulative ack;
 * the receiver never NACKs (MP-RDMA's sender infers loss from snd_ooh, {@link MprdmaSender}). The
 * sender keeps every PSN inside snd_una + L, so the bitmap cannot overflow.
 */
final class MprdmaReceiver implements ReceiverPolicy {
    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.keep(data);
        rx.ack();
    }
}
