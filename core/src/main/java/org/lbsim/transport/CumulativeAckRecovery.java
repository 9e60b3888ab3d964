package org.lbsim.transport;

import java.util.function.IntConsumer;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;

/**
 * What go-back-N and NIC selective repeat share: a cumulative acknowledgement point, a
 * retransmission timer that runs from the last progress while anything sent is unacknowledged,
 * and a timeout that presumes every outstanding PSN lost and rewinds to the oldest of them.
 * Subclasses say where sending stands ({@link #sentEnd}) and how they rewind ({@link #rewind}).
 */
abstract class CumulativeAckRecovery implements LossRecovery {
    protected final QpContext qp;
    private final long rtoPs;
    /** Every PSN below has been acknowledged. */
    protected int acked;
    protected long lastProgressPs;
    protected long retransmissions;
    private long timeouts;

    CumulativeAckRecovery(QpContext qp, long rtoPs) {
        this.qp = qp;
        this.rtoPs = rtoPs;
    }

    /** One past the highest PSN sent so far. */
    protected abstract int sentEnd();

    /** After a timeout: send again from {@link #acked}. */
    protected abstract void rewind();

    /** Moves the acknowledgement point forward; returns whether it moved. */
    protected final boolean advance(int cumAck, long nowPs) {
        if (cumAck > acked) {
            acked = cumAck;
            lastProgressPs = nowPs;
            return true;
        }
        return false;
    }

    @Override
    public final boolean complete() {
        return acked >= qp.packets();
    }

    @Override
    public final long timerDeadlinePs() {
        return !complete() && sentEnd() > acked ? lastProgressPs + rtoPs : Long.MAX_VALUE;
    }

    @Override
    public final boolean onTimer(long nowPs, IntConsumer lost) {
        if (complete()) {
            return false;
        }
        timeouts++;
        for (int p = acked, end = sentEnd(); p < end; p++) {
            lost.accept(p);
        }
        rewind();
        lastProgressPs = nowPs;
        return true;
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
