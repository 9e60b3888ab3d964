package org.lbsim.scenario;

import java.util.List;

/**
 * Switch-to-switch links that are down for the whole run, and failures during the run (scheduled
 * events and a random MTBF / MTTR process). Routing excludes failed links once it has converged;
 * until then (convergence delay G, counted from the start of the run for links down from time zero
 * and from the failure (plus its detection delay) for a failure during the run) switches keep using
 * them and packets sent onto them are lost (OFAN 5.2).
 */
public record FailureSpec(
        @Doc("links to fail, each as {a: NODE, b: NODE, index: N}; nodes are named e0, a3, c1 (fat tree) or l0, s2 (leaf-spine)") List<FailedLink> links,
        @Doc("probability that each switch-to-switch link fails, drawn from the seed") double linkProbability,
        @Doc("routing convergence delay in ns: -1 = never converges during the run, 0 = converged before the run") double convergenceDelayNs,
        @Doc("individual data packets to drop at the first switch they reach, each as {qp: N, psn: N}; for loss-recovery experiments") List<DroppedPacket> dropPackets,
        @Doc("routing convergence delay in multiples of the fabric's base RTT (an MTU frame and its ACK over the longest idle path); -1 = use convergenceDelayNs") double convergenceDelayRtts,
        @Doc("failures during the run, in any order: {atUs: T, link: {a: NODE, b: NODE, index: N}, action: down | up | degrade, rateGbps: R} or {atUs: T, node: SWITCH, action: down | up}") List<Event> events,
        @Doc("time from a failure or repair during the run until it is detected; routing converges convergenceDelay after that") double detectionDelayNs,
        @Doc("random failures: mean time between failures of each switch-to-switch link in us, drawn from the seed (exponential); 0 = off") double mtbfUs,
        @Doc("random failures: mean time to repair of a failed link in us (exponential); required with mtbfUs") double mttrUs) {

    public FailureSpec {
        links = links == null ? List.of() : List.copyOf(links);
        dropPackets = dropPackets == null ? List.of() : List.copyOf(dropPackets);
        events = events == null ? List.of() : List.copyOf(events);
        ScenarioException.require(detectionDelayNs >= 0 && Double.isFinite(detectionDelayNs), "detectionDelayNs",
                "must be a finite number >= 0 ns, got " + detectionDelayNs);
        ScenarioException.require(mtbfUs >= 0 && Double.isFinite(mtbfUs), "mtbfUs", "must be a finite number >= 0 us (0 = no random failures), got " + mtbfUs);
        ScenarioException.require(mttrUs >= 0 && Double.isFinite(mttrUs), "mttrUs", "must be a finite number >= 0 us, got " + mttrUs);
        ScenarioException.require(mtbfUs == 0 || mttrUs > 0, "mttrUs", "must be > 0 us when mtbfUs is set (a failed link must come back), got " + mttrUs);
        ScenarioException.require(mttrUs == 0 || mtbfUs > 0, "mtbfUs", "must be > 0 us when mttrUs is set, got " + mtbfUs);
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

    /** Failures from time zero only, with injected drops and both forms of the delay. */
    public FailureSpec(List<FailedLink> links, double linkProbability, double convergenceDelayNs, List<DroppedPacket> dropPackets,
                       double convergenceDelayRtts) {
        this(links, linkProbability, convergenceDelayNs, dropPackets, convergenceDelayRtts, List.of(), 0, 0, 0);
    }

    /** The same failures with {@code events} during the run. */
    public FailureSpec withEvents(List<Event> newEvents) {
        return new FailureSpec(links, linkProbability, convergenceDelayNs, dropPackets, convergenceDelayRtts, newEvents, detectionDelayNs, mtbfUs,
                mttrUs);
    }

    /** With injected drops, the delay in ns. */
    public FailureSpec(List<FailedLink> links, double linkProbability, double convergenceDelayNs, List<DroppedPacket> dropPackets) {
        this(links, linkProbability, convergenceDelayNs, dropPackets, -1);
    }

    public static FailureSpec defaults() {
        return new FailureSpec(List.of(), 0, 0, List.of(), -1, List.of(), 0, 0, 0);
    }

    /** Whether anything fails or recovers during the run (scheduled events or the random process). */
    public boolean duringRun() {
        return !events.isEmpty() || mtbfUs > 0;
    }

    /**
     * A failure, repair or degradation at a given time, of one link or of a whole switch (all its links,
     * host links included). {@code up} brings a link back at its full rate; {@code degrade} changes the
     * rate of a link that stays up (or will come up) without changing routes.
     */
    public record Event(
            @Doc("when, in us from the start of the run (>= 0)") double atUs,
            @Doc("the link, as {a: NODE, b: NODE, index: N} (switch names); give link or node") FailedLink link,
            @Doc("a switch whose links all fail or recover at once, such as a3; give link or node") String node,
            @Doc("down, up or degrade (degrade: links only, with rateGbps)") String action,
            @Doc("degrade: the link's new rate in Gb/s, > 0 and at most its rate") double rateGbps) {
        public static final List<String> ACTIONS = List.of("down", "up", "degrade");

        public Event {
            node = node == null ? "" : node;
            link = link == null ? FailedLink.defaults() : link;
            action = action == null ? FailedLink.MISSING : action;
            ScenarioException.require(Double.isNaN(atUs) || (Double.isFinite(atUs) && atUs >= 0), "atUs", "must be a finite time >= 0 us, got " + atUs);
            boolean given = !action.equals(FailedLink.MISSING);
            ScenarioException.require(!given || ACTIONS.contains(action), "action", "must be one of down, up, degrade, got '" + action + "'");
            ScenarioException.require(!hasLink(link) || node.isEmpty(), "node", "give either link or node, not both");
            if (action.equals("degrade")) {
                ScenarioException.require(node.isEmpty(), "node", "a switch cannot be degraded; degrade one of its links");
                ScenarioException.require(rateGbps >= Checks.MIN_RATE_GBPS && Double.isFinite(rateGbps), "rateGbps", "must be at least "
                        + Checks.fmt(Checks.MIN_RATE_GBPS) + " Gb/s for degrade (rates are kept in whole Mb/s), got " + Checks.plain(rateGbps));
            } else if (given) {
                ScenarioException.require(rateGbps == 0, "rateGbps", "is only for action degrade, got " + rateGbps + " with " + action);
            }
        }

        /** Placeholders (time NaN, no target, no action), so a binder can fill in what is given; what is missing is reported when the run is built. */
        public static Event defaults() {
            return new Event(Double.NaN, FailedLink.defaults(), "", FailedLink.MISSING, 0);
        }

        /** Whether a link (rather than a switch) is named. */
        public boolean isLinkEvent() {
            return hasLink(link);
        }

        private static boolean hasLink(FailedLink l) {
            return !FailedLink.MISSING.equals(l.a()) || !FailedLink.MISSING.equals(l.b());
        }

        /** A link event. */
        public static Event link(double atUs, String a, String b, int index, String action, double rateGbps) {
            return new Event(atUs, new FailedLink(a, b, index), "", action, rateGbps);
        }

        /** A whole switch fails ({@code down}) or recovers ({@code up}). */
        public static Event node(double atUs, String node, String action) {
            return new Event(atUs, FailedLink.defaults(), node, action, 0);
        }
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
