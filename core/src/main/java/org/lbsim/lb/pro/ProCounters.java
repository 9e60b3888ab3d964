package org.lbsim.lb.pro;

/** Totals of one PRO scheme instance in one partition of the run ({@link org.lbsim.spi.PerPartition}), summed when reported. */
final class ProCounters {
    long nacks;
    long repeats;
    long timeouts;
    long senderTimeouts;
    /** MPRDMA-style baseline: recovery episodes entered, bitmap-full stalls, late ACKs that marked a path slow, packets moved off a slow path. */
    long mprdmaRecoveries;
    long mprdmaBitmapStalls;
    long mprdmaSlowMarks;
    long mprdmaRepaths;
    /** MPRDMA-style baseline with mprdmaBeyondBitmap 'drop': data the receiver dropped because it lay at or beyond rcv_nxt + L (each answered with a NACK). */
    long mprdmaBitmapDrops;
    /** MPRDMA-style baseline with mprdmaWindow 'ack-clocked': ACKs with ECN echo (each cut the window by half a packet), late ACKs whose virtual path was pruned. */
    long mprdmaEcnCuts;
    long mprdmaPrunedAcks;

    /** The sum of {@code parts}. */
    static ProCounters sum(java.util.List<ProCounters> parts) {
        ProCounters t = new ProCounters();
        for (ProCounters c : parts) {
            t.nacks += c.nacks;
            t.repeats += c.repeats;
            t.timeouts += c.timeouts;
            t.senderTimeouts += c.senderTimeouts;
            t.mprdmaRecoveries += c.mprdmaRecoveries;
            t.mprdmaBitmapStalls += c.mprdmaBitmapStalls;
            t.mprdmaSlowMarks += c.mprdmaSlowMarks;
            t.mprdmaRepaths += c.mprdmaRepaths;
            t.mprdmaBitmapDrops += c.mprdmaBitmapDrops;
            t.mprdmaEcnCuts += c.mprdmaEcnCuts;
            t.mprdmaPrunedAcks += c.mprdmaPrunedAcks;
        }
        return t;
    }
}
