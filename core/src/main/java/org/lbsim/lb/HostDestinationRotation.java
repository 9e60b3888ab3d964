package org.lbsim.lb;

import java.util.Arrays;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.AckPolicy;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * HOST DR (OFAN 6.1 "Host DR", after DRB): each source host keeps one round-robin pointer per
 * (destination host, packet class) over the switches of the lowest layer common to source and
 * destination (cores for hosts in different pods, aggregation switches within a pod), and source
 * routes each packet through the chosen switch (carried in {@link Packet#pathId}). Data and ACKs
 * are separate classes. Under failures hosts know the converged routes and rotate only over the
 * switches that both ends can reach; when routing converges during the run
 * ({@link #onRoutingChange}), every rotation recomputes its waypoints from the new routes.
 */
public final class HostDestinationRotation implements LoadBalancer {
    /** The order a pointer visits its switches in. */
    public record Params(
            @Doc("order of the switches a pointer rotates over: 'interleaved' (default; consecutive switches behind different uplinks of the source edge switch, so each flow visits each uplink once every k/2 packets, the period App. E's model assumes, and the order of the authors' htsim DRB) or 'index' (by switch number: in a fat tree the k/2 cores behind one aggregation switch follow each other, so k/2 consecutive packets take the same edge uplink)") String order) {
        public Params {
            ScenarioException.require(ORDER_INDEX.equals(order) || ORDER_INTERLEAVED.equals(order), "order",
                    "must be '" + ORDER_INDEX + "' or '" + ORDER_INTERLEAVED + "', got '" + order + "'");
        }

        /**
         * The default: interleaved. OFAN App. E models each flow at an edge uplink as periodic with
         * period k/2 T, which only this order gives; the authors' htsim DRB sender
         * (csg-htsim datacenter/fat_tree_topology_drb.cpp) rotates over the reachable cores in core
         * number order, and its core c hangs off aggregation switch c mod k/2, so its consecutive
         * packets also take different edge uplinks.
         */
        public Params() {
            this(ORDER_INTERLEAVED);
        }
    }

    /** Rotate in switch number order. */
    public static final String ORDER_INDEX = "index";
    /** Rotate so that consecutive switches sit behind different uplinks of the source edge switch (OFAN App. E). */
    public static final String ORDER_INTERLEAVED = "interleaved";

    private static final int DATA = 0;
    private static final int ACK = 1;

    /** Pointer per (source host, class, destination host); created on first use of a source. */
    private final int[][][] pointers = new int[2][][];
    /** Every rotation made, data and ACKs, so they can learn new routes. */
    private final java.util.List<Rotation> rotations = new java.util.ArrayList<>();
    private final boolean interleaved;

    public HostDestinationRotation(Params p) {
        this.interleaved = ORDER_INTERLEAVED.equals(p.order());
    }

    /** The default order (interleaved). */
    public HostDestinationRotation() {
        this(new Params());
    }

    @Override
    public void onRoutingChange(Fib fib) {
        for (Rotation r : rotations) {
            r.reroute(fib);
        }
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return new Rotation(host, host.qp().src(), host.qp().dst(), DATA);
    }

    @Override
    public AckPolicy newAckPolicy(HostContext receiver) {
        Rotation r = new Rotation(receiver, receiver.qp().dst(), receiver.qp().src(), ACK);
        return (ack, dataEntropy) -> {
            ack.entropy = dataEntropy;
            ack.pathId = r.next();
        };
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new WaypointSelector(sw);
    }

    private int[] pointerRow(int cls, int src, int hosts) {
        if (pointers[cls] == null) {
            pointers[cls] = new int[hosts][];
        }
        int[] row = pointers[cls][src];
        if (row == null) {
            row = new int[hosts];
            Arrays.fill(row, -1);
            pointers[cls][src] = row;
        }
        return row;
    }

    private final class Rotation implements EntropyPolicy {
        private int[] waypoints;
        private final int[] pointerRow;
        private final Topology topology;
        private final int src;
        private final int dst;
        private final int entropy;

        Rotation(HostContext ctx, int src, int dst, int cls) {
            this.topology = ctx.topology();
            this.src = src;
            this.waypoints = ordered(ctx.topology(), waypoints(ctx.topology(), ctx.convergedFib(), src, dst), src);
            this.pointerRow = pointerRow(cls, src, ctx.topology().hostCount());
            this.dst = dst;
            this.entropy = ctx.rng().nextInt(1 << 16);
            if (pointerRow[dst] < 0 && waypoints.length > 0) {
                pointerRow[dst] = ctx.rng().nextInt(waypoints.length); // random phase per pointer
            }
            rotations.add(this);
        }

        /** The waypoints of the new routes; the pointer keeps its place, wrapped into the new list. */
        void reroute(Fib fib) {
            int[] now = ordered(topology, waypoints(topology, fib, src, dst), src);
            if (Arrays.equals(now, waypoints)) {
                return;
            }
            waypoints = now;
            if (now.length > 0) {
                pointerRow[dst] = Math.max(0, pointerRow[dst]) % now.length;
            }
        }

        int next() {
            if (waypoints.length == 0) {
                return -1;
            }
            int i = pointerRow[dst];
            pointerRow[dst] = i + 1 == waypoints.length ? 0 : i + 1;
            return waypoints[i];
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            return entropy;
        }

        @Override
        public void stamp(Packet p) {
            p.entropy = entropy;
            p.pathId = next();
        }
    }

    /** The waypoints in the configured order (the pointer's random start is applied on top). */
    private int[] ordered(Topology t, int[] waypoints, int src) {
        return interleaved ? interleave(t, waypoints, src) : waypoints;
    }

    /**
     * OFAN App. E: "each such flow has a period of k/2 T" at an edge uplink, i.e. the rotation
     * visits every uplink of the source edge switch once before it visits one again. Groups the
     * waypoints by the uplink of the source edge switch that leads to them (in switch number order
     * within a group) and deals the groups out round robin: the first of every group, then the
     * second, ... Uneven groups (failures) are dealt until each is exhausted.
     */
    static int[] interleave(Topology t, int[] waypoints, int src) {
        int edge = t.hostSwitch(src);
        int[] group = new int[waypoints.length];
        int groups = 0;
        int[] uplinkOfGroup = new int[t.portEnd(edge) - t.firstPort(edge)];
        for (int w = 0; w < waypoints.length; w++) {
            int up = uplinkTowards(t, edge, waypoints[w]);
            int g = 0;
            while (g < groups && uplinkOfGroup[g] != up) {
                g++;
            }
            if (g == groups) {
                uplinkOfGroup[groups++] = up;
            }
            group[w] = g;
        }
        int[] out = new int[waypoints.length];
        int n = 0;
        for (int round = 0; n < waypoints.length; round++) {
            for (int g = 0; g < groups; g++) {
                int seen = 0;
                for (int w = 0; w < waypoints.length; w++) {
                    if (group[w] == g && seen++ == round) {
                        out[n++] = waypoints[w];
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** The first uplink port of {@code edge} whose peer is {@code target} or has a port to it; -1 if none. */
    private static int uplinkTowards(Topology t, int edge, int target) {
        for (int p = t.firstPort(edge); p < t.portEnd(edge); p++) {
            int peer = t.peerNode(p);
            if (t.tier(peer) <= t.tier(edge)) {
                continue;
            }
            if (peer == target) {
                return p;
            }
            for (int q = t.firstPort(peer); q < t.portEnd(peer); q++) {
                if (t.peerNode(q) == target) {
                    return p;
                }
            }
        }
        return -1;
    }

    /**
     * The switches of the highest tier on the shortest paths from src to dst in the given routes:
     * the lowest layer common to both ends, restricted to switches both can reach. Empty when the
     * hosts share an edge switch (one path) or cannot reach each other.
     */
    static int[] waypoints(Topology t, Fib fib, int src, int dst) {
        boolean[] seen = new boolean[t.nodeCount()];
        int[] stack = new int[t.nodeCount()];
        int top = 0;
        int first = t.hostSwitch(src);
        stack[top++] = first;
        seen[first] = true;
        int maxTier = t.tier(first);
        while (top > 0) {
            int n = stack[--top];
            maxTier = Math.max(maxTier, t.tier(n));
            int g = fib.group(n, dst);
            for (int i = 0; i < fib.groupSize(g); i++) {
                int next = t.peerNode(fib.port(g, i));
                if (!t.isHost(next) && !seen[next]) {
                    seen[next] = true;
                    stack[top++] = next;
                }
            }
        }
        if (maxTier == t.tier(first)) {
            return new int[0];
        }
        int count = 0;
        for (int n = t.hostCount(); n < t.nodeCount(); n++) {
            if (seen[n] && t.tier(n) == maxTier) {
                stack[count++] = n;
            }
        }
        return Arrays.copyOf(stack, count);
    }

    /** Switch side: steer a packet towards the waypoint in its path id; plain ECMP hashing otherwise. */
    static final class WaypointSelector implements PortSelector {
        private final int firstSwitch;
        private final int[] portTowards; // waypoint switch -> this switch's port leading to it, or -1
        private final EcmpHashSelector fallback;

        WaypointSelector(SwitchContext sw) {
            Topology t = sw.topology();
            this.firstSwitch = t.hostCount();
            this.portTowards = new int[t.switchCount()];
            Arrays.fill(portTowards, -1);
            int node = sw.node();
            for (int p = t.firstPort(node); p < t.portEnd(node); p++) {
                int peer = t.peerNode(p);
                if (t.tier(peer) <= t.tier(node)) {
                    continue;
                }
                if (portTowards[peer - firstSwitch] < 0) {
                    portTowards[peer - firstSwitch] = p;
                }
                for (int q = t.firstPort(peer); q < t.portEnd(peer); q++) {
                    int up = t.peerNode(q);
                    if (t.tier(up) > t.tier(peer) && portTowards[up - firstSwitch] < 0) {
                        portTowards[up - firstSwitch] = p;
                    }
                }
            }
            this.fallback = new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
        }

        @Override
        public int select(Packet p, int group, int[] ports, int offset, int count) {
            if (p.pathId >= firstSwitch) {
                int want = portTowards[p.pathId - firstSwitch];
                if (want >= 0) {
                    for (int i = 0; i < count; i++) {
                        if (ports[offset + i] == want) {
                            return want;
                        }
                    }
                }
            }
            return fallback.select(p, group, ports, offset, count);
        }

        @Override
        public void onRoutingChange(org.lbsim.topology.Fib fib) {
            fallback.onRoutingChange(fib);
        }
    }

    /** For tests: a fresh rotation's waypoint list. */
    static int[] waypointsFor(HostContext ctx) {
        return waypoints(ctx.topology(), ctx.convergedFib(), ctx.qp().src(), ctx.qp().dst());
    }

    /** For tests: the pointer of (class, src, dst), or -1. */
    int pointer(boolean ack, int src, int dst) {
        int[][] rows = pointers[ack ? ACK : DATA];
        return rows == null || rows[src] == null ? -1 : rows[src][dst];
    }
}
