package org.lbsim.transport;

import org.lbsim.qp.QpContext;

/** Makes the loss-recovery state of each new queue pair. */
public interface LossRecoveryFactory {
    LossRecovery create(QpContext qp);

    /** How the receiving RNIC treats out-of-order data for this recovery scheme. */
    default ReceiveRule receiveRule() {
        return ReceiveRule.ACCEPT_ALL;
    }
}
