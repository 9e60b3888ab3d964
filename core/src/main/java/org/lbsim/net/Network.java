package org.lbsim.net;

import java.util.function.IntFunction;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * The fabric brought to life: one {@link Link} per port direction, one {@link EgressPort} per
 * switch port, one {@link Switch} per switch node and one {@link Nic} per host, all indexed by
 * the topology's node and port ids. Owns the packet pool and the loss counters, and holds the
 * FIB in force (which a routing-convergence event may replace during a run).
 */
public final class Network implements PortStates {
    private final Simulator sim;
    private final Topology topology;
    private final PacketPool pool;
    private final Link[] links;
    private final EgressPort[] egress;
    /** The non-null entries of {@link #egress}: every switch port. */
    private final EgressPort[] switchPorts;
    private final Switch[] switches;
    private final Nic[] nics;
    private final BufferModel[] buffers;
    private final PfcIngress[] pfcIngress;
    /** Per packet kind: switches queue it in their strict-priority control queue ({@link #setPriorityKind}). */
    private final boolean[] priorityKinds = new boolean[Byte.MAX_VALUE + 1];
    private Fib fib;

    private final LossCounters losses;
    /**
     * Per port: frames put on the port's wire so far, counted by the sending end (so written only by its
     * partition); what its link has not taken in yet is in an outbox of a partitioned run ({@link Link#failNow}).
     */
    private final long[] wireSentAtPort;
    /** The scenario's {@code dropPackets}, or null. */
    private InjectedDrops injectedDrops;

    /**
     * @param bufferFactory a buffer model per switch node
     * @param ecn           the marking rule of every switch port
     * @param gapBytes      inter-frame gap after every frame, on every port
     */
    public Network(Simulator sim, Topology topology, Fib fib, RandomStreams rng, IntFunction<BufferModel> bufferFactory,
                   EcnMarker ecn, int gapBytes) {
        this(sim, topology, fib, rng, bufferFactory, ecn, gapBytes, null);
    }

    /**
     * @param pfc PFC thresholds, or null for a lossy fabric
     */
    public Network(Simulator sim, Topology topology, Fib fib, RandomStreams rng, IntFunction<BufferModel> bufferFactory,
                   EcnMarker ecn, int gapBytes, PfcConfig pfc) {
        this.sim = sim;
        this.topology = topology;
        this.fib = fib;
        this.pool = sim.partitioned() ? new PartitionPools(sim) : new PacketPool();
        int ports = topology.portCount();
        losses = new LossCounters(topology);
        wireSentAtPort = new long[ports];
        links = new Link[ports];
        egress = new EgressPort[ports];
        for (int p = 0; p < ports; p++) {
            links[p] = new Link(this, p, topology.peerPort(p), topology.delayPs(p));
        }
        int hosts = topology.hostCount();
        buffers = new BufferModel[topology.switchCount()];
        pfcIngress = new PfcIngress[topology.switchCount()];
        switches = new Switch[topology.switchCount()];
        for (int s = hosts; s < topology.nodeCount(); s++) {
            BufferModel buffer = bufferFactory.apply(s);
            buffers[s - hosts] = buffer;
            PfcIngress ingress = pfc == null ? null
                    : new PfcIngress(this, topology, s, buffer, pfc.xoffBytes(), pfc.xonBytes(), pfc.dynamicAlpha(), pfc.headroomBytes());
            pfcIngress[s - hosts] = ingress;
            for (int p = topology.firstPort(s); p < topology.portEnd(s); p++) {
                egress[p] = new EgressPort(this, p, topology.rateMbps(p), gapBytes, links[p], buffer, ecn, rng.stream("ecn", p), ingress, priorityKinds);
            }
            switches[s - hosts] = new Switch(this, s, egress);
        }
        switchPorts = java.util.Arrays.stream(egress).filter(e -> e != null).toArray(EgressPort[]::new);
        counters = new NamedCounts(ports);
        nics = new Nic[hosts];
        for (int h = 0; h < hosts; h++) {
            int p = topology.hostPort(h);
            nics[h] = new Nic(this, h, p, topology.rateMbps(p), gapBytes, links[p]);
        }
        for (int p = 0; p < ports; p++) {
            int peer = topology.peerNode(p);
            // after every port and NIC: at equal times a transmitter's wake-up runs before an arrival
            // (the component key orders equal-time events), as the ports' lazy departures assume
            links[p].register();
            links[p].connect(topology.isHost(peer) ? nics[peer] : switches[peer - hosts]);
            if (topology.isHost(peer)) {
                nics[peer].addIncoming(links[p]);
            }
        }
    }

