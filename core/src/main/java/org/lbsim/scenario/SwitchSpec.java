package org.lbsim.scenario;

/** Properties shared by every switch of the fabric. */
public record SwitchSpec(
        @Doc("egress buffer model") BufferSpec buffer,
        @Doc("ECN marking on enqueue") EcnSpec ecn,
        @Doc("priority flow control (lossless)") PfcSpec pfc,
        @Doc("ACK, NACK and CNP leave every switch port from a strict-priority control queue ahead of data, outside the buffer, ECN and PFC (ns-3's AckHighPrio, conweave-ns3 network-load-balance.cc:1445, switch-node.cc:228-232); false = one FIFO for all packets") boolean controlPriority,
        @Doc("what a port does with a data packet its buffer refuses: 'drop-tail' (drop it) or 'trim' (NDP 3.1: cut the payload, send the header ahead of the data; the receiver NACKs that PSN)") String overflow) {

    /** The overflow policy of every switch until a scenario names another. */
    public static final String DROP_TAIL = "drop-tail";

    public SwitchSpec {
        ScenarioException.require(overflow != null && !overflow.isBlank(), "overflow", "is required (drop-tail or trim)");
        ScenarioException.require(buffer != null, "buffer", "is required");
        ScenarioException.require(ecn != null, "ecn", "is required");
        ScenarioException.require(pfc != null, "pfc", "is required");
        if (pfc.enabled() && pfc.dynamicAlpha() > 0 && !buffer.shared()) {
            throw new ScenarioException("pfc.dynamicAlpha", "needs buffer type shared-dynamic (dynamic XOFF is a share of the free shared buffer)");
        }
    }

    /** Drop-tail. */
    public SwitchSpec(BufferSpec buffer, EcnSpec ecn, PfcSpec pfc, boolean controlPriority) {
        this(buffer, ecn, pfc, controlPriority, DROP_TAIL);
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
        return new SwitchSpec(BufferSpec.defaults(), EcnSpec.defaults(), PfcSpec.defaults(), false, DROP_TAIL);
    }
}
