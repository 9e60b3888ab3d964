package org.lbsim.net;

import org.lbsim.topology.Fib;

/**
 * A switch and its pipeline: an {@link IngressStage} sees every packet first; then the
 * {@link PolicyTable} (ACL / policy-based routing) may name the egress port; otherwise the current
 * FIB gives the group of shortest-path ports for the destination and the run's {@link PortSelector}
 * picks one; the chosen {@link EgressPort} queues it, telling the {@link EgressStage}. Every stage is
 * a Null Object unless the run's scheme installs one, so a plain run does what it always did.
 */
public final class Switch implements PacketReceiver {
    private final Network network;
    private final int node;
    private final EgressPort[] egress;
    /** The port selector per traffic class (DSCP 0-63); every entry is the run's one selector unless classes have schemes of their own. */
    private final PortSelector[] selectorByClass = new PortSelector[64];
    private IngressStage ingress = IngressStage.PASS;
    private PolicyTable policy = PolicyTable.EMPTY;
    private EgressStage egressStage = EgressStage.NONE;

    Switch(Network network, int node, EgressPort[] egress) {
        this.network = network;
        this.node = node;
        this.egress = egress;
    }

    public int node() {
        return node;
    }

    void setSelector(PortSelector selector) {
        java.util.Arrays.fill(selectorByClass, selector);
    }

    /** Packets of {@code trafficClass} use {@code selector} instead of the run's. */
    public void setClassSelector(int trafficClass, PortSelector selector) {
        selectorByClass[trafficClass] = selector;
    }

    /** The selector of traffic class 0 (the run's scheme). */
    public PortSelector selector() {
        return selectorByClass[0];
    }

    /** The selector packets of {@code trafficClass} use. */
    public PortSelector selector(int trafficClass) {
        return selectorByClass[trafficClass];
    }

    void onRoutingChange(Fib fib) {
        for (int c = 0; c < selectorByClass.length; c++) {
            if (java.util.Arrays.asList(selectorByClass).indexOf(selectorByClass[c]) == c) {
                selectorByClass[c].onRoutingChange(fib); // once per distinct selector
            }
        }
    }

    /** Runs {@code stage} on every packet this switch receives, after the stages installed before it. */
    public void addIngressStage(IngressStage stage) {
        ingress = IngressStage.chain(ingress, stage);
    }

    public void setPolicyTable(PolicyTable table) {
        this.policy = table;
    }

    public PolicyTable policyTable() {
        return policy;
    }

    /** Tells {@code stage} about every packet queued at and leaving from this switch's ports. */
    public void setEgressStage(EgressStage stage) {
        this.egressStage = stage;
        for (int p = network.topology().firstPort(node); p < network.topology().portEnd(node); p++) {
            egress[p].setStage(stage);
        }
    }

    public EgressStage egressStage() {
        return egressStage;
    }

    public Network network() {
        return network;
    }

    @Override
    public void receive(Packet p, int ingressPort) {
        p.hops++;
        p.ingressPort = ingressPort;
        if (ingress.onIngress(p, ingressPort)) {
            forward(p);
        }
    }

    /**
     * Forwards a packet that passed the ingress stage (or that a stage releases or originates):
     * policy table first, else the FIB group and the port selector.
     */
    public void forward(Packet p) {
        int port = egressPortFor(p);
        if (port >= 0) {
            egress[port].enqueue(p);
        }
    }

    /** Policy table first, else the FIB group and the port selector; -1 (the packet dropped) without a route. */
    private int egressPortFor(Packet p) {
        Fib fib = network.fib();
        int group = fib.group(node, p.dst);
        int count = fib.groupSize(group);
        if (count == 0) {
            network.dropNoRoute(p, node);
            return -1;
        }
        int port = policy.portFor(p, fib, group, network);
        if (port < 0) {
            port = count == 1 ? fib.port(group, 0) : selectorByClass[p.trafficClass & 63].select(p, group, fib.groupPorts(), fib.groupOffset(group), count);
        }
        return port;
    }

    /** Queues {@code p} on one of this switch's ports directly, bypassing every forwarding decision. */
    public void sendOn(int port, Packet p) {
        egress[port].enqueue(p);
    }

    /** A stage drops {@code p} on purpose; {@code reason} comes from {@link Network#consumeReason}. */
    public void consume(Packet p, int reason) {
        network.consume(p, reason);
    }

    /**
     * A fresh packet made by this switch (Themis NACK compensation, probe replies); fill it, then
     * {@link #forward} it. Its {@code ingressPort} is -1: under PFC it is charged to no ingress port
     * (only the shared memory limits it) unless the caller names the port to charge.
     */
    public Packet originate() {
        return network.originate();
    }

    /** A stage keeps {@code p} to send it later with {@link #release}; the fabric counts it as held. */
    public void hold(Packet p) {
        network.countHeld(1);
    }

    /**
     * Sends a held packet on, through the forwarding decision. It is admitted then, charged to the
     * port it came in on; under PFC only the shared memory limits it, not that port's headroom, as
     * ns-3 admits a flushed ConWeave reorder queue (see {@link EgressPort#enqueueReleased}).
     */
    public void release(Packet p) {
        network.countHeld(-1);
        int port = egressPortFor(p);
        if (port >= 0) {
            egress[port].enqueueReleased(p);
        }
    }
}
