package org.lbsim.scenario;

/** What a run samples over time, beyond the end-of-run statistics that are always collected. */
public record MetricsSpec(
        @Doc("sampling interval in microseconds for queue and rate time series; 0 = no time series") double sampleIntervalUs,
        @Doc("sample the sending rate of this many queue pairs (the first ones by id)") int rateSeriesQps) {

    public MetricsSpec {
        Checks.periodOrZeroUs(sampleIntervalUs, "sampleIntervalUs");
        ScenarioException.require(rateSeriesQps >= 0 && rateSeriesQps <= 1024, "rateSeriesQps", "must be between 0 and 1024, got " + rateSeriesQps);
    }

    public static MetricsSpec defaults() {
        return new MetricsSpec(1, 4);
    }
}
