package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * OFAN (OFAN section 7, App. F): destination-based rotation inside switches with consolidation.
 * A switch keeps one round-robin pointer per (mandatory destination waypoint, packet class): an
 * edge switch per destination edge switch, an aggregation switch per destination pod (the
 * destination aggregation switch is then fixed). Each pointer starts at a random port and walks
 * its own random traversal order. Data and ACKs are separate classes. Under failures (once routes
 * have converged), each pointer walks an interleaved weighted round-robin schedule of its
 * reachable ports with W-ECMP weights (number of paths behind each port) reduced by their gcd
 * (App. F.4); the FIB-only variant gives every reachable port weight 1. Hosts keep one entropy per
 * queue pair, which OFAN ignores.
 */
public final class Ofan implements LoadBalancer {
    public record Params(
            @Doc("under failures weight ports by W-ECMP (paths behind each port, gcd-reduced); false = FIB-only variant, every reachable port once") boolean weighted) {
    }

    private final boolean weighted;

    public Ofan(Params p) {
        this.weighted = p.weighted();
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return EntropyPolicy.randomFixed(host);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new Selector(sw, weighted);
    }

    static final class Selector implements PortSelector {
        private final Topology topology;
        private final int node;
        private final int tier;
        private final SplittableRandom rng;
        private final boolean weighted;
        private Fib fib;
        /** Per pointer (key * 2 + class): its schedule of candidate indices, and its position. */
        private int[][] schedule;
        private int[] position;
        private int[] scheduleGroup;

        Selector(SwitchContext sw, boolean weighted) {
            this.topology = sw.topology();
            this.node = sw.node();
            this.tier = topology.tier(node);
            this.rng = sw.rng();
            this.weighted = weighted;
            onRoutingChange(sw.fib());
        }

        @Override
        public void onRoutingChange(Fib newFib) {
            this.fib = newFib;
            int keys = 2 * Math.max(topology.switchCount(), topology.podCount());
            schedule = new int[keys][];
            position = new int[keys];
            scheduleGroup = new int[keys];
        }

        /** Mandatory waypoint the pointer is kept for: the destination edge switch at an edge, the destination pod above. */
        private int key(int dst) {
            int dstEdge = topology.hostSwitch(dst);
            if (tier == 1 || topology.pod(dstEdge) < 0) {
                return dstEdge - topology.hostCount();
            }
            return topology.pod(dstEdge);
        }

        @Override
        public int select(Packet p, int group, int[] ports, int offset, int count) {
            int pointer = key(p.dst) * 2 + (p.kind == Packet.DATA ? 0 : 1);
            int[] sched = schedule[pointer];
            if (sched == null || scheduleGroup[pointer] != group) {
                sched = buildSchedule(group, count);
                schedule[pointer] = sched;
                scheduleGroup[pointer] = group;
                position[pointer] = rng.nextInt(sched.length); // random first port
            }
            int i = position[pointer];
            position[pointer] = i + 1 == sched.length ? 0 : i + 1;
            return ports[offset + sched[i]];
        }

        /**
         * A random traversal order of the candidates, expanded into an IWRR schedule by the group's
         * W-ECMP weights (App. F.4: paths behind each port, gcd-reduced, computed with the routes);
         * the FIB-only variant visits every reachable port once per round.
         */
        private int[] buildSchedule(int group, int count) {
            int[] order = new int[count];
            for (int i = 0; i < count; i++) {
                order[i] = i;
            }
            for (int i = count - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            if (!weighted || fib.uniform(group)) {
                return order;
            }
            int[] sched = new int[fib.totalWeight(group)];
            fib.iwrr(group, order, sched);
            return sched;
        }

        /** For tests: the number of pointers created so far. */
        int pointersInUse() {
            int n = 0;
            for (int[] s : schedule) {
                n += s == null ? 0 : 1;
            }
            return n;
        }
    }
}
