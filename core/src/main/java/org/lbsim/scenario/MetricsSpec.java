package org.lbsim.scenario;

/** What a run samples over time, beyond the end-of-run statistics that are always collected. */
public record MetricsSpec(
        @Doc("sampling interval in microseconds for queue and rate time series; 0 = no time series") double sampleIntervalUs,
        @Doc("sample the sending rate of this many queue pairs (the first ones by id)") int rateSeriesQps,
        @Doc("report every leaf port's utilization (uplinks one by one, and their variance per leaf) over a window opening at this time in us; -1 = off") double portLoadsFromUs,
        @Doc("when the port-load window closes, in us; 0 = when the last flow completes") double portLoadsToUs) {

    public MetricsSpec {
        Checks.periodOrZeroUs(sampleIntervalUs, "sampleIntervalUs");
        ScenarioException.require(rateSeriesQps >= 0 && rateSeriesQps <= 1024, "rateSeriesQps", "must be between 0 and 1024, got " + rateSeriesQps);
        ScenarioException.require(portLoadsFromUs == -1 || portLoadsFromUs >= 0 && Double.isFinite(portLoadsFromUs), "portLoadsFromUs",
                "must be -1 (off) or a time >= 0 us, got " + portLoadsFromUs);
        ScenarioException.require(portLoadsToUs == 0 || portLoadsToUs > Math.max(0, portLoadsFromUs) && Double.isFinite(portLoadsToUs),
                "portLoadsToUs", "must be 0 (until the last flow completes) or after portLoadsFromUs, got " + portLoadsToUs);
    }

    /** No port loads. */
    public MetricsSpec(double sampleIntervalUs, int rateSeriesQps) {
        this(sampleIntervalUs, rateSeriesQps, -1, 0);
    }

    public static MetricsSpec defaults() {
        return new MetricsSpec(1, 4, -1, 0);
    }
}