    /**
     * Every switch port sends packets of {@code kind} from a strict-priority control queue ahead of its
     * data FIFO: they take no buffer (no admission, no PFC ingress charge, no ECN) and PFC never pauses
     * them, as ns-3's switches treat ACK / NACK / CNP and ConWeave's control packets (queue index 0:
     * conweave-ns3 switch-node.cc:228-232 and :298-330, broadcom-egress-queue.cc:101-104).
     */
    public void setPriorityKind(int kind) {
        priorityKinds[kind] = true;
        for (EgressPort e : switchPorts) {
            e.backToExact("a priority kind registered after the port chose to hand frames on at enqueue");
        }
    }

    /**
     * Every switch port hands a packet its buffer refuses to {@code policy} (before the run); the default
     * is {@link OverflowPolicy#DROP_TAIL}. A policy that reorders keeps every port on the exact path.
     */
    public void setOverflowPolicy(OverflowPolicy policy) {
        for (EgressPort e : switchPorts) {
            e.setOverflowPolicy(policy);
        }
    }

    /** Every switch port asks {@code strategies.apply(port)} which queue sends next (before the run); the default is strict priority. */
    public void setDequeueStrategy(java.util.function.IntFunction<DequeueStrategy> strategies) {
        for (EgressPort e : switchPorts) {
            e.setDequeueStrategy(strategies.apply(e.port()));
        }
    }

    /** The egress port {@code port} of a switch, or null for a host's port. */
    public EgressPort egressPort(int port) {
        return egress[port];
    }

    /** The switches' named counters, a slot per port: each port's slot is written only by the partition of its switch. */
    private final NamedCounts counters;

    /**
     * The id of a named counter of the switches ({@code switch.trimmed}), registered once at build time;
     * a registered counter is reported at the end of the run with the schemes' counters (summary.json
     * {@code schemeCounters}, the results database's {@code scheme_counters}, the report), zero or not.
     * Count with {@link #count}.
     */
    public int counter(String name) {
        return counters.register(name);
    }

    /** Adds {@code n} to counter {@code id} at {@code port} (allocates nothing). */
    public void count(int id, int port, long n) {
        counters.add(id, port, n);
    }

    /** The named counters registered with {@link #counter}, by id. */
    public java.util.List<String> counterNames() {
        return counters.names();
    }

    /** Counter {@code id} summed over the ports. */
    public long counterTotal(int id) {
        return counters.total(id);
    }

