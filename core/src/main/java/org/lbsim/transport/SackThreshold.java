package org.lbsim.transport;

import java.util.function.IntConsumer;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpContext;

/**
 * OFAN 4: SACK-based recovery. The sender knows exactly which PSNs arrived (per-packet ACKs with a
 * selective-ack bitmap) and resends every missing PSN once the gap between the lowest unacknowledged
 * and the highest acknowledged PSN exceeds {@code threshold}. Only packets that were sent before
 * the highest acknowledged one count as missing, so one trigger resends each hole once. A timeout
 * (no ACK progress for {@code rtoUs}) resends everything unacknowledged. With {@code rtoFrom: send}
 * the timer runs per packet instead, as htsim's UEC sender's does (uec.cpp UecSrc::startRTO,
 * recalculateRTO, rtxTimerExpired): each unacknowledged packet is resent {@code rtoUs} after it was
 * last sent, whatever ACKs arrived meanwhile. Retransmissions never change the pacing rate.
 */
public final class SackThreshold implements LossRecovery {
    public record Params(
            @Doc("resend holes when highest acked PSN - lowest unacked PSN exceeds this many packets") int threshold,
            @Doc("microseconds without ACK progress before all unacknowledged packets are resent (rtoFrom 'send': after a packet was sent)") double rtoUs,
            @Doc("what the timer counts from: 'progress' (the default: the last ACK progress; then every unacknowledged packet is resent) "
                    + "or 'send' (htsim's UEC sender: each unacknowledged packet is resent rtoUs after it was last sent, oldest first)") String rtoFrom) {
        public Params {
            ScenarioException.require(threshold >= 1, "threshold", "must be >= 1 packet, got " + threshold);
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            ScenarioException.require(RTO_FROM_PROGRESS.equals(rtoFrom) || RTO_FROM_SEND.equals(rtoFrom), "rtoFrom",
                    "must be '" + RTO_FROM_PROGRESS + "' or '" + RTO_FROM_SEND + "', got '" + rtoFrom + "'");
        }

        /** The timer counting from the last ACK progress. */
        public Params(int threshold, double rtoUs) {
            this(threshold, rtoUs, RTO_FROM_PROGRESS);
        }
    }

    public static final String RTO_FROM_PROGRESS = "progress";
    public static final String RTO_FROM_SEND = "send";

    public static LossRecoveryFactory factory(Params p) {
        long rtoPs = Time.us(p.rtoUs());
        boolean fromSend = RTO_FROM_SEND.equals(p.rtoFrom());
        return qp -> new SackThreshold(qp, p.threshold(), rtoPs, fromSend);
    }

    private final QpContext qp;
    private final int threshold;
    private final long rtoPs;
    private final BitSet64 acked;
    private final BitSet64 queued;
    private final long[] sendOrder; // send sequence number of each PSN's latest transmission
    private final IntFifo retx = new IntFifo(16);
    private long sendSeq;
    private int nextNew;
    private int cumAck;
    private int ackedCount;
    private int highestAcked = -1;
    private long highestAckedOrder = -1;
    private int scanFrom;
    private long inflightBytes;
    private long lastProgressPs;
    private long retransmissions;
    private long timeouts;
    // rtoFrom 'send' only (null otherwise): each PSN's last send time, the PSNs in the order they were
    // sent (an entry is stale once its PSN is acknowledged or sent again), and how many entries each PSN has there
    private final long[] sentPs;
    private final IntFifo sentQueue;
    private final int[] entries;

    SackThreshold(QpContext qp, int threshold, long rtoPs) {
        this(qp, threshold, rtoPs, false);
    }

    SackThreshold(QpContext qp, int threshold, long rtoPs, boolean rtoFromSend) {
        this.qp = qp;
        this.threshold = threshold;
        this.rtoPs = rtoPs;
        this.acked = new BitSet64(qp.packets());
        this.queued = new BitSet64(qp.packets());
        this.sendOrder = new long[qp.packets()];
        this.sentPs = rtoFromSend ? new long[qp.packets()] : null;
        this.sentQueue = rtoFromSend ? new IntFifo(Math.min(qp.packets(), 1024)) : null;
        this.entries = rtoFromSend ? new int[qp.packets()] : null;
    }

    @Override
    public int nextPsn(long nowPs) {
        while (!retx.isEmpty()) {
            int psn = retx.peek();
            if (!acked.get(psn)) {
                return psn;
            }
            popRetx();
        }
        return nextNew < qp.packets() ? nextNew : -1;
    }

