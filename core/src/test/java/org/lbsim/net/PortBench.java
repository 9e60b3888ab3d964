package org.lbsim.net;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * One switch port driven by hand: a leaf-spine of one leaf (l0), one spine and two hosts, 100 Gb/s links
 * (80 ps per byte) of 1 us unless told and a 20 B inter-frame gap (1,600 ps). The port under test is l0's port to h1;
 * its link delivers to a recorder instead of h1, which notes each packet's arrival (the last bit) and frees it.
 * Packets are enqueued at given instants by {@link #at}; {@link #run} runs the simulator.
 */
final class PortBench {
    static final long LINK_PS = 1_000_000;
    static final long PS_PER_BYTE = 80;
    static final long GAP_PS = 20 * PS_PER_BYTE;

    /** A packet that reached the far end of the port's link. */
    record Arrival(long atPs, int psn, byte kind, int sizeBytes, boolean ecnMarked, boolean headerOnly) {
    }

    /** The hosts send nothing themselves (a PFC frame may still wake a NIC). */
    private static final PacketSource IDLE_HOST = new PacketSource() {
        @Override
        public Packet poll(long nowPs) {
            return null;
        }

        @Override
        public long nextReadyPs(long nowPs) {
            return Long.MAX_VALUE;
        }

        @Override
        public void deliver(Packet packet) {
            throw new IllegalStateException("the hosts of the bench receive nothing");
        }
    };

    final Simulator sim = new Simulator();
    final Topology topology;
    final Network net;
    final EgressPort port;
    /** l0's port from h0: the ingress every test packet came in on. */
    final int ingress;
    final List<Arrival> arrivals = new ArrayList<>();
    private final List<Runnable> actions = new ArrayList<>();
    private final int handler;

    PortBench(BufferModel buffer, EcnMarker ecn, Network.PfcConfig pfc) {
        this(buffer, ecn, pfc, 1000);
    }

    PortBench(BufferModel buffer, EcnMarker ecn, Network.PfcConfig pfc, double linkDelayNs) {
        topology = Topologies.leafSpine(2, 1, 1, 1, new LinkSpec(100, linkDelayNs), new LinkSpec(100, linkDelayNs));
        net = new Network(sim, topology, Routing.compute(topology, new boolean[topology.linkCount()]), new RandomStreams(7), node -> buffer, ecn,
                20, pfc);
        int l0 = topology.nodeByName("l0");
        port = net.egress(topology.portsBetween(l0, topology.nodeByName("h1"))[0]);
        ingress = topology.portsBetween(l0, topology.nodeByName("h0"))[0];
        port.link().connect((p, ingressPort) -> {
            arrivals.add(new Arrival(sim.nowPs(), p.psn, p.kind, p.sizeBytes, p.ecnMarked, p.headerOnly));
            net.pool().release(p);
        });
        for (int h = 0; h < topology.hostCount(); h++) {
            net.nic(h).attach(IDLE_HOST);
        }
        handler = sim.register(new EventHandler() {
            @Override
            public void onEvent(int kind, long tag) {
                actions.get((int) tag).run();
            }
        });
    }

    /** A lossy port with a private buffer of {@code bufferBytes}, no ECN. */
    static PortBench lossy(long bufferBytes) {
        return new PortBench(BufferModel.perPort(bufferBytes), EcnMarker.off(), null);
    }

    /** A packet of {@code kind} and {@code sizeBytes}, numbered {@code psn}, as if it came in from h0. */
    Packet packet(byte kind, int sizeBytes, int psn) {
        Packet p = net.originate();
        p.kind = kind;
        p.sizeBytes = sizeBytes;
        p.psn = psn;
        p.src = 0;
        p.dst = 1;
        p.ingressPort = ingress;
        return p;
    }

    Packet data(int sizeBytes, int psn) {
        return packet(Packet.DATA, sizeBytes, psn);
    }

    /** Runs {@code action} at {@code atPs}. */
    PortBench at(long atPs, Runnable action) {
        actions.add(action);
        sim.schedule(handler, atPs, 0, actions.size() - 1);
        return this;
    }

    /** Enqueues a data packet of {@code sizeBytes} numbered {@code psn} at {@code atPs}. */
    PortBench send(long atPs, int sizeBytes, int psn) {
        return at(atPs, () -> port.enqueue(data(sizeBytes, psn)));
    }

    PortBench run() {
        sim.run(Long.MAX_VALUE);
        return this;
    }

    List<Long> arrivalTimes() {
        return arrivals.stream().map(Arrival::atPs).toList();
    }

    List<Integer> arrivalPsns() {
        return arrivals.stream().map(Arrival::psn).toList();
    }
}
