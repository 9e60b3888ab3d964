package org.lbsim.spi;

import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;

/**
 * A load-balancing scheme as a whole: what hosts put in the entropy (and path) fields and how
 * switches pick among equal-cost ports. Either side may be trivial (fixed entropy, or hashing at
 * switches). Implementations are independent of congestion control and loss recovery.
 */
public interface LoadBalancer {
    /** The entropy policy of a new queue pair. */
    EntropyPolicy newEntropyPolicy(HostContext host);

    /** How the receiving host labels the ACKs of a queue pair (the context is the queue pair's, seen from its receiver). */
    default AckPolicy newAckPolicy(HostContext receiver) {
        return AckPolicy.ECHO;
    }

    /** The port selector of one switch. */
    PortSelector newPortSelector(SwitchContext sw);

    /**
     * Installs this scheme's per-switch program, if it has one: ingress stage, policy table, egress
     * stage ({@link Switch#addIngressStage}, {@link Switch#setPolicyTable}, {@link Switch#setEgressStage}).
     * Called once per switch after its selector is in place; by default the switch keeps its Null Objects.
     */
    default void programSwitch(SwitchContext ctx, Switch sw) {
    }

    /**
     * Routing has converged to {@code fib} during the run (after failures, repairs or the convergence
     * delay of failures from time zero). Switch selectors hear of it through
     * {@link PortSelector#onRoutingChange}; this is for host-side state built from
     * {@link HostContext#convergedFib()} (source-routed paths), which otherwise keeps the routes of
     * the run's start. Called after every switch has the new FIB.
     */
    default void onRoutingChange(org.lbsim.topology.Fib fib) {
    }

    /**
     * Whether queue pair {@code qp} carries a share of its connection's data, asked for each queue
     * pair of a dependent connection (a collective's step) when the connection starts: the connection's
     * bytes are split evenly over the queue pairs that do (CTCCL 3.3 leaves the queue pairs of a failed
     * uplink out). When none or all do, the split is the configured one. By default every queue pair does.
     */
    default boolean carriesData(QpContext qp) {
        return true;
    }

    /**
     * Reports this scheme's per-run counters (switch-program and host-side counts the transport does
     * not keep), once, at the end of the run; they appear in summary.json under {@code schemeCounters},
     * in the results database's {@code counters} table and in the report. By default none.
     */
    default void reportCounters(CounterSink sink) {
    }
}
