package org.lbsim.net;

import java.util.Arrays;
import org.lbsim.topology.Topology;

/**
 * The scenario's {@code dropPackets}: an ingress stage that drops the first transmission of each listed
 * data packet at the first switch it reaches.
 */
final class InjectedDrops implements IngressStage {
    private final Network network;
    private final Topology topology;
    /** Data packets (qp << 32 | psn), sorted. */
    private final long[] keys;
    /** Per node (each written only by the partition of its switch). */
    private final long[] dropsAt;

    InjectedDrops(Network network, long[] qpPsnKeys) {
        this.network = network;
        this.topology = network.topology();
        this.keys = qpPsnKeys.clone();
        Arrays.sort(keys);
        this.dropsAt = new long[topology.nodeCount()];
    }

    @Override
    public boolean onIngress(Packet p, int ingressPort) {
        if (p.hops != 1 || p.kind != Packet.DATA || p.retransmission || Arrays.binarySearch(keys, ((long) p.flow << 32) | p.psn) < 0) {
            return true;
        }
        dropsAt[topology.portOwner(ingressPort)]++;
        network.dropInjected(p);
        return false;
    }

    long total() {
        long n = 0;
        for (long d : dropsAt) {
            n += d;
        }
        return n;
    }
}
