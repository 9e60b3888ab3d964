package org.lbsim.topology;

import java.util.Arrays;

/**
 * OFAN App. A: the load each link carries when every flow is split evenly over all of its
 * shortest paths, and from it rho_max = min over links of (link rate / flows on the link), the
 * highest per-flow rate at which no link is overloaded. Paths are weighted equally, so a switch
 * forwards to each next hop in proportion to the number of paths behind it (what W-ECMP does).
 */
public final class EvenSplitLoad {
    private EvenSplitLoad() {
    }

    /** Units of flow on each port direction when flow i (src[i] -> dst[i]) carries one unit. */
    public static double[] portLoads(Topology t, Fib fib, int[] src, int[] dst) {
        int nodes = t.nodeCount();
        double[] load = new double[t.portCount()];
        double[] paths = new double[nodes];
        double[] inflow = new double[nodes];
        int[] dist = new int[nodes];
        Arrays.fill(dist, -1);
        int[] entry = switchEntryOrder(t);
        int[] carriers = new int[nodes];
        boolean[] carrying = new boolean[nodes];
        long[] packed = new long[nodes];
        // Destinations one at a time: count paths to dst, then push every source's unit down the DAG. Only
        // the nodes that can hold flow toward dst are walked (issue 21: walking and sorting every host for
        // every destination made this quadratic in hosts): every switch, the hosts that send to dst, dst,
        // and any other host a switch forwards to (none on a fat tree). A host receives flow from nowhere
        // else, so the nodes left out hold none when their turn comes and no sum changes.
        int[] byDst = sortedBy(dst, src.length, false);
        int i = 0;
        while (i < byDst.length) {
            int d = dst[byDst[i]];
            int n = 0;
            for (int sw : entry) {
                carriers[n++] = sw;
            }
            carriers[n++] = d;
            carrying[d] = true;
            int j = i;
            while (j < byDst.length && dst[byDst[j]] == d) {
                int s = src[byDst[j]];
                if (!carrying[s]) {
                    carrying[s] = true;
                    carriers[n++] = s;
                }
                inflow[s] += 1;
                j++;
            }
            for (int sw : entry) {
                int g = fib.group(sw, d);
                for (int k = 0; k < fib.groupSize(g); k++) {
                    int next = t.peerNode(fib.port(g, k));
                    if (t.isHost(next) && !carrying[next]) {
                        carrying[next] = true;
                        carriers[n++] = next;
                    }
                }
            }
            // dist[x] = hops from x to dst along the FIB, paths[x] = shortest paths from x to dst; switches are
            // resolved in the order a pass over every node first reaches them (hosts forward to their switch),
            // so that the recursion visits everything in the same order as a pass over the whole fabric
            for (int x = 0; x < n; x++) {
                dist[carriers[x]] = -1;
            }
            dist[d] = 0;
            paths[d] = 1;
            for (int sw : entry) {
                resolve(t, fib, d, sw, dist, paths);
            }
            for (int x = 0; x < n; x++) {
                resolve(t, fib, d, carriers[x], dist, paths);
            }
            int[] topo = sortedBy(dist, carriers, n, packed);
            for (int x = 0; x < n; x++) {
                int node = topo[x];
                double f = inflow[node];
                if (f == 0 || node == d) {
                    continue;
                }
                if (t.isHost(node)) {
                    int p = t.hostPort(node);
                    load[p] += f;
                    inflow[t.peerNode(p)] += f;
                    continue;
                }
                int g = fib.group(node, d);
                int size = fib.groupSize(g);
                if (size == 0 || paths[node] == 0) {
                    continue;
                }
                for (int k = 0; k < size; k++) {
                    int p = fib.port(g, k);
                    int next = t.peerNode(p);
                    double share = f * paths[next] / paths[node];
                    load[p] += share;
                    inflow[next] += share;
                }
            }
            for (int x = 0; x < n; x++) {
                int node = carriers[x];
                inflow[node] = 0;
                carrying[node] = false;
            }
            i = j;
        }
        return load;
    }

