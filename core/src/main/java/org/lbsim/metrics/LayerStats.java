package org.lbsim.metrics;

/**
 * Queue and loss statistics of one layer of egress ports (such as "E->A").
 *
 * @param maxQueueBytes       largest queue seen at any port of the layer
 * @param meanQueueBytes      time-average queue, averaged over the ports of the layer
 * @param drops               buffer-overflow drops at the layer's ports
 * @param linkLoss            packets lost on failed links of the layer
 * @param ecnMarks            packets marked by the layer's ports
 * @param txPackets           frames sent by the layer's ports
 * @param pauses              times a port of the layer was paused by PFC
 * @param pausedPs            time the layer's ports spent paused, summed over ports
 * @param maxPortTxBytes      bytes sent by the busiest port of the layer
 * @param meanPortTxBytes     bytes sent per port of the layer, on average
 */
public record LayerStats(String layer, int ports, long maxQueueBytes, double meanQueueBytes, long drops, long linkLoss,
                         long ecnMarks, long txPackets, long pauses, long pausedPs, long maxPortTxBytes, double meanPortTxBytes) {

    /**
     * OFAN Fig. 7: how much the busiest link of the layer carried beyond an even share, in percent
     * (0 when every port carried the same). NaN for a layer that carried nothing.
     */
    public double worstLinkOverloadPct() {
        return meanPortTxBytes <= 0 ? Double.NaN : 100.0 * (maxPortTxBytes / meanPortTxBytes - 1);
    }
}
