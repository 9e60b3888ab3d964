package org.lbsim.lb.themis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.lb.CrcEcmpSelector;
import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;

/**
 * Themis (APNet 2025): packet spraying over commodity RNICs (NIC-SR) with support in the ToR
 * switches only. Hosts keep one entropy per queue pair, as under ECMP. The source ToR sprays each
 * data packet its hosts send by its PSN (Themis-S, Eq. 1); the destination ToR keeps a ring of the
 * PSNs it sent down to each NIC and blocks the NACKs whose triggering packet took another path than
 * the expected one (Themis-D, Eq. 3), sending a blocked NACK itself once a later packet on the
 * expected packet's path proves that packet lost (NACK compensation, 3.4). A ToR that sees one of its
 * links down, and every ToR once routing converges around a failure, reverts to ECMP (section 6).
 *
 * <p>Spraying (3.2), {@code switchHash: auto} (the default): the paper's design for the fabric. Where
 * the source ToR's uplink is the whole path (a 2-tier leaf-spine: "the ToR switch selects the egress
 * port for each packet based on its PSN") the ToR picks its uplink by Eq. 1 and every switch keeps
 * lbsim's default hash; where deeper tiers hash too (a fat tree: "the method proposed in prior work
 * [37] ... can be applied") every switch of the Themis run hashes with a linear CRC
 * ({@link org.lbsim.lb.CrcEcmpSelector}) and the source ToR rewrites the UDP source port from its
 * {@link PathMap} (Fig. 3), so all N_paths end-to-end paths are sprayed; a fabric whose PathMap
 * cannot be built (ECMP groups not powers of two) is refused. {@code mix64} forces the first
 * everywhere (on a fat tree only the ToR's uplinks are sprayed), {@code crc32} the second. The CRC
 * hash is Themis's ECMP: it hashes the packets of the traffic class Themis balances at every switch
 * and nothing else; classes with another scheme keep theirs.
 *
 * <p>Themis-D (3.3, 3.4) sees a data packet for the NIC at one point, {@code observeDataAt}: by
 * default as the packet leaves the ToR for the NIC (its PSN joins the ring, and compensation judges
 * it, there), so the ring holds the "in-flight packets on the ToR-to-NIC hop" (3.1) and a BePSN
 * packet still queued in the ToR is neither in the ring nor yet counted as arrived.
 */
