package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.PortSelector;
import org.lbsim.topology.Topology;

/** FLOW (OFAN 3.2 (1)): per-flow ECMP. Each queue pair draws one entropy and keeps it; switches hash. */
public final class FlowEcmp implements LoadBalancer {
    /** No parameters. */
    public record Params() {
    }

    @Override
    public EntropyPolicy newEntropyPolicy(int qp, int src, int dst, SplittableRandom rng) {
        int entropy = rng.nextInt(1 << 16);
        return (psn, retransmission) -> entropy;
    }

    @Override
    public PortSelector newPortSelector(Topology topology, int node, SplittableRandom rng) {
        return new EcmpHashSelector(rng.nextLong());
    }
}
