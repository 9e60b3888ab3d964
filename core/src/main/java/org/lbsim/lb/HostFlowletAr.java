package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/**
 * HOST FLOWLET AR (OFAN 3.2 (3), after PLB): the queue pair keeps one entropy; after every
 * {@code alphaPackets} ACKs it looks at the share that carried an ECN echo and, if it exceeds
 * {@code beta}, moves to a fresh random entropy. Switches hash. OFAN runs it with switches marking
 * at 50% of the buffer and a 40% label-change threshold (Table 2; see docs/schemes.md for this reading).
 */
public final class HostFlowletAr implements LoadBalancer {
    public record Params(
            @Doc("ACKs per decision window; the label changes at most once per window (0 = one bandwidth-delay product of packets)") int alphaPackets,
            @Doc("fraction of ECN-echoing ACKs in a window above which the label changes (Table 2: 0.4)") double beta) {
        public Params {
            ScenarioException.require(alphaPackets >= 0, "alphaPackets", "must be >= 0 (0 = one BDP), got " + alphaPackets);
            ScenarioException.require(beta >= 0 && beta <= 1, "beta", "must be between 0 and 1, got " + beta);
        }
    }

    private final Params params;

    public HostFlowletAr(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        int alpha = params.alphaPackets();
        if (alpha == 0) {
            long frameBytes = host.qp().mtuBytes() + host.qp().headerBytes() + host.qp().gapBytes();
            long bdpBytes = host.qp().lineRateMbps() * host.qp().baseRttPs() / 8_000_000L;
            alpha = (int) Math.max(1, bdpBytes / frameBytes);
        }
        return new Policy(host.rng(), alpha, params.beta());
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    static final class Policy implements EntropyPolicy {
        private final SplittableRandom rng;
        private final int alpha;
        private final double beta;
        private int entropy;
        private int acks;
        private int marked;
        private long changes;

        Policy(SplittableRandom rng, int alpha, double beta) {
            this.rng = rng;
            this.alpha = alpha;
            this.beta = beta;
            this.entropy = rng.nextInt(1 << 16);
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            return entropy;
        }

        @Override
        public void onAck(int ackedEntropy, boolean ecnEcho) {
            if (ackedEntropy != entropy) {
                return; // feedback about a label already left behind
            }
            acks++;
            if (ecnEcho) {
                marked++;
            }
            if (acks >= alpha) {
                if (marked > beta * acks) {
                    entropy = rng.nextInt(1 << 16);
                    changes++;
                }
                acks = 0;
                marked = 0;
            }
        }

        @Override
        public void onLoss(int lostEntropy) {
            if (lostEntropy == entropy) {
                entropy = rng.nextInt(1 << 16);
                changes++;
                acks = 0;
                marked = 0;
            }
        }

        long changes() {
            return changes;
        }
    }
}
