package org.lbsim.scenario;

/** RED-style ECN marking: probability 0 below kmin, rising linearly to pmax at kmax, 1 above kmax; on enqueue or on dequeue. */
public record EcnSpec(
        @Doc("mark packets (true) or never mark (false)") boolean enabled,
        @Doc("queue bytes where marking starts") long kminBytes,
        @Doc("queue bytes where marking probability reaches pmax; above it every packet is marked") long kmaxBytes,
        @Doc("marking probability at kmax, 0..1") double pmax,
        @Doc("enqueue (the packet is marked for the queue it joins) | dequeue (for the queue it leaves behind, as the ns-3 RDMA"
                + " switch of HPCC / ConWeave / DLBF marks in SwitchNotifyDequeue: the signal does not wait out the queue)") String markAt) {
        public static final String ENQUEUE = "enqueue";
        public static final String DEQUEUE = "dequeue";

    public EcnSpec {
        ScenarioException.require(kminBytes >= 0, "kminBytes", "must be >= 0, got " + kminBytes);
        ScenarioException.require(kmaxBytes >= kminBytes, "kmaxBytes", "must be >= kminBytes (" + kminBytes + "), got " + kmaxBytes);
        ScenarioException.require(pmax >= 0 && pmax <= 1, "pmax", "must be between 0 and 1, got " + pmax);
        ScenarioException.require(ENQUEUE.equals(markAt) || DEQUEUE.equals(markAt), "markAt", "must be enqueue or dequeue, got " + markAt);
    }

    /** Marking on enqueue. */
    public EcnSpec(boolean enabled, long kminBytes, long kmaxBytes, double pmax) {
        this(enabled, kminBytes, kmaxBytes, pmax, ENQUEUE);
    }

    /** PRO's DCQCN settings (Kmin 100 KB, Kmax 400 KB, Pmax 20%), switched on. */
    public static EcnSpec defaults() {
        return new EcnSpec(true, 100_000, 400_000, 0.2, ENQUEUE);
    }
}
