package org.lbsim.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.metrics.TimeSeries;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Network;
import org.lbsim.topology.Topology;
import org.lbsim.transport.OutOfOrderStats;
import org.lbsim.transport.Transport;

/**
 * Periodic sampling: per layer, the largest and the mean switch queue; the delivered goodput of
 * the whole fabric; the out-of-order packets receivers hold (also by traffic class when the flows
 * have several); and the congestion-control rate of the first few queue pairs. One wake-up per
 * interval; values go into primitive arrays.
 */
final class Sampler implements EventHandler {
    private final Simulator sim;
    private final Network network;
    private final Transport transport;
    private final Topology topology;
    /** Samples kept per series; when full, every other sample is dropped and the interval doubles. */
    static final int MAX_SAMPLES = 1 << 16;
    private long intervalPs;
    private int goodputSeries;
    private int decimations;
    private final int[] layers;
    private final int[][] portsOfLayer;
    private final int rateQps;
    /** Traffic classes with an out-of-order series of their own (none when the flows have one class). */
    private final int[] heldClasses;
    private final int handlerId;
    private final List<String> names = new ArrayList<>();
    private final List<String> units = new ArrayList<>();
    private long[] times = new long[256];
    private double[][] values;
    private int count;
    private long lastBytes;
    private long lastSamplePs;
    private boolean stopped;

    /** No more samples (the collective has completed; what follows is only the drain). */
    void stop() {
        stopped = true;
        if (balance != null) {
            balance.stop();
        }
    }

    /** PRO VI-A balance series, or null when off. */
    private BalanceSampler balance;

    Sampler(Simulator sim, Network network, Transport transport, long intervalPs, int rateQps, long balanceWindowPs, int[] heldClasses) {
        this(sim, network, transport, intervalPs, rateQps, heldClasses);
        if (balanceWindowPs > 0) {
            balance = new BalanceSampler(sim, network, transport, balanceWindowPs);
        }
    }

    /** {@code heldClasses}: the traffic classes that get an "ooo.held class&lt;c&gt;" series. */
    Sampler(Simulator sim, Network network, Transport transport, long intervalPs, int rateQps, int[] heldClasses) {
        this.sim = sim;
        this.network = network;
        this.transport = transport;
        this.topology = network.topology();
        this.intervalPs = intervalPs;
        this.layers = topology.layersInPathOrder();
        this.portsOfLayer = new int[layers.length][];
        for (int i = 0; i < layers.length; i++) {
            final int code = layers[i];
            portsOfLayer[i] = java.util.stream.IntStream.range(0, topology.portCount())
                    .filter(p -> topology.layerOf(p) == code && network.egress(p) != null).toArray();
            if (portsOfLayer[i].length > 0) {
                add("queue.max " + topology.layerName(code), "bytes");
                add("queue.mean " + topology.layerName(code), "bytes");
            }
        }
        goodputSeries = names.size();
        add("goodput", "Gb/s");
        add("ooo.held", "packets");
        this.heldClasses = heldClasses.clone();
        for (int c : this.heldClasses) {
            add("ooo.held class" + c, "packets");
        }
        this.rateQps = Math.min(rateQps, transport.flowCount());
        transport.keepQueuePairs(this.rateQps); // their senders must exist from the start to the end
        for (int q = 0; q < this.rateQps; q++) {
            add("rate qp" + q, "Gb/s");
        }
        values = new double[names.size()][256];
        this.handlerId = sim.register(this);
        sim.place(handlerId, Simulator.AT_SYNCHRONISATION_POINTS); // reads the whole fabric
        sim.scheduleBackground(handlerId, sim.nowPs(), 0, 0);
    }

    private void add(String name, String unit) {
        names.add(name);
        units.add(unit);
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (stopped) {
            return;
        }
        if (count == MAX_SAMPLES) {
            decimate();
        }
        if (count == times.length) {
            times = Arrays.copyOf(times, count * 2);
            for (int s = 0; s < values.length; s++) {
                values[s] = Arrays.copyOf(values[s], count * 2);
            }
        }
        long now = sim.nowPs();
        times[count] = now;
        int s = 0;
        for (int i = 0; i < layers.length; i++) {
            int[] ports = portsOfLayer[i];
            if (ports.length == 0) {
                continue;
            }
            long max = 0;
            long sum = 0;
            for (int p : ports) {
                EgressPort e = network.egress(p);
                long q = e.queueBytes();
                max = Math.max(max, q);
                sum += q;
            }
            values[s++][count] = max;
            values[s++][count] = sum / (double) ports.length;
        }
        long bytes = transport.deliveredPayloadBytes();
        // over the time since the previous sample: one interval, which decimation may have doubled since
        values[s++][count] = count == 0 ? 0 : (bytes - lastBytes) * 8.0 / ((now - lastSamplePs) / 1000.0);
        lastBytes = bytes;
        lastSamplePs = now;
        OutOfOrderStats ooo = transport.outOfOrder();
        values[s++][count] = ooo.heldNow();
        for (int c : heldClasses) {
            values[s++][count] = ooo.heldNow(c);
        }
        for (int q = 0; q < rateQps; q++) {
            var cc = transport.congestionControlOf(q); // a persistent queue pair's later message: its queue pair's rate
            values[s++][count] = cc == null ? 0 : cc.rateMbpsAt(now) / 1000.0;
        }
        count++;
        sim.scheduleBackground(handlerId, now + intervalPs, 0, 0);
    }

    /**
     * Keeps samples 0, 2, 4 ... (still a regular grid, now of twice the interval); a kept goodput
     * becomes the mean over the doubled interval before it. Memory stays bounded however long the run.
     */
    private void decimate() {
        for (int s = 0; s < values.length; s++) {
            double[] v = values[s];
            for (int i = 0; i < count / 2; i++) {
                v[i] = s == goodputSeries && i > 0 ? (v[2 * i - 1] + v[2 * i]) / 2 : v[2 * i];
            }
        }
        for (int i = 0; i < count / 2; i++) {
            times[i] = times[2 * i];
        }
        count /= 2;
        intervalPs *= 2;
        decimations++;
    }

    /** How often the series were thinned out (0 = every sample kept; the interval is sampleIntervalUs x 2^n). */
    int decimations() {
        return decimations;
    }

    long intervalPs() {
        return intervalPs;
    }

    List<TimeSeries> series() {
        List<TimeSeries> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            out.add(new TimeSeries(names.get(i), units.get(i), Arrays.copyOf(times, count), Arrays.copyOf(values[i], count)));
        }
        if (balance != null) {
            out.addAll(balance.series());
        }
        return out;
    }
}