public final class Themis implements LoadBalancer {
    public record Params(
            @Doc("last-hop RTT in microseconds in the PSN ring's capacity ceil(BW x RTT_last x F / MTU) (Table 1: 2)") double lastHopRttUs,
            @Doc("queue capacity expansion factor F (Table 1: 1.5)") double capacityFactor,
            @Doc("MTU in bytes in the ring's capacity (Table 1: 1500); 0 = the run's packets.mtuBytes. BW is the ToR's host link rate") int mtuBytes,
            @Doc("PSN ring entries per queue pair; 0 = ceil(BW x RTT_last x F / MTU)") int ringEntries,
            @Doc("NACK compensation (3.4): the ToR sends a blocked NACK once a later packet on the same path proves the loss") boolean compensation,
            @Doc("a BePSN packet already sent down behind the tPSN (it overtook the NACK) counts as its arrival (3.4); false = the paper's literal order") boolean ringClearsBlocked,
            @Doc("3.2's spraying: 'auto' (the paper's design for the fabric: on a 2-tier leaf-spine the source ToR picks its uplink by Eq. 1 and switches keep lbsim's default hash; where deeper tiers hash, every switch of the Themis run hashes with a linear CRC-32 and the source ToR rewrites the UDP source port from the PathMap so every end-to-end path is sprayed; refused unless every ECMP group is a power of two), 'mix64' (lbsim's default hash everywhere, the ToR picks its uplink by Eq. 1: on a fat tree only its uplinks are sprayed) or 'crc32' (the CRC-32 and the PathMap on any fabric, low 16 bits at the ToRs, high 16 at the next tier)") String switchHash,
            @Doc("where Themis-D sees a data packet for the NIC (3.3, 3.4): 'departure' (as it leaves the ToR for the NIC, the PSN ring records it and NACK compensation judges it: the ring holds the in-flight packets on the ToR-to-NIC hop, 3.1), 'arrival' (both as it reaches the ToR and joins the NIC's queue: the ring also holds the packets queued there) or 'split' (the ring at departure, compensation at arrival: behind a deep ToR-to-NIC queue compensation fires for a BePSN packet still queued)") String observeDataAt) {
        public static final String AUTO = "auto";
        public static final String MIX64 = "mix64";
        public static final String CRC32 = "crc32";
        public static final String DEPARTURE = "departure";
        public static final String ARRIVAL = "arrival";
        public static final String SPLIT = "split";
        /** The most PSN ring entries per queue pair, given or from the formula. */
        public static final int MAX_RING_ENTRIES = 65536;

        public Params {
            org.lbsim.scenario.Checks.periodUs(lastHopRttUs, "lastHopRttUs");
            ScenarioException.require(capacityFactor >= 1 && capacityFactor <= 16, "capacityFactor", "must be between 1 and 16, got " + org.lbsim.scenario.Checks.plain(capacityFactor));
            ScenarioException.require(mtuBytes == 0 || mtuBytes >= 64 && mtuBytes <= 65536, "mtuBytes", "must be 0 (the run's) or between 64 and 65536, got " + mtuBytes);
            ScenarioException.require(ringEntries >= 0 && ringEntries <= MAX_RING_ENTRIES, "ringEntries",
                    "must be between 0 (from the formula) and " + MAX_RING_ENTRIES + ", got " + ringEntries);
            ScenarioException.require(AUTO.equals(switchHash) || MIX64.equals(switchHash) || CRC32.equals(switchHash), "switchHash",
                    "must be '" + AUTO + "', '" + MIX64 + "' or '" + CRC32 + "', got '" + switchHash + "'");
            ScenarioException.require(DEPARTURE.equals(observeDataAt) || ARRIVAL.equals(observeDataAt) || SPLIT.equals(observeDataAt), "observeDataAt",
                    "must be '" + DEPARTURE + "', '" + ARRIVAL + "' or '" + SPLIT + "', got '" + observeDataAt + "'");
        }

        /** Table 1's reference values (RTT_last 2 us, F 1.5), the ring sized with the run's MTU. */
        public static Params defaults() {
            return new Params(2, 1.5, 0, 0, true, true, AUTO, DEPARTURE);
        }

        /** The same parameters with {@code switchHash} and {@code observeDataAt} replaced. */
        public Params with(String hash, String observeAt) {
            return new Params(lastHopRttUs, capacityFactor, mtuBytes, ringEntries, compensation, ringClearsBlocked, hash, observeAt);
        }

        /**
         * N_entries = ceil(BW x RTT_last x F / MTU) for a last hop of {@code rateMbps} (section 4), unless ringEntries is given;
         * refused on ringEntries when the formula gives more than {@link #MAX_RING_ENTRIES}, as a given value would be.
         */
        public int entries(long rateMbps, int runMtuBytes) {
            if (ringEntries > 0) {
                return ringEntries;
            }
            double bits = rateMbps * 1e6 * lastHopRttUs * 1e-6 * capacityFactor;
            int mtu = mtuBytes > 0 ? mtuBytes : runMtuBytes;
            double entries = Math.ceil(bits / (8.0 * mtu) - 1e-9);
            ScenarioException.require(entries <= MAX_RING_ENTRIES, "ringEntries", "must be between 0 (from the formula) and " + MAX_RING_ENTRIES
                    + "; 0 gives ceil(BW x RTT_last x F / MTU) = " + org.lbsim.scenario.Checks.fmt(entries) + " for a host link of "
                    + org.lbsim.scenario.Checks.plain(rateMbps / 1000.0) + " Gb/s, lastHopRttUs " + org.lbsim.scenario.Checks.plain(lastHopRttUs)
                    + ", capacityFactor " + org.lbsim.scenario.Checks.plain(capacityFactor) + " and an MTU of " + mtu
                    + " B: lower one of these or give ringEntries");
            return Math.max(1, (int) entries);
        }
    }

