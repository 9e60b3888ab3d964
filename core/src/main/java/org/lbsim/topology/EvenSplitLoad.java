package org.lbsim.topology;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * OFAN App. A: the load each link carries when every flow is split evenly over all of its
 * shortest paths, and from it rho_max = min over links of (link rate / flows on the link), the
 * highest per-flow rate at which no link is overloaded. Paths are weighted equally, so a switch
 * forwards to each next hop in proportion to the number of paths behind it (what W-ECMP does).
 */
public final class EvenSplitLoad {
    /** Fewer flows than this walk their ACKs on the calling thread: a handful of microseconds is not worth a thread hop. */
    private static final int ACKS_ALONGSIDE_FROM_FLOWS = 256;

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
        int[] resolved = new int[nodes];
        int[] count = new int[1];
        boolean[] queued = new boolean[nodes];
        long[] heap = new long[nodes];
        // Destinations one at a time: push every source's unit down the DAG of shortest paths to dst.
        // Only the nodes flow reaches are resolved and walked (a single flow reaches a few
        // hundred of k = 32's 9,472 nodes), in the order of the walk over every node: by distance to dst
        // descending, ties by node. A node joins the walk when it first receives flow, always from a node
        // earlier in that order, so it is queued before its turn and every sum is added in the same order
        // as in the walk over every node: the loads are equal bit for bit
        // (EvenSplitLoadTest.walkingOnlyTheNodesThatCarryFlowChangesNoLoad).
        int[] byDst = sortedBy(dst, src.length, false);
        int i = 0;
        while (i < byDst.length) {
            int d = dst[byDst[i]];
            count[0] = 0;
            dist[d] = 0;
            paths[d] = 1;
            resolved[count[0]++] = d;
            int size = 0;
            int j = i;
            while (j < byDst.length && dst[byDst[j]] == d) {
                int s = src[byDst[j]];
                inflow[s] += 1;
                if (!queued[s]) {
                    queued[s] = true;
                    resolve(t, fib, d, s, dist, paths, resolved, count);
                    size = push(heap, size, key(dist[s], s));
                }
                j++;
            }
            while (size > 0) {
                int node = (int) heap[0];
                size = pop(heap, size);
                double f = inflow[node];
                if (f == 0 || node == d) {
                    continue;
                }
                if (t.isHost(node)) {
                    int p = t.hostPort(node);
                    load[p] += f;
                    size = receive(t, fib, d, t.peerNode(p), f, inflow, queued, dist, paths, resolved, count, heap, size);
                    continue;
                }
                int g = fib.group(node, d);
                int members = fib.groupSize(g);
                if (members == 0 || paths[node] == 0) {
                    continue;
                }
                for (int k = 0; k < members; k++) {
                    int p = fib.port(g, k);
                    int next = t.peerNode(p);
                    double share = f * paths[next] / paths[node];
                    load[p] += share;
                    size = receive(t, fib, d, next, share, inflow, queued, dist, paths, resolved, count, heap, size);
                }
            }
            for (int x = 0; x < count[0]; x++) {
                int node = resolved[x];
                dist[node] = -1;
                inflow[node] = 0;
                queued[node] = false;
            }
            i = j;
        }
        return load;
    }

    /** {@code amount} of flow arrives at {@code node}; a node that holds flow for the first time joins the walk. */
    private static int receive(Topology t, Fib fib, int d, int node, double amount, double[] inflow, boolean[] queued, int[] dist,
                               double[] paths, int[] resolved, int[] count, long[] heap, int size) {
        inflow[node] += amount;
        if (queued[node] || inflow[node] == 0) {
            return size;
        }
        queued[node] = true;
        resolve(t, fib, d, node, dist, paths, resolved, count);
        return push(heap, size, key(dist[node], node));
    }

    /** The walk's order as one long: distance descending, then node ascending. */
    private static long key(int dist, int node) {
        return (-(long) dist << 32) | node;
    }

    private static int push(long[] heap, int size, long key) {
        int at = size;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heap[parent] <= key) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = key;
        return size + 1;
    }

    private static int pop(long[] heap, int size) {
        long last = heap[--size];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] < heap[child]) {
                child++;
            }
            if (heap[child] >= last) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        if (size > 0) {
            heap[at] = last;
        }
        return size;
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

    /** dist[x] = hops from x to dst along the FIB, paths[x] = shortest paths from x to dst; every node given a value is listed in resolved. */
    private static void resolve(Topology t, Fib fib, int dst, int start, int[] dist, double[] paths, int[] resolved, int[] count) {
        if (dist[start] >= 0) {
            return;
        }
        resolved[count[0]++] = start;
        if (t.isHost(start)) {
            int sw = t.hostSwitch(start);
            dist[start] = Integer.MAX_VALUE / 2; // guards against cycles, as below
            resolve(t, fib, dst, sw, dist, paths, resolved, count);
            dist[start] = dist[sw] >= 0 && paths[sw] > 0 ? dist[sw] + 1 : Integer.MAX_VALUE / 2;
            paths[start] = paths[sw];
            return;
        }
        int g = fib.group(start, dst);
        int size = fib.groupSize(g);
        double sum = 0;
        int d = Integer.MAX_VALUE / 2;
        dist[start] = Integer.MAX_VALUE / 2; // guards against cycles, which valley-free routing never has
        for (int k = 0; k < size; k++) {
            int next = t.peerNode(fib.port(g, k));
            resolve(t, fib, dst, next, dist, paths, resolved, count);
            sum += paths[next];
            d = Math.min(d, dist[next] + 1);
        }
        dist[start] = d;
        paths[start] = sum;
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
        // the ACK streams' loads on another core while this one walks the data's: each walk is a pure
        // function of the fabric, so the loads are the same bits either way
        CompletableFuture<double[]> ackLoads = ackPerData > 0 && src.length >= ACKS_ALONGSIDE_FROM_FLOWS
                ? CompletableFuture.supplyAsync(() -> portLoads(t, fib, dst, src)) : null;
        double[] load = portLoads(t, fib, src, dst);
        if (ackPerData > 0) {
            double[] acks = ackLoads != null ? ackLoads.join() : portLoads(t, fib, dst, src);
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
