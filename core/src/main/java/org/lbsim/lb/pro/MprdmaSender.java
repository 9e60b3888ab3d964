package org.lbsim.lb.pro;

import org.lbsim.net.Packet;
import org.lbsim.spi.QpContext;

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
 * With {@code mprdmaBeyondBitmap: drop} the bitmap is the receiver's, not a gate at the sender: new
 * data goes out whenever congestion control allows, the receiver drops a PSN at or beyond rcv_nxt + L
 * and NACKs rcv_nxt ({@link MprdmaReceiver}), and a NACK starts (or widens) a recovery that resends
 * every unacknowledged PSN from snd_una up to the snd_nxt of the moment it started (the sender cannot
 * tell which PSNs beyond snd_ooh were dropped, so it resends them all).
 * With {@code hold} loss is found at the sender from the ACKs; the receiver sends no NACK (so no NACK
 * reaches congestion control), unlike PRO's receiver. Congestion control is the run's (DCQCN in PRO's
 * figures), the same single rate per queue pair MP-RDMA keeps (it has no per-path windows), unless
 * {@code mprdmaWindow: ack-clocked} adds MP-RDMA's own window ({@link MprdmaWindow}): then no packet,
 * new or resent, leaves before an ACK (or the initial window, or an RTO) releases it, and each goes
 * on the path its release names.
 */
final class MprdmaSender extends AckBitmapSender {
    private final boolean goBackN;
    private final int bitmap;
    private final int delta;
    private final boolean dropBeyondBitmap;
    private final MprdmaEntropy entropy;
    /** MP-RDMA's ACK-clocked window, or null: the run's congestion control alone paces the queue pair. */
    private final MprdmaWindow window;
    private final java.util.random.RandomGenerator rng;
    private final long[] resent;
    private int sndUna;
    private int sndOoh = -1;
    private boolean inRecovery;
    private int recoveryPoint;
    private int sndRetx;
    /** The recovery was started or widened by a NACK: it resends up to recoveryPoint, not only below snd_ooh - Delta. */
    private boolean nackRecovery;
    private boolean stalled;
    /** Where the PSN handed out by the last nextPsn came from: 0 new, 1 recovery, 2 timeout rewind. */
    private int source;

    MprdmaSender(QpContext qp, long rtoPs, boolean cumulativeRto, boolean goBackN, int bitmap, int delta, boolean dropBeyondBitmap, MprdmaEntropy entropy, ProCounters counters) {
        this(qp, rtoPs, cumulativeRto, goBackN, bitmap, delta, dropBeyondBitmap, entropy, null, null, counters);
    }

    /** @param window MP-RDMA's ACK-clocked window (the entropy must take its paths from it), or null */
    MprdmaSender(QpContext qp, long rtoPs, boolean cumulativeRto, boolean goBackN, int bitmap, int delta, boolean dropBeyondBitmap, MprdmaEntropy entropy,
                 MprdmaWindow window, java.util.random.RandomGenerator rng, ProCounters counters) {
        super(qp, rtoPs, cumulativeRto, counters);
        this.goBackN = goBackN;
        this.bitmap = bitmap;
        this.delta = delta;
        this.dropBeyondBitmap = dropBeyondBitmap;
        this.entropy = entropy;
        this.window = window;
        this.rng = rng;
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
        nackRecovery = false;
        if (window != null) {
            window.onTimeout();
        }
    }

    @Override
    public int nextPsn(long nowPs) {
        if (window != null && window.released() == 0) {
            return -1; // the window releases nothing until an ACK clocks it
        }
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
            int limit = nackRecovery ? recoveryPoint : sndOoh - delta;
            while (sndRetx < limit) {
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
        if (!dropBeyondBitmap && nextNew >= sndUna + bitmap) {
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
        boolean late = psn < sndOoh - delta && !bit(resent, psn);
        if (window == null && progress && late) {
            entropy.slow(ack.entropy); // out-of-order aware path selection: this path is slow
        }
        int before = sndUna;
        progress |= advanceCumulative(ack.cumAck);
        if (!inRecovery && sndUna < sndOoh - delta) {
            enterRecovery(); // the hole at snd_una is more than Delta behind: lost
        }
        if (window != null) {
            window.onAck(ack.ecnEcho, late, ack.entropy, nextNew - ackedCount, qp.packets() - nextNew, inRecovery || rewind >= 0, nowPs, rng);
        }
        return settle(before, progress, nowPs);
    }

    /** mprdmaBeyondBitmap 'drop': the receiver dropped a PSN beyond rcv_nxt + L and names rcv_nxt. */
    @Override
    public boolean onNack(Packet nack, long nowPs) {
        int before = sndUna;
        boolean progress = advanceCumulative(nack.cumAck);
        if (!inRecovery) {
            enterRecovery();
        } else if (!nackRecovery) {
            recoveryPoint = nextNew; // a Delta recovery widened: the PSNs beyond snd_ooh may be gone too
        }
        nackRecovery = true;
        if (window != null) {
            window.onNack(nack.entropy);
        }
        return settle(before, progress, nowPs);
    }

    private boolean advanceCumulative(int cumAck) {
        boolean progress = false;
        while (sndUna < cumAck) {
            progress |= markAcked(sndUna++);
        }
        while (sndUna < qp.packets() && isAcked(sndUna)) {
            sndUna++;
        }
        if (inRecovery && sndUna >= recoveryPoint) {
            inRecovery = false;
            nackRecovery = false;
        }
        return progress;
    }

    private void enterRecovery() {
        inRecovery = true;
        recoveryPoint = nextNew;
        sndRetx = Math.max(sndRetx, sndUna); // below sndRetx all was resent once already: a second loss waits for the RTO
        if (goBackN) {
            rewind = sndUna; // conweave-ns3 RecoverQueue: snd_nxt = snd_una
        }
        counters.mprdmaRecoveries++;
    }

    private boolean settle(int sndUnaBefore, boolean progress, long nowPs) {
        if (sndUna != sndUnaBefore) {
            stalled = false;
        }
        if (cumulativeRto ? sndUna != sndUnaBefore : progress) {
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

    MprdmaWindow window() {
        return window;
    }
}
