package org.lbsim.lb.dnlb;

import org.lbsim.net.IngressStage;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.net.Switch;
import org.lbsim.topology.Topology;

/**
 * CTCCL 4.1 / Fig. 5b: VRFs split a spine with p parallel links to every leaf into p virtual spines;
 * virtual spine k holds the k-th link to each leaf. A packet that came up a leaf's k-th link to this
 * spine goes down the k-th link to the destination's leaf, for every traffic class (VRFs are set per
 * interface). If that link is down the packet is left to the spine's routes (a real VRF would have
 * withdrawn the route; here the spine's other parallel links to that leaf take it).
 */
final class SpineVrf implements IngressStage {
    private final Switch sw;
    private final Network network;
    private final int firstPort;
    /** By port of this spine: the index of its link among the parallel links to the same leaf, -1 if it faces no leaf. */
    private final int[] parallelIndex;
    /** By leaf: this spine's ports to it, in port order. */
    private final int[][] toLeaf;
    private final int[] leafOfHost;
    private long steered;
    private long fallbacks;

    SpineVrf(LeafPlan plan, Switch sw, Network network) {
        Topology t = plan.topology();
        int node = sw.node();
        this.sw = sw;
        this.network = network;
        this.firstPort = t.firstPort(node);
        this.parallelIndex = new int[t.degree(node)];
        this.toLeaf = new int[plan.leafCount()][];
        for (int l = 0; l < plan.leafCount(); l++) {
            toLeaf[l] = t.portsBetween(node, plan.leafNode(l));
        }
        for (int p = firstPort; p < t.portEnd(node); p++) {
            int leaf = plan.leafOfNode(t.peerNode(p));
            parallelIndex[p - firstPort] = leaf < 0 ? -1 : java.util.Arrays.binarySearch(toLeaf[leaf], p);
        }
        this.leafOfHost = new int[t.hostCount()];
        for (int h = 0; h < leafOfHost.length; h++) {
            leafOfHost[h] = plan.leafOfHost(h);
        }
    }

    @Override
    public boolean onIngress(Packet p, int ingressPort) {
        int k = parallelIndex[ingressPort - firstPort];
        int[] down = toLeaf[leafOfHost[p.dst]];
        if (k < 0 || k >= down.length) {
            return true;
        }
        int out = down[k];
        if (network.link(out).isDown()) {
            fallbacks++;
            return true;
        }
        steered++;
        sw.sendOn(out, p);
        return false;
    }

    /** Packets sent down the link of their virtual spine. */
    long steered() {
        return steered;
    }

    /** Packets whose virtual spine's link to the destination leaf was down, left to the spine's routes. */
    long fallbacks() {
        return fallbacks;
    }
}
