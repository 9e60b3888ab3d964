package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.net.PortStates;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;

/**
 * Switch-side selectors that look at their own egress queues (OFAN 3.2 (7), 6.1; DRILL). Under W-ECMP
 * weights (after convergence, OFAN 5.2) RSQ draws next hops in proportion to their weights; JSQ,
 * SWITCH PKT AR and DRILL draw a weight class in proportion to its weight and compare queues within
 * it ({@link WeightedChoice}).
 */
final class QueueAwareSelectors {
    private QueueAwareSelectors() {
    }

    /**
     * The port with the lowest score ({@link #of}) among the group's candidates, within a weight
     * class under W-ECMP, ties broken uniformly at random ({@link WeightedChoice#lowest}).
     */
    abstract static class LowestScore implements PortSelector, WeightedChoice.Score {
        final PortStates ports;
        private final SplittableRandom rng;
        private Fib fib;

        LowestScore(SwitchContext sw) {
            this.ports = sw.ports();
            this.rng = sw.rng();
            this.fib = sw.fib();
        }

        @Override
        public void onRoutingChange(Fib newFib) {
            this.fib = newFib;
        }

        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            return WeightedChoice.lowest(fib, group, candidates, offset, count, this, rng);
        }
    }

    /** JSQ (OFAN 6.1 (ii)): the candidate with the fewest queued bytes, ties broken uniformly at random. */
    static final class ShortestQueue extends LowestScore {
        ShortestQueue(SwitchContext sw) {
            super(sw);
        }

        @Override
        public long of(int port) {
            return ports.queueBytes(port);
        }
    }

    /** RSQ (OFAN 6.1 (iii)): a random candidate, uniform over the group's members (each port as often as its weight). */
    static final class RandomPort implements PortSelector {
        private final SplittableRandom rng;
        private Fib fib;

        RandomPort(SwitchContext sw) {
            this.rng = sw.rng();
            this.fib = sw.fib();
        }

        @Override
        public void onRoutingChange(Fib newFib) {
            this.fib = newFib;
        }

        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            return candidates[offset + WeightedChoice.byRandom(fib, group, rng)];
        }
    }

    /**
     * SWITCH PKT AR (OFAN 3.2 (7), Table 2, after Spectrum-X): queue lengths are quantized into bins
     * by thresholds given as fractions of the port buffer; the packet goes to a random port of the
     * lowest non-empty bin.
     */
    static final class QuantizedQueue extends LowestScore {
        private final double[] thresholds;

        QuantizedQueue(SwitchContext sw, double[] thresholds) {
            super(sw);
            this.thresholds = thresholds;
        }

        @Override
        public long of(int port) {
            double fill = ports.queueBytes(port) / (double) ports.bufferBytes(port);
            int bin = 0;
            while (bin < thresholds.length && fill >= thresholds[bin]) {
                bin++;
            }
            return bin;
        }
    }

    /**
     * DRILL (Ghorbani et al., SIGCOMM 2017; PRO's baseline): per packet, compare d random candidates
     * (of the drawn weight class) and the m = 1 port
     * remembered from the previous decision of this next-hop group, take the one with the shortest
     * queue, and remember it.
     */
    static final class Drill implements PortSelector {
        private final int node;
        private final PortStates ports;
        private final SplittableRandom rng;
        private final int samples;
        private int[] memory;
        private Fib fib;

        Drill(SwitchContext sw, int samples) {
            this.node = sw.node();
            this.ports = sw.ports();
            this.rng = sw.rng();
            this.samples = samples;
            onRoutingChange(sw.fib());
        }

        @Override
        public void onRoutingChange(Fib newFib) {
            this.fib = newFib;
            this.memory = new int[newFib.groupsAt(node)];
            java.util.Arrays.fill(memory, -1);
        }

        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            int g = fib.localGroup(group);
            int cls = WeightedChoice.weightClass(fib, group, rng);
            int best = memory[g];
            if (best >= 0 && cls != 0 && !inClass(best, group, candidates, offset, count, cls)) {
                best = -1; // the remembered port is of another weight class
            }
            long bestQ = best >= 0 ? ports.queueBytes(best) : Long.MAX_VALUE;
            for (int s = 0; s < samples; s++) {
                int port = candidates[offset + WeightedChoice.randomInClass(fib, group, count, cls, rng)];
                long q = ports.queueBytes(port);
                if (q < bestQ) {
                    bestQ = q;
                    best = port;
                }
            }
            memory[g] = best;
            return best;
        }

        private boolean inClass(int port, int group, int[] candidates, int offset, int count, int cls) {
            for (int i = 0; i < count; i++) {
                if (candidates[offset + i] == port) {
                    return WeightedChoice.inClass(fib, group, i, cls);
                }
            }
            return false;
        }
    }
}
