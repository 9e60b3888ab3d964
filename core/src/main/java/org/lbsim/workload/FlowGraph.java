package org.lbsim.workload;

import java.util.List;

/** Checks and orders the dependency graph of a list of flows. */
public final class FlowGraph {
    private FlowGraph() {
    }

    /** A graph that cannot run: names the flow (by index) and the problem. */
    public static final class BadGraphException extends RuntimeException {
        private final int flow;

        BadGraphException(int flow, String problem) {
            super(problem, null, false, false);
            this.flow = flow;
        }

        /** Index of the flow at fault. */
        public int flow() {
            return flow;
        }
    }

    /**
     * The flows in an order where every flow comes after its dependencies (Kahn, stable: ready flows in index
     * order). Throws if a dependency is out of range, a flow waits for itself or the graph has a cycle.
     */
    public static int[] topologicalOrder(List<Flow> flows) {
        int n = flows.size();
        int[] indegree = new int[n];
        int[] from = new int[n + 1];
        for (int i = 0; i < n; i++) {
            for (int d : flows.get(i).deps()) {
                if (d < 0 || d >= n) {
                    throw new BadGraphException(i, "waits for flow " + d + ", which does not exist (flows are 0.." + (n - 1) + ")");
                }
                if (d == i) {
                    throw new BadGraphException(i, "waits for itself");
                }
                indegree[i]++;
                from[d + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            from[i + 1] += from[i];
        }
        int[] next = new int[from[n]];
        int[] fill = java.util.Arrays.copyOf(from, n);
        for (int i = 0; i < n; i++) {
            for (int d : flows.get(i).deps()) {
                next[fill[d]++] = i;
            }
        }
        int[] order = new int[n];
        int head = 0;
        int tail = 0;
        for (int i = 0; i < n; i++) {
            if (indegree[i] == 0) {
                order[tail++] = i;
            }
        }
        while (head < tail) {
            int f = order[head++];
            for (int k = from[f]; k < from[f + 1]; k++) {
                if (--indegree[next[k]] == 0) {
                    order[tail++] = next[k];
                }
            }
        }
        if (tail < n) {
            for (int i = 0; i < n; i++) {
                if (indegree[i] > 0) {
                    throw new BadGraphException(i, "is on a dependency cycle (" + (n - tail) + " flows can never start)");
                }
            }
        }
        return order;
    }
}
