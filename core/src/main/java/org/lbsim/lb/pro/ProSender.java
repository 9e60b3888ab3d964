package org.lbsim.lb.pro;

import org.lbsim.net.Packet;
import org.lbsim.spi.QpContext;

/**
 * The sending side of PRO's loss recovery (III-B): every ACK acknowledges the PSN it answers and all
 * below its cumulative ack; a NACK names one PSN presumed lost, which is resent at once; the RTO
 * (VI-A: 80 us, "for the corner case of tail packet loss") resends every sent PSN not yet
 * acknowledged. What restarts the RTO is a reading ({@code rtoRestart}): the cumulative ack moving
 * (so that a hole at the head, e.g. in a message's last wnd packets, which Algorithm 2's window never
 * calls lost, is resent 80 us after the head stopped) or any newly acknowledged PSN. When the
 * message is acknowledged the queue pair leaves its path set.
 */
final class ProSender extends AckBitmapSender {
    private final ProEntropy entropy;
    private int cumAck;
    private final org.lbsim.transport.IntFifo resend = new org.lbsim.transport.IntFifo(8);
    /** Where the PSN handed out by the last nextPsn came from: 0 new, 1 NACK, 2 timeout rewind. */
    private int source;

    ProSender(QpContext qp, long rtoPs, boolean cumulativeRto, ProEntropy entropy, ProCounters counters) {
        super(qp, rtoPs, cumulativeRto, counters);
        this.entropy = entropy;
    }

    @Override
    int cumulativeAck() {
        return cumAck;
    }

    @Override
    public int nextPsn(long nowPs) {
        while (!resend.isEmpty()) {
            int psn = resend.peek();
            if (!isAcked(psn)) {
                source = 1;
                return psn;
            }
            resend.poll();
        }
        while (rewind >= 0 && rewind < nextNew) {
            if (!isAcked(rewind)) {
                source = 2;
                return rewind;
            }
            rewind++;
        }
        rewind = -1;
        source = 0;
        return nextNew < qp.packets() ? nextNew : -1;
    }

    @Override
    public void onSent(int psn, long nowPs) {
        if (ackedCount == nextNew) {
            lastProgressPs = nowPs; // the RTO runs from the first packet outstanding
        }
        if (source == 0) {
            nextNew++;
            return;
        }
        retransmissions++;
        if (source == 1) {
            resend.poll();
        } else {
            rewind++;
        }
    }

    @Override
    public boolean isRetransmission(int psn) {
        return psn < nextNew;
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        boolean progress = markAcked(ack.psn);
        int cumBefore = cumAck;
        while (cumAck < ack.cumAck) {
            progress |= markAcked(cumAck++);
        }
        if (cumulativeRto ? cumAck > cumBefore : progress) {
            lastProgressPs = nowPs;
        }
        if (progress && complete()) {
            entropy.finished();
        }
        return progress;
    }

    @Override
    public boolean onNack(Packet nack, long nowPs) {
        int before = ackedCount;
        int cumBefore = cumAck;
        while (cumAck < nack.cumAck) {
            markAcked(cumAck++);
        }
        int psn = nack.psn;
        if (psn < nextNew && !isAcked(psn)) {
            resend.add(psn);
        }
        if (cumulativeRto ? cumAck > cumBefore : ackedCount > before) {
            lastProgressPs = nowPs;
        }
        if (ackedCount > before) {
            if (complete()) {
                entropy.finished();
            }
            return true;
        }
        return false;
    }






}
