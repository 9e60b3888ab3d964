package org.lbsim.lb;

import org.lbsim.net.PortSelector;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

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
