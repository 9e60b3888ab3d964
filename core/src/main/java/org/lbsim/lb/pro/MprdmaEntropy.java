package org.lbsim.lb.pro;

import java.util.random.RandomGenerator;
import org.lbsim.spi.EntropyPolicy;

/**
 * The path choice of the MPRDMA-style baseline (PRO VI-A: "MPRDMA selects packet sending path to
 * control the amount of out-of-order arrival packets"; MP-RDMA, NSDI '18, out-of-order aware path
 * selection). Packets follow PRO's orchestrated round robin (the same {@link PathSet}), so that the
 * comparison isolates loss recovery; on top of it, a path whose ACK came back more than Delta PSNs
 * behind the highest PSN acknowledged is slow: MP-RDMA does not let such an ACK clock a packet onto
 * its virtual path and sends on a freshly drawn one instead. Here the next packet the round robin
 * puts on a slow path goes to a path drawn at random (the mark is then spent). With MP-RDMA's own
 * window ({@code mprdmaWindow: ack-clocked}) the round robin is not used: every packet goes on the
 * path of the ACK that released it ({@link MprdmaWindow}).
 */
final class MprdmaEntropy implements EntropyPolicy {
    private final PathSet set;
    private final PathSet.Cursor cursor;
    private final int[] pathIdOfIndex;
    private final int[] indexOfPathId;
    private final boolean[] slow;
    private final RandomGenerator rng;
    private final ProCounters counters;
    private final boolean avoidSlowPaths;
    /** MP-RDMA's ACK clocking: each packet goes on the path its release names; null = PRO's round robin. */
    private MprdmaWindow window;

    /**
     * @param set           the queue pair's path set (a one-path set with PathID 0 for a queue pair that stays under its ToR)
     * @param indexOfPathId path index of every 12-bit PathID (-1 where none)
     * @param avoidSlowPaths false = late ACKs mark nothing and every packet keeps the round robin's path
     */
    MprdmaEntropy(PathSet set, int[] pathIdOfIndex, int[] indexOfPathId, RandomGenerator rng, ProCounters counters, boolean avoidSlowPaths) {
        this.set = set;
        this.cursor = set.newCursor();
        this.pathIdOfIndex = pathIdOfIndex;
        this.indexOfPathId = indexOfPathId;
        this.slow = new boolean[pathIdOfIndex.length];
        this.rng = rng;
        this.counters = counters;
        this.avoidSlowPaths = avoidSlowPaths;
    }

    /** Packets take their paths from {@code w}'s releases (MP-RDMA's ACK clocking) instead of the round robin. */
    void clockedBy(MprdmaWindow w) {
        this.window = w;
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        if (window != null) {
            int pathId = window.take();
            return pathId == MprdmaWindow.RANDOM ? pathIdOfIndex[rng.nextInt(pathIdOfIndex.length)] : pathId;
        }
        int path = set.next(cursor);
        if (slow[path]) {
            slow[path] = false;
            path = rng.nextInt(pathIdOfIndex.length); // MP-RDMA: a new virtual path instead of the slow one
            counters.mprdmaRepaths++;
        }
        return pathIdOfIndex[path];
    }

    /** An ACK for a packet that carried {@code pathId} came back late (more than Delta behind the highest PSN acknowledged). */
    void slow(int pathId) {
        int path = indexOfPathId[pathId & (indexOfPathId.length - 1)];
        if (avoidSlowPaths && path >= 0 && !slow[path]) {
            slow[path] = true;
            counters.mprdmaSlowMarks++;
        }
    }

    boolean isSlow(int pathId) {
        int path = indexOfPathId[pathId & (indexOfPathId.length - 1)];
        return path >= 0 && slow[path];
    }

    /** The queue pair completed: it leaves its set's active list. */
    void finished() {
        set.leave(cursor);
    }
}
