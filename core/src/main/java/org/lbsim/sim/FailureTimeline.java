package org.lbsim.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.metrics.FailureEventStats;
import org.lbsim.metrics.FailureEventStats.Losses;
import org.lbsim.net.Network;
import org.lbsim.topology.FailureSchedule;
import org.lbsim.topology.FailureSchedule.Action;
import org.lbsim.topology.LinkFailures;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topology;

/**
 * Failures, repairs and degradations during a run, applied at their time (OFAN 5.2's failure model,
 * started at the failure instead of at time zero). A link that goes down loses at once the packets
 * on its wire and those queued at the switch ports feeding it; frames sent onto it later are lost
 * until routing has converged around it. Routing converges network-wide, every switch at once
 * (OFAN 5.2's simplification, the failed link's own switches included), detection delay + G after
 * each failure or repair, to the routes of the fabric as it was right after that event; G = never
 * keeps the routes in force. A degraded link only changes its rate; routes and weights stay.
 * Events do not keep a run alive: they are background events of the kernel.
 */
final class FailureTimeline implements EventHandler {
    private static final int SCHEDULED = 0;
    private static final int CONVERGE = 1;
    private static final int RANDOM = 2;

    private final Simulator sim;
    private final Network network;
    private final Topology topology;
    private final int handlerId;
    private final List<FailureSchedule.Event> scheduled;
    /** Global convergence delay G, or -1 for never. */
    private final long convergencePs;
    private final long detectionPs;
    /** Links that failed by themselves (from time zero, scheduled, or by the random process), and failed switches. */
    private final boolean[] linkDown;
    private final boolean[] randomDown;
    private final boolean[] switchDown;
    /** What the network has now. */
    private boolean[] effective;
    private final double mtbfPs;
    private final double mttrPs;
    private final SplittableRandom[] processRng;
    private final List<Record> records = new ArrayList<>();
    /** The fabric a pending convergence computes routes for, and the records it closes, by convergence id. */
    private final List<boolean[]> pendingDown = new ArrayList<>();
    private final List<Record> pendingRecord = new ArrayList<>();

    /** One event as it happened; its convergence is filled in later. */
    private static final class Record {
        final int index;
        final String target;
        final Action action;
        final long atPs;
        final long rateMbps;
        final Losses before;
        int lostAtEvent;
        long convergedAtPs = -1;
        Losses atConvergence;

        Record(int index, String target, Action action, long atPs, long rateMbps, Losses before) {
            this.index = index;
            this.target = target;
            this.action = action;
            this.atPs = atPs;
            this.rateMbps = rateMbps;
            this.before = before;
        }
    }

    /**
     * @param downFromStart links down from time zero ({@code failures.links} and {@code linkProbability})
     * @param convergencePs G, or -1 for never
     * @param mtbfUs        mean time between failures of each switch-to-switch link, 0 = no random process
     */
    FailureTimeline(Simulator sim, Network network, List<FailureSchedule.Event> scheduled, boolean[] downFromStart, long convergencePs,
                    long detectionPs, double mtbfUs, double mttrUs, RandomStreams rng) {
        this.sim = sim;
        this.network = network;
        this.topology = network.topology();
        this.scheduled = scheduled;
        this.convergencePs = convergencePs;
        this.detectionPs = detectionPs;
        this.linkDown = downFromStart.clone();
        this.randomDown = new boolean[topology.linkCount()];
        this.switchDown = new boolean[topology.nodeCount()];
        this.effective = downFromStart.clone();
        this.mtbfPs = mtbfUs * org.lbsim.kernel.Time.PS_PER_US;
        this.mttrPs = mttrUs * org.lbsim.kernel.Time.PS_PER_US;
        this.handlerId = sim.register(this);
        // it changes links, queues and routes anywhere in the fabric: a partitioned run applies it between windows
        sim.place(handlerId, Simulator.AT_SYNCHRONISATION_POINTS);
        for (int i = 0; i < scheduled.size(); i++) {
            sim.scheduleBackground(handlerId, scheduled.get(i).atPs(), SCHEDULED, i);
        }
        this.processRng = new SplittableRandom[topology.linkCount()];
        if (mtbfUs > 0) {
            for (int link : LinkFailures.switchLinks(topology)) {
                processRng[link] = rng.stream("link-failure-process", link);
                if (!linkDown[link]) {
                    sim.scheduleBackground(handlerId, sim.nowPs() + draw(processRng[link], mtbfPs), RANDOM, link);
                }
            }
        }
    }

    /** An exponential time with mean {@code meanPs}, at least 1 ps. */
    private static long draw(SplittableRandom rng, double meanPs) {
        return Math.max(1, Math.round(-Math.log(1 - rng.nextDouble()) * meanPs));
    }

