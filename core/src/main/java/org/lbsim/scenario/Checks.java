package org.lbsim.scenario;

import java.util.Locale;

/**
 * Range checks for times and rates that the kernel turns into whole picoseconds and megabits per
 * second: a value must survive that rounding (no 0 ps period that would freeze simulated time) and
 * stay far enough from {@code Long.MAX_VALUE} that sums of times cannot overflow.
 */
public final class Checks {
    /** The longest simulated time, period or start time accepted: 10^9 us (1000 s, 10^15 ps). */
    public static final double MAX_TIME_US = 1e9;
    /** The longest one-way link delay accepted: 1 s. */
    public static final double MAX_DELAY_NS = 1e9;
    /** The fastest link: 1 Pb/s. The slowest: 1 Mb/s (rates are kept in whole Mb/s). */
    public static final double MAX_RATE_GBPS = 1e6;
    /** The slowest rate anything is kept at, link or pacing: a lower one is 0 Mb/s, a division by zero. */
    public static final long MIN_RATE_MBPS = 1;
    public static final double MIN_RATE_GBPS = MIN_RATE_MBPS / 1000.0;

    private Checks() {
    }

    /** A period or timeout in microseconds: positive, at least 1 ps after rounding, at most {@link #MAX_TIME_US}. */
    public static void periodUs(double us, String field) {
        ScenarioException.require(Double.isFinite(us) && us > 0 && Math.round(us * 1e6) >= 1 && us <= MAX_TIME_US, field,
                "must be a number of microseconds between 0.000001 (1 ps) and " + fmt(MAX_TIME_US) + ", got " + plain(us));
    }

    /** As {@link #periodUs} but 0 (off) is allowed too. */
    public static void periodOrZeroUs(double us, String field) {
        if (us != 0) {
            ScenarioException.require(Double.isFinite(us) && us > 0 && Math.round(us * 1e6) >= 1 && us <= MAX_TIME_US, field,
                    "must be 0 (off) or a number of microseconds between 0.000001 (1 ps) and " + fmt(MAX_TIME_US) + ", got " + plain(us));
        }
    }

    /** A one-way delay in nanoseconds: 0 to {@link #MAX_DELAY_NS}. */
    public static void delayNs(double ns, String field) {
        ScenarioException.require(Double.isFinite(ns) && ns >= 0 && ns <= MAX_DELAY_NS, field,
                "must be a number of nanoseconds between 0 and " + fmt(MAX_DELAY_NS) + " (1 s), got " + plain(ns));
    }

    /** A link or sending rate in Gb/s: {@link #MIN_RATE_GBPS} to {@link #MAX_RATE_GBPS}. */
    public static void rateGbps(double gbps, String field) {
        ScenarioException.require(Double.isFinite(gbps) && gbps >= MIN_RATE_GBPS && gbps <= MAX_RATE_GBPS, field,
                "must be a number of Gb/s between " + fmt(MIN_RATE_GBPS) + " and " + fmt(MAX_RATE_GBPS) + ", got " + plain(gbps));
    }

    /** A value for messages as a file would say it: 0.0005 rather than 5.0E-4; very large or small ones as {@link #fmt}. */
    public static String plain(double v) {
        if (!Double.isFinite(v) || v != 0 && (Math.abs(v) < 1e-9 || Math.abs(v) >= 1e15)) {
            return fmt(v);
        }
        return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }

    /** Shortest text of a double for messages: 1e+30 as 1.0E30, 1000000 as 1000000. */
    public static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }
}
