package org.lbsim.net;

/**
 * Per-switch code that sees every packet the switch receives, before any forwarding decision:
 * single-port groups and traffic down to hosts included (Themis-D records the PSNs it sends to the
 * NIC; ConWeave reorders at the destination ToR). A stage may let the packet go on (possibly with
 * rewritten header fields: entropy, pathId, trafficClass, schemeBits), consume it with a named
 * reason ({@link Switch#consume}), hold it and hand it back later ({@link Switch#forward}, from its
 * own timer), or make new packets ({@link Switch#originate}). Built per switch by the run's scheme;
 * {@link #PASS} when the scheme has none, so the call site stays monomorphic.
 */
public interface IngressStage {
    /** Lets every packet through untouched. */
    IngressStage PASS = new Pass();

    /**
     * @param p           the packet, its hop count already incremented and {@code ingressPort} set
     * @param ingressPort the port of this switch it came in on
     * @return true to forward the packet now; false when the stage has consumed or holds it
     */
    boolean onIngress(Packet p, int ingressPort);

    /** Runs {@code first}, then {@code second} on what {@code first} lets through. */
    static IngressStage chain(IngressStage first, IngressStage second) {
        if (first == PASS) {
            return second;
        }
        if (second == PASS) {
            return first;
        }
        return (p, port) -> first.onIngress(p, port) && second.onIngress(p, port);
    }

    /** The Null Object: a named class so a run without stages profiles one receiver type. */
    final class Pass implements IngressStage {
        private Pass() {
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            return true;
        }
    }
}
