package org.lbsim.kernel;

/**
 * A component that receives an object along with a wake-up ({@link Simulator#transfer}): a link
 * takes the packet onto its wire. In a partitioned run the object crosses to the partition of the
 * receiving component at the synchronisation point that precedes the wake-up.
 */
public interface PayloadHandler extends EventHandler {
    /** Called when the wake-up is scheduled (same partition) or at the next synchronisation point, before the wake-up runs. */
    void accept(Object payload);
}
