package org.lbsim.transport;

import org.lbsim.kernel.Time;
import org.lbsim.scenario.ScenarioException;

/**
 * When a receiving RNIC answers out-of-order data with a NACK carrying its expected PSN (ePSN).
 * Two readings, chosen per scenario ({@code lossRecovery.nackGeneration}):
 * <ul>
 *   <li>{@value #ONCE_PER_EPSN} (the default): at most one NACK per ePSN, however long the hole
 *       lasts (Themis 2.2: "each ePSN triggers at most one NACK").</li>
 *   <li>{@value #EPSN_CHANGE_OR_INTERVAL}: the receiver of the HPCC / ConWeave ns-3 simulators
 *       (conweave-ns3 src/point-to-point/model/rdma-hw.cc:651-658, ReceiverCheckSeq): a NACK
 *       whenever the ePSN differs from the last NACKed one or the NACK interval has passed since
 *       the last NACK ({@code now >= m_nackTimer}), which then restarts the interval; so a hole
 *       that outlasts the interval is NACKed again by the next out-of-order arrival.</li>
 * </ul>
 * One instance per receiving queue pair: it holds that queue pair's last NACKed ePSN and timer.
 */
final class NackGeneration {
    static final String ONCE_PER_EPSN = "once-per-epsn";
    static final String EPSN_CHANGE_OR_INTERVAL = "epsn-change-or-interval";

    /** 0: once per ePSN; otherwise the interval after which the same ePSN is NACKed again. */
    private final long repeatAfterPs;
    private int nackedFor = -1;
    private long repeatAllowedPs;

    NackGeneration(long repeatAfterPs) {
        this.repeatAfterPs = repeatAfterPs;
    }

    /** Validates a scenario's choice (field {@code nackGeneration}) and its interval. */
    static void check(String mode, double intervalUs) {
        ScenarioException.require(ONCE_PER_EPSN.equals(mode) || EPSN_CHANGE_OR_INTERVAL.equals(mode), "nackGeneration",
                "must be '" + ONCE_PER_EPSN + "' or '" + EPSN_CHANGE_OR_INTERVAL + "', got '" + mode + "'");
        org.lbsim.scenario.Checks.periodUs(intervalUs, "nackIntervalUs");
    }

    /** The per-queue-pair repeat interval in ps a scenario's choice stands for (0 = never repeat). */
    static long repeatAfterPs(String mode, double intervalUs) {
        return EPSN_CHANGE_OR_INTERVAL.equals(mode) ? Math.max(1, Time.us(intervalUs)) : 0;
    }

    /** Out-of-order data arrived while the receiver expects {@code epsn}: NACK now? Records the NACK if so. */
    boolean nackNow(int epsn, long nowPs) {
        if (epsn != nackedFor || (repeatAfterPs > 0 && nowPs >= repeatAllowedPs)) {
            nackedFor = epsn;
            repeatAllowedPs = nowPs + repeatAfterPs; // rdma-hw.cc:652: m_nackTimer = now + m_nack_interval
            return true;
        }
        return false;
    }
}
