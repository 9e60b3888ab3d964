package org.lbsim.lb.pro;

import java.util.function.IntConsumer;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;

/**
 * What PRO's cautious sender and the MPRDMA-style one share: a bitmap of acknowledged PSNs, the
 * sender RTO (80 us in PRO VI-A) restarted on cumulative progress or on any newly acknowledged PSN
 * ({@code rtoRestart}), and the timeout that presumes every unacknowledged PSN sent lost and rewinds
 * to the oldest one. Subclasses decide what to send and how ACKs and NACKs move their pointers.
 */
abstract class AckBitmapSender implements LossRecovery {
    final QpContext qp;
    private final long rtoPs;
    final boolean cumulativeRto;
    final ProCounters counters;
    private final long[] acked;
    int ackedCount;
    int nextNew;
    /** After a timeout: resend from here up to nextNew (skipping what is acknowledged, unless go-back-N); -1 = none. */
    int rewind = -1;
    long lastProgressPs;
    long retransmissions;
    long timeouts;

    AckBitmapSender(QpContext qp, long rtoPs, boolean cumulativeRto, ProCounters counters) {
        this.qp = qp;
        this.rtoPs = rtoPs;
        this.cumulativeRto = cumulativeRto;
        this.counters = counters;
        this.acked = new long[(qp.packets() + 63) >>> 6];
    }

    final boolean isAcked(int psn) {
        return (acked[psn >>> 6] & 1L << psn) != 0;
    }

    final boolean markAcked(int psn) {
        if (psn < 0 || psn >= qp.packets() || isAcked(psn)) {
            return false;
        }
        acked[psn >>> 6] |= 1L << psn;
        ackedCount++;
        return true;
    }

    /** Every PSN below this one is acknowledged. */
    abstract int cumulativeAck();

    /** A timeout also ends whatever recovery the subclass was in. */
    void onTimeout() {
    }

    @Override
    public final boolean complete() {
        return ackedCount >= qp.packets();
    }

    @Override
    public final long timerDeadlinePs() {
        return !complete() && nextNew > ackedCount ? lastProgressPs + rtoPs : Long.MAX_VALUE;
    }

    @Override
    public final boolean onTimer(long nowPs, IntConsumer lost) {
        if (complete()) {
            return false;
        }
        timeouts++;
        counters.senderTimeouts++;
        int from = cumulativeAck();
        for (int p = from; p < nextNew; p++) {
            if (!isAcked(p)) {
                lost.accept(p);
            }
        }
        rewind = from;
        onTimeout();
        lastProgressPs = nowPs;
        return true;
    }

    @Override
    public final long inflightBytes() {
        return (long) Math.max(0, nextNew - ackedCount) * qp.mtuBytes();
    }

    @Override
    public final long retransmissions() {
        return retransmissions;
    }

    @Override
    public final long timeouts() {
        return timeouts;
    }
}
