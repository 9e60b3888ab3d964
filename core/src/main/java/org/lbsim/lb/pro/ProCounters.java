package org.lbsim.lb.pro;

/** Run totals of one PRO scheme instance, reported at the end of the run. */
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
}
