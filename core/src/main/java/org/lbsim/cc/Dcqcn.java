package org.lbsim.cc;

import org.lbsim.kernel.Time;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.QpContext;

/**
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015) in the form commodity RNICs implement it and the
 * HPCC / ConWeave ns-3 simulators model it ("Mellanox DCQCN"); the defaults are the HPCC setting the
 * Themis paper calls recommended (section 4: T_I = 900 us, T_D = 4 us). Three periodic timers, all
 * started by the first congestion signal:
 * <ul>
 *   <li>alpha, every {@code alphaUpdateUs}: alpha = (1-g) alpha + g if a CNP arrived in the period,
 *       else (1-g) alpha;</li>
 *   <li>rate decrease, every T_D: if a CNP arrived since the last check, current *= 1 - alpha/2
 *       (the target is clamped to the old current only once recovery had begun, unless
 *       {@code clampTargetRate}), and the increase stages restart;</li>
 *   <li>rate increase, every T_I: the first {@code fastRecoveryStages} stages move halfway to the
 *       target (fast recovery), the next adds the additive step to the target, later ones the hyper
 *       step, each then moving halfway to the target.</li>
 * </ul>
 * A NACK counts as a CNP: commodity RNICs treat it as a congestion signal (Themis 2.2; switchable
 * to study what that reaction costs). An optional
 * byte counter ({@code byteCounterBytes} > 0, the DCQCN paper's B) adds stages for bytes sent; the
 * stage kind then follows the paper: additive once either counter passed F, hyper once both have.
 * The notification point at the receiver sends at most one CNP per queue pair per
 * {@code cnpIntervalUs}. Timers are evaluated lazily, at the exact times they would have fired,
 * whenever the queue pair or a sampler asks.
 */
