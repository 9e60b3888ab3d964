package org.lbsim.spi;

import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.LossRecovery;

/**
 * The scheme-owned parts of one queue pair, made together by a {@link QueuePairScheme} so they may
 * share state (PRO couples its spraying with its receiver's out-of-order window).
 *
 * @param entropy  the host-side load balancing of the queue pair's data
 * @param recovery the sender side of loss recovery
 * @param receiver what the receiving RNIC keeps and answers
 * @param sender   the sender's extra packets and the scheme packets that come back to it
 */
public record QpParts(EntropyPolicy entropy, LossRecovery recovery, ReceiverPolicy receiver, SenderHooks sender) {
    /** The three layers without sender hooks. */
    public QpParts(EntropyPolicy entropy, LossRecovery recovery, ReceiverPolicy receiver) {
        this(entropy, recovery, receiver, SenderHooks.NONE);
    }
}
