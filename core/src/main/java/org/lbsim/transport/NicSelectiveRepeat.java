package org.lbsim.transport;

import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.ReceiverPolicy;

/**
 * NIC-SR, selective repeat exactly as commodity RNICs implement it (Themis 2.2): the receiver
 * keeps out-of-order data in a bitmap and sends at most one NACK per expected PSN (ePSN), carrying
 * only that ePSN; the sender resends only the ePSN packet for each NACK (and congestion control
 * treats the NACK as a congestion signal). ACKs are cumulative. A timeout ({@code rtoUs} without
 * progress) resends everything from the oldest unacknowledged PSN.
 */
public final class NicSelectiveRepeat extends CumulativeAckRecovery {
    public record Params(
            @Doc("microseconds without progress before the sender resends from the oldest unacknowledged PSN (PRO: 80)") double rtoUs,
            @Doc(NACK_GENERATION_DOC) String nackGeneration,
            @Doc(NACK_INTERVAL_DOC) double nackIntervalUs) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(rtoUs, "rtoUs");
            NackGeneration.check(nackGeneration, nackIntervalUs);
        }

        /** Themis 2.2's receiver: at most one NACK per ePSN. */
        public Params(double rtoUs) {
            this(rtoUs, NackGeneration.ONCE_PER_EPSN, DEFAULT_NACK_INTERVAL_US);
        }
    }

    static final String NACK_GENERATION_DOC = "when the receiver NACKs out-of-order data: 'once-per-epsn' (Themis 2.2: at most one NACK per"
            + " expected PSN) or 'epsn-change-or-interval' (the HPCC / ConWeave ns-3 receiver, conweave-ns3 rdma-hw.cc:651-658: a NACK"
            + " whenever the expected PSN differs from the last NACKed one or nackIntervalUs have passed since the last NACK)";
    static final String NACK_INTERVAL_DOC = "with nackGeneration 'epsn-change-or-interval': microseconds after a NACK before the same"
            + " expected PSN is NACKed again (HPCC's ns-3 default 500; conweave-ns3's RdmaHw default 4, rdma-hw.cc:42-43)";
    /** HPCC's ns-3 default NACK interval (its rdma-hw.cc "NACK Generation Interval", 500 us). */
    static final double DEFAULT_NACK_INTERVAL_US = 500;

    public static LossRecoveryFactory factory(Params p) {
        long rtoPs = Time.us(p.rtoUs());
        long nackRepeatPs = NackGeneration.repeatAfterPs(p.nackGeneration(), p.nackIntervalUs());
        return new LossRecoveryFactory() {
            @Override
            public LossRecovery create(QpContext qp) {
                return new NicSelectiveRepeat(qp, rtoPs);
            }

            @Override
            public ReceiverPolicy receiverPolicy(QpContext qp) {
                return new NicSelectiveRepeatReceiver(new NackGeneration(nackRepeatPs));
            }
        };
    }

    private int nextNew;
    private final IntFifo resend = new IntFifo(8);
    private int rewindTo = -1; // after a timeout: resend sequentially from acked up to nextNew
    private long nacksReceived;
    /** Where the PSN handed out by the last nextPsn came from: 0 new, 1 NACK resend, 2 timeout rewind. */
    private int source;

    NicSelectiveRepeat(QpContext qp, long rtoPs) {
        super(qp, rtoPs);
    }

    @Override
    public int nextPsn(long nowPs) {
        while (!resend.isEmpty()) {
            int psn = resend.peek();
            if (psn >= acked) {
                source = 1;
                return psn;
            }
            resend.poll();
        }
        if (rewindTo >= 0) {
            if (rewindTo < acked) {
                rewindTo = acked;
            }
            if (rewindTo < nextNew) {
                source = 2;
                return rewindTo;
            }
            rewindTo = -1;
        }
        source = 0;
        return nextNew < qp.packets() ? nextNew : -1;
    }

    @Override
    public void onSent(int psn, long nowPs) {
        if (nextNew == acked) {
            lastProgressPs = nowPs;
        }
        if (source == 0) {
            nextNew++;
            return;
        }
        retransmissions++;
        if (source == 1) {
            resend.poll();
        } else {
            rewindTo++;
        }
    }

    @Override
    public boolean isRetransmission(int psn) {
        return psn < nextNew;
    }

    @Override
    public boolean onAck(Packet ack, long nowPs) {
        return advance(ack.cumAck, nowPs);
    }

    @Override
    public boolean onNack(Packet nack, long nowPs) {
        nacksReceived++;
        boolean progress = onAck(nack, nowPs);
        int epsn = nack.psn;
        if (epsn >= acked && epsn < nextNew) {
            resend.add(epsn); // resend only the ePSN packet
        }
        return progress;
    }

    @Override
    protected int sentEnd() {
        return nextNew;
    }

    @Override
    protected void rewind() {
        rewindTo = acked;
    }

    @Override
    public long inflightBytes() {
        return (long) Math.max(0, nextNew - acked) * qp.mtuBytes();
    }

    public long nacksReceived() {
        return nacksReceived;
    }
}
