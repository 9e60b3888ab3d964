package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.PortSelector;
import org.lbsim.topology.Topology;

/**
 * A load-balancing scheme as a whole: what hosts put in the entropy field and how switches pick
 * among equal-cost ports. Either side may be trivial (fixed entropy, or hashing at switches).
 */
public interface LoadBalancer {
    /** The entropy policy of a new queue pair from {@code src} to {@code dst}. */
    EntropyPolicy newEntropyPolicy(int qp, int src, int dst, SplittableRandom rng);

    /** The port selector of switch {@code node}. */
    PortSelector newPortSelector(Topology topology, int node, SplittableRandom rng);
}