    @Override
    public void onEvent(int kind, long tag) {
        switch (kind) {
            case SCHEDULED -> {
                FailureSchedule.Event e = scheduled.get((int) tag);
                apply(e.index(), e.target(), e.action(), e.links(), e.node(), e.rateMbps());
            }
            case RANDOM -> {
                int link = (int) tag;
                randomDown[link] = !randomDown[link];
                Action action = randomDown[link] ? Action.DOWN : Action.UP;
                apply(-1, linkName(link), action, new int[] {link}, -2, 0);
                sim.scheduleBackground(handlerId, sim.nowPs() + draw(processRng[link], randomDown[link] ? mttrPs : mtbfPs), RANDOM, link);
            }
            case CONVERGE -> converge((int) tag);
            default -> throw new IllegalStateException("unknown failure event kind " + kind);
        }
    }

    /** @param node the switch of a switch event, -1 for a scheduled link event, -2 for the random process (its state is already set) */
    private void apply(int index, String target, Action action, int[] links, int node, long rateMbps) {
        Record r = new Record(index, target, action, sim.nowPs(), rateMbps, losses(network));
        records.add(r);
        if (action == Action.DEGRADE) {
            network.setLinkRateMbps(links[0], rateMbps);
            return;
        }
        boolean down = action == Action.DOWN;
        if (node >= 0) {
            switchDown[node] = down;
        } else if (node == -1) {
            linkDown[links[0]] = down;
            if (!down) {
                network.setLinkRateMbps(links[0], topology.rateMbps(FailureSchedule.portOf(topology, links[0]))); // back at full rate
            }
        }
        boolean[] now = FailureSchedule.effectiveDown(topology, orDown(linkDown, randomDown), switchDown);
        for (int link = 0; link < now.length; link++) {
            if (now[link] && !effective[link]) {
                r.lostAtEvent += network.failLink(link);
            } else if (!now[link] && effective[link]) {
                network.restoreLink(link);
            }
        }
        effective = now;
        if (convergencePs < 0) {
            return; // OFAN 5.2, G = infinity: the routes in force stay
        }
        pendingDown.add(now.clone());
        pendingRecord.add(r);
        int id = pendingDown.size() - 1;
        long delay = detectionPs + convergencePs;
        if (delay == 0) {
            converge(id);
        } else {
            sim.scheduleBackground(handlerId, sim.nowPs() + delay, CONVERGE, id);
        }
    }

    /** OFAN 5.2: after G every switch has the routes and W-ECMP weights of the fabric as the event left it. */
    private void converge(int id) {
        network.installFib(Routing.compute(topology, pendingDown.get(id)));
        pendingDown.set(id, null);
        Record r = pendingRecord.get(id);
        r.convergedAtPs = sim.nowPs();
        r.atConvergence = losses(network);
    }

    private static boolean[] orDown(boolean[] a, boolean[] b) {
        boolean[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] |= b[i];
        }
        return out;
    }

    private String linkName(int link) {
        int port = FailureSchedule.portOf(topology, link);
        int a = topology.portOwner(port);
        int b = topology.peerNode(port);
        int[] between = topology.portsBetween(a, b);
        int index = 0;
        for (int i = 0; i < between.length; i++) {
            if (topology.linkOf(between[i]) == link) {
                index = i;
            }
        }
        return topology.nodeName(a) + "-" + topology.nodeName(b) + (index == 0 ? "" : "#" + index);
    }

    /** Losses so far, run-wide. */
    static Losses losses(Network network) {
        long buffer = 0;
        long link = 0;
        for (int code = 0; code < 16; code++) {
            buffer += network.dropsInLayer(code);
            link += network.linkLossInLayer(code);
        }
        return new Losses(buffer, link, network.noRouteDrops());
    }

    /** The events up to {@code endPs}, with their losses before, during and after convergence; {@code atEnd} are the losses then. */
    List<FailureEventStats> stats(long endPs, Losses atEnd) {
        List<FailureEventStats> out = new ArrayList<>();
        for (Record r : records) {
            if (r.atPs > endPs) {
                break;
            }
            boolean converged = r.convergedAtPs >= 0 && r.convergedAtPs <= endPs;
            Losses until = converged ? r.atConvergence : atEnd;
            out.add(new FailureEventStats(r.index, r.target, r.action.name().toLowerCase(java.util.Locale.ROOT), r.atPs, r.rateMbps,
                    converged ? r.convergedAtPs : -1, r.lostAtEvent, r.before, until.minus(r.before),
                    converged ? atEnd.minus(r.atConvergence) : Losses.NONE));
        }
        return out;
    }
}
