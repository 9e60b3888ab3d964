package org.lbsim.topology;

import java.util.Arrays;

/**
 * All shortest up-then-down (valley-free) paths, as data-center BGP computes them. For each
 * destination host we compute the down-only distance of every node, then the best up-then-down
 * distance; a switch's group holds the ports that keep a packet on such a shortest path, each
 * with its W-ECMP weight (the paths behind it, OFAN 5.2 and App. F.4). Links marked down are left
 * out, so re-running this after failures is "routing has converged": routes and weights at once.
 */
public final class Routing {
    private static final int INF = Integer.MAX_VALUE / 4;
    /** Path counts saturate here (they only set ratios of weights). */
    private static final long PATHS_CAP = 1L << 40;

    private Routing() {
    }

    public static Fib compute(Topology t, boolean[] linkDown) {
        return compute(t, linkDown, true);
    }

    /**
     * @param reuse whether a destination attached exactly as the one before it (the same switches over
     *              the same ports' states: on a fat tree, the next host of the same ToR) reuses that
     *              one's distances and groups and recomputes only its own attached switches' groups.
     *              Every switch's group is then what the full computation gives, interned in the same
     *              order (only attached switches can make new groups), so the tables are identical
     *              ({@code RoutingReuseTest}); false computes every destination in full
     */
    static Fib compute(Topology t, boolean[] linkDown, boolean reuse) {
        if (t.kind().equals("custom")) {
            return computeShortest(t, linkDown);
        }
        int hosts = t.hostCount();
        int nodes = t.nodeCount();
        int switches = nodes - hosts;
        int maxTier = t.maxTier();
        RouteTable table = new RouteTable(switches, hosts, hosts);
        int[] column = new int[switches];
        int[] attached = new int[Math.max(1, maxDegree(t))];
        GroupStore store = new GroupStore(switches);
        int[] down = new int[nodes];
        int[] best = new int[nodes];
        int[] cand = new int[t.portCount()];
        int[] candStart = new int[switches + 1];
        long[] paths = new long[nodes];
        long[] rawWeight = new long[maxDegree(t)];
        int[] weight = new int[maxDegree(t)];
        // Nodes by tier, so each pass walks one tier.
        int[][] byTier = new int[maxTier + 1][];
        for (int tier = 0; tier <= maxTier; tier++) {
            final int tt = tier;
            byTier[tier] = java.util.stream.IntStream.range(0, nodes).filter(n -> t.tier(n) == tt).toArray();
        }
        int[] signature = new int[2 * Math.max(1, maxDegree(t))];
        int[] previousSignature = new int[signature.length];
        int previousLength = -1;
        int previous = -1;
        int[] ownCand = new int[Math.max(1, maxDegree(t))];
        for (int dst = 0; dst < hosts; dst++) {
            int length = attachment(t, dst, linkDown, signature);
            if (reuse && previous >= 0 && length == previousLength && Arrays.equals(signature, 0, length, previousSignature, 0, length)) {
                // Distances of every switch are the previous destination's: only the hosts' own entries move
                down[previous] = INF;
                down[dst] = 0;
                int count = attachedSwitches(t, dst, attached);
                for (int a = 0; a < count; a++) {
                    int sw = attached[a];
                    int n = candidates(t, sw, linkDown, down, best, ownCand);
                    for (int i = 0; i < n; i++) {
                        rawWeight[i] = pathsFrom(t, t.peerNode(ownCand[i]), dst, hosts, cand, candStart, paths);
                    }
                    wecmpWeights(rawWeight, n, weight);
                    column[sw - hosts] = store.intern(sw - hosts, ownCand, 0, weight, n);
                }
                table.add(dst, column, attached, count);
                previous = dst;
                continue;
            }
            System.arraycopy(signature, 0, previousSignature, 0, length);
            previousLength = length;
            previous = dst;
            hopsDownTo(t, dst, byTier, linkDown, down);
            bestHopsTo(t, byTier, linkDown, down, best);
            // candidates of every switch first, so that the W-ECMP weights can count the paths behind them
            int used = 0;
            for (int s = hosts; s < nodes; s++) {
                candStart[s - hosts] = used;
                used += candidates(t, s, linkDown, down, best, cand, used);
                candStart[s - hosts + 1] = used;
            }
            Arrays.fill(paths, -1);
            for (int s = hosts; s < nodes; s++) {
                int from = candStart[s - hosts];
                int count = candStart[s - hosts + 1] - from;
                for (int i = 0; i < count; i++) {
                    rawWeight[i] = pathsFrom(t, t.peerNode(cand[from + i]), dst, hosts, cand, candStart, paths);
                }
                wecmpWeights(rawWeight, count, weight);
                column[s - hosts] = store.intern(s - hosts, cand, from, weight, count);
            }
            table.add(dst, column, attached, attachedSwitches(t, dst, attached));
        }
        return store.freeze(hosts, table);
    }

