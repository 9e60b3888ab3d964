package org.lbsim.lb.dnlb;

/**
 * CTCCL 3.2's UDP source-port segmentation. RoCE source ports lie in [0xC000, 0xFFFF]; the leaf
 * ACLs cut that range into one equal segment per uplink (Eqs. 1-2) and the collective library gives
 * queue pair q of the NIC with index i the port of Eq. 3, so consecutive queue pairs of a leaf's NICs
 * land in consecutive segments.
 */
public final class PortSegments {
    /** Lowest RoCE UDP source port. */
    public static final int FIRST_PORT = 0xC000;
    /** Highest RoCE UDP source port. */
    public static final int LAST_PORT = 0xFFFF;
    /** Ports in the RoCE range: 0xFFFF - 0xC000 + 1. */
    public static final int RANGE = LAST_PORT - FIRST_PORT + 1;

    private PortSegments() {
    }

    /** Eq. 1: step = (0xFFFF - 0xC000 + 1) / nlink^up. */
    public static int step(int uplinks) {
        if (uplinks < 1 || uplinks > RANGE) {
            throw new IllegalArgumentException("uplinks must be between 1 and " + RANGE + ", got " + uplinks);
        }
        return RANGE / uplinks;
    }

    /** Eq. 2: first port of segment n, 0xC000 + n * step. */
    public static int segmentLow(int n, int uplinks) {
        return FIRST_PORT + n * step(uplinks);
    }

    /**
     * Eq. 2: last port of segment n. The paper's ACLs end each segment one port before the next
     * begins (49152-51199, 51200-53247, ...); the last segment runs to 0xFFFF, which also takes the
     * remainder when nlink^up does not divide 0x4000.
     */
    public static int segmentHigh(int n, int uplinks) {
        return n == uplinks - 1 ? LAST_PORT : FIRST_PORT + (n + 1) * step(uplinks) - 1;
    }

    /** The segment (= uplink, in the leaf's uplink order) a source port of the RoCE range falls in. */
    public static int segmentOf(int sport, int uplinks) {
        return Math.min((sport - FIRST_PORT) / step(uplinks), uplinks - 1);
    }

    /**
     * Eq. 3: sport = 0xC000 + ((index x nqp^per_conn + q) x step) % (0xFFFF - 0xC000 + 1).
     *
     * @param nicIndex  the NIC's index among the NICs of its leaf (its host number in the leaf's subnet)
     * @param qpsPerConnection nqp^per_conn
     * @param qp        q, the queue pair's index in its connection
     * @param uplinks   nlink^up of the NIC's leaf
     */
    public static int sourcePort(int nicIndex, int qpsPerConnection, int qp, int uplinks) {
        long slot = (long) nicIndex * qpsPerConnection + qp;
        return FIRST_PORT + (int) (slot * step(uplinks) % RANGE);
    }
}
