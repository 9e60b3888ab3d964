package org.lbsim.scenario;

/** What a run samples over time, beyond the end-of-run statistics that are always collected. */
public record MetricsSpec(
        @Doc("sampling interval in microseconds for queue and rate time series; 0 = no time series") double sampleIntervalUs,
        @Doc("sample the sending rate of this many queue pairs (the first ones by id)") int rateSeriesQps,
        @Doc("window in microseconds for the PRO V-A balance series (per layer, busiest over mean link load of each window;"
                + " out-of-order degree p50 / p99 so far); 0 = off (PRO: 10); needs sampleIntervalUs > 0") double balanceWindowUs) {

    public MetricsSpec {
        Checks.periodOrZeroUs(sampleIntervalUs, "sampleIntervalUs");
        Checks.periodOrZeroUs(balanceWindowUs, "balanceWindowUs");
        ScenarioException.require(balanceWindowUs == 0 || sampleIntervalUs > 0, "balanceWindowUs",
                "needs time series on (sampleIntervalUs > 0), got sampleIntervalUs 0");
        ScenarioException.require(rateSeriesQps >= 0 && rateSeriesQps <= 1024, "rateSeriesQps", "must be between 0 and 1024, got " + rateSeriesQps);
    }

    /** Queue and rate series only, no balance series. */
    public MetricsSpec(double sampleIntervalUs, int rateSeriesQps) {
        this(sampleIntervalUs, rateSeriesQps, 0);
    }

    public static MetricsSpec defaults() {
        return new MetricsSpec(1, 4, 0);
    }
}
