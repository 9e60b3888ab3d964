package org.lbsim.cc;

import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.QpContext;

/**
 * MSwift (OFAN 8.3, App. H): Swift's delay-target window control, made to survive packet spraying.
 * The window grows by {@code additiveIncrease} packets per round trip while the measured RTT is
 * below the target, and otherwise shrinks multiplicatively in proportion to the excess
 * (beta (rtt - target) / rtt, at most {@code maxDecrease}), at most once per round trip. The target
 * is the path's unloaded RTT plus a queueing allowance (App. H: 113 KB at line rate). Under spraying
 * a single slow path must not collapse the window, so a decrease needs the majority of the ACKs of
 * the last round trip above target (our reading of MSwift's "observing recent ACKs"; the MSwift paper
 * is not in the specification). Reordering is left to the loss-recovery layer (use {@code sack}).
 * The initial window is the target's bandwidth-delay product, i.e. line rate (App. H).
 */
public final class MSwift implements CongestionControl {
    public record Params(
            @Doc("queueing allowance added to the path's unloaded RTT, in bytes at line rate (App. H: 113000)") long queueAllowanceBytes,
            @Doc("additive increase in packets per round trip") double additiveIncrease,
            @Doc("multiplicative decrease gain beta") double beta,
            @Doc("largest fraction of the window cut at once") double maxDecrease,
            @Doc("smallest window in packets") double minWindowPackets) {
        public Params {
            ScenarioException.require(queueAllowanceBytes >= 0, "queueAllowanceBytes", "must be >= 0, got " + queueAllowanceBytes);
            ScenarioException.require(additiveIncrease > 0, "additiveIncrease", "must be > 0, got " + additiveIncrease);
            ScenarioException.require(beta > 0 && beta <= 1, "beta", "must be in (0, 1], got " + beta);
            ScenarioException.require(maxDecrease > 0 && maxDecrease < 1, "maxDecrease", "must be in (0, 1), got " + maxDecrease);
            ScenarioException.require(minWindowPackets > 0, "minWindowPackets", "must be > 0, got " + minWindowPackets);
        }
    }

    public static CongestionControlFactory factory(Params p) {
        return qp -> new MSwift(p, qp);
    }

    private final Params p;
    private final long lineRateMbps;
    private final int frameBytes;
    private final int gapBytes;
    private final long targetPs;
    private double windowPackets;
    private long roundEndPs;
    private int acksInRound;
    private int acksAboveTarget;
    private long lastDecreasePs = Long.MIN_VALUE / 2;
    private long lastRttPs;
    private long nextSendPs;

    MSwift(Params p, QpContext qp) {
        this.p = p;
        this.lineRateMbps = qp.lineRateMbps();
        this.frameBytes = qp.mtuBytes() + qp.headerBytes();
        this.gapBytes = qp.gapBytes();
        this.targetPs = qp.baseRttPs() + Time.serializationPs(p.queueAllowanceBytes(), lineRateMbps);
        // start at line rate: the window that fills the target delay
        this.windowPackets = Math.max(p.minWindowPackets(), targetPs / (double) Time.serializationPs(frameBytes + gapBytes, lineRateMbps));
        this.lastRttPs = qp.baseRttPs();
    }

    @Override
    public long earliestSendPs(long nowPs, long inflightBytes) {
        if (windowPackets >= 1) {
            return inflightBytes + frameBytes <= windowPackets * frameBytes ? nowPs : Long.MAX_VALUE;
        }
        // below one packet per RTT Swift paces: one packet every rtt / window
        return inflightBytes > 0 ? Long.MAX_VALUE : Math.max(nowPs, nextSendPs);
    }

    @Override
    public void onSent(int wireBytes, long nowPs) {
        if (windowPackets < 1) {
            nextSendPs = nowPs + (long) (lastRttPs / windowPackets);
        }
    }

    @Override
    public void onAck(Packet ack, long nowPs) {
        if (ack.kind != Packet.ACK) {
            return;
        }
        long rtt = nowPs - ack.echoSentPs;
        lastRttPs = rtt;
        acksInRound++;
        if (rtt >= targetPs) {
            acksAboveTarget++;
        } else {
            windowPackets += p.additiveIncrease() / Math.max(1, windowPackets);
        }
        if (nowPs >= roundEndPs) {
            // end of a round trip: decrease once if most of its ACKs saw too much delay
            if (acksAboveTarget * 2 > acksInRound && nowPs - lastDecreasePs >= rtt) {
                double cut = Math.min(p.maxDecrease(), p.beta() * (rtt - targetPs) / (double) rtt);
                windowPackets = Math.max(p.minWindowPackets(), windowPackets * (1 - cut));
                lastDecreasePs = nowPs;
            }
            acksInRound = 0;
            acksAboveTarget = 0;
            roundEndPs = nowPs + rtt;
        }
        long lineWindow = (long) Math.ceil(targetPs / (double) Time.serializationPs(frameBytes + gapBytes, lineRateMbps)) * 4;
        windowPackets = Math.min(windowPackets, lineWindow);
    }

    @Override
    public void onTimeout(long nowPs) {
        windowPackets = Math.max(p.minWindowPackets(), windowPackets * (1 - p.maxDecrease()));
    }

    @Override
    public long rateMbps() {
        double rate = windowPackets * frameBytes * 8.0 * 1e6 / Math.max(1, lastRttPs);
        return (long) Math.min(lineRateMbps, rate);
    }

    public double windowPackets() {
        return windowPackets;
    }

    public long targetPs() {
        return targetPs;
    }
}