    /** {@code down[n]}: the hops from {@code dst} up to node n along tier-ascending links that are up (INF if none). */
    private static void hopsDownTo(Topology t, int dst, int[][] byTier, boolean[] linkDown, int[] down) {
        Arrays.fill(down, INF);
        down[dst] = 0;
        for (int tier = 0; tier < byTier.length - 1; tier++) {
            for (int n : byTier[tier]) {
                if (down[n] >= INF) {
                    continue;
                }
                for (int p = t.firstPort(n); p < t.portEnd(n); p++) {
                    int peer = t.peerNode(p);
                    if (t.tier(peer) == tier + 1 && !linkDown[t.linkOf(p)] && down[n] + 1 < down[peer]) {
                        down[peer] = down[n] + 1;
                    }
                }
            }
        }
    }

    /** {@code best[n]}: the fewest hops to the destination from node n, straight down or up first through a higher tier. */
    private static void bestHopsTo(Topology t, int[][] byTier, boolean[] linkDown, int[] down, int[] best) {
        for (int tier = byTier.length - 1; tier >= 1; tier--) {
            for (int n : byTier[tier]) {
                int b = down[n];
                for (int p = t.firstPort(n); p < t.portEnd(n); p++) {
                    int peer = t.peerNode(p);
                    if (t.tier(peer) == tier + 1 && !linkDown[t.linkOf(p)] && best[peer] + 1 < b) {
                        b = best[peer] + 1;
                    }
                }
                best[n] = b;
            }
        }
    }

    /**
     * Any graph: all shortest paths by breadth-first search from each destination (hosts other than
     * the destination never forward), then the static routes replace the group of their (switch,
     * destination) unless their link is down.
     */
    static Fib computeShortest(Topology t, boolean[] linkDown) {
        int hosts = t.hostCount();
        int nodes = t.nodeCount();
        int switches = nodes - hosts;
        RouteTable table = new RouteTable(switches, hosts, hosts);
        int[] column = new int[switches];
        int[] attached = new int[Math.max(1, maxDegree(t))];
        GroupStore store = new GroupStore(switches);
        int[] dist = new int[nodes];
        int[] queue = new int[nodes];
        int[] scratch = new int[Math.max(1, maxDegree(t))];
        long[] paths = new long[nodes];
        long[] rawWeight = new long[scratch.length];
        int[] weight = new int[scratch.length];
        int[] routes = t.staticRoutes();
        for (int dst = 0; dst < hosts; dst++) {
            Arrays.fill(dist, INF);
            dist[dst] = 0;
            int head = 0;
            int tail = 0;
            queue[tail++] = dst;
            while (head < tail) {
                int n = queue[head++];
                if (t.isHost(n) && n != dst) {
                    continue;
                }
                for (int p = t.firstPort(n); p < t.portEnd(n); p++) {
                    int peer = t.peerNode(p);
                    if (!linkDown[t.linkOf(p)] && dist[peer] == INF) {
                        dist[peer] = dist[n] + 1;
                        queue[tail++] = peer;
                    }
                }
            }
            // shortest paths to dst from every node, in breadth-first order (non-decreasing distance)
            Arrays.fill(paths, 0);
            paths[dst] = 1;
            for (int i = 1; i < tail; i++) {
                int n = queue[i];
                if (t.isHost(n)) {
                    continue;
                }
                long sum = 0;
                for (int p = t.firstPort(n); p < t.portEnd(n); p++) {
                    int peer = t.peerNode(p);
                    if (!linkDown[t.linkOf(p)] && dist[peer] == dist[n] - 1 && (!t.isHost(peer) || peer == dst)) {
                        sum = Math.min(PATHS_CAP, sum + paths[peer]);
                    }
                }
                paths[n] = sum;
            }
            for (int s = hosts; s < nodes; s++) {
                int count = 0;
                int fixed = -1;
                for (int r = 0; r < routes.length; r += 3) {
                    if (routes[r] == s && routes[r + 1] == dst && !linkDown[t.linkOf(routes[r + 2])]) {
                        fixed = routes[r + 2];
                    }
                }
                if (fixed >= 0) {
                    scratch[count++] = fixed;
                } else if (dist[s] < INF) {
                    for (int p = t.firstPort(s); p < t.portEnd(s); p++) {
                        int peer = t.peerNode(p);
                        if (!linkDown[t.linkOf(p)] && dist[peer] == dist[s] - 1 && (!t.isHost(peer) || peer == dst)) {
                            scratch[count++] = p;
                        }
                    }
                }
                for (int i = 0; i < count; i++) {
                    rawWeight[i] = fixed >= 0 ? 1 : paths[t.peerNode(scratch[i])];
                }
                wecmpWeights(rawWeight, count, weight);
                column[s - hosts] = store.intern(s - hosts, scratch, 0, weight, count);
            }
            table.add(dst, column, attached, attachedSwitches(t, dst, attached));
        }
        return store.freeze(hosts, table);
    }

