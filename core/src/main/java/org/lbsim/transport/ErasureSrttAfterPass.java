package org.lbsim.transport;

import java.util.function.IntConsumer;
import org.lbsim.net.Packet;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;

/**
 * The ideal erasure sender of OFAN section 4 (no coding overhead, footnote 3: it "opportunistically
 * stops in the final BDP and only sends more if necessary"), ending its message the way the OFAN
 * authors' simulator does: {@code erasure} with {@code endOfMessage: srtt-after-pass}. Source:
 * github.com/smcclure20/csg-htsim, {@code sim/constant_cca_erasure.cpp}; the facts below come from
 * {@code ConstantErasureCcaSrc::send_packets}, {@code receivePacket} and {@code update_rtt}, the
 * code is ours.
 *
 * <ul>
 * <li><b>What counts as sent.</b> htsim stops when {@code _current_seqno - _approx_lost >=
 * _flow_size}, where {@code _approx_lost = (_highest_ack - 1) - _bytes_acked}: the bytes the
 * receiver reported holding ({@code ds_ackno}, the largest seen) plus the bytes sent after the
 * highest acknowledged symbol. Every unacknowledged symbol below the highest acknowledged one is
 * thus presumed lost at once (no reordering allowance), and a fresh symbol replaces it.</li>
 * <li><b>End of the first pass.</b> The first send opportunity at which that sum covers the
 * message is remembered ({@code _final_bdp_time}); nothing is sent then. It is never reset.</li>
 * <li><b>Sending again.</b> At every later send opportunity at which the sum still covers the
 * message, the sender sends a fresh symbol if {@code now - _final_bdp_time > _rtt}, the smoothed
 * RTT at that moment. Once that holds, it sends at its pacing rate until the completing ACK
 * arrives ("will not stop again until final ack received"): a resend is not one symbol but a
 * stream, and a lost resend is simply followed by the next symbol.</li>
 * <li><b>The smoothed RTT.</b> Every ACK samples {@code now - ts_echo} (the echoed send time);
 * a zero sample is ignored; the first sample sets it, later ones {@code 7 * srtt / 8 + sample / 8}
 * in integer picoseconds; before any ACK it is 0.</li>
 * <li><b>Done.</b> When the receiver reports holding at least the message ({@code is_complete}).</li>
 * </ul>
 *
 * <p>lbsim is event driven where htsim polls on a pacer tick: the end of the first pass is the
 * first poll that finds the message covered (for a paced sender, one pacing interval after its
 * last symbol, as htsim's next tick), and the sender may send again at {@code passEnd + srtt}
 * exactly, where htsim sends at its first pacer tick strictly after it (up to one pacing interval,
 * plus htsim's up to 1% jitter, later). With no RTT sample yet the sender goes on sending at once
 * (htsim: at the next tick). When the wait ends at the timer, the symbols still unacknowledged are
 * reported lost to the entropy policy (htsim's host policies keep their own timers); congestion
 * control is not told (htsim's erasure sender has none).
 */
final class ErasureSrttAfterPass implements LossRecovery {
    // the context's fields this reads per packet, copied so that a packet touches no other object for them
    private final long messageBytes;
    private final int packets;
    private final int mtuBytes;
    /** PSNs acknowledged ({@link Bits}). */
    private long[] acked;
    private int nextPsn;
    /** Highest PSN acknowledged so far, -1 before any ACK (htsim {@code _highest_ack}). */
    private int highestAckedPsn = -1;
    /** Payload bytes of the symbols sent after the highest acknowledged one (htsim {@code _inflight}). */
    private long bytesAfterHighestAck;
    /** Largest count of payload bytes the receiver reported holding (htsim {@code _bytes_acked}). */
    private long receiverBytes;
    /** Smoothed RTT (htsim {@code _rtt}); 0 before the first sample. */
    private long srttPs;
    /** First send opportunity at which the message was covered, -1 before (htsim {@code _final_bdp_time}). */
    private long passEndPs = -1;
    /** The last poll found the message covered and less than one smoothed RTT past the first pass. */
    private boolean waiting;
    /** Unacknowledged PSNs below this one were already reported lost. */
    private int reportedBelowPsn;
    private long resumes;
    private long extraSymbols;

    ErasureSrttAfterPass(QpContext qp) {
        this.messageBytes = qp.messageBytes();
        this.packets = qp.packets();
        this.mtuBytes = qp.mtuBytes();
        this.acked = Bits.words(qp.packets() + 64);
    }

    private int payloadOf(int psn) {
        return QpContext.payloadOf(psn, packets, mtuBytes, messageBytes);
    }

    /** The smoothed RTT the sender holds now (htsim {@code _rtt}). */
    long srttPs() {
        return srttPs;
    }

    /** When the first pass ended, or -1. */
    long passEndPs() {
        return passEndPs;
    }

    @Override
    public int nextPsn(long nowPs) {
        if (complete()) {
            return -1;
        }
        if (receiverBytes + bytesAfterHighestAck < messageBytes) {
            waiting = false;
            return nextPsn;
        }
        if (passEndPs < 0) {
            passEndPs = nowPs;
        }
        if (nowPs - passEndPs >= srttPs) {
            waiting = false;
            return nextPsn;
        }
        waiting = true;
        return -1;
    }

    @Override
    public void onSent(int psn, long nowPs) {
        nextPsn = psn + 1;
        if (psn >= packets) {
            extraSymbols++;
        }
        bytesAfterHighestAck += payloadOf(psn);
    }

    @Override
    public boolean isRetransmission(int psn) {
        return false; // a symbol is never resent; more symbols are made instead
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        long sample = nowPs - ack.echoSentPs;
        if (sample != 0) {
            srttPs = srttPs > 0 ? 7 * srttPs / 8 + sample / 8 : sample;
        }
        if (ack.receivedBytes > receiverBytes) {
            receiverBytes = ack.receivedBytes;
        }
        int psn = ack.psn;
        boolean progress = false;
        if (!Bits.get(acked, psn)) {
            acked = Bits.set(acked, psn);
            progress = true;
        }
        while (highestAckedPsn < psn) {
            highestAckedPsn++;
            bytesAfterHighestAck -= payloadOf(highestAckedPsn);
        }
        if (waiting && nowPs - passEndPs >= srttPs) {
            waiting = false; // a shorter smoothed RTT ended the wait: the poll after this ACK sends
            resumes++;
        }
        return progress;
    }

    @Override
    public boolean complete() {
        return receiverBytes >= messageBytes;
    }

    @Override
    public long timerDeadlinePs() {
        return waiting && !complete() ? passEndPs + srttPs : Long.MAX_VALUE;
    }

    @Override
    public boolean onTimer(long nowPs, IntConsumer lost) {
        if (!waiting || complete()) {
            return false;
        }
        waiting = false;
        resumes++;
        for (int psn = reportedBelowPsn; psn < nextPsn; psn++) {
            if (!Bits.get(acked, psn)) {
                lost.accept(psn);
            }
        }
        reportedBelowPsn = nextPsn;
        return true;
    }

    @Override
    public boolean timerIsRetransmissionTimeout() {
        return false;
    }

    @Override
    public long inflightBytes() {
        return bytesAfterHighestAck;
    }

    @Override
    public long retransmissions() {
        return extraSymbols;
    }

    /** Times the sender went back to sending after waiting one smoothed RTT past the first pass. */
    @Override
    public long timeouts() {
        return resumes;
    }
}