    /** Eq. 4: M_PathMap + M_QP x QPs, with M_PathMap = N_paths x 2 B and M_QP = 20 B + N_entries x 1 B. */
    public static long memoryBytes(int nPaths, int entries, long queuePairs) {
        return nPaths * 2L + (20L + entries) * queuePairs;
    }

    /** Section 4's example: k = 32 fat tree, Table 1 (256 paths, 400 Gb/s, 2 us, 16 NICs x 100 QPs, 1500 B, F = 1.5). */
    public static long paperExampleBytes() {
        return memoryBytes(256, Params.defaults().entries(400_000, 1500), 16L * 100);
    }

    /** The one-line summary `lbsim list schemes` and `lbsim explain themis` print. */
    public static String summary() {
        int entries = Params.defaults().entries(400_000, 1500);
        return "source ToR sprays by PSN (Eq. 1; on fat trees by a PathMap source-port rewrite over a linear CRC hash, 3.2),"
                + " destination ToR blocks NACKs whose triggering packet took another path (PSN ring, Eq. 3)"
                + " and compensates blocked ones (3.4), ECMP on failures (6)."
                + " Eq. 4 for the paper's k = 32 fat tree (Table 1): PathMap 256 paths x 2 B = " + 256 * 2 + " B + 16 NICs x 100 QPs x (20 B + "
                + entries + " ring entries x 1 B) = " + paperExampleBytes() + " B ~ " + Math.round(paperExampleBytes() / 1000.0) + " KB per ToR";
    }

    private final Params params;
    /** The run's payload MTU, as its queue pairs report it (known before any packet moves). */
    private int runMtuBytes = 1500;
    private final Map<Integer, ThemisTor> torByNode = new HashMap<>();
    private final List<ThemisTor> tors = new ArrayList<>();
    /** {@code auto}: whether some ToR's packets meet a hash stage above it; null until the first switch asks. */
    private Boolean deeperStages;

    public Themis(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        runMtuBytes = host.qp().mtuBytes();
        int entropy = host.rng().nextInt(1 << 16); // one UDP source port per queue pair: P_base is its ECMP hash
        return EntropyPolicy.fixed(entropy);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        boolean crc = usesPathMap(sw);
        if (!ThemisTor.isTor(sw)) {
            return crc ? new CrcEcmpSelector(sw.fib(), (int) sw.rng().nextLong(), sw.topology().tier(sw.node()))
                    : new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
        }
        long hostRateMbps = 0;
        for (int p = sw.topology().firstPort(sw.node()); p < sw.topology().portEnd(sw.node()); p++) {
            if (sw.topology().isHost(sw.topology().peerNode(p))) {
                hostRateMbps = Math.max(hostRateMbps, sw.topology().rateMbps(p));
            }
        }
        long rateMbps = hostRateMbps;
        PathMap pathMap = crc ? PathMap.build(sw.topology(), sw.fib(), sw.node()) : null; // 3.2: computed offline
        ThemisTor tor = new ThemisTor(sw, () -> params.entries(rateMbps, runMtuBytes), params.compensation(), params.ringClearsBlocked(), pathMap,
                observePoint(params.observeDataAt()));
        torByNode.put(sw.node(), tor);
        tors.add(tor);
        return tor;
    }

