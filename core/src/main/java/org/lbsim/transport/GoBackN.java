package org.lbsim.transport;

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
public final class GoBackN extends CumulativeAckRecovery {
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

    private int next;
    private int highestSent = -1;

    GoBackN(QpContext qp, long rtoPs) {
        super(qp, rtoPs);
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
        return advanceAndSkip(ack.cumAck, nowPs);
    }

    @Override
    public boolean onNack(Packet nack, long nowPs) {
        boolean progress = advanceAndSkip(nack.cumAck, nowPs);
        if (nack.cumAck < next) {
            next = nack.cumAck; // go back
        }
        return progress;
    }

    private boolean advanceAndSkip(int cumAck, long nowPs) {
        if (advance(cumAck, nowPs)) {
            if (next < acked) {
                next = acked;
            }
            return true;
        }
        return false;
    }

    @Override
    protected int sentEnd() {
        return highestSent + 1;
    }

    @Override
    protected void rewind() {
        next = acked;
    }

    @Override
    public long inflightBytes() {
        return (long) Math.max(0, next - acked) * qp.mtuBytes();
    }
}
