package org.lbsim.spi;

import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;

/** Makes the loss-recovery state of each new queue pair: the sender's side and the receiver's policy. */
public interface LossRecoveryFactory {
    LossRecovery create(QpContext qp);

    /** How the receiving RNIC of this queue pair keeps and answers data; by default keep all and answer with SACK maps. */
    default ReceiverPolicy receiverPolicy(QpContext qp) {
        return AcceptAllReceiver.INSTANCE;
    }
}
