package org.lbsim.net;

/** A partitioned run: losses happen in every partition, the listener's bookkeeping is the transport's, one at a time. */
record SerialLossListener(Network.LossListener inner) implements Network.LossListener {
    @Override
    public synchronized void onDataLost(int flow, int psn) {
        inner.onDataLost(flow, psn);
    }

    @Override
    public synchronized void onPacketGone(int flow) {
        inner.onPacketGone(flow);
    }
}
