package org.lbsim.lb.themis;

import org.lbsim.lb.CrcEcmpSelector;
import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.EgressStage;
import org.lbsim.net.IngressStage;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * Themis on one ToR switch: Themis-S as its port selector (PSN-based spraying of the data its hosts
 * send, Eq. 1), Themis-D as its ingress stage (NACK validation, Eq. 3) and its egress stage (the PSN
 * ring, 3.3, and NACK compensation, 3.4, both judging a data packet as it leaves for the NIC; or as
 * it arrives, or the ring at departure and compensation at arrival, under the other readings).
 * Everything else, and everything once it has fallen back (section 6), is hashed as ECMP does.
 */
final class ThemisTor implements PortSelector, IngressStage, EgressStage {
    private final int node;
    private final Topology topology;
    private final int firstPort;
    private final boolean[] facesHost;
    /** The switch's ECMP: lbsim's default hash, or the linear CRC one the PathMap relies on. */
    private final PortSelector ecmp;
    private final long salt;
    /** 3.2 on multi-tier fabrics: rewrite the source port from the PathMap (crc32 hash) instead of picking the uplink. */
    private final boolean relativePaths;
    private final PathMap pathMap;
    private final java.util.function.IntSupplier ringEntries;
    private PsnRings rings;
    private final boolean compensation;
    private Fib fib;
    private Switch sw;
    private Network network;
    private int blockedReason;
    /** Ring slot of each queue pair (by global QP id) delivered here across racks; -1 for none yet. */
    private int[] slotOfQp = new int[0];
    /** Per slot: the NACK entropy and size, to send a compensation NACK the way the NIC's went. */
    private int[] nackEntropy = new int[16];
    private int nackBytes;
    private boolean spraying = true;
    private int maxPaths;
    long nacksSeen;
    long nacksBlocked;
    long nacksForwarded;
    long nacksCompensated;
    long fallbacks;

    private final boolean ringClearsBlocked;
    /** Where Themis-D sees a data packet for the NIC: one of {@link #AT_DEPARTURE}, {@link #AT_ARRIVAL}, {@link #SPLIT}. */
    private final int observeAt;
    /** The ring records and compensation judges a packet as it leaves the ToR for the NIC. */
    static final int AT_DEPARTURE = 0;
    /** Both as it arrives at the ToR (compensation at ingress, the ring as it joins the NIC's queue). */
    static final int AT_ARRIVAL = 1;
    /** The ring at departure, compensation at arrival. */
    static final int SPLIT = 2;

    /**
     * {@code ringEntries} is asked once, at the first cross-rack packet (the run's MTU is known by then).
     * Without a PathMap the ToR picks its uplink by Eq. 1 and hashes as lbsim's default ECMP; with one,
     * every switch of the run hashes with {@link CrcEcmpSelector} and the ToR steers by source-port rewrite.
     */
    ThemisTor(SwitchContext ctx, java.util.function.IntSupplier ringEntries, boolean compensation, boolean ringClearsBlocked, PathMap pathMap, int observeAt) {
        this.node = ctx.node();
        this.topology = ctx.topology();
        this.firstPort = topology.firstPort(node);
        this.facesHost = new boolean[topology.degree(node)];
        for (int i = 0; i < facesHost.length; i++) {
            facesHost[i] = topology.isHost(topology.peerNode(firstPort + i));
        }
        this.fib = ctx.fib();
        this.salt = ctx.rng().nextLong();
        this.observeAt = observeAt;
        this.relativePaths = pathMap != null;
        this.pathMap = pathMap;
        this.ecmp = relativePaths ? new CrcEcmpSelector(ctx.fib(), (int) ctx.rng().nextLong(), topology.tier(node))
                : new EcmpHashSelector(ctx.fib(), ctx.rng().nextLong());
        this.ringEntries = ringEntries;
        this.ringClearsBlocked = ringClearsBlocked;
        this.compensation = compensation;
    }

    static boolean isTor(SwitchContext ctx) {
        Topology t = ctx.topology();
        for (int p = t.firstPort(ctx.node()); p < t.portEnd(ctx.node()); p++) {
            if (t.isHost(t.peerNode(p))) {
                return true;
            }
        }
        return false;
    }

