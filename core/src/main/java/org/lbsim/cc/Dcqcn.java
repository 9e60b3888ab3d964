package org.lbsim.cc;

import org.lbsim.kernel.Time;
import org.lbsim.qp.QpContext;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;

/**
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015), as the HPCC / ConWeave ns-3 simulators model it.
 * A CNP (or, on commodity RNICs, a NACK: Themis 2.2) cuts the rate, at most once per rate-decrease
 * interval T_D: target = current, current *= (1 - alpha/2), alpha = (1-g) alpha + g. Without CNPs,
 * alpha decays every {@code alphaUpdateUs}. The rate recovers in stages counted by a timer (T_I)
 * and a byte counter: the first {@code fastRecoveryStages} stages move halfway to the target (fast
 * recovery), then the target grows by the additive step, and by the hyper step once both counters
 * are past the fast-recovery stages. The notification point at the receiver sends at most one CNP
 * per queue pair per {@code cnpIntervalUs}. Timers are evaluated lazily when the queue pair asks
 * when it may send next, at the exact times they would have fired.
 */
public final class Dcqcn implements CongestionControl {
    public record Params(
            @Doc("rate increase timer T_I in microseconds (Themis, recommended: 900)") double rateIncreaseTimerUs,
            @Doc("rate decrease interval T_D in microseconds: at most one cut per interval (recommended: 4)") double rateDecreaseIntervalUs,
            @Doc("bytes sent per byte-counter stage") long byteCounterBytes,
            @Doc("additive increase step in Gb/s") double additiveIncreaseGbps,
            @Doc("hyper increase step in Gb/s") double hyperIncreaseGbps,
            @Doc("EWMA gain g of alpha") double alphaGain,
            @Doc("microseconds between alpha decays without CNPs") double alphaUpdateUs,
            @Doc("stages of fast recovery before additive increase") int fastRecoveryStages,
            @Doc("lowest rate in Gb/s") double minRateGbps,
            @Doc("minimum microseconds between CNPs a receiver sends for one queue pair") double cnpIntervalUs) {
        public Params {
            ScenarioException.require(rateIncreaseTimerUs > 0, "rateIncreaseTimerUs", "must be > 0, got " + rateIncreaseTimerUs);
            ScenarioException.require(rateDecreaseIntervalUs >= 0, "rateDecreaseIntervalUs", "must be >= 0, got " + rateDecreaseIntervalUs);
            ScenarioException.require(byteCounterBytes > 0, "byteCounterBytes", "must be > 0, got " + byteCounterBytes);
            ScenarioException.require(additiveIncreaseGbps > 0, "additiveIncreaseGbps", "must be > 0, got " + additiveIncreaseGbps);
            ScenarioException.require(hyperIncreaseGbps > 0, "hyperIncreaseGbps", "must be > 0, got " + hyperIncreaseGbps);
            ScenarioException.require(alphaGain > 0 && alphaGain <= 1, "alphaGain", "must be in (0, 1], got " + alphaGain);
            ScenarioException.require(alphaUpdateUs > 0, "alphaUpdateUs", "must be > 0, got " + alphaUpdateUs);
            ScenarioException.require(fastRecoveryStages >= 0, "fastRecoveryStages", "must be >= 0, got " + fastRecoveryStages);
            ScenarioException.require(minRateGbps > 0, "minRateGbps", "must be > 0, got " + minRateGbps);
            ScenarioException.require(cnpIntervalUs >= 0, "cnpIntervalUs", "must be >= 0, got " + cnpIntervalUs);
        }

        /** Themis' recommended setting (T_I 900 us, T_D 4 us) with the DCQCN paper's other constants. */
        public static Params defaults() {
            return new Params(900, 4, 10_000_000, 5, 50, 1.0 / 256, 55, 5, 0.1, 4);
        }
    }

    public static CongestionControlFactory factory(Params p) {
        return new CongestionControlFactory() {
            @Override
            public CongestionControl create(QpContext qp) {
                return new Dcqcn(p, qp.lineRateMbps(), qp.gapBytes());
            }

            @Override
            public long cnpIntervalPs() {
                return Math.max(1, Time.us(p.cnpIntervalUs()));
            }
        };
    }

    private final long lineRateMbps;
    private final long minRateMbps;
    private final long aiMbps;
    private final long haiMbps;
    private final double g;
    private final long timerPs;
    private final long decreaseIntervalPs;
    private final long alphaIntervalPs;
    private final long byteCounter;
    private final int fastStages;
    private final int gapBytes;

