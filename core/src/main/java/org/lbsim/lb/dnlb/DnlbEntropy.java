package org.lbsim.lb.dnlb;

import org.lbsim.spi.EntropyPolicy;

/**
 * The source port of one DNLB queue pair (CTCCL 3.2, Eq. 3), with 3.3's fault avoidance: once the
 * library knows that the uplink of this queue pair's segment (or, across a virtual spine, the
 * destination leaf's link of the same virtual spine) is down, the queue pair's remaining data moves
 * to a working queue pair of its connection, whose port stays as it is. Moving data is modelled on
 * the wire: the remaining packets go out with that working sibling's source port, so they follow its
 * path in order. The NICs of a leaf pick different siblings (the NIC index modulo the working ones),
 * so the moved data of a leaf's NICs spreads over the working uplinks. (Dealing one queue pair's
 * packets over several paths would reorder them, which commodity RNICs answer with go-back-N.)
 */
final class DnlbEntropy implements EntropyPolicy {
    private final int ownPort;
    /** Eq. 3 port and segment of every queue pair of the connection, by q. */
    private final int[] siblingPorts;
    private final int[] siblingSegments;
    private final int q;
    private final int srcLeaf;
    /** Leaf whose link of the same virtual spine the path also uses, -1 when none is coupled. */
    private final int dstLeaf;
    private final int rotation;
    private final UplinkHealth health;
    private final Dnlb.Tally tally;
    private int seenVersion;
    private int movedTo;
    private int moved;

    DnlbEntropy(int[] siblingPorts, int[] siblingSegments, int q, int srcLeaf, int dstLeaf, int rotation,
                UplinkHealth health, Dnlb.Tally tally) {
        this.rotation = rotation;
        this.siblingPorts = siblingPorts;
        this.siblingSegments = siblingSegments;
        this.q = q;
        this.ownPort = siblingPorts[q];
        this.srcLeaf = srcLeaf;
        this.dstLeaf = dstLeaf;
        this.health = health;
        this.tally = tally;
        this.seenVersion = health.version() - 1; // check the known state once, at the first packet
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        if (seenVersion != health.version()) {
            refresh();
        }
        return moved == 0 ? ownPort : movedTo;
    }

    private boolean pathDown(int segment) {
        return health.isDown(srcLeaf, segment) || dstLeaf >= 0 && health.isDown(dstLeaf, segment);
    }

    /** The known uplink state changed: move this queue pair's remaining data off a failed path, or back. */
    private void refresh() {
        seenVersion = health.version();
        if (!pathDown(siblingSegments[q])) {
            moved = 0;
            return;
        }
        int[] working = new int[siblingPorts.length];
        int n = 0;
        for (int s = 0; s < siblingPorts.length; s++) {
            if (s != q && !pathDown(siblingSegments[s])) {
                working[n++] = siblingPorts[s];
            }
        }
        if (n == 0) {
            moved = 0; // no working queue pair left: stay, the switches fall back to their routes
            return;
        }
        if (moved == 0) {
            tally.movedQueuePairs++;
        }
        movedTo = working[rotation % n];
        moved = n;
    }

    /** Whether this queue pair's data currently goes out with its working siblings' ports. */
    boolean moved() {
        return moved > 0;
    }
}
