package org.lbsim.scenario;

/** RED-style ECN marking on enqueue: probability 0 below kmin, rising linearly to pmax at kmax, 1 above kmax. */
public record EcnSpec(
        @Doc("mark packets (true) or never mark (false)") boolean enabled,
        @Doc("queue bytes where marking starts") long kminBytes,
        @Doc("queue bytes where marking probability reaches pmax; above it every packet is marked") long kmaxBytes,
        @Doc("marking probability at kmax, 0..1") double pmax) {

    public EcnSpec {
        ScenarioException.require(kminBytes >= 0, "kminBytes", "must be >= 0, got " + kminBytes);
        ScenarioException.require(kmaxBytes >= kminBytes, "kmaxBytes", "must be >= kminBytes (" + kminBytes + "), got " + kmaxBytes);
        ScenarioException.require(pmax >= 0 && pmax <= 1, "pmax", "must be between 0 and 1, got " + pmax);
    }

    /** PRO's DCQCN settings (Kmin 100 KB, Kmax 400 KB, Pmax 20%), switched on. */
    public static EcnSpec defaults() {
        return new EcnSpec(true, 100_000, 400_000, 0.2);
    }
}
