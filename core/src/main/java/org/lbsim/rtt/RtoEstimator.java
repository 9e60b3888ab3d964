package org.lbsim.rtt;

/**
 * A retransmission timeout from RTT samples, RFC 6298 2.2-2.3: alpha 1/8, beta 1/4, K 4, no clock
 * granularity, never below a floor. Until the first sample the RTO is the initial value given.
 */
public final class RtoEstimator {
    private final long minRtoPs;
    private long rtoPs;
    private long srttPs = -1;
    private long rttvarPs;

    public RtoEstimator(long minRtoPs, long initialRtoPs) {
        this.minRtoPs = minRtoPs;
        this.rtoPs = initialRtoPs;
    }

    public void sample(long rttPs) {
        if (srttPs < 0) {
            srttPs = rttPs;
            rttvarPs = rttPs / 2;
        } else {
            rttvarPs = (3 * rttvarPs + Math.abs(srttPs - rttPs)) / 4;
            srttPs = (7 * srttPs + rttPs) / 8;
        }
        rtoPs = Math.max(minRtoPs, srttPs + 4 * rttvarPs);
    }

    public long rtoPs() {
        return rtoPs;
    }
}
