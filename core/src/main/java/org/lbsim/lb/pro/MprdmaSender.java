package org.lbsim.lb.pro;

import org.lbsim.net.Packet;
import org.lbsim.qp.QpContext;

/**
 * The MPRDMA-style loss recovery PRO's Fig. 13 compares its cautious retransmission with (PRO VI-A:
 * "MPRDMA selects packet sending path to control the amount of out-of-order arrival packets,
 * striving to make it smaller than the length of bitmap"; MP-RDMA, NSDI '18, as we read it):
 * <ul>
 * <li>the receiver's bitmap has L slots from the oldest missing PSN, so the sender never sends a PSN
 *     at or beyond snd_una + L (snd_una = the cumulative ack): a hole at snd_una stalls new data;</li>
 * <li>out-of-order arrivals are bounded by Delta, so a PSN not acknowledged more than Delta below
 *     snd_ooh (the highest PSN acknowledged) is lost: the sender enters recovery, resends every
 *     such PSN once (snd_retx walks up from snd_una) and leaves recovery when snd_una passes the
 *     snd_nxt of the moment it entered;</li>
 * <li>an ACK for a first transmission more than Delta below snd_ooh marks its path slow
 *     ({@link MprdmaEntropy});</li>
 * <li>the RTO (PRO VI-A: 80 us) resends every PSN not acknowledged; it restarts when snd_una moves
 *     ({@code rtoRestart: cumulative}) or on any newly acknowledged PSN ({@code any-ack}).</li>
 * </ul>
 * With {@code mprdmaRetransmit: go-back-n} a detected loss (and the RTO) rewinds to snd_una and resends
 * everything from there, acknowledged or not, as the go-back-N of PRO's simulator does
 * (conweave-ns3 rdma-hw.cc RecoverQueue: snd_nxt = snd_una).
 * Loss is found at the sender from the ACKs; the receiver sends no NACK (so no NACK reaches
 * congestion control), unlike PRO's receiver. Congestion control is the run's (DCQCN in PRO's
 * figures), the same single rate per queue pair MP-RDMA keeps (it has no per-path windows).
 */
final class MprdmaSender extends AckBitmapSender {
    private final boolean goBackN;
    private final int bitmap;
    private final int delta;
    private final MprdmaEntropy entropy;
    private final long[] resent;
    private int sndUna;
    private int sndOoh = -1;
    private boolean inRecovery;
    private int recoveryPoint;
    private int sndRetx;
    private boolean stalled;
    /** Where the PSN handed out by the last nextPsn came from: 0 new, 1 recovery, 2 timeout rewind. */
    private int source;

    MprdmaSender(QpContext qp, long rtoPs, boolean cumulativeRto, boolean goBackN, int bitmap, int delta, MprdmaEntropy entropy, ProCounters counters) {
        super(qp, rtoPs, cumulativeRto, counters);
        this.goBackN = goBackN;
        this.bitmap = bitmap;
        this.delta = delta;
        this.entropy = entropy;
        this.resent = new long[(qp.packets() + 63) >>> 6];
    }

    private static boolean bit(long[] bits, int psn) {
        return (bits[psn >>> 6] & 1L << psn) != 0;
    }

    @Override
    int cumulativeAck() {
        return sndUna;
    }

    @Override
    void onTimeout() {
        inRecovery = false;
    }

    @Override
    public int nextPsn(long nowPs) {
        if (rewind >= 0 && rewind < sndUna) {
            rewind = sndUna; // all below snd_una is acknowledged (conweave-ns3: snd_nxt = max(snd_nxt, snd_una))
        }
        while (rewind >= 0 && rewind < nextNew) {
            if (goBackN || !isAcked(rewind)) {
                source = 2;
                return rewind;
            }
            rewind++;
        }
        rewind = -1;
        if (inRecovery && !goBackN) {
            if (sndRetx < sndUna) {
                sndRetx = sndUna;
            }
            while (sndRetx < sndOoh - delta) {
                if (!isAcked(sndRetx)) {
                    source = 1;
                    return sndRetx;
                }
                sndRetx++;
            }
        }
        source = 0;
        if (nextNew >= qp.packets()) {
            return -1;
        }
        if (nextNew >= sndUna + bitmap) {
            if (!stalled) {
                stalled = true; // counted once per stall: the bitmap is full until snd_una moves
                counters.mprdmaBitmapStalls++;
            }
            return -1;
        }
        return nextNew;
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
        resent[psn >>> 6] |= 1L << psn;
        if (source == 1) {
            sndRetx++;
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
        int psn = ack.psn;
        boolean progress = markAcked(psn);
        if (progress && psn > sndOoh) {
            sndOoh = psn;
        }
        if (progress && psn < sndOoh - delta && !bit(resent, psn)) {
            entropy.slow(ack.entropy); // out-of-order aware path selection: this path is slow
        }
        int before = sndUna;
        while (sndUna < ack.cumAck) {
            progress |= markAcked(sndUna++);
        }
        while (sndUna < qp.packets() && isAcked(sndUna)) {
            sndUna++;
        }
        if (sndUna != before) {
            stalled = false;
        }
        if (inRecovery && sndUna >= recoveryPoint) {
            inRecovery = false;
        }
        if (!inRecovery && sndUna < sndOoh - delta) {
            inRecovery = true; // the hole at snd_una is more than Delta behind: lost
            recoveryPoint = nextNew;
            sndRetx = Math.max(sndRetx, sndUna); // below sndRetx all was resent once already: a second loss waits for the RTO
            if (goBackN) {
                rewind = sndUna; // conweave-ns3 RecoverQueue: snd_nxt = snd_una
            }
            counters.mprdmaRecoveries++;
        }
        if (cumulativeRto ? sndUna != before : progress) {
            lastProgressPs = nowPs;
        }
        if (progress && complete()) {
            entropy.finished();
        }
        return progress;
    }







    boolean inRecovery() {
        return inRecovery;
    }

    int sndUna() {
        return sndUna;
    }

    int sndOoh() {
        return sndOoh;
    }
}