    /** Whether any packet kind goes to the switches' control queue. */
    boolean hasPriorityKinds() {
        for (boolean b : priorityKinds) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /** Whether switches send {@code kind} from their control queue. */
    public boolean isPriorityKind(int kind) {
        return kind >= 0 && kind < priorityKinds.length && priorityKinds[kind];
    }

    public Simulator simulator() {
        return sim;
    }

    public Topology topology() {
        return topology;
    }

    public PacketPool pool() {
        return pool;
    }

    public Fib fib() {
        return fib;
    }

    private final java.util.List<java.util.function.Consumer<Fib>> routingListeners = new java.util.ArrayList<>();

    /** Routing has converged to a new FIB: switches use it from now on, then the listeners hear of it. */
    public void installFib(Fib newFib) {
        this.fib = newFib;
        for (Switch s : switches) {
            s.onRoutingChange(newFib);
        }
        for (java.util.function.Consumer<Fib> l : routingListeners) {
            l.accept(newFib);
        }
    }

    /** {@code listener} hears of every FIB installed after this call (hosts' source-routing state, for instance). */
    public void addRoutingListener(java.util.function.Consumer<Fib> listener) {
        routingListeners.add(listener);
    }

    public void setLinkDown(int linkId, boolean down) {
        for (int p = 0; p < links.length; p++) {
            if (topology.linkOf(p) == linkId) {
                links[p].setDown(down);
                if (down && egress[p] != null) {
                    egress[p].linkGoesDown();
                }
            }
        }
    }

    /**
     * Link {@code linkId} fails now, both directions: the packets on the wire and those queued at the
     * switch ports feeding it are lost (link loss of their layer); later frames sent onto it are lost
     * in {@link Link#transmit} until it comes back. Returns the packets lost at this moment.
     */
    public int failLink(int linkId) {
        int lost = 0;
        for (int p = 0; p < links.length; p++) {
            if (topology.linkOf(p) == linkId) {
                lost += links[p].failNow();
                if (egress[p] != null) {
                    lost += egress[p].dropQueued();
                }
            }
        }
        return lost;
    }

    /** Link {@code linkId} carries traffic again (at the rate its ports have now). */
    public void restoreLink(int linkId) {
        setLinkDown(linkId, false);
    }

    /** Later frames on both directions of switch-to-switch link {@code linkId} are serialized at {@code mbps}. */
    public void setLinkRateMbps(int linkId, long mbps) {
        for (int p = 0; p < links.length; p++) {
            if (topology.linkOf(p) == linkId && egress[p] != null) {
                egress[p].setRateMbps(mbps);
            }
        }
    }


    /** ECN marks on dequeue, for the queue a packet leaves behind (true), or on enqueue (false, the default). */
    public void setEcnMarkAtDequeue(boolean on) {
        for (EgressPort e : switchPorts) {
            e.backToExact("dequeue marking set after the port chose to hand frames on at enqueue");
            e.setMarkAtDequeue(on);
        }
    }

    public void setSelector(int switchNode, PortSelector selector) {
        switches[switchNode - topology.hostCount()].setSelector(selector);
    }

    public Switch switchAt(int node) {
        return switches[node - topology.hostCount()];
    }

    public Nic nic(int host) {
        return nics[host];
    }

    /** Egress port of a switch port id; null for host NIC ports. */
    public EgressPort egress(int port) {
        return egress[port];
    }

    @Override
    public long queueBytes(int port) {
        return egress[port].queueBytes();
    }

    @Override
    public long txBytes(int port) {
        EgressPort e = egress[port];
        return e != null ? e.txBytes() : nics[topology.portOwner(port)].txBytes();
    }

    @Override
    public long bufferBytes(int port) {
        return buffers[topology.portOwner(port) - topology.hostCount()].portLimitBytes();
    }

    public Link link(int port) {
        return links[port];
    }

    public BufferModel buffer(int switchNode) {
        return buffers[switchNode - topology.hostCount()];
    }

    /** PFC thresholds of a lossless fabric. */
    public record PfcConfig(long xoffBytes, long xonBytes, double dynamicAlpha, long headroomBytes) {
    }

    /** PFC state of a switch, or null in a lossy fabric. */
    public PfcIngress pfc(int switchNode) {
        return pfcIngress[switchNode - topology.hostCount()];
    }

    public boolean lossless() {
        return pfcIngress.length > 0 && pfcIngress[0] != null;
    }

    /**
     * The switch owning {@code ingressPort} tells the sender at the other end of that link to stop
     * or restart; the control frame takes its serialization plus the link's propagation delay.
     */
    void signalPause(int ingressPort, boolean pause) {
        int upstream = topology.peerPort(ingressPort);
        long delay = org.lbsim.kernel.Time.serializationPs(PfcIngress.PAUSE_FRAME_BYTES, topology.rateMbps(upstream))
                + topology.delayPs(upstream);
        int kind = pause ? EgressPort.PAUSE : EgressPort.RESUME;
        int owner = topology.portOwner(upstream);
        int handler = topology.isHost(owner) ? nics[owner].handlerId() : egress[upstream].handlerId();
        sim.schedule(handler, sim.nowPs() + delay, kind, 0);
    }

    /** Told about every data packet the fabric loses, so retransmissions can be split into necessary and spurious. */
    public interface LossListener {
        void onDataLost(int flow, int psn);

        /** Any packet carrying {@code flow} was dropped, lost on a link or consumed by a switch (data included). */
        default void onPacketGone(int flow) {
        }
    }

    private LossListener lossListener = (flow, psn) -> { };

    /**
     * Drops the first transmission of each listed data packet ({@code qp << 32 | psn}) at the first switch
     * it reaches: an ingress stage on every switch, installed ahead of any scheme's stage.
     */
    public void setInjectedDrops(long[] qpPsnKeys) {
        injectedDrops = new InjectedDrops(this, qpPsnKeys);
        for (Switch s : switches) {
            s.addIngressStage(injectedDrops);
        }
    }

    /** Packets dropped on purpose by the scenario's {@code dropPackets}. */
    public long injectedDrops() {
        return injectedDrops == null ? 0 : injectedDrops.total();
    }

    /** {@code p} was dropped on purpose ({@link InjectedDrops}): the loss is told, the packet freed. */
    void dropInjected(Packet p) {
        noteLoss(p);
        pool.release(p);
    }

    public void setLossListener(LossListener listener) {
        this.lossListener = sim.partitioned() ? new SerialLossListener(listener) : listener;
    }

    private void noteLoss(Packet p) {
        if (p.kind == Packet.DATA) {
            lossListener.onDataLost(p.flow, p.psn);
        }
        lossListener.onPacketGone(p.flow);
    }

    void dropAtPort(Packet p, int port) {
        noteLoss(p);
        losses.dropAtPort(port);
        pool.release(p);
    }

    void dropOnLink(Packet p, int port) {
        noteLoss(p);
        losses.lossOnLink(port, 1);
        pool.release(p);
    }

    void dropNoRoute(Packet p, int switchNode) {
        noteLoss(p);
        losses.dropNoRoute(switchNode);
        pool.release(p);
    }

    /** A frame goes onto the wire of {@code port} (counted by the sending end). */
    void countSentOnWire(int port) {
        wireSentAtPort[port]++;
    }

    /** Frames put on the wire of {@code port} so far; read between windows only. */
    long sentOnWire(int port) {
        return wireSentAtPort[port];
    }

    /** {@code n} frames on the wire of {@code port} are lost with its link; each is given back by {@link #lostOnLinkCounted} later. */
    void countLinkLoss(int port, long n) {
        losses.lossOnLink(port, n);
    }

    /** A frame already counted by {@link #countLinkLoss} reaches the far end of its failed link: the loss is told, the packet freed. */
    void lostOnLinkCounted(Packet p) {
        noteLoss(p);
        pool.release(p);
    }

    /** Packets consumed by switch stages, by reason. */
    private final NamedCounts consumed = new NamedCounts(1);
    private long originated;
    private long held;

    /** The id of a named reason for which switch stages consume packets (registered once, at build time). */
    public int consumeReason(String name) {
        return consumed.register(name);
    }

    void consume(Packet p, int reason) {
        noteLoss(p);
        consumed.add(reason, 0, 1);
        pool.release(p);
    }

    Packet originate() {
        originated++;
        return pool.acquire();
    }

    void countHeld(int delta) {
        held += delta;
    }

    /** Reasons registered with {@link #consumeReason}, by id. */
    public java.util.List<String> consumeReasons() {
        return consumed.names();
    }

    /** Packets consumed by switch stages for the reason with this id. */
    public long consumed(int reason) {
        return consumed.total(reason);
    }

    /** Packets consumed by switch stages, all reasons. */
    public long totalConsumed() {
        return consumed.totalOfAll();
    }

    /** Packets made by switches (not NICs). */
    public long originated() {
        return originated;
    }

    /** Packets switch stages hold right now. */
    public long held() {
        return held;
    }

    /** Packets put on the wire by NICs. */
    public long injected() {
        long n = 0;
        for (Nic nic : nics) {
            n += nic.txPackets();
        }
        return n;
    }

    /** Packets that reached a NIC. */
    public long delivered() {
        long n = 0;
        for (Nic nic : nics) {
            n += nic.rxPackets();
        }
        return n;
    }

    /** Congestion drops (buffer full) at ports of this layer code. */
    public long dropsInLayer(int layerCode) {
        return losses.dropsInLayer(layerCode);
    }

    /** Packets lost on failed links of this layer code. */
    public long linkLossInLayer(int layerCode) {
        return losses.linkLossInLayer(layerCode);
    }

    public long noRouteDrops() {
        return losses.noRouteDrops();
    }

    public long totalDropped() {
        return losses.total() + injectedDrops();
    }

    /** Packets currently in switch queues or on links. */
    public long inFlight() {
        long n = 0;
        for (int p = 0; p < links.length; p++) {
            n += links[p].inFlight(); // on a port that hands frames on at enqueue, its waiting frames too
            if (egress[p] != null) {
                n += egress[p].waitingOffLink();
            }
        }
        return n;
    }

    private boolean txBytesWatched;

    @Override
    public void watchTxBytes() {
        txBytesWatched = true;
    }

    /**
     * One event per hop: every switch port that can ({@link EgressPort#handOnAtEnqueue()})
     * hands frames to its link at enqueue from now on, unless something reads port counters during the
     * run ({@link #watchTxBytes()}). Call at most once, after the switches are programmed and the links
     * down from time zero are set, before the run, and only if the run changes no link while it runs;
     * not at all to keep the exact path everywhere. Returns how many ports hand on at enqueue.
     */
    public int handOnAtEnqueue() {
        if (txBytesWatched) {
            return 0;
        }
        int n = 0;
        for (EgressPort e : switchPorts) {
            if (e.handOnAtEnqueue()) {
                n++;
            }
        }
        return n;
    }

    /** Every NIC sends ACK / NACK / CNP ahead of data and while paused (ns-3's RDMA NIC); call before the run. */
    public void setNicControlPriority() {
        for (Nic nic : nics) {
            nic.controlPriority(true);
        }
    }

    /**
     * NICs leave out wake-ups whose outcome is known ({@link Nic#skipIdleWakes}); not in a
     * lossless fabric (a NIC can be paused and resumed). Call at most once, before the run, under the
     * same conditions as {@link #handOnAtEnqueue()}. Returns how many NICs do.
     */
    public int skipIdleNicWakes() {
        if (lossless()) {
            return 0;
        }
        int n = 0;
        for (Nic nic : nics) {
            nic.skipIdleWakes();
            n += nic.idleNowPossible() ? 1 : 0;
        }
        return n;
    }

    /** NIC wake-ups left out because their outcome was known ({@link #skipIdleNicWakes()}). */
    public long nicWakesSkipped() {
        long n = 0;
        for (Nic nic : nics) {
            n += nic.wakesSkipped();
        }
        return n;
    }

    /** Kicks that found a left-out wake-up's window still open: always 0 unless the skipping is wrong. */
    public long nicKicksInSkippedWindows() {
        long n = 0;
        for (Nic nic : nics) {
            n += nic.kicksInSkippedWindow();
        }
        return n;
    }

    /** Counter reads that a lazy port could not order against a frame starting at the same instant ({@link EgressPort#ambiguousCounterReads()}). */
    public long ambiguousCounterReads() {
        long n = 0;
        for (EgressPort e : switchPorts) {
            n += e.ambiguousCounterReads();
        }
        return n;
    }
}