    private double currentMbps;
    private double targetMbps;
    private double alpha = 1.0;
    private long lastCutPs = Long.MIN_VALUE / 2;
    private long nextIncreasePs = Long.MAX_VALUE;
    private long nextAlphaPs = Long.MAX_VALUE;
    private long bytesSinceStage;
    private int timerStages;
    private int byteStages;
    private long nextSendPs;
    private long cuts;

    Dcqcn(Params p, long lineRateMbps, int gapBytes) {
        this.lineRateMbps = lineRateMbps;
        this.minRateMbps = Math.round(p.minRateGbps() * 1000);
        this.aiMbps = Math.round(p.additiveIncreaseGbps() * 1000);
        this.haiMbps = Math.round(p.hyperIncreaseGbps() * 1000);
        this.g = p.alphaGain();
        this.timerPs = Time.us(p.rateIncreaseTimerUs());
        this.decreaseIntervalPs = Time.us(p.rateDecreaseIntervalUs());
        this.alphaIntervalPs = Time.us(p.alphaUpdateUs());
        this.byteCounter = p.byteCounterBytes();
        this.fastStages = p.fastRecoveryStages();
        this.gapBytes = gapBytes;
        this.currentMbps = lineRateMbps;
        this.targetMbps = lineRateMbps;
    }

    @Override
    public long earliestSendPs(long nowPs, long inflightBytes) {
        advanceTimers(nowPs);
        return nextSendPs;
    }

    @Override
    public void onSent(int wireBytes, long nowPs) {
        advanceTimers(nowPs);
        long rate = rateMbps();
        nextSendPs = Math.max(nextSendPs, nowPs) + (rate >= lineRateMbps ? 0 : Time.serializationPs(wireBytes + gapBytes, rate));
        if (currentMbps < lineRateMbps) {
            bytesSinceStage += wireBytes;
            if (bytesSinceStage >= byteCounter) {
                bytesSinceStage = 0;
                byteStages++;
                increase();
            }
        }
    }

    @Override
    public void onCnp(long nowPs) {
        cut(nowPs);
    }

    @Override
    public void onNack(long nowPs) {
        cut(nowPs);
    }

    private void cut(long nowPs) {
        advanceTimers(nowPs);
        if (nowPs - lastCutPs < decreaseIntervalPs) {
            return;
        }
        lastCutPs = nowPs;
        cuts++;
        targetMbps = currentMbps;
        currentMbps = Math.max(minRateMbps, currentMbps * (1 - alpha / 2));
        alpha = (1 - g) * alpha + g;
        timerStages = 0;
        byteStages = 0;
        bytesSinceStage = 0;
        nextIncreasePs = nowPs + timerPs;
        nextAlphaPs = nowPs + alphaIntervalPs;
        // a slower rate spaces the next packet further from the last one
        nextSendPs = Math.max(nextSendPs, nowPs);
    }

    /** Fires, in time order, every alpha-decay and rate-increase timer due by {@code nowPs}. */
    private void advanceTimers(long nowPs) {
        while (true) {
            long t = Math.min(nextAlphaPs, nextIncreasePs);
            if (t > nowPs) {
                return;
            }
            if (nextAlphaPs <= nextIncreasePs) {
                alpha = (1 - g) * alpha;
                nextAlphaPs += alphaIntervalPs;
            } else {
                timerStages++;
                increase();
                nextIncreasePs = currentMbps >= lineRateMbps ? Long.MAX_VALUE : nextIncreasePs + timerPs;
            }
            if (currentMbps >= lineRateMbps && alpha < 1e-6) {
                nextAlphaPs = Long.MAX_VALUE;
            }
        }
    }

    private void increase() {
        if (Math.max(timerStages, byteStages) > fastStages) {
            if (Math.min(timerStages, byteStages) > fastStages) {
                targetMbps += haiMbps; // hyper increase
            } else {
                targetMbps += aiMbps; // additive increase
            }
            targetMbps = Math.min(targetMbps, lineRateMbps);
        }
        currentMbps = Math.min(lineRateMbps, (targetMbps + currentMbps) / 2);
    }

    @Override
    public long rateMbps() {
        return (long) currentMbps;
    }

    public double alpha() {
        return alpha;
    }

    /** Rate cuts applied so far. */
    public long cuts() {
        return cuts;
    }

    /** For tests: the current rate after firing due timers. */
    public long rateMbpsAt(long nowPs) {
        advanceTimers(nowPs);
        return rateMbps();
    }
}
