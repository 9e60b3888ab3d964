package org.lbsim.transport;

/**
 * Out-of-order degree of arriving data (PSN minus the receiver's expected PSN) as a log2
 * histogram, and the most out-of-order packets any receiver held at once.
 */
public final class OutOfOrderStats {
    /** Degrees counted exactly for quantiles (larger ones share the last slot). */
    public static final int EXACT_DEGREES = 4097;
    private final long[] log2Buckets = new long[33];
    /** Arrivals per exact degree 0 .. EXACT_DEGREES - 2; the last slot counts every larger degree (PRO VI-A percentiles). */
    private final long[] byDegree = new long[EXACT_DEGREES];
    private long samples;
    private long outOfOrder;
    private long maxDegree;
    private long maxHeld;
    private long heldNow;
    /** Of {@link #heldNow}, by the traffic class of the receiving queue pair. */
    private final long[] heldNowByClass = new long[64];

    void record(int degree, int held) {
        samples++;
        byDegree[Math.min(degree, EXACT_DEGREES - 1)]++;
        if (degree > 0) {
            outOfOrder++;
            log2Buckets[32 - Integer.numberOfLeadingZeros(degree)]++;
            maxDegree = Math.max(maxDegree, degree);
        } else {
            log2Buckets[0]++;
        }
        maxHeld = Math.max(maxHeld, held);
    }

    void held(int delta, int trafficClass) {
        heldNow += delta;
        heldNowByClass[trafficClass] += delta;
    }

    /** Out-of-order packets all receivers hold right now, together. */
    public long heldNow() {
        return heldNow;
    }

    /** Out-of-order packets the receivers of traffic class {@code trafficClass} (0-63) hold right now, together. */
    public long heldNow(int trafficClass) {
        return heldNowByClass[trafficClass];
    }

    /** Arrivals with degree in [2^(b-1), 2^b) for bucket b >= 1; bucket 0 counts in-order arrivals. */
    public long[] log2Histogram() {
        return log2Buckets.clone();
    }

    public long samples() {
        return samples;
    }

    public long arrivals() {
        return outOfOrder;
    }

    public long maxDegree() {
        return maxDegree;
    }

    /**
     * The {@code q}-quantile (0 < q <= 1) of the out-of-order degree over all data arrivals (0 = in
     * order), exact up to {@link #EXACT_DEGREES} - 2; 0 before any arrival.
     */
    public int degreeQuantile(double q) {
        return quantileFrom(0, q);
    }

    /** The {@code q}-quantile of the degree over out-of-order arrivals only (degree >= 1); 0 when there were none. */
    public int outOfOrderDegreeQuantile(double q) {
        return quantileFrom(1, q);
    }

    private int quantileFrom(int first, double q) {
        long total = 0;
        for (int d = first; d < byDegree.length; d++) {
            total += byDegree[d];
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int d = first; d < byDegree.length; d++) {
            seen += byDegree[d];
            if (seen >= rank && seen > 0) {
                return d;
            }
        }
        return 0;
    }

    /** Most out-of-order packets one receiver held at once (its reorder buffer). */
    public long maxHeld() {
        return maxHeld;
    }

    /** Adds {@code o}'s arrivals to these (a partitioned run's statistics, gathered at the end). */
    void add(OutOfOrderStats o) {
        for (int i = 0; i < log2Buckets.length; i++) {
            log2Buckets[i] += o.log2Buckets[i];
        }
        for (int i = 0; i < byDegree.length; i++) {
            byDegree[i] += o.byDegree[i];
        }
        samples += o.samples;
        outOfOrder += o.outOfOrder;
        maxDegree = Math.max(maxDegree, o.maxDegree);
        maxHeld = Math.max(maxHeld, o.maxHeld);
        heldNow += o.heldNow;
        for (int c = 0; c < heldNowByClass.length; c++) {
            heldNowByClass[c] += o.heldNowByClass[c];
        }
    }
}
