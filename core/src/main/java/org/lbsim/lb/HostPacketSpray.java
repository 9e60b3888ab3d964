package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.PortSelector;
import org.lbsim.topology.Topology;

/**
 * HOST_PKT (OFAN 3.2 (4), OPS): the host draws a fresh random entropy for every packet and the
 * switches hash it, so every packet takes an independent, uniformly random path.
 */
public final class HostPacketSpray implements LoadBalancer {
    /** No parameters. */
    public record Params() {
    }

    @Override
    public EntropyPolicy newEntropyPolicy(int qp, int src, int dst, SplittableRandom rng) {
        return (psn, retransmission) -> rng.nextInt(1 << 16);
    }

    @Override
    public PortSelector newPortSelector(Topology topology, int node, SplittableRandom rng) {
        return new EcmpHashSelector(rng.nextLong());
    }
}