    /** The ports of switch {@code s} that keep a packet on a shortest valley-free path, into {@code into}; returns how many. */
    private static int candidates(Topology t, int s, boolean[] linkDown, int[] down, int[] best, int[] into) {
        return candidates(t, s, linkDown, down, best, into, 0);
    }

    private static int candidates(Topology t, int s, boolean[] linkDown, int[] down, int[] best, int[] into, int from) {
        if (best[s] >= INF) {
            return 0;
        }
        int used = from;
        boolean goDown = down[s] == best[s];
        int tier = t.tier(s);
        for (int p = t.firstPort(s); p < t.portEnd(s); p++) {
            if (linkDown[t.linkOf(p)]) {
                continue;
            }
            int peer = t.peerNode(p);
            boolean ok = goDown
                    ? t.tier(peer) == tier - 1 && down[peer] == down[s] - 1
                    : t.tier(peer) == tier + 1 && best[peer] + 1 == best[s];
            if (ok) {
                into[used++] = p;
            }
        }
        return used - from;
    }

    /** How host {@code h} is attached: (peer node, link down?) of each of its ports, in port order, into {@code into}; returns the length. */
    private static int attachment(Topology t, int h, boolean[] linkDown, int[] into) {
        int n = 0;
        for (int p = t.firstPort(h); p < t.portEnd(h); p++) {
            into[n++] = t.peerNode(p);
            into[n++] = linkDown[t.linkOf(p)] ? 1 : 0;
        }
        return n;
    }

    /** Number of shortest valley-free paths from {@code node} to host {@code dst} along the candidates, memoized in {@code paths}. */
    private static long pathsFrom(Topology t, int node, int dst, int hosts, int[] cand, int[] candStart, long[] paths) {
        if (t.isHost(node)) {
            return node == dst ? 1 : 0;
        }
        if (paths[node] >= 0) {
            return paths[node];
        }
        long sum = 0;
        for (int i = candStart[node - hosts]; i < candStart[node - hosts + 1]; i++) {
            sum = Math.min(PATHS_CAP, sum + pathsFrom(t, t.peerNode(cand[i]), dst, hosts, cand, candStart, paths));
        }
        paths[node] = sum;
        return sum;
    }

