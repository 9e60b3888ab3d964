package org.lbsim.transport;

import java.util.function.IntConsumer;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.rtt.RtoEstimator;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpContext;

/**
 * OFAN 4: ideal rateless erasure coding with no overhead. Every packet is a fresh symbol (a new
 * PSN), so loss never needs a specific resend: the sender keeps sending until the receiver has
 * acknowledged as many payload bytes as the message holds. It stops opportunistically in the final
 * BDP (acked + in flight covers the message, footnote 3) and sends more only if those in-flight
 * symbols are presumed lost. An ACK sent once the receiver holds enough symbols to decode completes
 * the message, even if earlier ACKs were lost. How the sender decides that in-flight symbols are lost is {@code endOfMessage}. The default,
 * {@code srtt-after-pass}, ends a message as the OFAN authors' htsim sender does, the rule every
 * OFAN figure runs ({@link ErasureSrttAfterPass}: symbols below the highest acknowledged one are
 * presumed lost at once, and one smoothed RTT after the first pass the sender sends again).
 * {@code endOfMessage: rto} is the timer reading, this class: in-flight symbols are presumed lost
 * after one RTO without an ACK. The RTO is {@code rtoUs}, or with {@code adaptiveRto} the RFC 6298 estimate
 * srtt + 4 rttvar from the queue pair's own RTT samples, never below {@code rtoUs}: a symbol is
 * never resent, so every ACK is an unambiguous sample (no Karn rule needed).
 */
public final class IdealErasure implements LossRecovery {
    /** End of message by timeout (a named reading): in-flight symbols are presumed lost after one RTO without progress. */
    public static final String END_RTO = "rto";
    /** End of message as the OFAN authors' htsim sender, the default: send again one smoothed RTT after the first pass. */
    public static final String END_SRTT_AFTER_PASS = "srtt-after-pass";