public final class Dcqcn implements CongestionControl {
    public record Params(
            @Doc("rate increase timer T_I in microseconds (HPCC / Themis recommended: 900)") double rateIncreaseTimerUs,
            @Doc("rate decrease interval T_D in microseconds: a cut at most once per interval (recommended: 4)") double rateDecreaseIntervalUs,
            @Doc("bytes sent per byte-counter stage; 0 = no byte counter (as commodity RNICs and HPCC's ns-3)") long byteCounterBytes,
            @Doc("additive increase step in Gb/s") double additiveIncreaseGbps,
            @Doc("hyper increase step in Gb/s") double hyperIncreaseGbps,
            @Doc("EWMA gain g of alpha") double alphaGain,
            @Doc("microseconds between alpha updates") double alphaUpdateUs,
            @Doc("stages of fast recovery before additive increase") int fastRecoveryStages,
            @Doc("lowest rate in Gb/s") double minRateGbps,
            @Doc("minimum microseconds between CNPs a receiver sends for one queue pair") double cnpIntervalUs,
            @Doc("on every cut, set the target to the current rate (false: only once recovery had begun)") boolean clampTargetRate,
            @Doc("a NACK counts as a CNP, as on commodity RNICs (Themis 2.2); false = only CNPs cut the rate") boolean nackIsCongestionSignal) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(rateIncreaseTimerUs, "rateIncreaseTimerUs");
            org.lbsim.scenario.Checks.periodUs(rateDecreaseIntervalUs, "rateDecreaseIntervalUs");
            ScenarioException.require(byteCounterBytes >= 0, "byteCounterBytes", "must be >= 0 (0 = off), got " + byteCounterBytes);
            org.lbsim.scenario.Checks.rateGbps(additiveIncreaseGbps, "additiveIncreaseGbps");
            org.lbsim.scenario.Checks.rateGbps(hyperIncreaseGbps, "hyperIncreaseGbps");
            ScenarioException.require(alphaGain > 0 && alphaGain <= 1, "alphaGain", "must be in (0, 1], got " + org.lbsim.scenario.Checks.plain(alphaGain));
            org.lbsim.scenario.Checks.periodUs(alphaUpdateUs, "alphaUpdateUs");
            ScenarioException.require(fastRecoveryStages >= 0, "fastRecoveryStages", "must be >= 0, got " + fastRecoveryStages);
            org.lbsim.scenario.Checks.rateGbps(minRateGbps, "minRateGbps");
            org.lbsim.scenario.Checks.periodOrZeroUs(cnpIntervalUs, "cnpIntervalUs");
        }

        /**
         * HPCC's DCQCN setting (its ns-3 configuration), which the Themis paper calls recommended:
         * T_I 900 us, T_D 4 us, alpha updated every 1 us with g = 1/256, one fast-recovery stage,
         * additive 50 Mb/s, hyper 100 Mb/s, minimum 100 Mb/s, no byte counter, no target clamping.
         */
        public static Params defaults() {
            return new Params(900, 4, 0, 0.05, 0.1, 1.0 / 256, 1, 1, 0.1, 4, false, true);
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

    private static final long NEVER = Long.MAX_VALUE;

    private final long lineRateMbps;
    private final double minRateMbps;
    private final double aiMbps;
    private final double haiMbps;
    private final double g;
    private final long increasePeriodPs;
    private final long decreasePeriodPs;
    private final long alphaPeriodPs;
    private final long byteCounter;
    private final int fastStages;
    private final boolean clampTarget;
    private final boolean nackSignals;
    private final int gapBytes;

    private double currentMbps;
    private double targetMbps;
    private double alpha = 1.0;
    /** Alpha updates without a CNP not yet applied to {@link #alpha} (applied in one step, so the result does not depend on when timers are evaluated). */
    private long quietAlphaTicks;
    private boolean started;
    private boolean cnpSinceAlphaUpdate;
    private boolean cnpSinceDecreaseCheck;
    private long nextAlphaPs = NEVER;
    private long nextDecreasePs = NEVER;
    private long nextIncreasePs = NEVER;
    private long bytesSinceStage;
    private int timerStages;
    private int byteStages;
    private long nextSendPs;
    private long cuts;
    private long signals;

    Dcqcn(Params p, long lineRateMbps, int gapBytes) {
        this.lineRateMbps = lineRateMbps;
        this.minRateMbps = p.minRateGbps() * 1000;
        this.aiMbps = p.additiveIncreaseGbps() * 1000;
        this.haiMbps = p.hyperIncreaseGbps() * 1000;
        this.g = p.alphaGain();
        this.increasePeriodPs = Time.us(p.rateIncreaseTimerUs());
        this.decreasePeriodPs = Math.max(1, Time.us(p.rateDecreaseIntervalUs()));
        this.alphaPeriodPs = Math.max(1, Time.us(p.alphaUpdateUs()));
        this.byteCounter = p.byteCounterBytes();
        this.fastStages = p.fastRecoveryStages();
        this.clampTarget = p.clampTargetRate();
        this.nackSignals = p.nackIsCongestionSignal();
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
        if (byteCounter > 0 && currentMbps < lineRateMbps) {
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
        congestionSignal(nowPs);
    }

    // Themis 2.2: commodity RNICs cut their rate on a NACK as on a CNP
    @Override
    public void onNack(long nowPs) {
        if (nackSignals) {
            congestionSignal(nowPs);
        }
    }

    private void congestionSignal(long nowPs) {
        advanceTimers(nowPs);
        alpha = alpha();
        quietAlphaTicks = 0;
        signals++;
        cnpSinceAlphaUpdate = true;
        cnpSinceDecreaseCheck = true;
        if (!started) {
            // the first CNP starts the timers; alpha starts at 1 and the first cut comes at the
            // first decrease check, after the alpha update of that instant
            started = true;
            alpha = 1.0;
            cnpSinceAlphaUpdate = false;
            nextAlphaPs = nowPs + alphaPeriodPs;
            nextDecreasePs = nowPs + decreasePeriodPs;
        }
    }

    /** Fires, in time order, every timer due by {@code nowPs}; quiet stretches are skipped in bulk. */
    private void advanceTimers(long nowPs) {
        while (true) {
            if (!cnpSinceAlphaUpdate && !cnpSinceDecreaseCheck) {
                skipQuietTimers(nowPs);
                return;
            }
            long t = Math.min(nextAlphaPs, Math.min(nextDecreasePs, nextIncreasePs));
            if (t > nowPs) {
                return;
            }
            // at equal times: alpha first, then the decrease check, then the increase (as HPCC orders them)
            if (nextAlphaPs == t) {
                updateAlpha();
            } else if (nextDecreasePs == t) {
                checkDecrease(t);
            } else {
                increaseTimerFired();
            }
        }
    }

    /** Without pending CNPs alpha only decays, decrease checks do nothing and increases do not depend on alpha. */
    private void skipQuietTimers(long nowPs) {
        if (nextAlphaPs <= nowPs) {
            long ticks = (nowPs - nextAlphaPs) / alphaPeriodPs + 1;
            quietAlphaTicks += ticks;
            nextAlphaPs += ticks * alphaPeriodPs;
        }
        if (nextDecreasePs <= nowPs) {
            nextDecreasePs += ((nowPs - nextDecreasePs) / decreasePeriodPs + 1) * decreasePeriodPs;
        }
        while (nextIncreasePs <= nowPs) {
            if (currentMbps >= lineRateMbps && targetMbps >= lineRateMbps) {
                // at line rate further stages change nothing but their count
                long ticks = (nowPs - nextIncreasePs) / increasePeriodPs + 1;
                timerStages = (int) Math.min(Integer.MAX_VALUE, timerStages + ticks);
                nextIncreasePs += ticks * increasePeriodPs;
                return;
            }
            increaseTimerFired();
        }
    }

    private void updateAlpha() {
        alpha = cnpSinceAlphaUpdate ? (1 - g) * alpha + g : (1 - g) * alpha;
        cnpSinceAlphaUpdate = false;
        nextAlphaPs += alphaPeriodPs;
    }

    private void checkDecrease(long nowPs) {
        nextDecreasePs += decreasePeriodPs;
        if (!cnpSinceDecreaseCheck) {
            return;
        }
        cnpSinceDecreaseCheck = false;
        cuts++;
        if (clampTarget || timerStages != 0 || byteStages != 0) {
            targetMbps = currentMbps;
        }
        currentMbps = Math.max(minRateMbps, currentMbps * (1 - alpha / 2));
        timerStages = 0;
        byteStages = 0;
        bytesSinceStage = 0;
        nextIncreasePs = nowPs + increasePeriodPs;
    }

    private void increaseTimerFired() {
        nextIncreasePs += increasePeriodPs;
        increase();
        timerStages++;
    }

    /** One recovery stage; the stage kind counts the stages already completed. */
    private void increase() {
        int done = byteCounter > 0 ? Math.max(timerStages, byteStages) : timerStages;
        if (done >= fastStages) {
            boolean hyper = byteCounter > 0 ? Math.min(timerStages, byteStages) > fastStages : timerStages > fastStages;
            targetMbps = Math.min(lineRateMbps, targetMbps + (hyper ? haiMbps : aiMbps));
        }
        currentMbps = Math.min(lineRateMbps, (targetMbps + currentMbps) / 2);
    }

    @Override
    public long rateMbps() {
        return (long) currentMbps;
    }

    @Override
    public long rateMbpsAt(long nowPs) {
        advanceTimers(nowPs);
        return rateMbps();
    }

    public double alpha() {
        return quietAlphaTicks == 0 ? alpha : alpha * Math.pow(1 - g, quietAlphaTicks);
    }

    /** Rate cuts applied so far. */
    public long cuts() {
        return cuts;
    }

    /** Congestion signals (CNPs and NACKs) received so far. */
    public long signals() {
        return signals;
    }
}
