package org.lbsim.net;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.testing.Packets;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * A network built directly, without a transport: a 2-leaf, 2-spine fabric (h0, h1 under l0; h2, h3
 * under l1; s0, s1) at 100 Gb/s (80 ps per byte) with 100 ns links, 64 KB private buffers per port
 * and no ECN unless given a marker. Each host has a {@link Stack}: frames handed to it leave at the times given, frames
 * arriving are recorded and freed. Every switch picks the member {@code entropy mod count} of a group.
 */
final class SmallFabric {
    static final long LINK_PS = 100_000;
    static final long BUFFER_BYTES = 64 * 1024;

    final Simulator sim;
    /** Registered before the fabric: its actions run before any component's event of the same instant. */
    private final int firstHandler;
    private final List<Runnable> firstActions = new ArrayList<>();
    final Topology topo;
    final Network net;
    final Stack[] stacks;

    SmallFabric(int gapBytes) {
        this(gapBytes, null);
    }

    /** With PFC when {@code pfc} is not null. */
    SmallFabric(int gapBytes, Network.PfcConfig pfc) {
        this(gapBytes, pfc, new Simulator());
    }

    /** On {@code sim}, which may be a partitioned kernel. */
    SmallFabric(int gapBytes, Network.PfcConfig pfc, Simulator sim) {
        this(gapBytes, pfc, sim, EcnMarker.off());
    }

    /** With {@code ecn} marking at every switch port. */
    SmallFabric(int gapBytes, Network.PfcConfig pfc, Simulator sim, EcnMarker ecn) {
        this.sim = sim;
        firstHandler = sim.register((kind, tag) -> firstActions.get((int) tag).run());
        topo = Topologies.leafSpine(2, 2, 2, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        net = new Network(sim, topo, Routing.compute(topo, new boolean[topo.linkCount()]), new RandomStreams(1),
                node -> BufferModel.perPort(BUFFER_BYTES), ecn, gapBytes, pfc);
        for (int node = topo.hostCount(); node < topo.nodeCount(); node++) {
            net.setSelector(node, (p, group, ports, offset, count) -> ports[offset + Math.floorMod(p.entropy, count)]);
        }
        stacks = new Stack[topo.hostCount()];
        for (int h = 0; h < stacks.length; h++) {
            stacks[h] = new Stack(net.nic(h));
            net.nic(h).attach(stacks[h]);
        }
    }

    int node(String name) {
        return topo.nodeByName(name);
    }

    /** The port of {@code from} that faces {@code to}. */
    int port(String from, String to) {
        return topo.portsBetween(node(from), node(to))[0];
    }

    /** The one link between {@code a} and {@code b}. */
    int link(String a, String b) {
        return topo.linkOf(port(a, b));
    }

    /** A data frame of {@code bytes} from {@code src} to {@code dst}, sequence number {@code psn}, entropy {@code entropy}. */
    Packet frame(int src, int dst, int psn, int bytes, int entropy) {
        Packet p = Packets.data(net.pool(), src, src, dst, psn, bytes);
        p.payloadBytes = bytes;
        p.entropy = entropy;
        return p;
    }

    /** {@code host} sends {@code p} as soon as its line is free at or after {@code readyPs}. */
    void send(int host, Packet p, long readyPs) {
        stacks[host].add(p, readyPs);
    }

    /** Runs {@code action} at {@code atPs}, as an event of its own, after the fabric's components' events of that instant. */
    void at(long atPs, Runnable action) {
        int handler = sim.register((kind, tag) -> action.run());
        sim.schedule(handler, atPs, 0, 0);
    }

    /** Runs {@code action} at {@code atPs}, before every event of the fabric's components at that instant. */
    void first(long atPs, Runnable action) {
        firstActions.add(action);
        sim.schedule(firstHandler, atPs, 0, firstActions.size() - 1);
    }

    /** Runs {@code action} at {@code atPs} where the whole fabric is consistent: between windows in a partitioned run. */
    void between(long atPs, Runnable action) {
        int handler = sim.register((kind, tag) -> action.run());
        sim.place(handler, Simulator.AT_SYNCHRONISATION_POINTS);
        sim.schedule(handler, atPs, 0, 0);
    }

    /** Frames made = frames delivered + dropped + consumed + in the fabric + held, and the pool agrees. */
    boolean conserved() {
        long made = net.injected() + net.originated();
        long accounted = net.delivered() + net.totalDropped() + net.totalConsumed() + net.inFlight() + net.held();
        long waiting = 0;
        for (Stack s : stacks) {
            waiting += s.waiting();
        }
        return made == accounted && net.pool().outstanding() == net.inFlight() + net.held() + waiting;
    }

    /** What a host saw of a frame it received. */
    record Arrival(int src, int psn, long sentPs, long nicRxPs, int hops, int ingressPort, boolean ecnMarked) {
    }

    /**
     * A host stack: it sends the first of its frames (in the order handed to it) whose ready time has
     * come; what arrives is recorded and freed. It says it stays idle ({@link #idleThrough}) only when
     * told to and empty.
     */
    final class Stack implements PacketSource {
        private final Nic nic;
        private final List<Packet> queue = new ArrayList<>();
        private final List<Long> readyPs = new ArrayList<>();
        final List<Arrival> arrivals = new ArrayList<>();
        /** When the NIC asked for a frame, and whether it got one. */
        final List<Long> polledPs = new ArrayList<>();
        final List<Long> sentPs = new ArrayList<>();
        boolean claimsIdle;

        Stack(Nic nic) {
            this.nic = nic;
        }

        void add(Packet p, long atPs) {
            queue.add(p);
            readyPs.add(atPs);
            nic.kick();
        }

        int waiting() {
            return queue.size();
        }

        @Override
        public Packet poll(long nowPs) {
            return take(nowPs, false);
        }

        /** The first ready frame that is not data: the NIC's unpaused class, when it has one. */
        @Override
        public Packet pollUnpaused(long nowPs) {
            return take(nowPs, true);
        }

        /** The first ready frame (not data, if {@code controlOnly}), taken off the queue; every look is recorded. */
        private Packet take(long nowPs, boolean controlOnly) {
            polledPs.add(nowPs);
            for (int i = 0; i < queue.size(); i++) {
                if (readyPs.get(i) <= nowPs && (!controlOnly || queue.get(i).kind != Packet.DATA)) {
                    readyPs.remove(i);
                    sentPs.add(nowPs);
                    return queue.remove(i);
                }
            }
            return null;
        }

        @Override
        public long nextReadyPs(long nowPs) {
            long t = Long.MAX_VALUE;
            for (long r : readyPs) {
                t = Math.min(t, r);
            }
            return t;
        }

        @Override
        public boolean idleThrough(long tPs) {
            return claimsIdle && queue.isEmpty();
        }

        @Override
        public void deliver(Packet p) {
            arrivals.add(new Arrival(p.src, p.psn, p.sentPs, p.nicRxPs, p.hops, p.ingressPort, p.ecnMarked));
            net.pool().release(p);
        }
    }
}
