package org.lbsim.lb;

import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Topology;

/**
 * FLOW (OFAN 3.2 (1)): per-flow ECMP. Each queue pair draws one entropy and keeps it; switches hash.
 * With {@code hash: htsim} the entropies, the switches' salts and their hash are htsim's
 * ({@link HtsimEcmpHash}), so that a run of an htsim connection matrix puts each flow where htsim
 * without its uplink shuffle does.
 */
public final class FlowEcmp implements LoadBalancer {
    public record Params(
            @Doc("the switches' hash: 'mix64' (lbsim's: a 64-bit mix of source, destination and entropy with a salt per switch from the run's seed) or 'htsim' (htsim_uec's with -fg_ar ecmp and -paths 1 on its k-ary fat tree: FreeBSD's bridge hash of flow id, path id and a salt per switch, all drawn as htsim draws them for -seed htsimSeed, queue pair q being the matrix's connection q + 1; htsim's shuffle of each switch's uplinks at its first packet is not reproduced)") String hash,
            @Doc("htsim's -seed, for hash 'htsim' (htsim's default is 13)") int htsimSeed) {
        public static final String MIX64 = "mix64";
        public static final String HTSIM = "htsim";

        public Params {
            ScenarioException.require(MIX64.equals(hash) || HTSIM.equals(hash), "hash", "must be '" + MIX64 + "' or '" + HTSIM + "', got '" + hash + "'");
            ScenarioException.require(htsimSeed >= 0, "htsimSeed", "must be a non-negative integer (htsim reads it with atoi), got " + htsimSeed);
        }

        /** lbsim's own hash. */
        public static Params defaults() {
            return new Params(MIX64, 13);
        }
    }

    private final Params params;
    private HtsimEcmpHash htsim;

    /** lbsim's own hash. */
    public FlowEcmp() {
        this(Params.defaults());
    }

    public FlowEcmp(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        if (Params.HTSIM.equals(params.hash())) {
            return EntropyPolicy.fixed(htsim(host.topology()).pathId(host.qp().qp()));
        }
        int entropy = host.rng().nextInt(1 << 16);
        return EntropyPolicy.fixed(entropy);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        if (Params.HTSIM.equals(params.hash())) {
            return new HtsimEcmpSelector(sw.topology(), htsim(sw.topology()).salt(sw.topology(), sw.node()));
        }
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    private synchronized HtsimEcmpHash htsim(Topology topology) {
        if (htsim == null) {
            htsim = new HtsimEcmpHash(topology, params.htsimSeed());
        }
        return htsim;
    }
}
