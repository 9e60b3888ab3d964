package org.lbsim.net;

/** What a switch can see of its own egress ports, for adaptive port selection. */
public interface PortStates {
    /** Bytes queued at a switch egress port now, including the frame on the wire. */
    long queueBytes(int port);

    /**
     * Bytes the port has sent since the start of the run. A reader during the run must call
     * {@link #watchTxBytes()} at build time: exactly at the instant a queued frame starts, the count
     * depends on the order of same-instant events, which only ports that wake up per frame keep.
     */
    long txBytes(int port);

    /** Someone reads {@link #txBytes} during the run: keep every port on the exact (event per dequeue) path. */
    default void watchTxBytes() {
    }

    /** Largest queue the port may hold. */
    long bufferBytes(int port);
}