    public record Params(
            @Doc("microseconds without ACK progress after which in-flight symbols are presumed lost (with adaptiveRto: the floor); endOfMessage 'rto' only") double rtoUs,
            @Doc("estimate the RTO per queue pair from its RTT samples (RFC 6298: srtt + 4 rttvar, at least rtoUs); endOfMessage 'rto' only") boolean adaptiveRto,
            @Doc("how the sender decides to send more at the end of a message: 'srtt-after-pass' (the default, the OFAN authors' htsim: csg-htsim constant_cca_erasure.cpp; symbols below the highest acked one count as lost, and one smoothed RTT after the whole message was sent it sends fresh symbols until done) or 'rto' (presume in-flight symbols lost after the RTO)") String endOfMessage) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            ScenarioException.require(END_RTO.equals(endOfMessage) || END_SRTT_AFTER_PASS.equals(endOfMessage), "endOfMessage",
                    "must be '" + END_RTO + "' or '" + END_SRTT_AFTER_PASS + "', got '" + endOfMessage + "'");
        }

        /** The default: the OFAN authors' end of message; {@code rtoUs} 80 applies if {@code endOfMessage} is set to {@code rto}. */
        public static Params defaults() {
            return new Params(80, false, END_SRTT_AFTER_PASS);
        }

        /** The timer reading: in-flight symbols presumed lost after {@code rtoUs} without an ACK. */
        public static Params rto(double rtoUs) {
            return rto(rtoUs, false);
        }

        /** The timer reading, the RTO estimated per queue pair (at least {@code rtoUs}) if {@code adaptiveRto}. */
        public static Params rto(double rtoUs, boolean adaptiveRto) {
            return new Params(rtoUs, adaptiveRto, END_RTO);
        }
    }

    public static LossRecoveryFactory factory(Params p) {
        if (END_SRTT_AFTER_PASS.equals(p.endOfMessage())) {
            return ErasureSrttAfterPass::new;
        }
        long rtoPs = Time.us(p.rtoUs());
        boolean adaptive = p.adaptiveRto();
        return qp -> new IdealErasure(qp, rtoPs, adaptive);
    }

    // the context's fields this reads per packet, copied so that a packet touches no other object for them
    private final long messageBytes;
    private final int packets;
    private final int mtuBytes;
    private final long fixedRtoPs;
    private final RtoEstimator rto;
    /** PSNs in flight ({@link Bits}). */
    private long[] inFlight;
    private int nextPsn;
    private long ackedBytes;
    private long inflightBytes;
    private long lastProgressPs;
    private long timeouts;
    private long extraSymbols;

    IdealErasure(QpContext qp, long rtoPs, boolean adaptive) {
        this.messageBytes = qp.messageBytes();
        this.packets = qp.packets();
        this.mtuBytes = qp.mtuBytes();
        this.fixedRtoPs = rtoPs;
        this.rto = adaptive ? new RtoEstimator(rtoPs, rtoPs) : null;
        this.inFlight = Bits.words(qp.packets() + 64);
    }

    private int payloadOf(int psn) {
        return QpContext.payloadOf(psn, packets, mtuBytes, messageBytes);
    }

    /** The ACK echoes its symbol's send time; each symbol is sent once, so every ACK is a clean sample. */
    private void sampleRtt(Packet ack, long nowPs) {
        if (rto != null) {
            rto.sample(nowPs - ack.echoSentPs);
        }
    }

    /** The current retransmission timeout. */
    long rtoPs() {
        return rto != null ? rto.rtoPs() : fixedRtoPs;
    }

    @Override
    public int nextPsn(long nowPs) {
        if (ackedBytes + inflightBytes >= messageBytes) {
            return -1;
        }
        return nextPsn;
    }

    @Override
    public boolean idleUntilFeedback() {
        return ackedBytes + inflightBytes >= messageBytes;
    }

    @Override
    public void onSent(int psn, long nowPs) {
        nextPsn = psn + 1;
        if (psn >= packets) {
            extraSymbols++;
        }
        inFlight = Bits.set(inFlight, psn);
        inflightBytes += payloadOf(psn);
        if (inflightBytes == payloadOf(psn)) {
            lastProgressPs = nowPs; // the timer counts from the first packet of a new flight
        }
    }

    @Override
    public boolean isRetransmission(int psn) {
        return false; // symbols are never resent, only new ones are made
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        if (ack.receiverComplete && !complete()) {
            // The receiver can decode: whatever ACKs were lost, the message is through.
            ackedBytes = messageBytes;
            lastProgressPs = nowPs;
            return true;
        }
        int psn = ack.psn;
        if (!Bits.get(inFlight, psn)) {
            // Late ACK of a symbol already presumed lost: it still counts towards decoding.
            if (psn < nextPsn && !acked(psn)) {
                sampleRtt(ack, nowPs);
                markAcked(psn);
                ackedBytes += payloadOf(psn);
                lastProgressPs = nowPs;
                return true;
            }
            return false;
        }
        Bits.clear(inFlight, psn);
        sampleRtt(ack, nowPs);
        markAcked(psn);
        int bytes = payloadOf(psn);
        inflightBytes -= bytes;
        ackedBytes += bytes;
        lastProgressPs = nowPs;
        return true;
    }

    /** PSNs acknowledged ({@link Bits}); grows as they are. */
    private long[] ackedSet = Bits.words(64);

    private boolean acked(int psn) {
        return Bits.get(ackedSet, psn);
    }

    private void markAcked(int psn) {
        ackedSet = Bits.set(ackedSet, psn);
    }

    @Override
    public boolean complete() {
        return ackedBytes >= messageBytes;
    }

    @Override
    public long timerDeadlinePs() {
        return inflightBytes > 0 && !complete() ? lastProgressPs + rtoPs() : Long.MAX_VALUE;
    }

    @Override
    public boolean onTimer(long nowPs, IntConsumer lost) {
        if (inflightBytes == 0 || complete()) {
            return false;
        }
        timeouts++;
        // Presume every symbol in flight lost: clear them so that fresh symbols replace them.
        for (int psn = 0; psn < nextPsn; psn++) {
            if (Bits.get(inFlight, psn)) {
                Bits.clear(inFlight, psn);
                lost.accept(psn);
            }
        }
        inflightBytes = 0;
        lastProgressPs = nowPs;
        return true;
    }

    @Override
    public long inflightBytes() {
        return inflightBytes;
    }

    @Override
    public long retransmissions() {
        return extraSymbols;
    }

    @Override
    public long timeouts() {
        return timeouts;
    }
}
