package org.lbsim.transport;

import java.util.Arrays;

/**
 * Which connections wait for which, and which queue pairs carry each connection, as CSR arrays. A
 * connection keeps a count of its unfinished dependencies and a list of its dependents, so a
 * completion costs O(1) per dependency edge.
 */
final class ConnectionGraph {
    private final int[] depsLeft;
    private final int[] dependentsFrom;
    private final int[] dependents;
    private final long[] gapPsOf;
    private final long[] earliestStartPsOf;
    private final int[] qpsFrom;
    private final int[] qpsOfConnection;

    /**
     * @param depsOfConnection  the connections each connection waits for (null: every connection independent);
     *                          the graph must be acyclic
     * @param gapPsOfConnection the compute gap after a connection's last dependency completed, before it starts
     */
    ConnectionGraph(int connections, int[] connectionOfQp, long[] startPsOfQp, int[][] depsOfConnection, long[] gapPsOfConnection) {
        int n = connectionOfQp.length;
        depsLeft = new int[connections];
        gapPsOf = new long[connections];
        earliestStartPsOf = new long[connections];
        dependentsFrom = new int[connections + 1];
        qpsFrom = new int[connections + 1];
        for (int i = 0; i < n; i++) {
            qpsFrom[connectionOfQp[i] + 1]++;
            earliestStartPsOf[connectionOfQp[i]] = startPsOfQp[i];
        }
        int edges = 0;
        if (depsOfConnection != null) {
            for (int c = 0; c < connections; c++) {
                int[] deps = depsOfConnection[c];
                depsLeft[c] = deps.length;
                gapPsOf[c] = gapPsOfConnection[c];
                for (int d : deps) {
                    dependentsFrom[d + 1]++;
                    edges++;
                }
            }
        }
        for (int c = 0; c < connections; c++) {
            dependentsFrom[c + 1] += dependentsFrom[c];
            qpsFrom[c + 1] += qpsFrom[c];
        }
        dependents = new int[edges];
        int[] fill = Arrays.copyOf(dependentsFrom, connections);
        if (depsOfConnection != null) {
            for (int c = 0; c < connections; c++) {
                for (int d : depsOfConnection[c]) {
                    dependents[fill[d]++] = c;
                }
            }
        }
        qpsOfConnection = new int[n];
        int[] qpFill = Arrays.copyOf(qpsFrom, connections);
        for (int i = 0; i < n; i++) {
            qpsOfConnection[qpFill[connectionOfQp[i]]++] = i;
        }
    }

    /** Whether connection {@code c} has no unfinished dependency (before the run: whether it is independent). */
    boolean ready(int c) {
        return depsLeft[c] == 0;
    }

    /** One dependency of connection {@code d} completed; returns whether that was its last. */
    boolean dependencyDone(int d) {
        return --depsLeft[d] == 0;
    }

    /** Connection {@code c}'s dependents are {@link #dependent}(k) for k in [dependentsFrom(c), dependentsFrom(c + 1)). */
    int dependentsFrom(int c) {
        return dependentsFrom[c];
    }

    int dependent(int k) {
        return dependents[k];
    }

    /** When connection {@code c} may start at the earliest, after its last dependency completed at {@code nowPs}. */
    long startPsAfter(int c, long nowPs) {
        return Math.max(earliestStartPsOf[c], nowPs + gapPsOf[c]);
    }

    long earliestStartPs(int c) {
        return earliestStartPsOf[c];
    }

    /** Connection {@code c}'s queue pairs are {@link #qp}(k) for k in [qpsFrom(c), qpsFrom(c + 1)). */
    int qpsFrom(int c) {
        return qpsFrom[c];
    }

    int qp(int k) {
        return qpsOfConnection[k];
    }
}
