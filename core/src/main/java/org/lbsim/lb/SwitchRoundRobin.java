package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Fib;

/**
 * Switch packet spraying by round robin, one pointer per next-hop group.
 * SWITCH_PKT (OFAN 3.2 (5), after htsim): the visiting order of the group's ports is a random
 * permutation, drawn again every {@code permuteEvery} wrap-arounds to avoid synchronization.
 * SIMPLE_RR (OFAN 6.1 (i)): the same with the order never permuted ({@code permuteEvery = 0}).
 * Under W-ECMP weights (after convergence, OFAN 5.2) the pointer walks an interleaved weighted
 * round-robin schedule of the order, in which each port appears as often as its weight.
 */
public final class SwitchRoundRobin implements LoadBalancer {
    public record Params(@Doc("draw a new visiting order every this many wrap-arounds; 0 = never (SIMPLE_RR)") int permuteEvery) {
        public Params {
            ScenarioException.require(permuteEvery >= 0, "permuteEvery", "must be >= 0 (0 = never permute), got " + permuteEvery);
        }
    }

    private final int permuteEvery;

    public SwitchRoundRobin(Params p) {
        this.permuteEvery = p.permuteEvery();
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return new FixedEntropy(host);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new Selector(sw.node(), sw.fib(), sw.rng(), permuteEvery);
    }

    static final class Selector implements PortSelector {
        private final int node;
        private final SplittableRandom rng;
        private final int permuteEvery;
        private int[] pointer;
        private int[] wraps;
        private int[][] order;
        /** Per group: its IWRR schedule over {@code order} (OFAN App. F.4); the order itself when the weights are equal. */
        private int[][] schedule;
        private Fib fib;

        Selector(int node, Fib fib, SplittableRandom rng, int permuteEvery) {
            this.node = node;
            this.rng = rng;
            this.permuteEvery = permuteEvery;
            onRoutingChange(fib);
        }

        @Override
        public void onRoutingChange(Fib fib) {
            this.fib = fib;
            int groups = fib.groupsAt(node);
            pointer = new int[groups];
            wraps = new int[groups];
            order = new int[groups][];
            schedule = new int[groups][];
        }

        @Override
        public int select(Packet p, int group, int[] ports, int offset, int count) {
            int g = fib.localGroup(group);
            int[] ord = order[g];
            if (ord == null || ord.length != count) {
                ord = new int[count];
                for (int i = 0; i < count; i++) {
                    ord[i] = i;
                }
                if (permuteEvery > 0) {
                    shuffle(ord);
                }
                order[g] = ord;
                // W-ECMP after convergence (OFAN 5.2): each port as often per round as its weight
                if (fib.uniform(group)) {
                    schedule[g] = ord;
                } else {
                    schedule[g] = new int[fib.totalWeight(group)];
                    fib.iwrr(group, ord, schedule[g]);
                }
                pointer[g] = rng.nextInt(schedule[g].length);
            }
            int[] sched = schedule[g];
            int i = pointer[g];
            int chosen = ports[offset + sched[i]];
            if (++i == sched.length) {
                i = 0;
                if (permuteEvery > 0 && ++wraps[g] == permuteEvery) {
                    wraps[g] = 0;
                    shuffle(ord);
                    if (sched != ord) {
                        fib.iwrr(group, ord, sched);
                    }
                }
            }
            pointer[g] = i;
            return chosen;
        }

        private void shuffle(int[] a) {
            for (int i = a.length - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int t = a[i];
                a[i] = a[j];
                a[j] = t;
            }
        }
    }
}
