package org.lbsim.spi;

/** One label for every packet of a queue pair, and nothing learnt ({@link EntropyPolicy#fixed}). */
final class FixedLabel implements EntropyPolicy {
    private final int label;

    FixedLabel(int label) {
        this.label = label;
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        return label;
    }

    @Override
    public boolean fixedLabel() {
        return true;
    }
}
