package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;

/**
 * Switch packet spraying by round robin, one pointer per next-hop group.
 * SWITCH PKT (OFAN 3.2 (5), after htsim): the visiting order of the group's ports is a random
 * permutation, drawn again every {@code permuteEvery} wrap-arounds to avoid synchronization; like
 * htsim's counter, the pointer is shared by data packets and ACKs.
 * SIMPLE RR (OFAN 6.1 (i)): the same with the order never permuted ({@code permuteEvery = 0}) and
 * with data packets and control packets (ACK, NACK, CNP) on separate pointers ({@code perClass}):
 * the two packet-size classes that OFAN's own round-robin pointers use in simulation (OFAN 7
 * "Implementation", HOST DR in 6.1). With one shared pointer, a host's ACKs interleaved with its
 * data (App. B mode 2) shift which uplink its data takes, and data and ACKs lock onto different
 * uplinks, whereas OFAN 7 / Fig. 7 report that SIMPLE RR balances the uplinks perfectly.
 * Under W-ECMP weights (after convergence, OFAN 5.2) each pointer walks an interleaved weighted
 * round-robin schedule of the order, in which each port appears as often as its weight.
 */
public final class SwitchRoundRobin implements LoadBalancer {
    public record Params(
            @Doc("draw a new visiting order every this many wrap-arounds; 0 = never (SIMPLE RR)") int permuteEvery,
            @Doc("separate pointers for data and for control packets (ACK/NACK/CNP) in each next-hop group; false = one pointer shared by all packets (htsim)") boolean perClass) {
        public Params {
            ScenarioException.require(permuteEvery >= 0, "permuteEvery", "must be >= 0 (0 = never permute), got " + permuteEvery);
        }
    }

    private final int permuteEvery;
    private final boolean perClass;

    public SwitchRoundRobin(Params p) {
        this.permuteEvery = p.permuteEvery();
        this.perClass = p.perClass();
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return EntropyPolicy.randomFixed(host);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new Selector(sw.node(), sw.fib(), sw.rng(), permuteEvery, perClass);
    }

    static final class Selector implements PortSelector {
        private final int node;
        private final SplittableRandom rng;
        private final int permuteEvery;
        /** Pointers per group: 2 (data, control) with per-class pointers, else 1. */
        private final int classes;
        private int[] pointer;
        private int[] wraps;
        private int[][] order;
        /** Per group: its IWRR schedule over {@code order} (OFAN App. F.4); the order itself when the weights are equal. */
        private int[][] schedule;
        private Fib fib;

        Selector(int node, Fib fib, SplittableRandom rng, int permuteEvery, boolean perClass) {
            this.node = node;
            this.rng = rng;
            this.permuteEvery = permuteEvery;
            this.classes = perClass ? 2 : 1;
            onRoutingChange(fib);
        }

        @Override
        public void onRoutingChange(Fib fib) {
            this.fib = fib;
            int groups = fib.groupsAt(node) * classes;
            pointer = new int[groups];
            wraps = new int[groups];
            order = new int[groups][];
            schedule = new int[groups][];
        }

        @Override
        public int select(Packet p, int group, int[] ports, int offset, int count) {
            // with perClass, data and control packets have a pointer each (OFAN 7: two packet-size classes)
            int g = fib.localGroup(group) * classes + (classes == 2 && p.kind != Packet.DATA ? 1 : 0);
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
