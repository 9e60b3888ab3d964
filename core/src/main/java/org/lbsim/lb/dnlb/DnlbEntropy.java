package org.lbsim.lb.dnlb;

import org.lbsim.lb.EntropyPolicy;

/**
 * The source port of one DNLB queue pair (CTCCL 3.2, Eq. 3), with 3.3's fault avoidance: once the
 * library knows that the uplink of this queue pair's segment (or, across a virtual spine, the
 * destination leaf's link of the same virtual spine) is down, the queue pair's remaining data moves
 * to the working queue pairs of its connection, whose ports stay as they are. Moving data is
 * modelled on the wire: the remaining packets go out with the working siblings' source ports, dealt
 * over them in equal consecutive PSN blocks (one per working sibling), so each working path carries
 * an equal share and reordering is limited to the block boundaries. The NICs of a leaf start their
 * rotations at different siblings (by NIC index), so that at any moment the moved queue pairs of a
 * leaf are spread over the working uplinks rather than all on the same one. Packets sent before the
 * move that are resent take the first working port of the rotation.
 */
final class DnlbEntropy implements EntropyPolicy {
    private static final int[] NONE = new int[0];

    private final int ownPort;
    /** Eq. 3 port and segment of every queue pair of the connection, by q. */
    private final int[] siblingPorts;
    private final int[] siblingSegments;
    private final int q;
    private final int srcLeaf;
    /** Leaf whose link of the same virtual spine the path also uses, -1 when none is coupled. */
    private final int dstLeaf;
    private final int packets;
    private final int rotation;
    private final UplinkHealth health;
    private final Dnlb.Tally tally;
    private int seenVersion;
    private int maxPsn = -1;
    private int fromPsn;
    private int[] movedTo = NONE;
    private int moved;

    DnlbEntropy(int[] siblingPorts, int[] siblingSegments, int q, int srcLeaf, int dstLeaf, int packets, int rotation,
                UplinkHealth health, Dnlb.Tally tally) {
        this.rotation = rotation;
        this.siblingPorts = siblingPorts;
        this.siblingSegments = siblingSegments;
        this.q = q;
        this.ownPort = siblingPorts[q];
        this.srcLeaf = srcLeaf;
        this.dstLeaf = dstLeaf;
        this.packets = packets;
        this.health = health;
        this.tally = tally;
        this.seenVersion = health.version() - 1; // check the known state once, at the first packet
    }

    @Override
    public int entropyFor(int psn, boolean retransmission) {
        if (psn > maxPsn) {
            maxPsn = psn;
        }
        if (seenVersion != health.version()) {
            refresh(psn);
        }
        if (moved == 0) {
            return ownPort;
        }
        int block = psn < fromPsn ? 0 : Math.min((int) ((long) (psn - fromPsn) * moved / Math.max(1, packets - fromPsn)), moved - 1);
        return movedTo[(block + rotation) % moved];
    }

    private boolean pathDown(int segment) {
        return health.isDown(srcLeaf, segment) || dstLeaf >= 0 && health.isDown(dstLeaf, segment);
    }

    /** The known uplink state changed: move this queue pair's remaining data off a failed path, or back. */
    private void refresh(int psn) {
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
        movedTo = java.util.Arrays.copyOf(working, n);
        moved = n;
        fromPsn = psn == maxPsn ? psn : maxPsn + 1; // the first new packet moves; earlier ones resent take movedTo[0]
    }

    /** Whether this queue pair's data currently goes out with its working siblings' ports. */
    boolean moved() {
        return moved > 0;
    }
}
