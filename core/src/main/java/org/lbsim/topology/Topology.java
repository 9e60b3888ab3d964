package org.lbsim.topology;

import java.util.Arrays;

/**
 * An immutable fabric: nodes (hosts first, then switches by tier) joined by full-duplex links.
 * Every direction of a link is a port with a global index; all per-port facts live in int and
 * long arrays indexed by that port id, so the hot path never touches a collection.
 */
public final class Topology {
    /** Tier of hosts; switches are 1 (edge / leaf), 2 (aggregation / spine), 3 (core). */
    public static final int HOST_TIER = 0;

    private final String kind;
    private final int hostCount;
    private final String[] nodeNames;
    private final int[] nodeTier;
    private final int[] nodePod;
    private final int podCount;
    private final int[] portStart; // node -> first port, length nodeCount + 1
    private final int[] portOwner;
    private final int[] portPeerNode;
    private final int[] portPeerPort;
    private final long[] portRateMbps;
    private final long[] portDelayPs;
    private final int[] portLink; // undirected link id
    private final int linkCount;
    private final String[] tierNames;
    private final int maxTier;
    /** Static routes as (switch, destination host, egress port) triples; empty for regular fabrics. */
    private int[] staticRoutes = new int[0];
    /** Host endpoint -> its server and the index of its NIC port in that server (one NIC per server unless set). */
    private int[] serverOf;
    private int[] nicIndex;
    private int nicsPerServer = 1;

    Topology(String kind, int hostCount, String[] nodeNames, int[] nodeTier, int[] nodePod, int[] portStart, int[] portOwner,
             int[] portPeerNode, int[] portPeerPort, long[] portRateMbps, long[] portDelayPs, int[] portLink,
             int linkCount, String[] tierNames) {
        this.kind = kind;
        this.hostCount = hostCount;
        this.nodeNames = nodeNames;
        this.nodeTier = nodeTier;
        this.nodePod = nodePod;
        this.podCount = Arrays.stream(nodePod).max().orElse(-1) + 1;
        this.portStart = portStart;
        this.portOwner = portOwner;
        this.portPeerNode = portPeerNode;
        this.portPeerPort = portPeerPort;
        this.portRateMbps = portRateMbps;
        this.portDelayPs = portDelayPs;
        this.portLink = portLink;
        this.linkCount = linkCount;
        this.tierNames = tierNames;
        this.maxTier = Arrays.stream(nodeTier).max().orElse(0);
        this.serverOf = new int[hostCount];
        this.nicIndex = new int[hostCount];
        Arrays.setAll(serverOf, h -> h);
    }

    /**
     * Groups the host endpoints into servers of {@code nics} NIC ports each: endpoint h is NIC
     * {@code h % nics} of server {@code h / nics} (every fabric numbers its endpoints server-major).
     */
    void setNicsPerServer(int nics) {
        if (nics < 1 || hostCount % nics != 0) {
            throw new IllegalArgumentException(hostCount + " host ports cannot form servers of " + nics + " NICs");
        }
        this.nicsPerServer = nics;
        Arrays.setAll(serverOf, h -> h / nics);
        Arrays.setAll(nicIndex, h -> h % nics);
    }

    void setStaticRoutes(int[] triples) {
        this.staticRoutes = triples.clone();
    }

    /** Static routes as consecutive (switch, destination host, egress port) triples. */
    public int[] staticRoutes() {
        return staticRoutes.clone();
    }

    public String kind() {
        return kind;
    }

    public int hostCount() {
        return hostCount;
    }

    /**
     * Servers: groups of {@link #nicsPerServer()} host endpoints. Each host endpoint is one NIC port
     * with its own link (the unit that sends, receives and is addressed); a flow between two
     * endpoints is bound to those NICs. Traffic between the NICs of one server (NVLink, PCIe) is not modelled.
     */
    public int serverCount() {
        return hostCount / nicsPerServer;
    }

    public int nicsPerServer() {
        return nicsPerServer;
    }

    /** The server a host endpoint (NIC port) belongs to. */
    public int serverOf(int host) {
        return serverOf[host];
    }

    /** The index of a host endpoint's NIC within its server, 0 .. nicsPerServer - 1 (its rail in a rail-optimized fabric). */
    public int nicIndex(int host) {
        return nicIndex[host];
    }

