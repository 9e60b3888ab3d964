package org.lbsim.api;

import java.util.List;
import java.util.Optional;
import org.lbsim.net.EgressStage;
import org.lbsim.net.IngressStage;
import org.lbsim.net.PolicyTable;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.AckPolicy;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecovery;

/**
 * The hooks a new scheme plugs into, for {@code lbsim list hooks} and {@code lbsim explain HOOK}.
 * docs/extending.md has a worked example of each.
 */
public final class ExtensionPoints {
    /**
     * One hook.
     *
     * @param name     the word {@code lbsim explain} takes
     * @param type     the interface or class to implement or fill
     * @param where    where in the packet path it runs
     * @param can      what it may do
     * @param install  how a scheme puts it in place
     */
    public record Hook(String name, Class<?> type, String where, String can, String install) {
    }

    private static final List<Hook> HOOKS = List.of(
            new Hook("entropy-policy", EntropyPolicy.class,
                    "host, per queue pair: every data packet it sends",
                    "write the UDP source port (entropy) and path id; learn from ACKs and timeouts",
                    "LoadBalancer.newEntropyPolicy(HostContext), registered in LoadBalancers.REGISTRY"),
            new Hook("ack-policy", AckPolicy.class,
                    "host, per queue pair, receiving side: every ACK/NACK it sends",
                    "label the answers (entropy) for their way back",
                    "LoadBalancer.newAckPolicy(HostContext)"),
            new Hook("port-selector", PortSelector.class,
                    "switch, per switch (and per traffic class): packets whose FIB group has several ports",
                    "pick one of the equal-cost egress ports, keep per-switch state, see routing changes",
                    "LoadBalancer.newPortSelector(SwitchContext)"),
            new Hook("ingress-stage", IngressStage.class,
                    "switch, per switch: every packet it receives, before any forwarding decision (down-to-host traffic included)",
                    "pass, rewrite header fields, consume with a named reason, hold and release later, originate packets",
                    "LoadBalancer.programSwitch(SwitchContext, Switch) calling Switch.addIngressStage"),
            new Hook("policy-table", PolicyTable.class,
                    "switch, per switch: after the ingress stage, before the FIB group",
                    "send packets matching class / UDP source port (range or bits) / destination / ingress port to a port list; FIB fallback when none is usable",
                    "LoadBalancer.programSwitch calling Switch.setPolicyTable"),
            new Hook("egress-stage", EgressStage.class,
                    "switch, per switch: every packet queued at and leaving from its ports",
                    "observe with the queue's state (Themis-D's PSN ring)",
                    "LoadBalancer.programSwitch calling Switch.setEgressStage"),
            new Hook("receiver-policy", org.lbsim.spi.ReceiverPolicy.class,
                    "host, per queue pair, receiving NIC: every data packet that arrives, and its own timer",
                    "keep or discard, answer with ACK / SACK / NACK (ePSN only) / a scheme's own packet, wait with a timer",
                    "LossRecoveryFactory.receiverPolicy(QpContext), or a QueuePairScheme bundle"),
            new Hook("packet-kind", org.lbsim.spi.PacketKinds.class,
                    "host: packets of a scheme's own kind (notification, probe, probe reply) reaching their host",
                    "register a kind with a handler: to the receiver policy or to the sender hooks; carry schemeBits",
                    "QueuePairScheme.registerKinds(PacketKinds), once per run"),
            new Hook("queue-pair-scheme", org.lbsim.spi.QueuePairScheme.class,
                    "host, per queue pair: makes its entropy policy, sender loss recovery, receiver policy and sender hooks together",
                    "share state between the parts (PRO: spraying and its OOO window); inject duplicates and notifications (SenderHooks)",
                    "a registered BundledScheme's queuePairScheme(recovery), or in code ScenarioBuilder.prepare(bundle)"),
            new Hook("congestion-control", CongestionControl.class,
                    "host, per queue pair: when it may send",
                    "pace, react to ACKs, ECN echoes, CNPs, NACKs and timeouts",
                    "a factory registered in CongestionControls.REGISTRY"),
            new Hook("loss-recovery", LossRecovery.class,
                    "host, per queue pair: which PSN goes next, what ACKs and NACKs teach, its timer",
                    "resend, presume losses, complete the message",
                    "a factory registered in LossRecoveries.REGISTRY"),
            new Hook("load-balancer", LoadBalancer.class,
                    "the whole scheme: one object making the host and switch pieces above",
                    "own an entropy policy, ACK policy, port selector and switch program together; leave queue pairs of a starting connection out of its data split (carriesData); report per-run counters",
                    "one line in LoadBalancers.REGISTRY; per traffic class with the scenario's trafficClasses"),
            new Hook("bundled-scheme", org.lbsim.spi.BundledScheme.class,
                    "a registered load balancer that also owns its queue pairs' host layers (entropy, loss recovery, receiver, sender hooks)",
                    "replace the run's lossRecovery for its traffic class with its own parts (PRO, DLBF)",
                    "implement BundledScheme.queuePairScheme(LossRecoveryFactory); one line in LoadBalancers.REGISTRY"),
            new Hook("scheme-counters", org.lbsim.spi.CounterSink.class,
                    "end of run, once per scheme of the run",
                    "report named counts (NACKs blocked, probes, ring high-water marks) into summary.json, the database and the report",
                    "LoadBalancer.reportCounters(CounterSink)"));

    private ExtensionPoints() {
    }

    public static List<Hook> all() {
        return HOOKS;
    }

    public static Optional<Hook> find(String name) {
        return HOOKS.stream().filter(h -> h.name().equals(name)).findFirst();
    }

    /** The text of {@code lbsim list hooks}. */
    public static String listing() {
        int width = HOOKS.stream().mapToInt(h -> h.name().length()).max().orElse(0);
        StringBuilder out = new StringBuilder();
        for (Hook h : HOOKS) {
            out.append(String.format("%-" + width + "s  %s: %s%n", h.name(), h.type().getSimpleName(), h.where()));
        }
        return out.toString();
    }

    /** The text of {@code lbsim explain HOOK}. */
    public static String explain(Hook h) {
        return h.name() + ": extension point " + h.type().getName() + "\n"
                + "  runs     " + h.where() + "\n"
                + "  can      " + h.can() + "\n"
                + "  install  " + h.install() + "\n"
                + "  example  docs/extending.md\n";
    }
}
