package org.lbsim.scenario;

/** Rate and one-way propagation delay of every link of one tier. */
public record LinkSpec(
        @Doc("link rate in Gb/s") double rateGbps,
        @Doc("one-way propagation delay in ns") double delayNs) {

    public LinkSpec {
        Checks.rateGbps(rateGbps, "rateGbps");
        Checks.delayNs(delayNs, "delayNs");
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
