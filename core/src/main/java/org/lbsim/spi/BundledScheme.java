package org.lbsim.spi;

import org.lbsim.spi.LoadBalancer;

/**
 * A registered load-balancing scheme that also owns the host layers of its queue pairs: entropy,
 * sender loss recovery, receiver policy and sender hooks come from {@link #queuePairScheme} instead
 * of the run's {@code lossRecovery}. For paper systems spanning layers (PRO's spraying with its
 * out-of-order window, DLBF's path states with duplicates and notifications): one class plus one
 * line in {@code LoadBalancers.REGISTRY}, selected like any scheme ({@code loadBalancing: {type: ...}},
 * or per traffic class).
 */
public interface BundledScheme extends LoadBalancer {
    /** The bundle for the queue pairs of this scheme's traffic class; {@code recovery} is the run's loss-recovery factory, to use or ignore. */
    QueuePairScheme queuePairScheme(LossRecoveryFactory recovery);
}
