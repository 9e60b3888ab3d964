package org.lbsim.net;

/** What a switch can see of its own egress ports, for adaptive port selection. */
public interface PortStates {
    /** Bytes queued at a switch egress port now, including the frame on the wire. */
    long queueBytes(int port);

    /** Bytes the port has sent since the start of the run. */
    long txBytes(int port);

    /** Largest queue the port may hold. */
    long bufferBytes(int port);
}
