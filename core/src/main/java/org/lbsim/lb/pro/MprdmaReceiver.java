package org.lbsim.lb.pro;

import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * The receiving side of the MPRDMA-style baseline: out-of-order data is placed at once (a bit in
 * MP-RDMA's bitmap) and every arrival is answered with an ACK naming its PSN and the cumulative ack.
 * With {@code mprdmaBeyondBitmap: hold} the sender keeps every PSN inside snd_una + L, so the bitmap
 * cannot overflow and the receiver never NACKs (MP-RDMA's sender infers loss from snd_ooh,
 * {@link MprdmaSender}). With {@code drop} the bitmap has L slots from rcv_nxt: a PSN at or beyond
 * rcv_nxt + L has no slot, so it is dropped and answered with a NACK naming rcv_nxt (MP-RDMA's
 * bitmap as public re-implementations build it; the MP-RDMA paper is not in ../shared/papers).
 */
final class MprdmaReceiver implements ReceiverPolicy {
    private final int bitmapSlots;
    private final ProCounters counters;

    /** {@code bitmapSlots}: L with {@code drop}, Integer.MAX_VALUE with {@code hold} (nothing is ever beyond). */
    MprdmaReceiver(int bitmapSlots, ProCounters counters) {
        this.bitmapSlots = bitmapSlots;
        this.counters = counters;
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        if (data.psn - rx.expectedPsn() >= bitmapSlots) {
            rx.discard(); // no slot for it in the bitmap
            rx.nack();
            counters.mprdmaBitmapDrops++;
            return;
        }
        rx.keep(data);
        rx.ack();
    }
}