    /** The switches in the order a pass over every node reaches them: each host's switch, then the rest. */
    private static int[] switchEntryOrder(Topology t) {
        int nodes = t.nodeCount();
        boolean[] seen = new boolean[nodes];
        int[] order = new int[nodes];
        int n = 0;
        for (int node = 0; node < nodes; node++) {
            int sw = t.isHost(node) ? t.hostSwitch(node) : node;
            if (!seen[sw]) {
                seen[sw] = true;
                order[n++] = sw;
            }
        }
        return Arrays.copyOf(order, n);
    }

    /**
     * Indices 0..n-1 sorted by key (descending if asked), ties by index: a stable sort on primitive
     * longs (key in the high half, index in the low half), without boxing.
     */
    private static int[] sortedBy(int[] key, int n, boolean descending) {
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) {
            long k = descending ? -(long) key[i] : key[i];
            packed[i] = (k << 32) | i;
        }
        Arrays.sort(packed);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = (int) packed[i];
        }
        return order;
    }

    /**
     * {@code nodes[0..n-1]} ordered so that every node comes before the next hops it forwards to: by
     * key descending, ties by node (the order of a stable sort of all nodes, restricted to these).
     */
    private static int[] sortedBy(int[] key, int[] nodes, int n, long[] packed) {
        for (int i = 0; i < n; i++) {
            packed[i] = (-(long) key[nodes[i]] << 32) | nodes[i];
        }
        Arrays.sort(packed, 0, n);
        for (int i = 0; i < n; i++) {
            nodes[i] = (int) packed[i];
        }
        return nodes;
    }

    private static void resolve(Topology t, Fib fib, int dst, int start, int[] dist, double[] paths) {
        if (dist[start] >= 0) {
            return;
        }
        if (t.isHost(start)) {
            int sw = t.hostSwitch(start);
            resolve(t, fib, dst, sw, dist, paths);
            dist[start] = dist[sw] >= 0 && paths[sw] > 0 ? dist[sw] + 1 : Integer.MAX_VALUE / 2;
            paths[start] = paths[sw];
            return;
        }
        int g = fib.group(start, dst);
        int size = fib.groupSize(g);
        double count = 0;
        int d = Integer.MAX_VALUE / 2;
        dist[start] = Integer.MAX_VALUE / 2; // guards against cycles, which valley-free routing never has
        for (int k = 0; k < size; k++) {
            int next = t.peerNode(fib.port(g, k));
            resolve(t, fib, dst, next, dist, paths);
            count += paths[next];
            d = Math.min(d, dist[next] + 1);
        }
        dist[start] = d;
        paths[start] = count;
    }

    /** rho_max in Mb/s: the largest per-flow rate that overloads no link; Long.MAX_VALUE with no flows. */
    public static long rhoMaxMbps(Topology t, Fib fib, int[] src, int[] dst) {
        return rhoMaxMbps(t, fib, src, dst, 0);
    }

    /**
     * rho_max counting each flow's ACK stream too: {@code ackPerData} wire bytes of ACK (dst to src,
     * split evenly like the data) per wire byte of data. Without it a link that rho_max fills
     * exactly with data is overloaded by the ACKs crossing it (about 2% at 4 KiB payloads) and its
     * queue grows for the whole collective, against App. A's aim that the demand "will not congest
     * the network with failures".
     */
    public static long rhoMaxMbps(Topology t, Fib fib, int[] src, int[] dst, double ackPerData) {
        double[] load = portLoads(t, fib, src, dst);
        if (ackPerData > 0) {
            double[] acks = portLoads(t, fib, dst, src);
            for (int p = 0; p < load.length; p++) {
                load[p] += ackPerData * acks[p];
            }
        }
        double best = Double.MAX_VALUE;
        for (int p = 0; p < load.length; p++) {
            if (load[p] > 1e-12) {
                best = Math.min(best, t.rateMbps(p) / load[p]);
            }
        }
        // tolerate floating-point noise in the split fractions (800000 / 1.0000000000000002 is 800000)
        return best == Double.MAX_VALUE ? Long.MAX_VALUE : (long) Math.floor(best * (1 + 1e-12));
    }
}
