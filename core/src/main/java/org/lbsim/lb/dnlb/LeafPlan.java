package org.lbsim.lb.dnlb;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.topology.Topology;

/**
 * What DNLB needs to know of the fabric: the leaves (switches with NICs attached), their uplinks in
 * port order (the PBR next hops: segment n goes to uplink n), the address plan (CTCCL 3.3: the index
 * of a NIC is its host number in its leaf's subnet, consecutive for the NICs of one leaf in single-
 * and multi-rail fabrics alike, Fig. 4) and the spines whose parallel links VRFs split (Fig. 5b).
 */
public final class LeafPlan {
    private final Topology topology;
    private final int[] leafOfNode;
    private final int[] leafNodes;
    private final int[] leafOfHost;
    private final int[] nicIndex;
    private final int[][] uplinks;
    private final int[][] localHosts;
    private final int parallelLinks;

    public LeafPlan(Topology t) {
        this.topology = t;
        this.leafOfNode = new int[t.nodeCount()];
        java.util.Arrays.fill(leafOfNode, -1);
        this.leafOfHost = new int[t.hostCount()];
        this.nicIndex = new int[t.hostCount()];
        List<Integer> leaves = new ArrayList<>();
        List<List<Integer>> hostsOf = new ArrayList<>();
        for (int h = 0; h < t.hostCount(); h++) {
            int sw = t.hostSwitch(h);
            if (leafOfNode[sw] < 0) {
                leafOfNode[sw] = leaves.size();
                leaves.add(sw);
                hostsOf.add(new ArrayList<>());
            }
            int leaf = leafOfNode[sw];
            leafOfHost[h] = leaf;
            // the leaf's subnet numbers its NICs consecutively, in host order (CTCCL 3.3)
            nicIndex[h] = hostsOf.get(leaf).size();
            hostsOf.get(leaf).add(h);
        }
        this.leafNodes = leaves.stream().mapToInt(Integer::intValue).toArray();
        this.uplinks = new int[leafNodes.length][];
        this.localHosts = new int[leafNodes.length][];
        int parallel = 1;
        for (int l = 0; l < leafNodes.length; l++) {
            int node = leafNodes[l];
            List<Integer> up = new ArrayList<>();
            for (int p = t.firstPort(node); p < t.portEnd(node); p++) {
                if (t.tier(t.peerNode(p)) > t.tier(node)) {
                    up.add(p);
                    parallel = Math.max(parallel, t.portsBetween(node, t.peerNode(p)).length);
                }
            }
            uplinks[l] = up.stream().mapToInt(Integer::intValue).toArray();
            localHosts[l] = hostsOf.get(l).stream().mapToInt(Integer::intValue).toArray();
        }
        this.parallelLinks = parallel;
    }

    public Topology topology() {
        return topology;
    }

    public int leafCount() {
        return leafNodes.length;
    }

    public int leafNode(int leaf) {
        return leafNodes[leaf];
    }

    /** The leaf index of a switch node, -1 when no NIC is attached to it. */
    public int leafOfNode(int node) {
        return leafOfNode[node];
    }

    public int leafOfHost(int host) {
        return leafOfHost[host];
    }

    /** CTCCL Table 1's index_{N_i,j}: the NIC's host number within its leaf's subnet, from 0. */
    public int nicIndex(int host) {
        return nicIndex[host];
    }

    /** The leaf's uplink ports in port order (by spine, then parallel link): PBR segment n goes to uplinks(leaf)[n]. */
    public int[] uplinks(int leaf) {
        return uplinks[leaf].clone();
    }

    public int uplinkCount(int leaf) {
        return uplinks[leaf].length;
    }

    public int uplink(int leaf, int n) {
        return uplinks[leaf][n];
    }

    /** The NICs attached to the leaf, in host order. */
    public int[] localHosts(int leaf) {
        return localHosts[leaf].clone();
    }

    /** Most parallel links between one leaf and one spine (1 when there are none to split). */
    public int parallelLinks() {
        return parallelLinks;
    }

    /**
     * Whether a switch is a spine DNLB's VRFs split: every port faces a leaf. (Aggregation switches
     * of a fat tree also face cores and are left alone.)
     */
    public boolean isSpine(int node) {
        if (topology.isHost(node) || leafOfNode[node] >= 0 || topology.degree(node) == 0) {
            return false;
        }
        for (int p = topology.firstPort(node); p < topology.portEnd(node); p++) {
            if (leafOfNode[topology.peerNode(p)] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether uplink n of every leaf belongs to the same virtual spine, so that a path leaving a leaf on
     * uplink n reaches the destination leaf on its uplink n: so with one link per leaf-spine pair, and
     * with VRFs splitting parallel links (Fig. 5b) when the leaves have equal uplink lists.
     */
    public boolean uplinkIsVirtualSpine(boolean vrf) {
        int n = leafNodes.length == 0 ? 0 : uplinks[0].length;
        for (int[] u : uplinks) {
            if (u.length != n) {
                return false;
            }
        }
        return parallelLinks == 1 || vrf;
    }
}
