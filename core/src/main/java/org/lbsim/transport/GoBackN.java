package org.lbsim.transport;

import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.ReceiverPolicy;

/**
 * Go-back-N, the classic RoCE recovery: the receiver keeps only in-order data and answers the
 * first gap with a NACK carrying the expected PSN; the sender rewinds to that PSN and resends it
 * and everything after it. With {@code reorderWindowPackets} W the receiver also keeps data less
 * than W packets above the expected PSN and NACKs only data beyond that ({@link ReorderWindowReceiver},
 * htsim's RoCE sink with W = 64). A timeout ({@code rtoUs} without progress, or with {@code timerRestart:
 * on-every-packet} without a packet sent or an ACK / NACK received) rewinds to the oldest unacknowledged PSN.
 */
public final class GoBackN extends CumulativeAckRecovery {
    public record Params(
            @Doc("microseconds without progress before the sender rewinds (PRO: 80)") double rtoUs,
            @Doc(NicSelectiveRepeat.NACK_GENERATION_DOC) String nackGeneration,
            @Doc(NicSelectiveRepeat.NACK_INTERVAL_DOC) double nackIntervalUs,
            @Doc("when the timer starts over: '" + ON_PROGRESS + "' (it runs from the oldest unacknowledged packet and starts over when the"
                    + " cumulative ACK advances) or '" + ON_EVERY_PACKET + "' (it starts over on every data packet sent and every ACK or NACK"
                    + " received while packets are outstanding, as the HPCC / ConWeave ns-3 RdmaHw does, conweave-ns3 rdma-hw.cc:524-528,"
                    + " :846-847: it fires only after rtoUs with neither)") String timerRestart,
            @Doc("where a NACK sends the sender back: '" + TO_NACK_EPSN + "' (the PSN the NACK carries, even one a later ACK has"
                    + " already acknowledged, as a NACK overtaken on another path is) or '" + TO_OLDEST_UNACKED + "' (the oldest"
                    + " unacknowledged PSN, as ns-3's RecoverQueue sets snd_nxt to snd_una, conweave-ns3 rdma-hw.cc:710)") String rewindTo,
            @Doc("the receiver's reorder window in packets, the expected one included: data less than this many packets above the"
                    + " expected PSN is kept (no answer) and the cumulative ACK jumps past it when the hole fills; data further ahead is"
                    + " dropped and NACKed. 0: keep only the expected packet (strict go-back-N). htsim's RoCE sink: 64 (roceMaxReorder,"
                    + " roce.h:25; RoceSink::receivePacket, roce.cpp:446-465)") int reorderWindowPackets) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            NackGeneration.check(nackGeneration, nackIntervalUs);
            ScenarioException.require(ON_PROGRESS.equals(timerRestart) || ON_EVERY_PACKET.equals(timerRestart), "timerRestart",
                    "must be '" + ON_PROGRESS + "' or '" + ON_EVERY_PACKET + "', got '" + timerRestart + "'");
            ScenarioException.require(TO_NACK_EPSN.equals(rewindTo) || TO_OLDEST_UNACKED.equals(rewindTo), "rewindTo",
                    "must be '" + TO_NACK_EPSN + "' or '" + TO_OLDEST_UNACKED + "', got '" + rewindTo + "'");
            ScenarioException.require(reorderWindowPackets == 0 || reorderWindowPackets >= 2, "reorderWindowPackets",
                    "must be 0 (strict go-back-N) or at least 2 (1 would keep only the expected packet: write 0), got " + reorderWindowPackets);
        }

        /** Strict go-back-N: the receiver keeps only the expected packet. */
        public Params(double rtoUs, String nackGeneration, double nackIntervalUs, String timerRestart, String rewindTo) {
            this(rtoUs, nackGeneration, nackIntervalUs, timerRestart, rewindTo, 0);
        }

        /** One NACK per expected PSN, the timer from the oldest unacknowledged packet, a NACK rewinds to its PSN. */
        public Params(double rtoUs) {
            this(rtoUs, NackGeneration.ONCE_PER_EPSN, NicSelectiveRepeat.DEFAULT_NACK_INTERVAL_US, ON_PROGRESS, TO_NACK_EPSN, 0);
        }
    }

    static final String ON_PROGRESS = "on-progress";
    static final String ON_EVERY_PACKET = "on-every-packet";
    static final String TO_NACK_EPSN = "nack-epsn";
    static final String TO_OLDEST_UNACKED = "oldest-unacked";

    public static LossRecoveryFactory factory(Params p) {
        long rtoPs = Time.us(p.rtoUs());
        long nackRepeatPs = NackGeneration.repeatAfterPs(p.nackGeneration(), p.nackIntervalUs());
        boolean restartOnEveryPacket = ON_EVERY_PACKET.equals(p.timerRestart());
        boolean rewindToOldest = TO_OLDEST_UNACKED.equals(p.rewindTo());
        int windowPackets = p.reorderWindowPackets();
        return new LossRecoveryFactory() {
            @Override
            public LossRecovery create(QpContext qp) {
                return new GoBackN(qp, rtoPs, restartOnEveryPacket, rewindToOldest);
            }

            @Override
            public ReceiverPolicy receiverPolicy(QpContext qp) {
                NackGeneration nacks = new NackGeneration(nackRepeatPs);
                return windowPackets == 0 ? new InOrderOnlyReceiver(nacks) : new ReorderWindowReceiver(nacks, windowPackets);
            }
        };
    }

    private int next;
    private int highestSent = -1;

    /** The timer starts over on every packet sent and every ACK / NACK received (ns-3's RdmaHw). */
    private final boolean restartOnEveryPacket;

    /** A NACK sends the sender back to the oldest unacknowledged PSN, not below it (ns-3's RecoverQueue). */
    private final boolean rewindToOldest;

    GoBackN(QpContext qp, long rtoPs, boolean restartOnEveryPacket, boolean rewindToOldest) {
        super(qp, rtoPs);
        this.restartOnEveryPacket = restartOnEveryPacket;
        this.rewindToOldest = rewindToOldest;
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
        if (next == acked || restartOnEveryPacket) {
            lastProgressPs = nowPs; // the timer runs from the oldest outstanding packet, or from the last one sent
        }
        next = psn + 1;
    }

    @Override
    public boolean isRetransmission(int psn) {
        return psn <= highestSent;
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        restartIfEveryPacket(nowPs);
        return advanceAndSkip(ack.cumAck, nowPs);
    }

    @Override
    public boolean onNack(Packet nack, long nowPs) {
        restartIfEveryPacket(nowPs);
        boolean progress = advanceAndSkip(nack.cumAck, nowPs);
        int to = rewindToOldest ? acked : nack.cumAck; // acked >= cumAck now: they differ only for a stale NACK
        if (to < next) {
            next = to; // go back
        }
        return progress;
    }

    /** ns-3 restarts the timer on any ACK or NACK while packets are outstanding (an idle timer has no deadline here). */
    private void restartIfEveryPacket(long nowPs) {
        if (restartOnEveryPacket) {
            lastProgressPs = nowPs;
        }
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
