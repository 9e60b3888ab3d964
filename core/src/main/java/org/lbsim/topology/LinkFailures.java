package org.lbsim.topology;

import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.ScenarioException;

/** Turns a scenario's failure description into the set of failed links. */
public final class LinkFailures {
    private LinkFailures() {
    }

    /**
     * Named links fail; in addition each switch-to-switch link fails independently with the given
     * probability, drawn from {@code rng}. Host links never fail here.
     */
    public static boolean[] resolve(Topology t, FailureSpec spec, SplittableRandom rng) {
        boolean[] down = new boolean[t.linkCount()];
        List<FailureSpec.FailedLink> links = spec.links();
        for (int i = 0; i < links.size(); i++) {
            down[linkId(t, links.get(i), "links[" + i + "]")] = true;
        }
        if (spec.linkProbability() > 0) {
            for (int link = 0, p = 0; p < t.portCount(); p++) {
                int owner = t.portOwner(p);
                int peer = t.peerNode(p);
                if (t.isHost(owner) || t.isHost(peer) || owner > peer) {
                    continue; // each switch-to-switch link once, from its lower-numbered end
                }
                link = t.linkOf(p);
                if (rng.nextDouble() < spec.linkProbability()) {
                    down[link] = true;
                }
            }
        }
        return down;
    }

    /** Every switch-to-switch link once, in the order of its lower-numbered end's ports. */
    public static int[] switchLinks(Topology t) {
        int[] out = new int[t.linkCount()];
        int n = 0;
        for (int p = 0; p < t.portCount(); p++) {
            int owner = t.portOwner(p);
            int peer = t.peerNode(p);
            if (!t.isHost(owner) && !t.isHost(peer) && owner < peer) {
                out[n++] = t.linkOf(p);
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * The link id of a named switch-to-switch link; {@code field} is where it was named, for the
     * error when an end is missing, is not a switch of this fabric, or the link does not exist.
     */
    public static int linkId(Topology t, FailureSpec.FailedLink l, String field) {
        if (FailureSpec.FailedLink.MISSING.equals(l.a())) {
            throw new ScenarioException(field + ".a", "is required (one end, a switch name such as e0 or l3)");
        }
        if (FailureSpec.FailedLink.MISSING.equals(l.b())) {
            throw new ScenarioException(field + ".b", "is required (the other end, a switch name such as a0 or s1)");
        }
        int a = switchNamed(t, l.a(), field + ".a");
        int b = switchNamed(t, l.b(), field + ".b");
        int[] between = t.portsBetween(a, b);
        if (between.length == 0) {
            throw new ScenarioException(field, "there is no link between " + l.a() + " and " + l.b());
        }
        if (l.index() >= between.length) {
            throw new ScenarioException(field + ".index", "must be < " + between.length + " (parallel links between " + l.a() + " and " + l.b() + "), got " + l.index());
        }
        return t.linkOf(between[l.index()]);
    }

    /** The node id of a switch named {@code name}; the error names {@code field}. */
    public static int switchNamed(Topology t, String name, String field) {
        int n = t.nodeByName(name);
        if (n < 0 || t.isHost(n)) {
            throw new ScenarioException(field, "no switch named '" + name + "' in this " + t.kind() + " (switches are named " + switchNaming(t) + ")");
        }
        return n;
    }

    private static String switchNaming(Topology t) {
        String first = t.nodeName(t.hostCount());
        String last = t.nodeName(t.nodeCount() - 1);
        return first + " .. " + last;
    }
}
