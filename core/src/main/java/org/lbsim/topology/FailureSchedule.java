package org.lbsim.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.lbsim.kernel.Time;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.ScenarioException;

/**
 * A scenario's failures during the run, checked against the fabric and sorted by time (events at
 * the same time keep their order in the scenario).
 */
public final class FailureSchedule {
    /** What happens to the links of an event. */
    public enum Action {
        DOWN, UP, DEGRADE
    }

    /**
     * One resolved event.
     *
     * @param index    its position in {@code failures.events}
     * @param atPs     when it happens
     * @param links    the link ids it touches (one, or every link of a switch)
     * @param node     the switch of a switch event, or -1
     * @param rateMbps the new rate of a degraded link, else 0
     * @param target   how the scenario named it: {@code e0-a0} (index 0), {@code e0-a0#1}, or a switch name
     */
    public record Event(int index, long atPs, Action action, int[] links, int node, long rateMbps, String target) {
        public Event {
            links = links.clone();
        }
    }

    private FailureSchedule() {
    }

    /**
     * Resolves {@code spec.events()}; errors name the field under {@code failures} (e.g.
     * {@code events[2].link.b}). Also rejects events whose final state cuts a flow's hosts apart for
     * good ({@code src[i]} to {@code dst[i]}), since such a run could never finish.
     */
    public static List<Event> resolve(Topology t, FailureSpec spec, boolean[] downFromStart, int[] src, int[] dst) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < spec.events().size(); i++) {
            FailureSpec.Event e = spec.events().get(i);
            String field = "events[" + i + "]";
            if (Double.isNaN(e.atUs())) {
                throw new ScenarioException(field + ".atUs", "is required (when, in us from the start of the run)");
            }
            if (FailureSpec.FailedLink.MISSING.equals(e.action())) {
                throw new ScenarioException(field + ".action", "is required (down, up or degrade)");
            }
            Action action = Action.valueOf(e.action().toUpperCase(java.util.Locale.ROOT));
            long atPs = Time.us(e.atUs());
            if (e.isLinkEvent()) {
                int link = LinkFailures.linkId(t, e.link(), field + ".link");
                long rateMbps = 0;
                if (action == Action.DEGRADE) {
                    int port = portOf(t, link);
                    long full = t.rateMbps(port);
                    rateMbps = Math.round(e.rateGbps() * 1000);
                    if (rateMbps < 1 || rateMbps > full) {
                        throw new ScenarioException(field + ".rateGbps", "must be between " + org.lbsim.scenario.Checks.fmt(org.lbsim.scenario.Checks.MIN_RATE_GBPS)
                                + " Gb/s and the link's " + full / 1000.0 + " Gb/s, got " + org.lbsim.scenario.Checks.plain(e.rateGbps()));
                    }
                }
                String target = e.link().a() + "-" + e.link().b() + (e.link().index() == 0 ? "" : "#" + e.link().index());
                out.add(new Event(i, atPs, action, new int[] {link}, -1, rateMbps, target));
            } else if (!e.node().isEmpty()) {
                int node = LinkFailures.switchNamed(t, e.node(), field + ".node");
                int[] links = new int[t.degree(node)];
                for (int p = t.firstPort(node); p < t.portEnd(node); p++) {
                    links[p - t.firstPort(node)] = t.linkOf(p);
                }
                out.add(new Event(i, atPs, action, links, node, 0, e.node()));
            } else {
                throw new ScenarioException(field, "give link: {a: NODE, b: NODE, index: N} or node: SWITCH");
            }
        }
        out.sort(Comparator.comparingLong(Event::atPs));
        checkFinalState(t, out, downFromStart, src, dst);
        return List.copyOf(out);
    }

    private static void checkFinalState(Topology t, List<Event> events, boolean[] downFromStart, int[] src, int[] dst) {
        if (events.isEmpty()) {
            return;
        }
        boolean[] linkDown = downFromStart.clone();
        boolean[] switchDown = new boolean[t.nodeCount()];
        Event last = null;
        for (Event e : events) {
            if (e.action() == Action.DEGRADE) {
                continue;
            }
            boolean down = e.action() == Action.DOWN;
            if (e.node() >= 0) {
                switchDown[e.node()] = down;
            } else {
                linkDown[e.links()[0]] = down;
            }
            last = e;
        }
        if (last == null) {
            return;
        }
        boolean[] down = effectiveDown(t, linkDown, switchDown);
        Fib fib = Routing.compute(t, down);
        for (int i = 0; i < src.length; i++) {
            if (PathFacts.path(t, fib, src[i], dst[i]).length == 0) {
                throw new ScenarioException("events", "after the last event (" + last.target() + " " + last.action().name().toLowerCase(java.util.Locale.ROOT)
                        + " at " + last.atPs() / (double) Time.PS_PER_US + " us) host " + src[i] + " is cut off from host " + dst[i] + " (flow " + i
                        + "), so the run could never finish; add an up event");
            }
        }
    }

    /** A link is down when it failed itself or either of its ends is a failed switch. */
    public static boolean[] effectiveDown(Topology t, boolean[] linkDown, boolean[] switchDown) {
        boolean[] down = linkDown.clone();
        for (int p = 0; p < t.portCount(); p++) {
            if (switchDown[t.portOwner(p)]) {
                down[t.linkOf(p)] = true;
            }
        }
        return down;
    }

    /** One port of a link (its lower-numbered direction). */
    public static int portOf(Topology t, int link) {
        for (int p = 0; p < t.portCount(); p++) {
            if (t.linkOf(p) == link) {
                return p;
            }
        }
        throw new IllegalArgumentException("no link " + link);
    }
}
