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
 * IRN-style selective recovery (Mittal et al., SIGCOMM 2018), as the RoCE issue asks for: the
 * receiver keeps out-of-order data and acknowledges with a selective-ack map; the sender treats a
 * hole as lost as soon as a later-sent packet is acknowledged past it and resends
 * it once, and caps its packets in flight at one bandwidth-delay product (IRN's BDP-FC), which
 * bounds the damage of a burst of losses. A timeout resends everything unacknowledged.
 */
public final class Irn implements LossRecovery {
    public record Params(
            @Doc("microseconds without progress before everything unacknowledged is resent") double rtoUs,
            @Doc("packets in flight at most, in bandwidth-delay products of the path (IRN's BDP-FC); 0 = no cap") double bdpCap) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            ScenarioException.require(bdpCap >= 0 && Double.isFinite(bdpCap), "bdpCap", "must be >= 0 (0 = no cap), got " + bdpCap);
        }
    }

    public static LossRecoveryFactory factory(Params p) {
        long rtoPs = Time.us(p.rtoUs());
        return qp -> {
            long frame = qp.mtuBytes() + qp.headerBytes() + qp.gapBytes();
            long bdpBytes = qp.lineRateMbps() * qp.baseRttPs() / 8_000_000L;
            long capBytes = p.bdpCap() == 0 ? Long.MAX_VALUE : Math.max(frame, (long) (p.bdpCap() * bdpBytes));
            return new Irn(new SackThreshold(qp, 0, rtoPs), capBytes, qp);
        };
    }

    private final SackThreshold sack;
    private final long capBytes;
    private final QpContext qp;

    Irn(SackThreshold sack, long capBytes, QpContext qp) {
        this.sack = sack;
        this.capBytes = capBytes;
        this.qp = qp;
    }

    @Override
    public int nextPsn(long nowPs) {
        int psn = sack.nextPsn(nowPs);
        if (psn >= 0 && !sack.isRetransmission(psn) && sack.inflightBytes() + qp.payloadOf(psn) > capBytes) {
            return -1; // BDP-FC: new data waits for an ACK; retransmissions may always go
        }
        return psn;
    }

    @Override
    public void onSent(int psn, long nowPs) {
        sack.onSent(psn, nowPs);
    }

    @Override
    public boolean isRetransmission(int psn) {
        return sack.isRetransmission(psn);
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        return sack.onAck(ack, nowPs);
    }

    @Override
    public boolean complete() {
        return sack.complete();
    }

    @Override
    public long timerDeadlinePs() {
        return sack.timerDeadlinePs();
    }

    @Override
    public boolean onTimer(long nowPs, IntConsumer lost) {
        return sack.onTimer(nowPs, lost);
    }

    @Override
    public long inflightBytes() {
        return sack.inflightBytes();
    }

    @Override
    public long retransmissions() {
        return sack.retransmissions();
    }

    @Override
    public long timeouts() {
        return sack.timeouts();
    }
}