    void attach(Switch s) {
        this.sw = s;
        this.network = s.network();
        this.blockedReason = network.consumeReason("Themis-D: invalid NACK blocked at the destination ToR");
        s.addIngressStage(this);
        s.setEgressStage(this);
    }

    /** Eq. 1: Path_i = (PSN_i mod N + P_base) mod N. */
    static int path(int psn, int base, int n) {
        return (psn % n + base) % n;
    }

    /** P_base: the flow's ECMP hash over its (source, destination, entropy), like the switch's hash unit. */
    int basePath(Packet p, int n) {
        long h = salt ^ (((long) p.src << 40) ^ ((long) p.dst << 20) ^ (p.entropy & 0xFFFFFFFFL));
        h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
        h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) ((h >>> 1) % n);
    }

    private boolean facesHost(int port) {
        return port >= firstPort && port - firstPort < facesHost.length && facesHost[port - firstPort];
    }

    private boolean ours(Packet p) {
        return sw.selector(p.trafficClass) == this;
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        if (relativePaths) {
            return selectByPathMap(p, group, ports, offset, count);
        }
        if (spraying && p.kind == Packet.DATA && facesHost(p.ingressPort)) {
            // Themis-S 3.2: on a 2-tier Clos the source ToR picks the uplink from the PSN
            int port = ports[offset + path(p.psn, basePath(p, count), count)];
            if (!network.link(port).isDown()) {
                return port;
            }
            fallBack(); // section 6: a ToR that sees a failed link reverts to ECMP
        }
        return ecmp.select(p, group, ports, offset, count);
    }

    /**
     * Themis-S 3.2 on a multi-tier Clos (Fig. 3): relative path PSN mod N (1), its source-port mask from
     * the PathMap (2), the header rewritten (3); then this ToR and every later stage hash the rewritten
     * header, so the packet takes path P_base XOR (PSN mod N).
     */
    private int selectByPathMap(Packet p, int group, int[] ports, int offset, int count) {
        if (!spraying || p.kind != Packet.DATA || !facesHost(p.ingressPort)) {
            return ecmp.select(p, group, ports, offset, count);
        }
        int original = p.entropy;
        p.entropy = original ^ pathMap.mask(p.psn % pathMap.paths(p.dst));
        int port = ecmp.select(p, group, ports, offset, count);
        if (!network.link(port).isDown()) {
            return port;
        }
        fallBack(); // section 6: a ToR that sees a failed link reverts to ECMP, this packet with its own header
        p.entropy = original;
        return ecmp.select(p, group, ports, offset, count);
    }

    @Override
    public void onRoutingChange(Fib newFib) {
        this.fib = newFib;
        ecmp.onRoutingChange(newFib);
    }

    /** Section 6: Themis off, ECMP from now on (spraying at this ToR as source, NACK filtering as destination). */
    void fallBack() {
        if (spraying) {
            spraying = false;
            fallbacks++;
        }
    }

    @Override
    public boolean onIngress(Packet p, int ingressPort) {
        if (!spraying || !ours(p)) {
            return true;
        }
        if (p.kind == Packet.NACK) {
            return !facesHost(ingressPort) || onNackFromNic(p);
        }
        if (observeAt != AT_DEPARTURE && p.kind == Packet.DATA && !facesHost(ingressPort)) {
            compensate(p);
        }
        return true;
    }

    /** 3.4: a data packet for the NIC seen with Valid set may prove the BePSN packet lost. */
    private void compensate(Packet p) {
        if (!compensation) {
            return;
        }
        int slot = slotOf(p.flow);
        if (slot >= 0 && rings.compensate(slot, p.psn)) {
            sendCompensationNack(p, slot);
        }
    }

    private boolean onNackFromNic(Packet nack) {
        int slot = slotOf(nack.flow);
        if (slot < 0) {
            return true; // an intra-rack queue pair: not sprayed, nothing to judge
        }
        nacksSeen++;
        int verdict = rings.onNack(slot, nack.psn);
        if (verdict != PsnRings.BLOCK) {
            nacksForwarded++;
            return true;
        }
        nacksBlocked++;
        nackEntropy[slot] = nack.entropy;
        nackBytes = nack.sizeBytes;
        sw.consume(nack, blockedReason);
        return false;
    }

    /** 3.4: the ToR sends the NACK for BePSN on the NIC's behalf, as the NIC would have (same labels, ePSN = BePSN). */
    private void sendCompensationNack(Packet data, int slot) {
        nacksCompensated++;
        int bePsn = rings.blockedEpsn(slot);
        Packet nack = sw.originate();
        nack.kind = Packet.NACK;
        nack.flow = data.flow;
        nack.src = data.dst;
        nack.dst = data.src;
        nack.sizeBytes = nackBytes;
        nack.psn = bePsn;
        nack.cumAck = bePsn; // every PSN below BePSN had arrived when the NIC asked for it
        nack.entropy = nackEntropy[slot];
        nack.trafficClass = data.trafficClass;
        nack.hops = 1;
        nack.ingressPort = topology.peerPort(topology.hostPort(data.dst)); // buffered as if it came up from the NIC (PFC counts per ingress)
        sw.forward(nack);
    }

    private int slotOf(int qp) {
        return qp < slotOfQp.length ? slotOfQp[qp] : -1;
    }

    @Override
    public void onEnqueue(Packet p, int port, long queueBytes) {
        if (observeAt == AT_ARRIVAL && crossRackDataForNic(p, port)) {
            record(p);
        }
    }

    @Override
    public void onDequeue(Packet p, int port, long queueBytes) {
        if (observeAt == AT_ARRIVAL || !crossRackDataForNic(p, port)) {
            return;
        }
        if (observeAt == AT_DEPARTURE) {
            compensate(p); // 3.4, judged where the ring sees the packet: a BePSN packet still queued here has not yet arrived
        }
        record(p);
    }

    private boolean crossRackDataForNic(Packet p, int port) {
        return p.kind == Packet.DATA && spraying && facesHost(port) && topology.hostSwitch(p.src) != node && ours(p);
    }

    private void record(Packet p) {
        int slot = slotOf(p.flow);
        if (slot < 0) {
            slot = newSlot(p);
        }
        rings.record(slot, p.psn); // 3.3: the PSN joins the ring as the packet leaves for the NIC (or, arriving, joins its queue)
    }

    /** A cross-rack queue pair's first packet here: its flow-table entry, with N = the source ToR's equal-cost uplinks to its destination. */
    private int newSlot(Packet p) {
        if (p.flow >= slotOfQp.length) {
            int old = slotOfQp.length;
            slotOfQp = java.util.Arrays.copyOf(slotOfQp, Math.max(64, Math.max(p.flow + 1, old * 2)));
            java.util.Arrays.fill(slotOfQp, old, slotOfQp.length, -1);
        }
        if (rings == null) {
            rings = new PsnRings(ringEntries.getAsInt(), ringClearsBlocked);
        }
        int n = relativePaths ? PathMap.pathCount(topology, fib, topology.hostSwitch(p.src), p.dst)
                : Math.max(1, fib.groupSize(fib.group(topology.hostSwitch(p.src), p.dst)));
        maxPaths = Math.max(maxPaths, n);
        int slot = rings.newSlot(n);
        if (slot == nackEntropy.length) {
            nackEntropy = java.util.Arrays.copyOf(nackEntropy, slot * 2);
        }
        slotOfQp[p.flow] = slot;
        return slot;
    }

    /** This ToR's rings; empty until its first cross-rack packet. */
    PsnRings rings() {
        if (rings == null) {
            rings = new PsnRings(ringEntries.getAsInt(), ringClearsBlocked);
        }
        return rings;
    }

    boolean spraying() {
        return spraying;
    }

    /** This ToR's PathMap; null when it picks its uplink (default hash). */
    PathMap pathMap() {
        return pathMap;
    }

    /** Eq. 4 for this ToR as the run used it: PathMap (N_paths x 2 B) + (20 B + ring entries x 1 B) per cross-rack QP it delivered. */
    long memoryBytes() {
        return Themis.memoryBytes(relativePaths ? pathMap.entries() : maxPaths, rings().capacity(), rings().slots());
    }
}
