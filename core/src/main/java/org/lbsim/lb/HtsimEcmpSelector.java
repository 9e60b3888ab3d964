package org.lbsim.lb;

import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.topology.Topology;

/**
 * Switch ECMP as htsim decides it ({@link HtsimEcmpHash}): member {@code freeBSDHash(queue pair + 1,
 * entropy, salt) mod n} of the group, the members counted in the order htsim's FIB lists them, by the
 * next hop's node id. Every group has equal weights on the intact fat tree this reading is for.
 */
public final class HtsimEcmpSelector implements PortSelector {
    private final Topology topology;
    private final int salt;

    public HtsimEcmpSelector(Topology topology, int salt) {
        this.topology = topology;
        this.salt = salt;
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        if (count == 1) {
            return ports[offset];
        }
        int rank = HtsimEcmpHash.member(p.flow + 1, p.entropy, salt, count);
        for (int i = offset; i < offset + count; i++) {
            int peer = topology.peerNode(ports[i]);
            int below = 0;
            for (int j = offset; j < offset + count; j++) {
                if (topology.peerNode(ports[j]) < peer) {
                    below++;
                }
            }
            if (below == rank) {
                return ports[i];
            }
        }
        throw new IllegalStateException("two ports of one group lead to the same switch");
    }
}