    /**
     * W-ECMP weights (OFAN App. F.4): the paths behind each candidate divided by their greatest common
     * divisor; a group whose weights sum to more than {@link Fib#MAX_TOTAL_WEIGHT} is scaled down
     * proportionally, no weight below 1.
     */
    static void wecmpWeights(long[] paths, int count, int[] into) {
        long gcd = 0;
        for (int i = 0; i < count; i++) {
            gcd = gcd(gcd, Math.max(1, paths[i]));
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += Math.max(1, paths[i]) / gcd;
        }
        double scale = total > Fib.MAX_TOTAL_WEIGHT ? (double) Fib.MAX_TOTAL_WEIGHT / total : 1;
        for (int i = 0; i < count; i++) {
            long w = Math.max(1, paths[i]) / gcd;
            into[i] = scale == 1 ? (int) w : (int) Math.max(1, Math.min(Fib.MAX_TOTAL_WEIGHT, Math.round(w * scale)));
        }
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long r = a % b;
            a = b;
            b = r;
        }
        return a;
    }

    /** The distinct switches host {@code h} has a port to, ascending, into {@code into}; returns how many. */
    private static int attachedSwitches(Topology t, int h, int[] into) {
        int n = 0;
        for (int p = t.firstPort(h); p < t.portEnd(h); p++) {
            int peer = t.peerNode(p);
            if (!t.isHost(peer)) {
                into[n++] = peer;
            }
        }
        Arrays.sort(into, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (distinct == 0 || into[distinct - 1] != into[i]) {
                into[distinct++] = into[i];
            }
        }
        return distinct;
    }

    private static int maxDegree(Topology t) {
        int d = 0;
        for (int n = 0; n < t.nodeCount(); n++) {
            d = Math.max(d, t.degree(n));
        }
        return d;
    }

    /** Deduplicates port groups per switch by linear search; a switch has only a handful. */
    private static final class GroupStore {
        private final int[][] groupsOfSwitch;
        private final int[] groupsOfSwitchCount;
        private int[] starts = new int[1024];
        private int[] local = new int[1024];
        private int[] ports = new int[4096];
        private int[] weights = new int[4096];
        private int groups;
        private int portsUsed;

        GroupStore(int switches) {
            groupsOfSwitch = new int[switches][4];
            groupsOfSwitchCount = new int[switches];
        }

        /** The group of ports {@code candidate[from .. from+count)} with weights {@code weight[0 .. count)}. */
        int intern(int sw, int[] candidate, int from, int[] weight, int count) {
            int[] mine = groupsOfSwitch[sw];
            for (int i = 0; i < groupsOfSwitchCount[sw]; i++) {
                int g = mine[i];
                if (starts[g + 1] - starts[g] == count && Arrays.equals(ports, starts[g], starts[g] + count, candidate, from, from + count)
                        && Arrays.equals(weights, starts[g], starts[g] + count, weight, 0, count)) {
                    return g;
                }
            }
            int g = groups++;
            if (groups + 1 >= starts.length) {
                starts = Arrays.copyOf(starts, starts.length * 2);
                local = Arrays.copyOf(local, local.length * 2);
            }
            local[g] = groupsOfSwitchCount[sw];
            while (portsUsed + count > ports.length) {
                ports = Arrays.copyOf(ports, ports.length * 2);
                weights = Arrays.copyOf(weights, weights.length * 2);
            }
            System.arraycopy(candidate, from, ports, portsUsed, count);
            System.arraycopy(weight, 0, weights, portsUsed, count);
            starts[g] = portsUsed;
            portsUsed += count;
            starts[g + 1] = portsUsed;
            if (groupsOfSwitchCount[sw] == mine.length) {
                groupsOfSwitch[sw] = mine = Arrays.copyOf(mine, mine.length * 2);
            }
            mine[groupsOfSwitchCount[sw]++] = g;
            return g;
        }

        Fib freeze(int firstSwitch, RouteTable table) {
            return new Fib(firstSwitch, table.classCount(), table.classOf(), table.switchMajor(), table.hostStart(), table.hostGroups(),
                    Arrays.copyOf(starts, groups + 1), Arrays.copyOf(ports, portsUsed),
                    Arrays.copyOf(weights, portsUsed), Arrays.copyOf(local, groups), groupsOfSwitchCount.clone());
        }
    }
}
