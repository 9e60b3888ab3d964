package org.lbsim.spi;

import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * What a host-side entropy policy may use: its queue pair, the fabric, the routes that hold once
 * routing has converged (source-routed schemes pick among paths that exist), its random stream and
 * the simulator.
 */
public record HostContext(QpContext qp, Topology topology, Fib convergedFib, SplittableRandom rng, Simulator simulator) {
}
