package org.lbsim.spi;

import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecovery;

/**
 * Makes the parts of every queue pair of a run (entropy policy, sender loss recovery, receiver
 * policy, sender hooks), so that a paper system spanning layers (PRO, DLBF) is one bundle whose
 * parts share state. By default ({@link #separate}) the parts come independently from the run's
 * load balancer and loss-recovery factory, each usable alone. One instance per run.
 */
public interface QueuePairScheme {
    /** Called once per run, before any queue pair is made: register the packet kinds the scheme sends. */
    default void registerKinds(PacketKinds kinds) {
    }

    /** The parts of one queue pair; {@code sender} is the queue pair seen from its sending host. */
    QpParts create(HostContext sender);

    /**
     * The parts of the next message on a persistent queue pair ({@code nic.queuePairs: persistent}) whose
     * previous message, now fully acknowledged, had {@code previous}: loss recovery and the receiver's
     * state start afresh for the new message's PSNs, and what the scheme keeps per queue pair (path
     * states, the flow label) carries over. By default a bundle keeps nothing: fresh parts.
     */
    default QpParts next(HostContext sender, QpParts previous) {
        return create(sender);
    }

    /** The run's bundle for {@code lb}: its own when it is a {@link BundledScheme}, otherwise {@link #separate}. */
    static QueuePairScheme of(LoadBalancer lb, LossRecoveryFactory recovery) {
        return lb instanceof BundledScheme b ? b.queuePairScheme(recovery) : separate(lb, recovery);
    }

    /** The decoupled default: entropy from the load balancer, sender recovery and receiver policy from the loss-recovery factory. */
    static QueuePairScheme separate(LoadBalancer lb, LossRecoveryFactory recovery) {
        return new QueuePairScheme() {
            @Override
            public QpParts create(HostContext sender) {
                LossRecovery r = recovery.create(sender.qp());
                return new QpParts(lb.newEntropyPolicy(sender), r, recovery.receiverPolicy(sender.qp()));
            }

            /** The same entropy policy (its flow label and whatever it learnt of paths); recovery and receiver per message. */
            @Override
            public QpParts next(HostContext sender, QpParts previous) {
                return new QpParts(previous.entropy(), recovery.create(sender.qp()), recovery.receiverPolicy(sender.qp()));
            }
        };
    }
}
