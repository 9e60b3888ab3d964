package org.lbsim.lb;

import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/**
 * SUBFLOW (OFAN 3.2 (2), after MPTCP): the queue pair's packets are dealt round-robin over
 * {@code subflows} subflows, each with its own fixed entropy; switches hash.
 */
public final class Subflows implements LoadBalancer {
    public record Params(@Doc("subflows per queue pair, each with its own entropy (Table 2: 4)") int subflows) {
        public Params {
            ScenarioException.require(subflows >= 1 && subflows <= 1024, "subflows", "must be between 1 and 1024, got " + subflows);
        }
    }

    private final int subflows;

    public Subflows(Params p) {
        this.subflows = p.subflows();
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        int[] entropies = new int[subflows];
        for (int i = 0; i < subflows; i++) {
            entropies[i] = host.rng().nextInt(1 << 16);
        }
        return (psn, retransmission) -> entropies[psn % entropies.length];
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }
}
