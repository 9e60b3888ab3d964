package org.lbsim.scenario;

/** Rate and one-way propagation delay of every link of one tier. */
public record LinkSpec(
        @Doc("link rate in Gb/s") double rateGbps,
        @Doc("one-way propagation delay in ns") double delayNs) {

    public LinkSpec {
        ScenarioException.require(rateGbps > 0 && Double.isFinite(rateGbps), "rateGbps", "must be a positive number of Gb/s, got " + rateGbps);
        ScenarioException.require(delayNs >= 0 && Double.isFinite(delayNs), "delayNs", "must be >= 0 ns, got " + delayNs);
    }

    public static LinkSpec defaults() {
        return new LinkSpec(800, 500);
    }

    public long delayPs() {
        return Math.round(delayNs * 1000.0);
    }

    /** Rate in bits per microsecond... kept as Mb/s so that serialization in ps is exact for common rates. */
    public long rateMbps() {
        return Math.round(rateGbps * 1000.0);
    }
}
