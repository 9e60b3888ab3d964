package org.lbsim.lb.dnlb;

import org.lbsim.topology.Fib;

/**
 * Which leaf uplinks the collective library knows to be out of service. Hosts learn of a failure
 * when routing has converged around it (detection delay + convergence, {@code failures}): an uplink
 * that no route of its leaf uses any more is down. {@link #version()} changes with every change, so
 * queue pairs re-check only then.
 */
final class UplinkHealth {
    private final LeafPlan plan;
    private final boolean[][] down;
    private int version;
    private long changes;

    /** The state under the routes of the run's start ({@code initial}, links failed from time zero included). */
    UplinkHealth(LeafPlan plan, Fib initial) {
        this.plan = plan;
        this.down = new boolean[plan.leafCount()][];
        for (int l = 0; l < plan.leafCount(); l++) {
            down[l] = new boolean[plan.uplinkCount(l)];
        }
        update(initial);
        changes = 0;
    }

    /** Reads the uplinks' state off the routes in force; returns whether anything changed. */
    boolean update(Fib fib) {
        boolean changed = false;
        int hosts = plan.topology().hostCount();
        int[] ports = fib.groupPorts();
        for (int l = 0; l < plan.leafCount(); l++) {
            int node = plan.leafNode(l);
            boolean[] used = new boolean[plan.uplinkCount(l)];
            for (int h = 0; h < hosts; h++) {
                if (plan.leafOfHost(h) == l) {
                    continue;
                }
                int g = fib.group(node, h);
                for (int i = fib.groupOffset(g); i < fib.groupOffset(g) + fib.groupSize(g); i++) {
                    for (int n = 0; n < used.length; n++) {
                        used[n] |= ports[i] == plan.uplink(l, n);
                    }
                }
            }
            for (int n = 0; n < used.length; n++) {
                if (down[l][n] == used[n]) {
                    down[l][n] = !used[n];
                    changed = true;
                }
            }
        }
        if (changed) {
            version++;
            changes++;
        }
        return changed;
    }

    boolean isDown(int leaf, int uplink) {
        return down[leaf][uplink];
    }

    int version() {
        return version;
    }

    /** Times the known state changed during the run (after the initial routes). */
    long changes() {
        return changes;
    }
}
