package org.lbsim.scenario;

/** What a run samples over time, beyond the end-of-run statistics that are always collected. */
public record MetricsSpec(
        @Doc("sampling interval in microseconds for queue and rate time series; 0 = no time series") double sampleIntervalUs,
        @Doc("sample the sending rate of this many queue pairs (the first ones by id)") int rateSeriesQps,
        @Doc("report every leaf port's utilization (uplinks one by one, and their variance per leaf) over a window opening at this time in us; -1 = off") double portLoadsFromUs,
        @Doc("when the port-load window closes, in us; 0 = when the last flow completes") double portLoadsToUs,
        @Doc("window in microseconds for the PRO V-A balance series (per layer, busiest over mean link load of each window;"
                + " out-of-order degree p50 / p99 so far); 0 = off (PRO: 10); needs sampleIntervalUs > 0") double balanceWindowUs) {

    public MetricsSpec {
        Checks.periodOrZeroUs(sampleIntervalUs, "sampleIntervalUs");
        Checks.periodOrZeroUs(balanceWindowUs, "balanceWindowUs");
        ScenarioException.require(balanceWindowUs == 0 || sampleIntervalUs > 0, "balanceWindowUs",
                "needs time series on (sampleIntervalUs > 0), got sampleIntervalUs 0");
        ScenarioException.require(rateSeriesQps >= 0 && rateSeriesQps <= 1024, "rateSeriesQps", "must be between 0 and 1024, got " + rateSeriesQps);
        ScenarioException.require(portLoadsFromUs == -1 || portLoadsFromUs >= 0 && Double.isFinite(portLoadsFromUs), "portLoadsFromUs",
                "must be -1 (off) or a time >= 0 us, got " + portLoadsFromUs);
        ScenarioException.require(portLoadsToUs == 0 || portLoadsToUs > Math.max(0, portLoadsFromUs) && Double.isFinite(portLoadsToUs),
                "portLoadsToUs", "must be 0 (until the last flow completes) or after portLoadsFromUs, got " + portLoadsToUs);
    }

    /** Queue and rate series only: no port loads, no balance series. */
    public MetricsSpec(double sampleIntervalUs, int rateSeriesQps) {
        this(sampleIntervalUs, rateSeriesQps, -1, 0, 0);
    }

    public static MetricsSpec defaults() {
        return new MetricsSpec(1, 4, -1, 0, 0);
    }
}
