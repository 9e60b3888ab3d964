package org.lbsim.sim;

import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Network;
import org.lbsim.topology.Fib;

/**
 * OFAN 5.2: until the convergence delay G has passed, every switch keeps the routes of the
 * healthy fabric (packets sent onto failed links are lost); at G all switches install the routes
 * that exclude the failed links, at once.
 */
final class RoutingConvergence implements EventHandler {
    private final Network network;
    private final Fib converged;

    private RoutingConvergence(Network network, Fib converged) {
        this.network = network;
        this.converged = converged;
    }

    static void schedule(Simulator sim, Network network, Fib converged, long atPs) {
        RoutingConvergence c = new RoutingConvergence(network, converged);
        int id = sim.register(c);
        sim.place(id, Simulator.AT_SYNCHRONISATION_POINTS); // every switch at once: a partitioned run does it between windows
        sim.schedule(id, atPs, 0, 0);
    }

    @Override
    public void onEvent(int kind, long tag) {
        network.installFib(converged);
    }
}
