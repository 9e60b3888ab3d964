package org.lbsim.sim;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Network;
import org.lbsim.spi.CounterSink;
import org.lbsim.topology.Topology;

/**
 * Utilization of every leaf's ports over a window of the run, as a switch's interface counters show
 * it (CTCCL Fig. 6b: per-port load and its variance across a leaf's 8 uplinks; Fig. 7: each port's
 * input and output usage): frame bytes sent x 8 / (rate x window). A leaf is a switch with NICs
 * attached; its uplinks face a higher tier. Opt-in ({@code metrics.portLoadsFromUs} >= 0): the
 * window opens then and closes at {@code metrics.portLoadsToUs}, or when the last flow completes.
 * Reported with the run's counters as {@code ports.*}.
 */
final class PortLoads implements EventHandler {
    private static final int OPEN = 0;
    private static final int CLOSE = 1;

    private final Network network;
    private final Topology topology;
    private final List<Integer> leaves = new ArrayList<>();
    private final long[] atOpen;
    private final long[] atClose;
    private final boolean enabled;
    private long openPs = -1;
    private long closePs = -1;

    /** Measures nothing. */
    PortLoads(Network network) {
        this.network = network;
        this.topology = network.topology();
        this.enabled = false;
        this.atOpen = new long[0];
        this.atClose = new long[0];
    }

    PortLoads(Network network, Simulator sim, long fromPs, long toPs) {
        this.network = network;
        network.watchTxBytes(); // read when the window opens and closes
        this.topology = network.topology();
        this.enabled = true;
        this.atOpen = new long[topology.portCount()];
        this.atClose = new long[topology.portCount()];
        boolean[] leaf = new boolean[topology.nodeCount()];
        for (int h = 0; h < topology.hostCount(); h++) {
            int sw = topology.hostSwitch(h);
            if (!leaf[sw]) {
                leaf[sw] = true;
                leaves.add(sw);
            }
        }
        java.util.Collections.sort(leaves);
        int handler = sim.register(this);
        sim.place(handler, Simulator.AT_SYNCHRONISATION_POINTS); // reads the whole fabric
        if (fromPs == 0) {
            openPs = 0;
        } else {
            sim.scheduleBackground(handler, fromPs, OPEN, 0);
        }
        if (toPs > 0) {
            sim.scheduleBackground(handler, toPs, CLOSE, 0);
        }
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (kind == OPEN) {
            openPs = network.simulator().nowPs();
            snapshot(atOpen);
        } else {
            close();
        }
    }

    /** Closes the window now unless it is closed already (the run's last flow completed). */
    void close() {
        if (enabled && closePs < 0 && openPs >= 0) {
            closePs = network.simulator().nowPs();
            snapshot(atClose);
        }
    }

    private void snapshot(long[] into) {
        for (int port = 0; port < into.length; port++) {
            into[port] = network.txBytes(port);
        }
    }

    private double utilPct(int port) {
        double seconds = (closePs - openPs) * 1e-12;
        return 100.0 * (atClose[port] - atOpen[port]) * 8 / (topology.rateMbps(port) * 1e6 * seconds);
    }

    /**
     * The window, per uplink {@code ports.<leaf>-<spine>#<k>.out/.in}, and per leaf and overall summaries of the uplinks
     * whose link is up when the window closes (variance: population variance of their utilization in %, per leaf).
     */
    void report(CounterSink sink) {
        if (!enabled || openPs < 0 || closePs <= openPs) {
            return;
        }
        sink.add("ports.windowFromPs", openPs);
        sink.add("ports.windowToPs", closePs);
        double varianceSum = 0;
        double varianceMax = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        double sum = 0;
        int uplinks = 0;
        double downSum = 0;
        int downlinks = 0;
        int measured = 0;
        int failed = 0;
        for (int leaf : leaves) {
            List<Double> up = new ArrayList<>();
            for (int port = topology.firstPort(leaf); port < topology.portEnd(leaf); port++) {
                int peer = topology.peerNode(port);
                if (topology.isHost(peer)) {
                    downSum += utilPct(port);
                    downlinks++;
                } else if (topology.tier(peer) > topology.tier(leaf)) {
                    double out = utilPct(port);
                    String name = "ports." + topology.nodeName(leaf) + "-" + topology.nodeName(peer) + "#" + parallelIndex(port);
                    sink.add(name + ".out", out);
                    sink.add(name + ".in", utilPct(topology.peerPort(port)));
                    if (network.link(port).isDown()) {
                        failed++; // CTCCL Fig. 7: the summaries are over the uplinks still working
                    } else {
                        up.add(out);
                    }
                }
            }
            if (up.isEmpty()) {
                continue;
            }
            double mean = up.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            double variance = up.stream().mapToDouble(u -> (u - mean) * (u - mean)).sum() / up.size();
            String leafName = "ports." + topology.nodeName(leaf);
            sink.add(leafName + ".uplinkMeanPct", mean);
            sink.add(leafName + ".uplinkMinPct", up.stream().mapToDouble(Double::doubleValue).min().orElse(0));
            sink.add(leafName + ".uplinkMaxPct", up.stream().mapToDouble(Double::doubleValue).max().orElse(0));
            sink.add(leafName + ".uplinkVariance", variance);
            varianceSum += variance;
            varianceMax = Math.max(varianceMax, variance);
            measured++;
            for (double u : up) {
                min = Math.min(min, u);
                max = Math.max(max, u);
                sum += u;
                uplinks++;
            }
        }
        if (measured > 0) {
            sink.add("ports.leafUplinks.meanPct", sum / uplinks);
            sink.add("ports.leafUplinks.minPct", min);
            sink.add("ports.leafUplinks.maxPct", max);
            sink.add("ports.leafUplinks.variance", varianceSum / measured);
            sink.add("ports.leafUplinks.maxVariance", varianceMax);
        }
        sink.add("ports.leafUplinks.downAtEnd", failed);
        if (downlinks > 0) {
            sink.add("ports.leafDownlinks.meanPct", downSum / downlinks);
        }
    }

    private int parallelIndex(int port) {
        int[] between = topology.portsBetween(topology.portOwner(port), topology.peerNode(port));
        return java.util.Arrays.binarySearch(between, port);
    }
}
