package org.lbsim.scenario;

import java.util.List;

/**
 * Switch-to-switch links that are down for the whole run. Routing excludes them once it has
 * converged; until then (convergence delay) switches keep using them and packets sent onto
 * them are lost (OFAN 5.2).
 */
public record FailureSpec(
        @Doc("links to fail, each as {a: NODE, b: NODE, index: N}; nodes are named e0, a3, c1 (fat tree) or l0, s2 (leaf-spine)") List<FailedLink> links,
        @Doc("probability that each switch-to-switch link fails, drawn from the seed") double linkProbability,
        @Doc("routing convergence delay in ns: -1 = never converges during the run, 0 = converged before the run") double convergenceDelayNs,
        @Doc("individual data packets to drop at the first switch they reach, each as {qp: N, psn: N}; for loss-recovery experiments") List<DroppedPacket> dropPackets,
        @Doc("routing convergence delay in multiples of the fabric's base RTT (an MTU frame and its ACK over the longest idle path); -1 = use convergenceDelayNs") double convergenceDelayRtts) {

    public FailureSpec {
        links = links == null ? List.of() : List.copyOf(links);
        dropPackets = dropPackets == null ? List.of() : List.copyOf(dropPackets);
        ScenarioException.require(linkProbability >= 0 && linkProbability < 1, "linkProbability", "must be in [0, 1), got " + linkProbability);
        ScenarioException.require(convergenceDelayNs == -1 || (convergenceDelayNs >= 0 && convergenceDelayNs <= Checks.MAX_TIME_US * 1000), "convergenceDelayNs",
                "must be -1 (never) or between 0 and " + Checks.fmt(Checks.MAX_TIME_US * 1000) + " ns, got " + Checks.fmt(convergenceDelayNs));
        ScenarioException.require(convergenceDelayRtts == -1 || (convergenceDelayRtts >= 0 && convergenceDelayRtts <= 1e9), "convergenceDelayRtts",
                "must be -1 (use convergenceDelayNs) or between 0 and 1000000000 base RTTs, got " + convergenceDelayRtts);
    }

    /** Without injected packet drops. */
    public FailureSpec(List<FailedLink> links, double linkProbability, double convergenceDelayNs) {
        this(links, linkProbability, convergenceDelayNs, List.of(), -1);
    }

    /** With injected drops, the delay in ns. */
    public FailureSpec(List<FailedLink> links, double linkProbability, double convergenceDelayNs, List<DroppedPacket> dropPackets) {
        this(links, linkProbability, convergenceDelayNs, dropPackets, -1);
    }

    public static FailureSpec defaults() {
        return new FailureSpec(List.of(), 0, 0, List.of(), -1);
    }

    /** The first transmission of data packet {@code psn} of queue pair {@code qp} is dropped (retransmissions pass). */
    public record DroppedPacket(
            @Doc("queue pair id (the flow index when each connection has one queue pair)") int qp,
            @Doc("packet sequence number") int psn) {
        public DroppedPacket {
            ScenarioException.require(qp >= 0, "qp", "must be >= 0, got " + qp);
            ScenarioException.require(psn >= 0, "psn", "must be >= 0, got " + psn);
        }
    }

    public boolean any() {
        return !links.isEmpty() || linkProbability > 0;
    }

    /** One undirected switch-to-switch link; index picks among parallel links (leaf-spine). */
    public record FailedLink(
            @Doc("one end, a switch name such as e0 or l3") String a,
            @Doc("the other end, a switch name such as a0 or s1") String b,
            @Doc("which of the parallel links between a and b, from 0") int index) {
        public FailedLink {
            ScenarioException.require(a != null && !a.isBlank(), "a", "is required (a switch name such as e0)");
            ScenarioException.require(b != null && !b.isBlank(), "b", "is required (a switch name such as a0)");
            ScenarioException.require(index >= 0, "index", "must be >= 0, got " + index);
        }

        /** Placeholder ends, so a binder can fill in index alone; a link left with them is reported as incomplete. */
        public static FailedLink defaults() {
            return new FailedLink(MISSING, MISSING, 0);
        }

        /** The placeholder of an end that was not given. */
        public static final String MISSING = "?";
    }
}
