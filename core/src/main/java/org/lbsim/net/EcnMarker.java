package org.lbsim.net;

import java.util.SplittableRandom;

/** RED-style marking decision on enqueue, from the queue length the packet finds. */
public final class EcnMarker {
    private final boolean enabled;
    private final long kminBytes;
    private final long kmaxBytes;
    private final double pmax;

    public EcnMarker(boolean enabled, long kminBytes, long kmaxBytes, double pmax) {
        this.enabled = enabled;
        this.kminBytes = kminBytes;
        this.kmaxBytes = kmaxBytes;
        this.pmax = pmax;
    }

    public static EcnMarker off() {
        return new EcnMarker(false, 0, 0, 0);
    }

    boolean shouldMark(long queueBytes, SplittableRandom rng) {
        if (!enabled || queueBytes <= kminBytes) {
            return false;
        }
        if (queueBytes > kmaxBytes) {
            return true;
        }
        double p = pmax * (queueBytes - kminBytes) / (double) (kmaxBytes - kminBytes);
        return rng.nextDouble() < p;
    }
}
