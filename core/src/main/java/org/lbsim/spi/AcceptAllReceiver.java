package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * Keep every new PSN and answer every data packet with an ACK carrying the selective-ack map
 * (SACK threshold, erasure coding, IRN-like recovery). Stateless, so all queue pairs share one.
 */
public final class AcceptAllReceiver implements ReceiverPolicy {
    public static final AcceptAllReceiver INSTANCE = new AcceptAllReceiver();

    private AcceptAllReceiver() {
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.keep(data);
        rx.sack();
    }

    @Override
    public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.sack();
    }

    @Override
    public void onDuplicate(ReceiverQp rx, Packet data, long nowPs) {
        rx.sack();
    }
}
