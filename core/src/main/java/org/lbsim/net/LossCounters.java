package org.lbsim.net;

import org.lbsim.topology.Topology;

/**
 * Where the fabric lost packets: congestion drops and losses on failed links per port, drops for lack of
 * a route per switch node. Each slot is written only by the partition of its switch.
 */
final class LossCounters {
    private final Topology topology;
    private final long[] dropsAtPort;
    private final long[] linkLossAtPort;
    private final long[] noRouteDropsAt;

    LossCounters(Topology topology) {
        this.topology = topology;
        dropsAtPort = new long[topology.portCount()];
        linkLossAtPort = new long[topology.portCount()];
        noRouteDropsAt = new long[topology.nodeCount()];
    }

    void dropAtPort(int port) {
        dropsAtPort[port]++;
    }

    void lossOnLink(int port, long n) {
        linkLossAtPort[port] += n;
    }

    void dropNoRoute(int switchNode) {
        noRouteDropsAt[switchNode]++;
    }

    long dropsInLayer(int layerCode) {
        return sumInLayer(dropsAtPort, layerCode);
    }

    long linkLossInLayer(int layerCode) {
        return sumInLayer(linkLossAtPort, layerCode);
    }

    long noRouteDrops() {
        long n = 0;
        for (long c : noRouteDropsAt) {
            n += c;
        }
        return n;
    }

    /** Every loss counted here. */
    long total() {
        long n = noRouteDrops();
        for (int p = 0; p < dropsAtPort.length; p++) {
            n += dropsAtPort[p] + linkLossAtPort[p];
        }
        return n;
    }

    private long sumInLayer(long[] byPort, int layerCode) {
        long n = 0;
        for (int p = 0; p < byPort.length; p++) {
            if (topology.layerOf(p) == layerCode) {
                n += byPort[p];
            }
        }
        return n;
    }
}
