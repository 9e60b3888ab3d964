package org.lbsim.spi;

import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.PortStates;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * What a switch-side selector may use: its own node, the fabric and the FIB installed when it is
 * created (later FIBs arrive through {@code onRoutingChange}), its random stream, its ports' state,
 * and the simulator for periodic work.
 */
public record SwitchContext(int node, Topology topology, Fib fib, SplittableRandom rng, PortStates ports, Simulator simulator) {
}
