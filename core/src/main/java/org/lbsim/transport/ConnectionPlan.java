package org.lbsim.transport;

import java.util.List;
import org.lbsim.spi.QpContext;

/**
 * The queue pairs of a run and how they start: a connection (one flow of the workload) is carried by
 * one or more queue pairs, may wait for other connections, and may follow an earlier message on a
 * persistent queue pair.
 *
 * @param qps               every queue pair; a connection may be carried by several
 * @param connectionOfQp    the connection each queue pair belongs to
 * @param startPsOfQp       when each queue pair starts sending (a dependent one: at the earliest)
 * @param connections       number of connections
 * @param depsOfConnection  the connections each connection waits for (null: every connection independent);
 *                          the graph must be acyclic
 * @param gapPsOfConnection the compute gap after a connection's last dependency completed, before it starts
 *                          (null with {@code depsOfConnection})
 * @param previousOnQp      for each queue pair, the queue pair of the previous message on the same persistent
 *                          queue pair, or -1; null when every message has its own queue pair. Together with the
 *                          dependencies the chains must be acyclic
 */
public record ConnectionPlan(List<QpContext> qps, int[] connectionOfQp, long[] startPsOfQp, int connections, int[][] depsOfConnection,
                             long[] gapPsOfConnection, int[] previousOnQp) {
    /** Independent connections, each message on its own queue pairs. */
    public static ConnectionPlan independent(List<QpContext> qps, int[] connectionOfQp, long[] startPsOfQp, int connections) {
        return new ConnectionPlan(qps, connectionOfQp, startPsOfQp, connections, null, null, null);
    }

    int qpCount() {
        return qps.size();
    }

    /** Whether queue pair {@code q}'s connection waits for others. */
    boolean dependent(int q) {
        return depsOfConnection != null && depsOfConnection[connectionOfQp[q]].length > 0;
    }
}
