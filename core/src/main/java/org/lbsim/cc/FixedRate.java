package org.lbsim.cc;

import org.lbsim.kernel.Time;
import org.lbsim.scenario.Checks;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.QpContext;

/**
 * OFAN 4: the idealized fixed-rate sender. Every queue pair paces its packets at one constant
 * rate: the NIC line rate (no pacing beyond the NIC itself), rho_max of OFAN App. A, or a given
 * rate. It never reacts to the network, so any delay or loss is the load balancer's doing.
 * Paced queue pairs of one host that start together are spread over the packet period (the one
 * of rank r of c sends its first packet r/c of a period late), so the host's aggregate is as
 * smooth as its rate; with every phase aligned (spreadPhases: false) each host sends one packet of
 * every queue pair back to back, pauses, and does so in step with every other host.
 */
public final class FixedRate implements CongestionControl {
    public record Params(
            @Doc("pace each queue pair at rho_max (OFAN App. A): the per-flow rate that spreads evenly over the available paths without overload") boolean rhoMax,
            @Doc("pace each queue pair at this rate in Gb/s; 0 = the NIC line rate") double rateGbps,
            @Doc("spread a host's paced queue pairs evenly over the packet period (false: all start in the same instant)") boolean spreadPhases,
            @Doc("with rhoMax: when routing converges around a failure or repair during the run, pace at rho_max of the fabric as it is"
                    + " then (false: keep rho_max of the fabric before the first event); docs/cli.md, \"Failures\"") boolean recomputeRhoMax) {
        public Params {
            if (rateGbps != 0) {
                Checks.rateGbps(rateGbps, "rateGbps");
            }
            ScenarioException.require(!(rhoMax && rateGbps > 0), "rateGbps", "cannot be set together with rhoMax: true");
        }

        public Params(boolean rhoMax, double rateGbps) {
            this(rhoMax, rateGbps, true);
        }

        public Params(boolean rhoMax, double rateGbps, boolean spreadPhases) {
            this(rhoMax, rateGbps, spreadPhases, DEFAULT_RECOMPUTE_RHO_MAX);
        }
    }

    /** Whether a rho_max sender follows the fabric's rho_max after a failure during the run, unless told (docs/cli.md, "Failures"). */
    public static final boolean DEFAULT_RECOMPUTE_RHO_MAX = true;

    public static CongestionControlFactory factory(Params params) {
        return qp -> {
            long rate;
            if (params.rhoMax()) {
                rate = Math.min(qp.rhoMaxMbps(), qp.lineRateMbps());
                if (rate < Checks.MIN_RATE_MBPS) {
                    throw new ScenarioException("congestionControl.rhoMax", "rho_max of this fabric and workload is below"
                            + " 1 Mb/s (too many flows share one link for its rate; rates are kept in whole Mb/s): pace at rateGbps instead,"
                            + " or use faster links or fewer flows");
                }
            } else if (params.rateGbps() > 0) {
                rate = Math.round(params.rateGbps() * 1000);
            } else {
                rate = qp.lineRateMbps();
            }
            boolean unpaced = rate >= qp.lineRateMbps();
            long phaseOffsetPs = 0;
            long firstSendPs = 0;
            if (!unpaced && params.spreadPhases()) {
                long periodPs = Time.serializationPs(qp.mtuBytes() + qp.headerBytes() + qp.gapBytes(), rate);
                phaseOffsetPs = Math.round(qp.hostPhase() * periodPs);
                firstSendPs = qp.startPs() + phaseOffsetPs;
            }
            FixedRate f = new FixedRate(rate, unpaced, qp.gapBytes(), firstSendPs);
            f.phaseOffsetPs = phaseOffsetPs;
            if (params.rhoMax() && params.recomputeRhoMax()) {
                f.followRhoMaxUpToMbps = qp.lineRateMbps();
            }
            return f;
        };
    }

    private long rateMbps;
    private boolean unpaced;
    /** The line rate when pacing follows the fabric's rho_max after failures; 0 = the rate never changes. */
    private long followRhoMaxUpToMbps;
    private final int gapBytes;
    private long nextSendPs;
    /** Where this queue pair sits in its host's packet period, counted from its actual start. */
    private long phaseOffsetPs;

    public FixedRate(long rateMbps, boolean unpaced, int gapBytes) {
        this(rateMbps, unpaced, gapBytes, 0);
    }

    public FixedRate(long rateMbps, boolean unpaced, int gapBytes, long firstSendPs) {
        this.rateMbps = rateMbps;
        this.unpaced = unpaced;
        this.gapBytes = gapBytes;
        this.nextSendPs = firstSendPs;
    }

    @Override
    public long earliestSendPs(long nowPs, long inflightBytes) {
        return unpaced ? nowPs : nextSendPs;
    }

    @Override
    public boolean earliestSendPsIsPure() {
        return true;
    }

    /** The next send time moves only in {@link #onSent} and {@link #onStart}; a new rho_max may make it unpaced. */
    @Override
    public boolean pacingIgnoresFeedback() {
        return true;
    }

    @Override
    public boolean hearsAcks() {
        return false;
    }

    @Override
    public boolean unpacedUntilRhoMaxChange() {
        return unpaced;
    }

    /** A dependent queue pair starts when its dependencies completed: its phase counts from then. */
    @Override
    public void onStart(long nowPs) {
        if (!unpaced) {
            nextSendPs = Math.max(nextSendPs, nowPs + phaseOffsetPs);
        }
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

    /** OFAN App. A's ideal sender for the fabric as it is: after routing converged, rho_max of the new routes. */
    @Override
    public void onRhoMaxChange(long rhoMaxMbps, long nowPs) {
        if (followRhoMaxUpToMbps > 0) {
            if (rhoMaxMbps < Checks.MIN_RATE_MBPS) {
                throw new ScenarioException("congestionControl.recomputeRhoMax", "routing converged at "
                        + Checks.plain(nowPs / 1e6) + " us around the failures to a fabric whose rho_max is below 1 Mb/s"
                        + " (rates are kept in whole Mb/s): set recomputeRhoMax: false to keep the rate of the fabric before them");
            }
            rateMbps = Math.min(rhoMaxMbps, followRhoMaxUpToMbps);
            unpaced = rateMbps >= followRhoMaxUpToMbps;
        }
    }
}
