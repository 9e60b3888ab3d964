package org.lbsim.scenario;

/** Properties shared by every switch of the fabric. */
public record SwitchSpec(
        @Doc("egress buffer model") BufferSpec buffer,
        @Doc("ECN marking on enqueue") EcnSpec ecn,
        @Doc("priority flow control (lossless)") PfcSpec pfc,
        @Doc("ACK, NACK and CNP leave every switch port ahead of queued data (strict priority, as the ns-3 RDMA model of HPCC,"
                + " ConWeave and DLBF sends them in the top priority class); false = one FIFO per port") boolean controlPriority) {

    public SwitchSpec {
        ScenarioException.require(buffer != null, "buffer", "is required");
        ScenarioException.require(ecn != null, "ecn", "is required");
        ScenarioException.require(pfc != null, "pfc", "is required");
        if (pfc.enabled() && pfc.dynamicAlpha() > 0 && !(buffer instanceof BufferSpec.SharedDynamic)) {
            throw new ScenarioException("pfc.dynamicAlpha", "needs buffer type shared-dynamic (dynamic XOFF is a share of the free shared buffer)");
        }
    }

    /** One FIFO per port. */
    public SwitchSpec(BufferSpec buffer, EcnSpec ecn, PfcSpec pfc) {
        this(buffer, ecn, pfc, false);
    }

    /** Without PFC. */
    public SwitchSpec(BufferSpec buffer, EcnSpec ecn) {
        this(buffer, ecn, PfcSpec.defaults());
    }

    public static SwitchSpec defaults() {
        return new SwitchSpec(BufferSpec.defaults(), EcnSpec.defaults(), PfcSpec.defaults(), false);
    }
}
