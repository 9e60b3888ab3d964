package org.lbsim.topology;

import org.lbsim.kernel.Time;

/**
 * Facts about the shortest path between two hosts that analytic bounds need: hop count, total
 * propagation delay and the store-and-forward serialization of a frame along it. Walks the FIB
 * taking the first candidate at each switch (all candidates of a fat tree or leaf-spine have the
 * same tiers, hence the same rates and delays).
 */
public final class PathFacts {
    private PathFacts() {
    }

    /** Ports from src's NIC to dst, in order; empty if unreachable (no route, or routes that loop). */
    public static int[] path(Topology t, Fib fib, int src, int dst) {
        int[] ports = new int[2 * t.maxTier() + 2];
        int n = 0;
        int port = t.hostPort(src);
        ports[n++] = port;
        int node = t.peerNode(port);
        while (!t.isHost(node)) {
            int g = fib.group(node, dst);
            if (fib.groupSize(g) == 0 || n > t.nodeCount()) {
                return new int[0];
            }
            if (n == ports.length) { // custom fabrics: all switches share one tier, paths can be longer
                ports = java.util.Arrays.copyOf(ports, 2 * n);
            }
            port = fib.port(g, 0);
            ports[n++] = port;
            node = t.peerNode(port);
        }
        if (node != dst) { // a static route that hands the packet to another host
            return new int[0];
        }
        return java.util.Arrays.copyOf(ports, n);
    }

    public static long propagationPs(Topology t, int[] path) {
        long sum = 0;
        for (int p : path) {
            sum += t.delayPs(p);
        }
        return sum;
    }

    /** Sum of the serialization times of a frame of {@code bytes} over the hops {@code from..end} of the path. */
    public static long serializationPs(Topology t, int[] path, int from, int bytes) {
        long sum = 0;
        for (int i = from; i < path.length; i++) {
            sum += Time.serializationPs(bytes, t.rateMbps(path[i]));
        }
        return sum;
    }
}
