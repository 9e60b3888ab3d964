package org.lbsim.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The cuts of a fabric that every byte between its inside and its outside must cross: each
 * tier-1 switch (edge, leaf) with its hosts, and each pod of a fat tree (its hosts, edge and
 * aggregation switches). A cut is oversubscribed when its links to the outside carry less than the
 * NICs inside can send (leaf-spine: hostsPerLeaf x host rate against spines x links x uplink rate).
 * Lower bounds use these cuts: whatever the load balancing, the traffic across a cut is serialized
 * on its links, so it takes at least its bits over their summed rate.
 */
public final class FabricCuts {
    /**
     * One cut.
     *
     * @param level            0 for a tier-1 switch with its hosts, 1 for a pod
     * @param index            the cut's index within its level
     * @param name             the switch or pod it stands for (e.g. "l3", "pod 2")
     * @param outPorts         the port directions leaving the inside (their peer ports enter it)
     * @param capacityMbps     summed rate of {@code outPorts} (the same both ways)
     * @param hostCapacityMbps summed NIC rate of the hosts inside
     */
    public record Cut(int level, int index, String name, int[] outPorts, long capacityMbps, long hostCapacityMbps) {
        /** Host capacity over cut capacity: 2.5 for DLBF's 2.5:1. */
        public double ratio() {
            return (double) hostCapacityMbps / capacityMbps;
        }

        public boolean oversubscribed() {
            return capacityMbps < hostCapacityMbps;
        }
    }

    private final int[][] cutOf; // level -> node -> cut index in that level, or -1
    private final List<Cut> cuts;

    private FabricCuts(int[][] cutOf, List<Cut> cuts) {
        this.cutOf = cutOf;
        this.cuts = cuts;
    }

    public static FabricCuts of(Topology t) {
        int nodes = t.nodeCount();
        int[] bySwitch = new int[nodes];
        Arrays.fill(bySwitch, -1);
        int switchCuts = 0;
        for (int n = t.hostCount(); n < nodes; n++) {
            if (t.tier(n) == 1) {
                bySwitch[n] = switchCuts++;
            }
        }
        for (int h = 0; h < t.hostCount(); h++) {
            bySwitch[h] = bySwitch[t.hostSwitch(h)];
        }
        // pods that hold more than one switch tier (fat tree); a leaf-spine pod is just its leaf's cut
        boolean[] podAboveLeaf = new boolean[Math.max(0, t.podCount())];
        for (int n = t.hostCount(); n < nodes; n++) {
            if (t.tier(n) >= 2 && t.pod(n) >= 0) {
                podAboveLeaf[t.pod(n)] = true;
            }
        }
        int[] byPod = new int[nodes];
        for (int n = 0; n < nodes; n++) {
            int pod = t.pod(n);
            byPod[n] = pod >= 0 && podAboveLeaf[pod] ? pod : -1;
        }
        int[][] cutOf = {bySwitch, byPod};
        List<Cut> cuts = new ArrayList<>();
        addCuts(t, cutOf, 0, switchCuts, cuts);
        addCuts(t, cutOf, 1, podAboveLeaf.length, cuts);
        return new FabricCuts(cutOf, List.copyOf(cuts));
    }

    private static void addCuts(Topology t, int[][] cutOf, int level, int count, List<Cut> out) {
        int[] member = cutOf[level];
        long[] hostCapacity = new long[count];
        long[] capacity = new long[count];
        int[] outCount = new int[count];
        String[] names = new String[count];
        for (int n = 0; n < t.nodeCount(); n++) {
            int c = member[n];
            if (c < 0) {
                continue;
            }
            if (t.isHost(n)) {
                hostCapacity[c] += t.rateMbps(t.hostPort(n));
            } else if (names[c] == null) {
                names[c] = level == 0 ? t.nodeName(n) : "pod " + t.pod(n);
            }
            for (int p = t.firstPort(n); p < t.portEnd(n); p++) {
                if (member[t.peerNode(p)] != c) {
                    capacity[c] += t.rateMbps(p);
                    outCount[c]++;
                }
            }
        }
        int[][] ports = new int[count][];
        for (int c = 0; c < count; c++) {
            ports[c] = new int[outCount[c]];
            outCount[c] = 0;
        }
        for (int n = 0; n < t.nodeCount(); n++) {
            int c = member[n];
            if (c < 0) {
                continue;
            }
            for (int p = t.firstPort(n); p < t.portEnd(n); p++) {
                if (member[t.peerNode(p)] != c) {
                    ports[c][outCount[c]++] = p;
                }
            }
        }
        for (int c = 0; c < count; c++) {
            if (hostCapacity[c] > 0 && capacity[c] > 0) {
                out.add(new Cut(level, c, names[c], ports[c], capacity[c], hostCapacity[c]));
            }
        }
    }

    public List<Cut> cuts() {
        return cuts;
    }

    /** The cuts narrower than the NICs inside them. */
    public List<Cut> oversubscribed() {
        return cuts.stream().filter(Cut::oversubscribed).toList();
    }

    /** Whether {@code node} lies inside {@code cut}. */
    public boolean inside(Cut cut, int node) {
        return cutOf[cut.level()][node] == cut.index();
    }

    /** The largest host-to-cut capacity ratio of the fabric (1 for a full-bisection fat tree or leaf-spine; 0 without cuts). */
    public double oversubscription() {
        return cuts.stream().mapToDouble(Cut::ratio).max().orElse(0);
    }
}
