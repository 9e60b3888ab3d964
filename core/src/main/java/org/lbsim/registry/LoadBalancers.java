package org.lbsim.registry;

import org.lbsim.lb.AdaptiveRouting;
import org.lbsim.lb.FlowEcmp;
import org.lbsim.lb.HostDestinationRotation;
import org.lbsim.lb.HostFlowletAr;
import org.lbsim.lb.HostPacketSpray;
import org.lbsim.lb.Ofan;
import org.lbsim.lb.Plb;
import org.lbsim.lb.Reps;
import org.lbsim.lb.Subflows;
import org.lbsim.lb.SwitchQueueScheme;
import org.lbsim.lb.SwitchRoundRobin;
import org.lbsim.spi.LoadBalancer;

/**
 * Every load-balancing scheme a scenario can name, with the name its paper gives it (OFAN 3.2, Table 2 and
 * 6.1 for the OFAN schemes). Adding one is a class plus one line here, declaring its granularity and
 * what else it can ({@link Capability}): {@code PartitionedRunTest} runs every scheme that declares
 * {@link Capability#PARTITION_SAFE} sequentially and partitioned and compares the results.
 */
public final class LoadBalancers {
    public static final Registry<LoadBalancer> REGISTRY = new Registry<>("load-balancing scheme", java.util.EnumSet.allOf(Capability.class),
            Component.of("ecmp", "ECMP", "per-flow ECMP (OFAN's FLOW), one fixed entropy per queue pair, switches hash", "OFAN 3.2 (1)",
                    FlowEcmp.Params.defaults(), FlowEcmp::new, Capability.PARTITION_SAFE, Capability.FLOW_LEVEL),
            Component.of("subflow", "SUBFLOW", "packets dealt round-robin over n subflows with their own entropies, switches hash (MPTCP-like)",
                    "OFAN 3.2 (2)", new Subflows.Params(4), Subflows::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("host-flowlet-ar", "HOST FLOWLET AR", "PLB-like; a new random entropy when over beta of a window of alpha ACKs echoed ECN",
                    "OFAN 3.2 (3), Table 2", new HostFlowletAr.Params(0, 0.4), HostFlowletAr::new, Capability.PARTITION_SAFE, Capability.FLOWLET_LEVEL),
            Component.of("plb", "PLB", "a new random entropy after N = 12 ECN-congested round trips in a row (3 when nothing is in flight), and on a timeout, then held 60-120 s",
                    "PLB (Qureshi et al., SIGCOMM 2022); Linux net/ipv4/tcp_plb.c", Plb.Params.defaults(), Plb::new, Capability.PARTITION_SAFE, Capability.FLOWLET_LEVEL),
            Component.of("host-spray", "HOST PKT", "fresh random entropy on every packet, switches hash", "OFAN 3.2 (4), Table 2 (after oblivious packet spraying)",
                    new HostPacketSpray.Params(), p -> new HostPacketSpray(), Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("host-pkt-ar", "HOST PKT AR", "REPS as the OFAN authors' htsim runs it; reuse entropies whose ACKs came back unmarked (8-entry buffer), explore when none is left, freeze when an entropy about to be reused has gone unanswered for an RTO",
                    "OFAN 3.2 (6), Table 2", new Reps.Params(8, 10_000, 1, Reps.TIMEOUT_ON_REUSE, 10, 16_000), Reps::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("switch-pkt", "SWITCH PKT", "switch round-robin over next hops, order re-permuted every 5 wrap-arounds (htsim)",
                    "OFAN 3.2 (5)", new SwitchRoundRobin.Params(5, false), SwitchRoundRobin::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("simple-rr", "SIMPLE RR", "model: one round-robin pointer per next-hop group (data and ACKs apart), never permuted",
                    "OFAN 6.1 (i)", new SwitchRoundRobin.Params(0, true), SwitchRoundRobin::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("jsq", "JSQ", "model: the next hop with the shortest queue, random tie-break",
                    "OFAN 6.1 (ii)", new SwitchQueueScheme.NoParams(), p -> SwitchQueueScheme.jsq(), Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("rsq", "RSQ", "model: a uniformly random next hop per packet",
                    "OFAN 6.1 (iii)", new SwitchQueueScheme.NoParams(), p -> SwitchQueueScheme.rsq(), Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("switch-pkt-ar", "SWITCH PKT AR", "queues quantized into bins (5/10/20% of the buffer), random port of the lowest bin (Spectrum-X-like)",
                    "OFAN 3.2 (7), Table 2", new SwitchQueueScheme.QuantizedParams(java.util.List.of(0.05, 0.10, 0.20)), SwitchQueueScheme::quantized, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("drill", "DRILL", "per packet, the shortest queue among 2 random next hops and the last choice",
                    "PRO 5 baselines; DRILL (SIGCOMM 2017)", new SwitchQueueScheme.DrillParams(2), SwitchQueueScheme::drill, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("ar", "AR", "Broadcom Tomahawk adaptive routing: best port by quantized link load and queue length, refreshed every 1 us",
                    "PRO 5 baselines", new AdaptiveRouting.Params(1, 8), AdaptiveRouting::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("host-dr", "HOST DR", "DRB: per-destination round-robin at the source over the lowest common layer's switches, source-routed",
                    "OFAN 6.1 Host DR", new HostDestinationRotation.Params(), HostDestinationRotation::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("ofan", "OFAN", "switch pointers per (destination edge | destination pod, class), random start and order, W-ECMP IWRR under failures",
                    "OFAN 7, App. F", new Ofan.Params(true), Ofan::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL),
            Component.of("themis", "Themis", org.lbsim.lb.themis.Themis.summary(), "Themis (APNet 2025) 3.2-3.4, 4, 6",
                    org.lbsim.lb.themis.Themis.Params.defaults(), org.lbsim.lb.themis.Themis::new, Capability.PACKET_LEVEL, Capability.OWNS_PORT_CHOICE),
            Component.of("dlbf", "DLBF", "one path per flow, moved off ECN-marked paths by Algorithm 1 (unprobed / available / unavailable), selective duplicates from the one-way-delay gap, notifications on unprobed paths, receiver buffer threshold",
                    "DLBF III-B..D", org.lbsim.lb.dlbf.Dlbf.Params.defaults(), org.lbsim.lb.dlbf.Dlbf::new, Capability.FLOWLET_LEVEL),
            Component.of("letflow", "LetFlow", "the source ToR sends each flowlet (gap > 100 us) of a queue pair on a uniformly random uplink",
                    "ConWeave 5 baselines; conweave-ns3 letflow-routing.cc", new org.lbsim.lb.flowlet.LetFlow.Params(100),
                    org.lbsim.lb.flowlet.LetFlow::new, Capability.PARTITION_SAFE, Capability.FLOWLET_LEVEL, Capability.OWNS_PORT_CHOICE),
            Component.of("conga", "CONGA", "DRE link utilization fed back leaf to leaf in data packets; each flowlet takes the least congested of 4 sampled uplinks",
                    "ConWeave 5 baselines; conweave-ns3 conga-routing.cc", new org.lbsim.lb.flowlet.Conga.Params(100, 50, 0.2, 3, 500, 4),
                    org.lbsim.lb.flowlet.Conga::new, Capability.PARTITION_SAFE, Capability.FLOWLET_LEVEL, Capability.OWNS_PORT_CHOICE),
            Component.of("conweave", "ConWeave", "source ToR reroutes a flow when its RTT reply is late (TAIL / phase-1 marks, epochs); destination ToR reorders in per-flow queues until TAIL or timeout",
                    "ConWeave (SIGCOMM 2023) 3; conweave-ns3 conweave-routing.cc, run.py:261-267", org.lbsim.lb.conweave.ConWeave.Params.defaults(),
                    org.lbsim.lb.conweave.ConWeave::new, Capability.FLOWLET_LEVEL, Capability.OWNS_PORT_CHOICE),
            Component.of("dnlb", "DNLB", "CTCCL's device-network load balancing: each QP's UDP source port from Eq. 3, leaf ACL + PBR maps the class's port segments to uplinks, spine VRFs, fault avoidance; other classes ECMP",
                    "CTCCL 3.2-3.3, 4.1", new org.lbsim.lb.dnlb.Dnlb.Params(-1, true, true), org.lbsim.lb.dnlb.Dnlb::new, Capability.FLOW_LEVEL, Capability.OWNS_PORT_CHOICE),
            Component.of("nccl-ecmp", "NCCL + ECMP", "each QP's RoCE source port fixed per (NIC pair, QP index) for the whole run, as persistent NCCL connections have it; switches hash",
                    "CTCCL 4 baseline", new org.lbsim.lb.dnlb.NcclEcmp.Params(), org.lbsim.lb.dnlb.NcclEcmp::new, Capability.FLOW_LEVEL),
            Component.of("pro", "PRO", "NIC round robin over per-destination-ToR path sets (Algorithm 1), PathID ACL forwarding with AR fallback, AIMD out-of-order window (Algorithm 2)",
                    "PRO III, V", org.lbsim.lb.pro.Pro.Params.defaults(), org.lbsim.lb.pro.Pro::new, Capability.PARTITION_SAFE, Capability.PACKET_LEVEL, Capability.OWNS_PORT_CHOICE));

    private LoadBalancers() {
    }
}
