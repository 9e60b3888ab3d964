package org.lbsim.transport;

import java.util.Arrays;

/**
 * Which queue pairs and connections completed, and when; which connections the run waits for.
 * A connection completes when the last of its queue pairs does.
 */
final class ConnectionProgress {
    private final int[] connectionOfQp;
    private final int[] qpsLeft;
    private final long[] connectionDonePs;
    private int completedQps;
    private long lastCompletionPs;
    private int connectionsLeft;
    /** Per connection: cut when the others complete instead of awaited (null: every connection is awaited). */
    private boolean[] lastsForeground;

    ConnectionProgress(int[] connectionOfQp, int connections) {
        this.connectionOfQp = connectionOfQp.clone();
        qpsLeft = new int[connections];
        for (int c : connectionOfQp) {
            qpsLeft[c]++;
        }
        connectionDonePs = new long[connections];
        Arrays.fill(connectionDonePs, -1);
        connectionsLeft = connections;
    }

    int connectionOf(int qp) {
        return connectionOfQp[qp];
    }

    int connectionCount() {
        return qpsLeft.length;
    }

    /** Queue pair {@code qp} completed at {@code nowPs}; returns whether that completed its connection. */
    boolean qpCompleted(int qp, long nowPs) {
        completedQps++;
        int c = connectionOfQp[qp];
        if (awaited(c)) {
            lastCompletionPs = Math.max(lastCompletionPs, nowPs);
        }
        return --qpsLeft[c] == 0;
    }

    /** Queue pair {@code qp} completes at once with nothing to send (left out of its connection's data). */
    void qpLeftOut(int qp) {
        completedQps++;
        qpsLeft[connectionOfQp[qp]]--;
    }

    /** Connection {@code c} completed at {@code nowPs}; returns whether it was the last one the run waits for. */
    boolean connectionCompleted(int c, long nowPs) {
        connectionDonePs[c] = nowPs;
        return awaited(c) && --connectionsLeft == 0;
    }

    /** See {@link Transport#lastsForeground}. */
    void lastsForeground(int c) {
        if (lastsForeground == null) {
            lastsForeground = new boolean[qpsLeft.length];
        }
        if (!lastsForeground[c]) {
            lastsForeground[c] = true;
            connectionsLeft--;
        }
        if (connectionsLeft == 0) {
            throw new IllegalStateException("every connection lasts as long as the others: nothing would end the run");
        }
    }

    /** Whether the run waits for connection {@code c} (it does not for one that lasts as long as the others). */
    private boolean awaited(int c) {
        return lastsForeground == null || !lastsForeground[c];
    }

    boolean foregroundDone() {
        return connectionsLeft == 0;
    }

    long connectionDonePs(int c) {
        return connectionDonePs[c];
    }

    int completedQps() {
        return completedQps;
    }

    long lastCompletionPs() {
        return lastCompletionPs;
    }
}
