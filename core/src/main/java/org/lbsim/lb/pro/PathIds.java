package org.lbsim.lb.pro;

/**
 * PRO V, Fig. 6: the PathID in the low 12 bits of the UDP source port; its low 6 bits name the
 * source ToR's uplink, its high 6 bits the Aggr switch's downlink to the destination ToR. Paths of
 * a destination path set are numbered 0 .. M-1 (M = uplinks x downlinks per ToR pair) so that
 * consecutive numbers change the ToR uplink first: a round robin over them spreads the uplinks.
 */
public final class PathIds {
    /** Bits of the ToR-uplink field (PRO V: "the lower 6 bits ... ToR egress ports"). */
    public static final int TOR_BITS = 6;
    public static final int TOR_MASK = (1 << TOR_BITS) - 1;
    /** The Aggr-downlink field, bits 6..11. */
    public static final int AGGR_MASK = TOR_MASK << TOR_BITS;
    /** Largest number of ports either field can name. */
    public static final int MAX_PORTS = 1 << TOR_BITS;

    private PathIds() {
    }

    /** The PathID of (ToR uplink index, Aggr downlink index). */
    public static int of(int torUplink, int aggrDownlink) {
        return aggrDownlink << TOR_BITS | torUplink;
    }

    public static int torUplink(int pathId) {
        return pathId & TOR_MASK;
    }

    public static int aggrDownlink(int pathId) {
        return (pathId & AGGR_MASK) >>> TOR_BITS;
    }

    /** The PathID of path number {@code index} in a set of {@code uplinks} x downlinks paths. */
    public static int ofIndex(int index, int uplinks) {
        return of(index % uplinks, index / uplinks);
    }
}
