package org.lbsim.scenario;

/** Properties shared by every switch of the fabric. */
public record SwitchSpec(
        @Doc("egress buffer model") BufferSpec buffer,
        @Doc("ECN marking on enqueue") EcnSpec ecn,
        @Doc("priority flow control (lossless)") PfcSpec pfc,
        @Doc("ACK, NACK and CNP leave every switch port from a strict-priority control queue ahead of data, outside the buffer, ECN and PFC (ns-3's AckHighPrio, conweave-ns3 network-load-balance.cc:1445, switch-node.cc:228-232); false = one FIFO for all packets") boolean controlPriority) {

    public SwitchSpec {
        ScenarioException.require(buffer != null, "buffer", "is required");
        ScenarioException.require(ecn != null, "ecn", "is required");
        ScenarioException.require(pfc != null, "pfc", "is required");
        if (pfc.enabled() && pfc.dynamicAlpha() > 0 && !(buffer instanceof BufferSpec.SharedDynamic)) {
            throw new ScenarioException("pfc.dynamicAlpha", "needs buffer type shared-dynamic (dynamic XOFF is a share of the free shared buffer)");
        }
    }

    /** One FIFO per port for every packet. */
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
