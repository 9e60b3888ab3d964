package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * The sender-side part of a scheme bundle beyond entropy and loss recovery: it gets the queue
 * pair's {@link SenderQp} once, through which it may inject extra packets (duplicates,
 * notifications, probes; see {@link SenderQp#inject}), and it handles the packets of the scheme's
 * own kinds that come back to the sender ({@link PacketKinds#TO_SENDER}). {@link #NONE} does nothing.
 */
public interface SenderHooks {
    SenderHooks NONE = new SenderHooks() {
    };

    /** Called once, when the queue pair's sender is built. */
    default void attach(SenderQp sender) {
    }

    /** A packet of a scheme's own kind reached the sender; the stack releases it after. */
    default void onSchemePacket(SenderQp sender, Packet p, long nowPs) {
        throw new IllegalStateException("the sender of queue pair " + sender.qp() + " does not handle packet kind " + p.kind);
    }
}