    /**
     * Whether this run sprays by the PathMap over the linear CRC hash (3.2): {@code crc32}, or {@code auto}
     * on a fabric where some ToR's packets meet a hash stage above it (decided once, from the healthy FIB).
     */
    private boolean usesPathMap(SwitchContext sw) {
        if (!Params.AUTO.equals(params.switchHash())) {
            return Params.CRC32.equals(params.switchHash());
        }
        if (deeperStages == null) {
            deeperStages = hashesAboveTheTor(sw.topology(), sw.fib());
        }
        return deeperStages;
    }

    /** 3.2: "In a 2-tier Clos network, where path selection is entirely determined by the ToR (leaf) switch" this is false. */
    static boolean hashesAboveTheTor(org.lbsim.topology.Topology t, Fib fib) {
        for (int tor = 0; tor < t.nodeCount(); tor++) {
            if (t.isHost(tor) || !isTorNode(t, tor)) {
                continue;
            }
            for (int h = 0; h < t.hostCount(); h++) {
                int[][] stages = PathMap.stages(t, fib, tor, h);
                if (stages.length > 1 || stages.length == 1 && stages[0][0] != t.tier(tor)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isTorNode(org.lbsim.topology.Topology t, int node) {
        for (int p = t.firstPort(node); p < t.portEnd(node); p++) {
            if (t.isHost(t.peerNode(p))) {
                return true;
            }
        }
        return false;
    }

    private static int observePoint(String observeDataAt) {
        return switch (observeDataAt) {
            case Params.ARRIVAL -> ThemisTor.AT_ARRIVAL;
            case Params.SPLIT -> ThemisTor.SPLIT;
            default -> ThemisTor.AT_DEPARTURE;
        };
    }

    @Override
    public void programSwitch(SwitchContext ctx, Switch sw) {
        ThemisTor tor = torByNode.get(ctx.node());
        if (tor != null) {
            tor.attach(sw);
        }
    }

    /** The Themis state of ToR {@code node} (null for other switches). */
    ThemisTor tor(int node) {
        return torByNode.get(node);
    }

    /** Section 6: routing converged around a failure (the monitoring tools saw it): every ToR reverts to ECMP. */
    @Override
    public void onRoutingChange(Fib fib) {
        for (ThemisTor tor : tors) {
            tor.fallBack();
        }
    }

    @Override
    public void reportCounters(org.lbsim.spi.CounterSink sink) {
        counters().forEach(sink::add);
    }

    /** The run's Themis counters, summed over its ToRs (ring high-water mark and Eq. 4 memory: the largest ToR). */
    public Map<String, Long> counters() {
        Map<String, Long> c = new java.util.LinkedHashMap<>();
        long seen = 0;
        long blocked = 0;
        long forwarded = 0;
        long compensated = 0;
        long unmatched = 0;
        long overwrites = 0;
        long fallbacks = 0;
        long highWater = 0;
        long memory = 0;
        long ringEntries = 0;
        for (ThemisTor t : tors) {
            seen += t.nacksSeen;
            blocked += t.nacksBlocked;
            forwarded += t.nacksForwarded;
            compensated += t.nacksCompensated;
            unmatched += t.rings().unmatched();
            overwrites += t.rings().overwrites();
            fallbacks += t.fallbacks;
            highWater = Math.max(highWater, t.rings().highWater());
            memory = Math.max(memory, t.memoryBytes());
            ringEntries = Math.max(ringEntries, t.rings().capacity());
        }
        c.put("themis.nacksSeen", seen);
        c.put("themis.nacksBlocked", blocked);
        c.put("themis.nacksForwarded", forwarded);
        c.put("themis.nacksUnmatched", unmatched);
        c.put("themis.nacksCompensated", compensated);
        c.put("themis.ringEntries", ringEntries);
        c.put("themis.ringHighWater", highWater);
        c.put("themis.ringOverwrites", overwrites);
        c.put("themis.torsFallenBackToEcmp", fallbacks);
        c.put("themis.eq4MemoryBytesMaxTor", memory);
        return c;
    }
}
