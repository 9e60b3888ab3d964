package org.lbsim.transport;

import java.util.function.IntConsumer;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.qp.QpContext;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;

/**
 * Go-back-N, the classic RoCE recovery: the receiver keeps only in-order data and answers the
 * first gap with a NACK carrying the expected PSN; the sender rewinds to that PSN and resends it
 * and everything after it. A timeout ({@code rtoUs} without progress) rewinds to the oldest
 * unacknowledged PSN.
 */
public final class GoBackN implements LossRecovery {
    public record Params(
            @Doc("microseconds without progress before the sender rewinds (PRO: 80)") double rtoUs,
            @Doc(NicSelectiveRepeat.NACK_GENERATION_DOC) String nackGeneration,
            @Doc(NicSelectiveRepeat.NACK_INTERVAL_DOC) double nackIntervalUs) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            NackGeneration.check(nackGeneration, nackIntervalUs);
        }

        /** One NACK per expected PSN. */
        public Params(double rtoUs) {
            this(rtoUs, NackGeneration.ONCE_PER_EPSN, NicSelectiveRepeat.DEFAULT_NACK_INTERVAL_US);
        }
    }

    public static LossRecoveryFactory factory(Params p) {
        long rtoPs = Time.us(p.rtoUs());
        long nackRepeatPs = NackGeneration.repeatAfterPs(p.nackGeneration(), p.nackIntervalUs());
        return new LossRecoveryFactory() {
            @Override
            public LossRecovery create(QpContext qp) {
                return new GoBackN(qp, rtoPs);
            }

            @Override
            public ReceiverPolicy receiverPolicy(QpContext qp) {
                return new InOrderOnlyReceiver(new NackGeneration(nackRepeatPs));
            }
        };
    }

    private final QpContext qp;
    private final long rtoPs;
    private int next;
    private int highestSent = -1;
    private int acked; // every PSN below has been acknowledged
    private long lastProgressPs;
    private long retransmissions;
    private long timeouts;

    GoBackN(QpContext qp, long rtoPs) {
        this.qp = qp;
        this.rtoPs = rtoPs;
    }

    @Override
    public int nextPsn(long nowPs) {
        return next < qp.packets() ? next : -1;
    }

    @Override
    public void onSent(int psn, long nowPs) {
        if (psn <= highestSent) {
            retransmissions++;
        } else {
            highestSent = psn;
        }
        if (next == acked) {
            lastProgressPs = nowPs; // the timer runs from the oldest outstanding packet
        }
        next = psn + 1;
    }

    @Override
    public boolean isRetransmission(int psn) {
        return psn <= highestSent;
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        return advance(ack.cumAck, nowPs);
    }

    @Override
    public boolean onNack(Packet nack, long nowPs) {
        boolean progress = advance(nack.cumAck, nowPs);
        if (nack.cumAck < next) {
            next = nack.cumAck; // go back
        }
        return progress;
    }

    private boolean advance(int cumAck, long nowPs) {
        if (cumAck > acked) {
            acked = cumAck;
            lastProgressPs = nowPs;
            if (next < acked) {
                next = acked;
            }
            return true;
        }
        return false;
    }

    @Override
    public boolean complete() {
        return acked >= qp.packets();
    }

    @Override
    public long timerDeadlinePs() {
        return !complete() && highestSent >= acked ? lastProgressPs + rtoPs : Long.MAX_VALUE;
    }

    @Override
    public boolean onTimer(long nowPs, IntConsumer lost) {
        if (complete()) {
            return false;
        }
        timeouts++;
        for (int p = acked; p <= highestSent; p++) {
            lost.accept(p);
        }
        next = acked;
        lastProgressPs = nowPs;
        return true;
    }

    @Override
    public long inflightBytes() {
        return (long) Math.max(0, next - acked) * qp.mtuBytes();
    }

    @Override
    public long retransmissions() {
        return retransmissions;
    }

    @Override
    public long timeouts() {
        return timeouts;
    }
}
