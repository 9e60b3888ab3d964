package org.lbsim.net;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.topology.Topology;

/**
 * Detects PFC deadlock instead of hanging: every check interval, if no packet reached any host
 * since the last check while paused ports hold packets, it looks for a cycle of paused ports, each
 * waiting on a switch whose ingress buffer is held by the next. A cycle ends the run with a report
 * naming the ports.
 */
public final class PfcWatchdog implements EventHandler {
    private final Network network;
    private final Simulator sim;
    private final long periodPs;
    private final int handlerId;
    private long lastDelivered = -1;
    private String report;

    public PfcWatchdog(Network network, long periodPs) {
        this.network = network;
        this.sim = network.simulator();
        this.periodPs = periodPs;
        this.handlerId = sim.register(this);
        sim.scheduleBackground(handlerId, sim.nowPs() + periodPs, 0, 0);
    }

    /** The deadlock report, or null if none was found. */
    public String report() {
        return report;
    }

    @Override
    public void onEvent(int kind, long tag) {
        long delivered = network.delivered();
        if (delivered == lastDelivered && checkNow()) {
            sim.stop();
            return;
        }
        lastDelivered = delivered;
        sim.scheduleBackground(handlerId, sim.nowPs() + periodPs, 0, 0);
    }

    /** Looks for a cycle of paused ports now; records the report and returns true if one exists. */
    public boolean checkNow() {
        List<Integer> cycle = findCycle();
        if (cycle == null) {
            return false;
        }
        Topology t = network.topology();
        StringBuilder sb = new StringBuilder("PFC deadlock at ").append(sim.nowPs() / 1_000_000.0).append(" us: cycle of paused ports ");
        for (int i = 0; i < cycle.size(); i++) {
            int p = cycle.get(i);
            sb.append(i == 0 ? "" : " -> ").append(t.nodeName(t.portOwner(p))).append("->").append(t.nodeName(t.peerNode(p)))
                    .append(" (").append(network.egress(p).queuePackets()).append(" packets)");
        }
        report = sb.toString();
        return true;
    }

    private boolean stuck(int port) {
        EgressPort e = network.egress(port);
        return e != null && e.isPaused() && e.queuePackets() > 0;
    }

    /** A cycle in the wait-for graph of paused, non-empty switch ports, or null. */
    List<Integer> findCycle() {
        Topology t = network.topology();
        int n = t.portCount();
        int[] state = new int[n]; // 0 unvisited, 1 on stack, 2 done
        int[] parent = new int[n];
        for (int start = 0; start < n; start++) {
            if (state[start] != 0 || !stuck(start)) {
                continue;
            }
            // iterative DFS
            int[] stack = new int[n];
            int[] next = new int[n];
            int top = 0;
            stack[top] = start;
            next[top] = -1;
            state[start] = 1;
            parent[start] = -1;
            while (top >= 0) {
                int p = stack[top];
                int downstream = t.peerNode(p);
                if (t.isHost(downstream)) {
                    state[p] = 2;
                    top--;
                    continue;
                }
                int q = next[top] < 0 ? t.firstPort(downstream) : next[top] + 1;
                boolean pushed = false;
                for (; q < t.portEnd(downstream); q++) {
                    if (!stuck(q)) {
                        continue;
                    }
                    if (state[q] == 1) {
                        List<Integer> cycle = new ArrayList<>();
                        for (int i = 0; i <= top; i++) {
                            if (stack[i] == q || !cycle.isEmpty()) {
                                cycle.add(stack[i]);
                            }
                        }
                        return cycle;
                    }
                    if (state[q] == 0) {
                        next[top] = q;
                        top++;
                        stack[top] = q;
                        next[top] = -1;
                        state[q] = 1;
                        parent[q] = p;
                        pushed = true;
                        break;
                    }
                }
                if (!pushed) {
                    state[p] = 2;
                    top--;
                }
            }
        }
        return null;
    }
}
