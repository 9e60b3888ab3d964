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
 */
public record LayerStats(String layer, int ports, long maxQueueBytes, double meanQueueBytes, long drops, long linkLoss,
                         long ecnMarks, long txPackets, long pauses, long pausedPs) {
}
