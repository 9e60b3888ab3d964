package org.lbsim.lb.dnlb;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.PolicyTable;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * CTCCL's joint device-network load balancing (DNLB, ICS '25). Device side (3.2): queue pair q of
 * the NIC with index i on its leaf sends with UDP source port 0xC000 + ((i x nqp + q) x step) mod
 * 0x4000, step = 0x4000 / (the leaf's uplinks), and the traffic class {@code dscp}. Network side:
 * every leaf's ACL + PBR sends that class's ports in segment n of [0xC000, 0xFFFF] to its n-th
 * uplink (4.1's "udf1 .. udf8" example); all other traffic, and DNLB traffic whose uplink is down,
 * is hashed (ECMP). Spines with parallel links to the leaves are split into virtual spines by VRFs
 * (Fig. 5b). Fault avoidance (3.3): when the library learns an uplink is down, the affected queue
 * pairs' data moves to working queue pairs of their connections ({@link #carriesData}, {@link DnlbEntropy}).
 * Eq. 4 (NICs per leaf x queue pairs per connection >= uplinks) is checked per run and reported with
 * the balance it leaves ({@link #counters()}).
 */
public final class Dnlb implements LoadBalancer {
    public record Params(
            @Doc("traffic class (DSCP) the collective library stamps and the leaf ACLs match, other classes are hashed (ECMP); -1 = every class") int dscp,
            @Doc("CTCCL 3.3: move the remaining data of queue pairs whose uplink is down to the working queue pairs of their connection") boolean faultAvoidance,
            @Doc("Fig. 5b: VRFs split each spine with parallel links to the leaves into virtual spines (link k up, link k down)") boolean spineVrf,
            @Doc("with faultAvoidance, where the data of a failed uplink's queue pairs goes (3.3 does not say how it is divided): 'working-qps'"
                    + " (each transfer that starts once the failure is known is split evenly over the connection's working queue pairs, as NCCL"
                    + " splits a transfer over its queue pairs; a transfer under way moves its rest to one working sibling) or 'one-sibling'"
                    + " (every affected queue pair's data, under way or later, goes out with one working sibling's port, a different"
                    + " sibling per NIC of the leaf)") String moveDataTo) {
        public Params {
            ScenarioException.require(dscp >= -1 && dscp <= 63, "dscp", "must be a DSCP value 0-63 or -1 (every class), got " + dscp);
            ScenarioException.require(WORKING_QPS.equals(moveDataTo) || ONE_SIBLING.equals(moveDataTo), "moveDataTo",
                    "must be '" + WORKING_QPS + "' or '" + ONE_SIBLING + "', got '" + moveDataTo + "'");
        }

        public Params(int dscp, boolean faultAvoidance, boolean spineVrf) {
            this(dscp, faultAvoidance, spineVrf, WORKING_QPS);
        }
    }

    /** {@link Params#moveDataTo}: split each new transfer over the connection's working queue pairs. */
    public static final String WORKING_QPS = "working-qps";
    /** {@link Params#moveDataTo}: each affected queue pair's data goes out with one working sibling's port. */
    public static final String ONE_SIBLING = "one-sibling";

    /** What the run's queue pairs and switches did, for the report. */
    static final class Tally {
        long movedQueuePairs;
        long leftWithoutData;
    }

    private final Params params;
    private final Tally tally = new Tally();
    private final List<PolicyTable> leafTables = new ArrayList<>();
    private final List<SpineVrf> vrfs = new ArrayList<>();
    private LeafPlan plan;
    private UplinkHealth health;
    /** By leaf: the sending NICs of DNLB queue pairs bound off the leaf, and their (NIC, q) slots per uplink. */
    private List<Set<Integer>> nicsOfLeaf;
    private List<Set<Long>> slotsOfLeaf;
    private long[][] slotsPerUplink;
    private int qpsPerConnection;

    public Dnlb(Params params) {
        this.params = params;
    }

    private void init(Topology t, Fib fib) {
        if (plan != null) {
            return;
        }
        plan = new LeafPlan(t);
        health = new UplinkHealth(plan, fib);
        nicsOfLeaf = new ArrayList<>();
        slotsOfLeaf = new ArrayList<>();
        slotsPerUplink = new long[plan.leafCount()][];
        for (int l = 0; l < plan.leafCount(); l++) {
            nicsOfLeaf.add(new HashSet<>());
            slotsOfLeaf.add(new HashSet<>());
            slotsPerUplink[l] = new long[plan.uplinkCount(l)];
        }
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        QpContext qp = host.qp();
        init(host.topology(), host.convergedFib());
        int srcLeaf = plan.leafOfHost(qp.src());
        int dstLeaf = plan.leafOfHost(qp.dst());
        int uplinks = plan.uplinkCount(srcLeaf);
        if (params.dscp() >= 0 && qp.trafficClass() != params.dscp() || uplinks == 0) {
            int entropy = host.rng().nextInt(1 << 16); // not DNLB traffic: the NIC's own port, hashed like any flow
            return EntropyPolicy.fixed(entropy);
        }
        int nqp = qp.qpsPerConnection();
        int index = plan.nicIndex(qp.src());
        int[] ports = new int[nqp];
        int[] segments = new int[nqp];
        for (int q = 0; q < nqp; q++) {
            ports[q] = PortSegments.sourcePort(index, nqp, q, uplinks);
            segments[q] = PortSegments.segmentOf(ports[q], uplinks);
        }
        int q = qp.qpIndex();
        if (srcLeaf != dstLeaf) {
            qpsPerConnection = Math.max(qpsPerConnection, nqp);
            nicsOfLeaf.get(srcLeaf).add(qp.src());
            if (slotsOfLeaf.get(srcLeaf).add(((long) qp.src() << 11) | q)) {
                slotsPerUplink[srcLeaf][segments[q]]++;
            }
        }
        if (!params.faultAvoidance() || srcLeaf == dstLeaf) {
            int port = ports[q];
            return EntropyPolicy.fixed(port);
        }
        int coupled = plan.uplinkIsVirtualSpine(params.spineVrf()) ? dstLeaf : -1;
        return new DnlbEntropy(ports, segments, q, srcLeaf, coupled, index, health, tally);
    }

    /**
     * CTCCL 3.3, "redistributes the collective communication data to the functioning QPs": with
     * {@code moveDataTo: working-qps}, a transfer that starts once the library knows a queue pair's
     * uplink (or its virtual spine's link into the destination leaf) is down gives that queue pair no
     * data; the transport splits the transfer over the others. The working queue pairs keep their ports.
     */
    @Override
    public boolean carriesData(QpContext qp) {
        if (!params.faultAvoidance() || !WORKING_QPS.equals(params.moveDataTo()) || plan == null
                || params.dscp() >= 0 && qp.trafficClass() != params.dscp()) {
            return true;
        }
        int srcLeaf = plan.leafOfHost(qp.src());
        int dstLeaf = plan.leafOfHost(qp.dst());
        int uplinks = plan.uplinkCount(srcLeaf);
        if (srcLeaf == dstLeaf || uplinks == 0) {
            return true;
        }
        int coupled = plan.uplinkIsVirtualSpine(params.spineVrf()) ? dstLeaf : -1;
        int nqp = qp.qpsPerConnection();
        int index = plan.nicIndex(qp.src());
        if (!pathDown(PortSegments.segmentOf(PortSegments.sourcePort(index, nqp, qp.qpIndex(), uplinks), uplinks), srcLeaf, coupled)) {
            return true;
        }
        for (int s = 0; s < nqp; s++) {
            if (!pathDown(PortSegments.segmentOf(PortSegments.sourcePort(index, nqp, s, uplinks), uplinks), srcLeaf, coupled)) {
                tally.leftWithoutData++;
                return false; // a working sibling takes this queue pair's share
            }
        }
        return true; // no working queue pair: keep the split, the switches fall back to their routes
    }

    private boolean pathDown(int segment, int srcLeaf, int coupledLeaf) {
        return health.isDown(srcLeaf, segment) || coupledLeaf >= 0 && health.isDown(coupledLeaf, segment);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    @Override
    public void programSwitch(SwitchContext ctx, Switch sw) {
        init(ctx.topology(), ctx.fib());
        int leaf = plan.leafOfNode(ctx.node());
        if (leaf >= 0 && plan.uplinkCount(leaf) > 0) {
            PolicyTable table = new PolicyTable(leafRules(leaf));
            sw.setPolicyTable(table);
            leafTables.add(table);
        } else if (params.spineVrf() && plan.parallelLinks() > 1 && plan.isSpine(ctx.node())) {
            SpineVrf vrf = new SpineVrf(plan, sw, sw.network());
            sw.addIngressStage(vrf);
            vrfs.add(vrf);
        }
    }

    /**
     * The leaf's ACL + PBR: the DNLB class's traffic for the leaf's own NICs is switched locally (PBR
     * acts on routed traffic only); the rest of the class goes by source-port segment n to uplink n.
     */
    List<PolicyTable.Rule> leafRules(int leaf) {
        Topology t = plan.topology();
        List<PolicyTable.Rule> rules = new ArrayList<>();
        for (int h : plan.localHosts(leaf)) {
            rules.add(new PolicyTable.Rule(params.dscp(), 0, 0xFFFF, 0, 0, h, h, -1, new int[] {t.peerPort(t.hostPort(h))}));
        }
        int uplinks = plan.uplinkCount(leaf);
        for (int n = 0; n < uplinks; n++) {
            rules.add(PolicyTable.Rule.classAndPorts(params.dscp(), PortSegments.segmentLow(n, uplinks), PortSegments.segmentHigh(n, uplinks),
                    plan.uplink(leaf, n)));
        }
        return rules;
    }

    @Override
    public void onRoutingChange(Fib fib) {
        if (health != null) {
            health.update(fib); // CTCCL learns of failed uplinks once routing has converged around them
        }
    }

    @Override
    public void reportCounters(org.lbsim.spi.CounterSink sink) {
        for (java.util.Map.Entry<String, Number> e : counters().entrySet()) {
            if (e.getValue() instanceof Long l) {
                sink.add(e.getKey(), (long) l);
            } else {
                sink.add(e.getKey(), e.getValue().doubleValue());
            }
        }
    }

    /** The fabric as DNLB sees it (null before the first switch or queue pair). */
    LeafPlan plan() {
        return plan;
    }

    /**
     * The run's DNLB counters: Eq. 4 per leaf with DNLB senders ({@code dnlb.eq4.*}: leaves checked,
     * leaves where it fails, the smallest nNIC x nqp), the balance of queue pairs over uplinks it gives
     * ({@code dnlb.uplinksUsedFraction}: the smallest share of a leaf's uplinks that carry any DNLB
     * queue pair, 1 when Eq. 4 holds; {@code dnlb.qpsPerUplink.min/max} over those leaves' uplinks),
     * what the ACLs and VRFs did and how many queue pairs fault avoidance moved.
     */
    public SortedMap<String, Number> counters() {
        SortedMap<String, Number> c = new TreeMap<>();
        if (plan == null) {
            return c;
        }
        int leaves = 0;
        int unmet = 0;
        long minProduct = Long.MAX_VALUE;
        double usedFraction = 1;
        long minPerUplink = Long.MAX_VALUE;
        long maxPerUplink = 0;
        int maxUplinks = 0;
        for (int l = 0; l < plan.leafCount(); l++) {
            int nics = nicsOfLeaf.get(l).size();
            if (nics == 0) {
                continue;
            }
            leaves++;
            int uplinks = plan.uplinkCount(l);
            maxUplinks = Math.max(maxUplinks, uplinks);
            long product = (long) nics * qpsPerConnection; // Eq. 4: nNIC^Leaf x nqp^per_conn >= nlink^up
            minProduct = Math.min(minProduct, product);
            unmet += product < uplinks ? 1 : 0;
            int used = 0;
            for (long s : slotsPerUplink[l]) {
                used += s > 0 ? 1 : 0;
                minPerUplink = Math.min(minPerUplink, s);
                maxPerUplink = Math.max(maxPerUplink, s);
            }
            usedFraction = Math.min(usedFraction, (double) used / uplinks);
        }
        c.put("dnlb.eq4.leaves", (long) leaves);
        if (leaves > 0) {
            c.put("dnlb.uplinks", (long) maxUplinks);
            c.put("dnlb.eq4.unmet", (long) unmet);
            c.put("dnlb.eq4.minNicsTimesQps", (long) minProduct);
            c.put("dnlb.uplinksUsedFraction", usedFraction);
            c.put("dnlb.qpsPerUplink.min", (long) minPerUplink);
            c.put("dnlb.qpsPerUplink.max", (long) maxPerUplink);
        }
        long hits = 0;
        long fallbacks = 0;
        for (PolicyTable t : leafTables) {
            hits += t.hits();
            fallbacks += t.fallbacks();
        }
        c.put("dnlb.pbr.hits", (long) hits);
        c.put("dnlb.pbr.fallbacks", (long) fallbacks);
        if (!vrfs.isEmpty()) {
            long steered = 0;
            long vrfFallbacks = 0;
            for (SpineVrf v : vrfs) {
                steered += v.steered();
                vrfFallbacks += v.fallbacks();
            }
            c.put("dnlb.vrf.steered", (long) steered);
            c.put("dnlb.vrf.fallbacks", (long) vrfFallbacks);
        }
        if (params.faultAvoidance()) {
            c.put("dnlb.faultAvoidance.movedQueuePairs", (long) tally.movedQueuePairs);
            c.put("dnlb.faultAvoidance.queuePairsWithoutData", (long) tally.leftWithoutData);
            c.put("dnlb.faultAvoidance.uplinkChanges", (long) health.changes());
        }
        return c;
    }
}
