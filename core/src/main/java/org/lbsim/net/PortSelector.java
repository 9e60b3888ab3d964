package org.lbsim.net;

import org.lbsim.topology.Fib;

/**
 * Switch-side load balancing: which of the candidate egress ports (all on shortest paths to the
 * packet's destination) a packet takes. One instance per switch, so it may keep per-switch state.
 */
public interface PortSelector {
    /**
     * @param group  FIB group id of the candidates (stable until the routing changes)
     * @param ports  flat port array; the candidates are {@code ports[offset .. offset+count)}
     * @return the chosen global port id
     */
    int select(Packet packet, int group, int[] ports, int offset, int count);

    /** Called when routing converges to a new FIB; group ids change meaning. */
    default void onRoutingChange(Fib fib) {
    }
}