    /** The host endpoint of NIC {@code nic} of server {@code server}. */
    public int endpoint(int server, int nic) {
        return server * nicsPerServer + nic;
    }

    public int nodeCount() {
        return nodeTier.length;
    }

    public int switchCount() {
        return nodeTier.length - hostCount;
    }

    public int portCount() {
        return portOwner.length;
    }

    public int linkCount() {
        return linkCount;
    }

    public boolean isHost(int node) {
        return node < hostCount;
    }

    public String nodeName(int node) {
        return nodeNames[node];
    }

    /** The node with this name, or -1. */
    public int nodeByName(String name) {
        for (int i = 0; i < nodeNames.length; i++) {
            if (nodeNames[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Pod of a node: in a fat tree, the pod of a host, edge or aggregation switch (cores: -1); in a
     * leaf-spine, each leaf with its hosts forms a pod (spines: -1).
     */
    public int pod(int node) {
        return nodePod[node];
    }

    public int podCount() {
        return podCount;
    }

    public int tier(int node) {
        return nodeTier[node];
    }

    public int maxTier() {
        return maxTier;
    }

    /** Short name of a tier: H, E, A, C for fat trees; H, L, S for leaf-spine. */
    public String tierName(int tier) {
        return tierNames[tier];
    }

    public int firstPort(int node) {
        return portStart[node];
    }

    public int portEnd(int node) {
        return portStart[node + 1];
    }

    public int degree(int node) {
        return portStart[node + 1] - portStart[node];
    }

    public int portOwner(int port) {
        return portOwner[port];
    }

    public int peerNode(int port) {
        return portPeerNode[port];
    }

    /** The port at the other end of the link, facing back. */
    public int peerPort(int port) {
        return portPeerPort[port];
    }

    public long rateMbps(int port) {
        return portRateMbps[port];
    }

    public long delayPs(int port) {
        return portDelayPs[port];
    }

    public int linkOf(int port) {
        return portLink[port];
    }

    /** The NIC port of a host. */
    public int hostPort(int host) {
        return portStart[host];
    }

    /** The switch a host is attached to. */
    public int hostSwitch(int host) {
        return portPeerNode[portStart[host]];
    }

    /** Layer of a port's direction, coded as fromTier * 4 + toTier. */
    public int layerOf(int port) {
        return nodeTier[portOwner[port]] * 4 + nodeTier[portPeerNode[port]];
    }

    public static int layerCode(int fromTier, int toTier) {
        return fromTier * 4 + toTier;
    }

    /** Layer name such as "E->A". */
    public String layerName(int code) {
        return tierNames[code / 4] + "->" + tierNames[code % 4];
    }

    /**
     * The layers of the fabric in the order a packet meets them: up from the hosts, then down
     * (H->E, E->A, A->C, C->A, A->E, E->H for a fat tree).
     */
    public int[] layersInPathOrder() {
        boolean[] present = new boolean[16];
        for (int p = 0; p < portOwner.length; p++) {
            present[layerOf(p)] = true;
        }
        int[] codes = new int[16];
        int n = 0;
        for (int t = 0; t < maxTier; t++) {
            codes[n++] = layerCode(t, t + 1);
        }
        for (int t = maxTier; t >= 1; t--) {
            if (present[layerCode(t, t)]) {
                codes[n++] = layerCode(t, t); // links within a tier (custom fabrics)
            }
        }
        for (int t = maxTier; t > 0; t--) {
            codes[n++] = layerCode(t, t - 1);
        }
        return java.util.Arrays.copyOf(codes, n);
    }

    /** Hops on the longest shortest path between two hosts (6 in a 3-tier fat tree). */
    public int diameterHops() {
        return 2 * maxTier;
    }

    /** Ports of the links between two nodes, in port order (several for parallel links). */
    public int[] portsBetween(int from, int to) {
        int count = 0;
        for (int p = portStart[from]; p < portStart[from + 1]; p++) {
            if (portPeerNode[p] == to) {
                count++;
            }
        }
        int[] out = new int[count];
        int i = 0;
        for (int p = portStart[from]; p < portStart[from + 1]; p++) {
            if (portPeerNode[p] == to) {
                out[i++] = p;
            }
        }
        return out;
    }
}