    private void popRetx() {
        queued.clear(retx.peek());
        retx.poll();
    }

    private void pushRetx(int psn) {
        if (queued.get(psn)) {
            return;
        }
        retx.add(psn);
        queued.set(psn);
    }

    @Override
    public void onSent(int psn, long nowPs) {
        if (psn == nextNew) {
            if (nextNew == ackedCount) {
                lastProgressPs = nowPs; // nothing was outstanding: the timer starts with this send
            }
            nextNew++;
            inflightBytes += qp.payloadOf(psn);
        } else {
            popRetx();
            retransmissions++;
        }
        sendOrder[psn] = sendSeq++;
        if (sentQueue != null) {
            sentPs[psn] = nowPs;
            sentQueue.add(psn);
            entries[psn]++;
            dropStaleSent();
        }
    }

    /** Drops the oldest entries of {@link #sentQueue} whose PSN is acknowledged or was sent again since. */
    private void dropStaleSent() {
        while (!sentQueue.isEmpty()) {
            int psn = sentQueue.peek();
            if (!acked.get(psn) && entries[psn] == 1) {
                return;
            }
            sentQueue.poll();
            entries[psn]--;
        }
    }

    @Override
    public boolean isRetransmission(int psn) {
        return psn < nextNew;
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        int psn = ack.psn;
        boolean progress = false;
        if (psn < qp.packets() && !acked.get(psn)) {
            markAcked(psn);
            progress = true;
        }
        // The selective-ack bitmap repairs lost ACKs.
        long bits = ack.sackBits;
        while (bits != 0) {
            int p = ack.cumAck + 1 + Long.numberOfTrailingZeros(bits);
            bits &= bits - 1;
            if (p < qp.packets() && !acked.get(p)) {
                markAcked(p);
                progress = true;
            }
        }
        for (int p = cumAck; p < Math.min(ack.cumAck, qp.packets()); p++) {
            if (!acked.get(p)) {
                markAcked(p);
                progress = true;
            }
        }
        cumAck = acked.nextClear(cumAck);
        if (progress) {
            lastProgressPs = nowPs;
            if (sentQueue != null) {
                dropStaleSent();
            }
        }
        if (highestAcked - cumAck > threshold) {
            for (int p = Math.max(scanFrom, cumAck); p < highestAcked; p++) {
                if (!acked.get(p) && sendOrder[p] < highestAckedOrder) {
                    pushRetx(p);
                }
            }
            scanFrom = highestAcked;
        }
        return progress;
    }

    private void markAcked(int psn) {
        acked.set(psn);
        ackedCount++;
        inflightBytes -= qp.payloadOf(psn);
        if (psn > highestAcked) {
            highestAcked = psn;
        }
        if (sendOrder[psn] > highestAckedOrder) {
            highestAckedOrder = sendOrder[psn];
        }
    }

    @Override
    public boolean complete() {
        return ackedCount == qp.packets();
    }

    @Override
    public long timerDeadlinePs() {
        if (sentQueue != null) {
            return complete() || sentQueue.isEmpty() ? Long.MAX_VALUE : sentPs[sentQueue.peek()] + rtoPs;
        }
        return nextNew > ackedCount ? lastProgressPs + rtoPs : Long.MAX_VALUE; // runs only while something is unacknowledged
    }

    @Override
    public boolean onTimer(long nowPs, IntConsumer lost) {
        if (complete()) {
            return false;
        }
        timeouts++;
        if (sentQueue != null) {
            // every packet whose timer expired, oldest first: htsim's expiries at the same instant, one per packet
            while (!sentQueue.isEmpty() && sentPs[sentQueue.peek()] + rtoPs <= nowPs) {
                int p = sentQueue.peek();
                sentQueue.poll();
                entries[p]--;
                lost.accept(p);
                pushRetx(p);
                dropStaleSent();
            }
            return !retx.isEmpty();
        }
        for (int p = cumAck; p < nextNew; p++) {
            if (!acked.get(p)) {
                lost.accept(p);
                pushRetx(p);
            }
        }
        scanFrom = nextNew;
        lastProgressPs = nowPs;
        return !retx.isEmpty();
    }

    @Override
    public long inflightBytes() {
        return Math.max(0, inflightBytes);
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
