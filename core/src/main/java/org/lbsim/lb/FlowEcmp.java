package org.lbsim.lb;

import org.lbsim.net.PortSelector;

/** FLOW (OFAN 3.2 (1)): per-flow ECMP. Each queue pair draws one entropy and keeps it; switches hash. */
public final class FlowEcmp implements LoadBalancer {
    /** No parameters. */
    public record Params() {
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        int entropy = host.rng().nextInt(1 << 16);
        return EntropyPolicy.fixed(entropy);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }
}
