package org.lbsim.cc;

import org.lbsim.kernel.Time;
import org.lbsim.scenario.Doc;
import org.lbsim.qp.QpContext;

/**
 * OFAN 4: the idealized fixed-rate sender. Every queue pair paces its packets at one constant
 * rate: the NIC line rate (no pacing beyond the NIC itself), rho_max of OFAN App. A, or a given
 * rate. It never reacts to the network, so any delay or loss is the load balancer's doing.
 */
public final class FixedRate implements CongestionControl {
    public record Params(
            @Doc("pace each queue pair at rho_max (OFAN App. A): the per-flow rate that spreads evenly over the available paths without overload") boolean rhoMax,
            @Doc("pace each queue pair at this rate in Gb/s; 0 = the NIC line rate") double rateGbps) {
        public Params {
            org.lbsim.scenario.ScenarioException.require(rateGbps >= 0 && Double.isFinite(rateGbps), "rateGbps", "must be >= 0 (0 = line rate), got " + rateGbps);
            org.lbsim.scenario.ScenarioException.require(!(rhoMax && rateGbps > 0), "rateGbps", "cannot be set together with rhoMax: true");
        }
    }

    public static CongestionControlFactory factory(Params params) {
        return qp -> {
            long rate;
            if (params.rhoMax()) {
                rate = Math.min(qp.rhoMaxMbps(), qp.lineRateMbps());
            } else if (params.rateGbps() > 0) {
                rate = Math.round(params.rateGbps() * 1000);
            } else {
                rate = qp.lineRateMbps();
            }
            return new FixedRate(rate, rate >= qp.lineRateMbps(), qp.gapBytes());
        };
    }

    private final long rateMbps;
    private final boolean unpaced;
    private final int gapBytes;
    private long nextSendPs;

    public FixedRate(long rateMbps, boolean unpaced, int gapBytes) {
        this.rateMbps = rateMbps;
        this.unpaced = unpaced;
        this.gapBytes = gapBytes;
    }

    @Override
    public long earliestSendPs(long nowPs, long inflightBytes) {
        return unpaced ? nowPs : nextSendPs;
    }

    @Override
    public void onSent(int wireBytes, long nowPs) {
        if (!unpaced) {
            nextSendPs = Math.max(nextSendPs, nowPs) + Time.serializationPs(wireBytes + gapBytes, rateMbps);
        }
    }

    @Override
    public long rateMbps() {
        return rateMbps;
    }
}
