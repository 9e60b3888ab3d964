package org.lbsim.lb;

import org.lbsim.kernel.Simulator;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.registry.Component;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * Test helper: a port selector that passes every decision to the scheme's own selector and tells a
 * listener which port it chose, so tests can see per-packet choices of a normal run. Installed on
 * every switch of a prepared run before it starts: {@code CheckedRun.of(scenario, dir, ChoiceRecorder.on(run -> listener))}
 * (the run stays a normal, invariant-checked simulation). Also small fixtures for tests that drive
 * a scheme's selector or host policy by hand.
 */
final class ChoiceRecorder implements PortSelector {
    /** Told about every choice a switch made among two or more candidates. */
    interface Listener {
        void chose(int node, Packet p, int port);
    }

    private final int node;
    private final PortSelector delegate;
    private final Listener listener;

    private ChoiceRecorder(int node, PortSelector delegate, Listener listener) {
        this.node = node;
        this.delegate = delegate;
        this.listener = listener;
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        int port = delegate.select(p, group, ports, offset, count);
        listener.chose(node, p, port);
        return port;
    }

    @Override
    public void onRoutingChange(Fib fib) {
        delegate.onRoutingChange(fib);
    }

    /** A pre-run hook wrapping every switch's selector; the listener is made once the run is built. */
    static java.util.function.Consumer<PreparedRun> on(java.util.function.Function<PreparedRun, Listener> listenerOfRun) {
        return run -> {
            Listener listener = listenerOfRun.apply(run);
            Network net = run.network();
            Topology t = run.topology();
            for (int node = t.hostCount(); node < t.nodeCount(); node++) {
                net.setSelector(node, new ChoiceRecorder(node, net.switchAt(node).selector(), listener));
            }
        };
    }

    /** The registered scheme with its default parameters. */
    static LoadBalancer scheme(String name) {
        Component<LoadBalancer> c = LoadBalancers.REGISTRY.find(name).orElseThrow();
        return c.create(c.defaults());
    }

    /** A healthy k-ary fat tree of 800 Gb/s, 500 ns links and its routes, without a run. */
    record Fabric(Topology topology, Fib fib) {
        static Fabric fatTree(int k) {
            Topology t = Topologies.fatTree(k, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
            return new Fabric(t, Routing.compute(t, new boolean[t.linkCount()]));
        }

        int edge(int index) {
            return topology.nodeByName("e" + index);
        }

        /** The group of {@code node} towards host {@code dst}, as the switch looks it up. */
        int group(int node, int dst) {
            return fib.group(node, dst);
        }
    }

    /** A packet of the given kind from {@code src} to {@code dst}, for driving a selector by hand. */
    static Packet packet(PacketPool pool, int src, int dst, byte kind) {
        Packet p = pool.acquire();
        p.src = src;
        p.dst = dst;
        p.kind = kind;
        p.sizeBytes = kind == Packet.DATA ? 4158 : 64;
        return p;
    }

    /** Moves the simulator's clock to {@code ps}, running the (background) events due by then. */
    static void advanceTo(Simulator sim, long ps) {
        int noop = sim.register((kind, tag) -> { });
        sim.schedule(noop, ps, 0, 0);
        sim.run(ps);
    }
}
