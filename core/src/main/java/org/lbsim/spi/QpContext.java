package org.lbsim.spi;

/**
 * What a queue pair's congestion control, loss recovery and entropy policy may know when they
 * are created: the message, the packet format and the path facts of the fabric.
 *
 * @param qp            queue pair (flow) id
 * @param messageBytes  bytes of the message to deliver
 * @param packets       data packets needed to carry the message once
 * @param mtuBytes      maximum payload per packet
 * @param lineRateMbps  the sending host's NIC rate
 * @param baseRttPs     round-trip time of an MTU packet and its ACK on an idle longest path
 * @param rhoMaxMbps    OFAN App. A per-flow rate that spreads evenly over the available paths without overload
 * @param startPs       when the queue pair starts
 * @param hostPhase     rank / count of this queue pair among its host's queue pairs that start at the
 *                      same time, in [0, 1): where a paced sender places it in the host's packet period
 * @param trafficClass  traffic class (DSCP) of the flow, written in its data and control packets; 0 by default
 * @param qpIndex       this queue pair's index among the queue pairs of its connection (CTCCL Table 1's q), from 0
 * @param qpsPerConnection queue pairs per connection as configured (NCCL_IB_QPS_PER_CONNECTION, CTCCL's nqp^per_conn);
 *                      a connection of fewer bytes than that has fewer
 */
public record QpContext(int qp, int src, int dst, long messageBytes, int packets, int mtuBytes, int headerBytes,
                        int gapBytes, long lineRateMbps, long baseRttPs, long rhoMaxMbps, long startPs, double hostPhase,
                        int trafficClass, int qpIndex, int qpsPerConnection) {

    /** The only queue pair of its connection. */
    public QpContext(int qp, int src, int dst, long messageBytes, int packets, int mtuBytes, int headerBytes,
                     int gapBytes, long lineRateMbps, long baseRttPs, long rhoMaxMbps, long startPs, double hostPhase,
                     int trafficClass) {
        this(qp, src, dst, messageBytes, packets, mtuBytes, headerBytes, gapBytes, lineRateMbps, baseRttPs, rhoMaxMbps, startPs,
                hostPhase, trafficClass, 0, 1);
    }

    /** A queue pair of traffic class 0. */
    public QpContext(int qp, int src, int dst, long messageBytes, int packets, int mtuBytes, int headerBytes,
                     int gapBytes, long lineRateMbps, long baseRttPs, long rhoMaxMbps, long startPs, double hostPhase) {
        this(qp, src, dst, messageBytes, packets, mtuBytes, headerBytes, gapBytes, lineRateMbps, baseRttPs, rhoMaxMbps, startPs,
                hostPhase, 0);
    }

    /** A queue pair starting at time 0, first of its host's. */
    public QpContext(int qp, int src, int dst, long messageBytes, int packets, int mtuBytes, int headerBytes,
                     int gapBytes, long lineRateMbps, long baseRttPs, long rhoMaxMbps) {
        this(qp, src, dst, messageBytes, packets, mtuBytes, headerBytes, gapBytes, lineRateMbps, baseRttPs, rhoMaxMbps, 0, 0);
    }

    /** Payload of the packet with this PSN (the last packet of the message may be short). */
    public int payloadOf(int psn) {
        return payloadOf(psn, packets, mtuBytes, messageBytes);
    }

    /**
     * {@link #payloadOf(int)} of a queue pair with these fields, for the packet path's copies of them
     * (reading the context itself would touch one more object per packet).
     */
    public static int payloadOf(int psn, int packets, int mtuBytes, long messageBytes) {
        if (psn < packets - 1) {
            return mtuBytes;
        }
        if (psn == packets - 1) {
            return (int) (messageBytes - (long) (packets - 1) * mtuBytes);
        }
        return (int) Math.min(mtuBytes, messageBytes); // extra erasure-coded symbols
    }
}
