package org.lbsim.lb.themis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.lb.CrcEcmpSelector;
import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.lb.EntropyPolicy;
import org.lbsim.lb.HostContext;
import org.lbsim.lb.LoadBalancer;
import org.lbsim.lb.SwitchContext;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
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
 * <p>Spraying, {@code switchHash: mix64} (the default): the ToR picks its uplink by Eq. 1, which on a
 * 2-tier leaf-spine chooses the whole path; on deeper fabrics the upper tiers hash the queue pair's
 * fixed entropy with lbsim's default (non-linear) hash, so every PSN class still has one path and
 * Eq. 3 holds, but only the ToR's uplinks are sprayed over. {@code switchHash: crc32}: every switch
 * of the run hashes with a linear CRC ({@link org.lbsim.lb.CrcEcmpSelector}) and the source ToR
 * rewrites the UDP source port from its {@link PathMap} (3.2, Fig. 3), so all N_paths end-to-end
 * paths of a fat tree are sprayed over.
 */
public final class Themis implements LoadBalancer {
    public record Params(
            @Doc("last-hop RTT in microseconds in the PSN ring's capacity ceil(BW x RTT_last x F / MTU) (Table 1: 2)") double lastHopRttUs,
            @Doc("queue capacity expansion factor F (Table 1: 1.5)") double capacityFactor,
            @Doc("MTU in bytes in the ring's capacity (Table 1: 1500); 0 = the run's packets.mtuBytes. BW is the ToR's host link rate") int mtuBytes,
            @Doc("PSN ring entries per queue pair; 0 = ceil(BW x RTT_last x F / MTU)") int ringEntries,
            @Doc("NACK compensation (3.4): the ToR sends a blocked NACK once a later packet on the same path proves the loss") boolean compensation,
            @Doc("a BePSN packet already sent down behind the tPSN (it overtook the NACK) counts as its arrival (3.4); false = the paper's literal order") boolean ringClearsBlocked,
            @Doc("every switch's ECMP hash in the run: 'mix64' (lbsim's default hash; the source ToR picks its uplink by Eq. 1, so deeper tiers are not sprayed) or 'crc32' (linear CRC-32 over (src, dst, UDP source port), low 16 bits at the ToRs, high 16 at the next tier; the source ToR rewrites the source port from the PathMap, 3.2, so every end-to-end path of a fat tree is sprayed; needs power-of-two ECMP groups)") String switchHash,
            @Doc("the PSN ring records a packet when it joins the ToR's queue to the NIC instead of when it leaves it (the same order on a FIFO port; a BePSN packet still queued then counts as arrived for compensation); false = when it leaves, 3.3's literal reading") boolean ringAtEnqueue) {
        public static final String MIX64 = "mix64";
        public static final String CRC32 = "crc32";

        public Params {
            org.lbsim.scenario.Checks.periodUs(lastHopRttUs, "lastHopRttUs");
            ScenarioException.require(capacityFactor >= 1 && capacityFactor <= 16, "capacityFactor", "must be between 1 and 16, got " + capacityFactor);
            ScenarioException.require(mtuBytes == 0 || mtuBytes >= 64 && mtuBytes <= 65536, "mtuBytes", "must be 0 (the run's) or between 64 and 65536, got " + mtuBytes);
            ScenarioException.require(ringEntries >= 0 && ringEntries <= 65536, "ringEntries", "must be between 0 (from the formula) and 65536, got " + ringEntries);
            ScenarioException.require(MIX64.equals(switchHash) || CRC32.equals(switchHash), "switchHash",
                    "must be '" + MIX64 + "' or '" + CRC32 + "', got '" + switchHash + "'");
        }

        /** Table 1's reference values (RTT_last 2 us, F 1.5), the ring sized with the run's MTU. */
        public static Params defaults() {
            return new Params(2, 1.5, 0, 0, true, true, MIX64, false);
        }

        /** N_entries = ceil(BW x RTT_last x F / MTU) for a last hop of {@code rateMbps} (section 4), unless ringEntries is given. */
        public int entries(long rateMbps, int runMtuBytes) {
            if (ringEntries > 0) {
                return ringEntries;
            }
            double bits = rateMbps * 1e6 * lastHopRttUs * 1e-6 * capacityFactor;
            int mtu = mtuBytes > 0 ? mtuBytes : runMtuBytes;
            return Math.max(1, (int) Math.ceil(bits / (8.0 * mtu) - 1e-9));
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
        return "Themis: source ToR sprays by PSN (Eq. 1; on fat trees with switchHash crc32 by a PathMap source-port rewrite, 3.2),"
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
        boolean crc = Params.CRC32.equals(params.switchHash());
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
        ThemisTor tor = new ThemisTor(sw, () -> params.entries(rateMbps, runMtuBytes), params.compensation(), params.ringClearsBlocked(), pathMap, params.ringAtEnqueue());
        torByNode.put(sw.node(), tor);
        tors.add(tor);
        return tor;
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
    public void reportCounters(org.lbsim.counters.CounterSink sink) {
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
