package org.lbsim.cc;

import org.lbsim.qp.QpContext;

/** Makes the congestion-control state of each new queue pair. */
public interface CongestionControlFactory {
    CongestionControl create(QpContext qp);
}
