package org.lbsim.spi;


/** Makes the congestion-control state of each new queue pair. */
public interface CongestionControlFactory {
    CongestionControl create(QpContext qp);

    /**
     * Minimum time between two CNPs a receiver sends for one queue pair when ECN-marked data
     * arrives (the DCQCN notification point); 0 = this algorithm uses no CNPs.
     */
    default long cnpIntervalPs() {
        return 0;
    }
}
