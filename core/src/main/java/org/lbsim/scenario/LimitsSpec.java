package org.lbsim.scenario;

/** When a run gives up. */
public record LimitsSpec(
        @Doc("simulated time limit in microseconds; flows unfinished by then are reported as incomplete") double maxTimeUs) {
    public LimitsSpec {
        Checks.periodUs(maxTimeUs, "maxTimeUs");
    }

    public static LimitsSpec defaults() {
        return new LimitsSpec(1_000_000);
    }

    public long maxTimePs() {
        return Math.round(maxTimeUs * 1_000_000.0);
    }
}
