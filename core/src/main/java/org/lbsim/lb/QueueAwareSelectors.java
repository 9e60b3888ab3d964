package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.net.PortStates;
import org.lbsim.topology.Fib;

/** Switch-side selectors that look at their own egress queues (OFAN 3.2 (7), 6.1; DRILL). */
final class QueueAwareSelectors {
    private QueueAwareSelectors() {
    }

    /** JSQ (OFAN 6.1 (ii)): the candidate with the fewest queued bytes, ties broken uniformly at random. */
    static final class ShortestQueue implements PortSelector {
        private final PortStates ports;
        private final SplittableRandom rng;

        ShortestQueue(SwitchContext sw) {
            this.ports = sw.ports();
            this.rng = sw.rng();
        }

        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            long best = Long.MAX_VALUE;
            int chosen = -1;
            int ties = 0;
            for (int i = 0; i < count; i++) {
                int port = candidates[offset + i];
                long q = ports.queueBytes(port);
                if (q < best) {
                    best = q;
                    chosen = port;
                    ties = 1;
                } else if (q == best && rng.nextInt(++ties) == 0) {
                    chosen = port; // reservoir sampling keeps each tied port equally likely
                }
            }
            return chosen;
        }
    }

    /** RSQ (OFAN 6.1 (iii)): a uniformly random candidate. */
    static final class RandomPort implements PortSelector {
        private final SplittableRandom rng;

        RandomPort(SwitchContext sw) {
            this.rng = sw.rng();
        }

        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            return candidates[offset + rng.nextInt(count)];
        }
    }

    /**
     * SWITCH_PKT_AR (OFAN 3.2 (7), Table 2, after Spectrum-X): queue lengths are quantized into bins
     * by thresholds given as fractions of the port buffer; the packet goes to a random port of the
     * lowest non-empty bin.
     */
    static final class QuantizedQueue implements PortSelector {
        private final PortStates ports;
        private final SplittableRandom rng;
        private final double[] thresholds;

        QuantizedQueue(SwitchContext sw, double[] thresholds) {
            this.ports = sw.ports();
            this.rng = sw.rng();
            this.thresholds = thresholds;
        }

        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            int bestBin = Integer.MAX_VALUE;
            int chosen = -1;
            int ties = 0;
            for (int i = 0; i < count; i++) {
                int port = candidates[offset + i];
                double fill = ports.queueBytes(port) / (double) ports.bufferBytes(port);
                int bin = 0;
                while (bin < thresholds.length && fill >= thresholds[bin]) {
                    bin++;
                }
                if (bin < bestBin) {
                    bestBin = bin;
                    chosen = port;
                    ties = 1;
                } else if (bin == bestBin && rng.nextInt(++ties) == 0) {
                    chosen = port;
                }
            }
            return chosen;
        }
    }

    /**
     * DRILL (Ghorbani et al., SIGCOMM 2017; PRO's baseline): per packet, compare d random candidates
     * and the m = 1 port remembered from the previous decision of this next-hop group, take the one
     * with the shortest queue, and remember it.
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
            int best = memory[g];
            long bestQ = best >= 0 ? ports.queueBytes(best) : Long.MAX_VALUE;
            for (int s = 0; s < samples; s++) {
                int port = candidates[offset + rng.nextInt(count)];
                long q = ports.queueBytes(port);
                if (q < bestQ) {
                    bestQ = q;
                    best = port;
                }
            }
            memory[g] = best;
            return best;
        }
    }
}
