package org.lbsim.net;

/** The host stack behind a NIC: it hands over the next frame when the line is free, and takes arriving ones. */
public interface PacketSource {
    /** The next packet to put on the wire now, or null if nothing may be sent now. */
    Packet poll(long nowPs);

    /**
     * While PFC pauses the NIC: the next frame of a class the pause does not stop (control frames, when the NIC
     * sends them in their own priority class), or null.
     */
    default Packet pollUnpaused(long nowPs) {
        return null;
    }

    /** Earliest time something may become sendable without outside events (pacing, timers), or Long.MAX_VALUE. */
    long nextReadyPs(long nowPs);

    /**
     * Whether {@link #poll} would surely find nothing and change nothing at every instant up to and including
     * {@code tPs}, unless a packet arrives first: nothing queued and nothing local (a timer, a start) due by
     * then. False when unsure; then the NIC keeps its wake-up.
     */
    default boolean idleThrough(long tPs) {
        return false;
    }

    /** A packet arrived at this host. The source owns it from here and must release it. */
    void deliver(Packet packet);
}
