package org.lbsim.lb;

/** One entropy for the whole queue pair, drawn at creation: the host side of every switch-driven scheme. */
final class FixedEntropy implements EntropyPolicy {
    private final int entropy;

    FixedEntropy(HostContext host) {
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
