package org.lbsim.lb.tor;

import org.lbsim.lb.EntropyPolicy;
import org.lbsim.lb.HostContext;

/** The host side of the ToR-driven schemes: one random entropy per queue pair (ACKs and control packets hash on it). */
public final class FixedRandomEntropy implements EntropyPolicy {
    private final int entropy;

    public FixedRandomEntropy(HostContext host) {
        this.entropy = host.rng().nextInt(1 << 16);
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        return entropy;
    }

    @Override
    public boolean fixedLabel() {
        return true;
    }
}
