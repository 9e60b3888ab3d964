package org.lbsim.lb.pro;

import org.lbsim.spi.EntropyPolicy;

/**
 * PRO III-A at the sending RNIC for one queue pair: each data packet (retransmissions too) takes the
 * next path of the queue pair's destination path set by Algorithm 1 and carries its PathID in the
 * UDP source port. Queue pairs whose peer is under the same ToR carry PathID 0 (no path to choose).
 */
final class ProEntropy implements EntropyPolicy {
    private final PathSet set;
    private final PathSet.Cursor cursor;
    private final int[] pathIdOfIndex;

    /** @param set null for a queue pair that stays under its ToR */
    ProEntropy(PathSet set, int[] pathIdOfIndex) {
        this.set = set;
        this.cursor = set == null ? null : set.newCursor();
        this.pathIdOfIndex = pathIdOfIndex;
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        return set == null ? 0 : pathIdOfIndex[set.next(cursor)];
    }

    /** The queue pair completed: it leaves its set's active list. */
    void finished() {
        if (set != null) {
            set.leave(cursor);
        }
    }
}
