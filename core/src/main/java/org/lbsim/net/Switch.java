package org.lbsim.net;

import org.lbsim.topology.Fib;

/**
 * A switch: looks up the group of shortest-path egress ports for the destination in the current
 * FIB, lets the run's {@link PortSelector} pick one, and enqueues the packet there.
 */
public final class Switch implements PacketReceiver {
    private final Network network;
    private final int node;
    private final EgressPort[] egress;
    private PortSelector selector;

    Switch(Network network, int node, EgressPort[] egress) {
        this.network = network;
        this.node = node;
        this.egress = egress;
    }

    public int node() {
        return node;
    }

    void setSelector(PortSelector selector) {
        this.selector = selector;
    }

    public PortSelector selector() {
        return selector;
    }

    @Override
    public void receive(Packet p, int ingressPort) {
        if (p.hops == 0 && p.kind == Packet.DATA && !p.retransmission && network.injectedDrop(p)) {
            return;
        }
        p.hops++;
        p.ingressPort = ingressPort;
        Fib fib = network.fib();
        int group = fib.group(node, p.dst);
        int count = fib.groupSize(group);
        if (count == 0) {
            network.dropNoRoute(p);
            return;
        }
        int port = count == 1 ? fib.port(group, 0) : selector.select(p, group, fib.groupPorts(), fib.groupOffset(group), count);
        egress[port].enqueue(p);
    }
}
