package org.lbsim.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.metrics.TimeSeries;
import org.lbsim.net.Network;
import org.lbsim.topology.Topology;
import org.lbsim.transport.OutOfOrderStats;
import org.lbsim.transport.Transport;

/**
 * PRO VI-A's balance metrics, sampled once per window (PRO: 10 us): per layer of switch ports, the
 * load imbalance (bytes sent by the busiest port of the layer in the window over the mean of the
 * layer's ports; 0 when the layer sent nothing), and the out-of-order degree p50 / p99 over all
 * arrivals so far and p99 over the out-of-order ones. Queue imbalance (max - mean per layer) comes
 * from the queue series of {@link Sampler}. Series stop growing at {@link Sampler#MAX_SAMPLES}.
 */
final class BalanceSampler implements EventHandler {
    private final Simulator sim;
    private final Network network;
    private final Transport transport;
    private final long windowPs;
    private final int[][] portsOfLayer;
    private final long[][] lastTx;
    private final List<String> names = new ArrayList<>();
    private final List<String> units = new ArrayList<>();
    private final int handlerId;
    private long[] times = new long[256];
    private double[][] values;
    private int count;
    private boolean stopped;

    BalanceSampler(Simulator sim, Network network, Transport transport, long windowPs) {
        this.sim = sim;
        this.network = network;
        this.transport = transport;
        this.windowPs = windowPs;
        Topology t = network.topology();
        List<int[]> layers = new ArrayList<>();
        for (int code : t.layersInPathOrder()) {
            int[] ports = java.util.stream.IntStream.range(0, t.portCount())
                    .filter(p -> t.layerOf(p) == code && network.egress(p) != null && !t.isHost(t.portOwner(p))).toArray();
            if (ports.length > 0) {
                layers.add(ports);
                names.add("load.imbalance " + t.layerName(code));
                units.add("max/mean");
            }
        }
        portsOfLayer = layers.toArray(new int[0][]);
        lastTx = new long[portsOfLayer.length][];
        for (int i = 0; i < portsOfLayer.length; i++) {
            lastTx[i] = new long[portsOfLayer[i].length];
        }
        names.add("ooo.degree.p50");
        names.add("ooo.degree.p99");
        names.add("ooo.degree.p99 out-of-order");
        units.add("packets");
        units.add("packets");
        units.add("packets");
        values = new double[names.size()][256];
        network.watchTxBytes(); // every window
        handlerId = sim.register(this);
        sim.place(handlerId, Simulator.AT_SYNCHRONISATION_POINTS); // reads the whole fabric
        sim.scheduleBackground(handlerId, sim.nowPs() + windowPs, 0, 0);
    }

    void stop() {
        if (!stopped) {
            sample(); // the run's final out-of-order percentiles and its last, partial window
            stopped = true;
        }
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (stopped) {
            return;
        }
        sample();
        sim.scheduleBackground(handlerId, sim.nowPs() + windowPs, 0, 0);
    }

    private void sample() {
        if (count == Sampler.MAX_SAMPLES) {
            return;
        }
        if (count == times.length) {
            times = Arrays.copyOf(times, count * 2);
            for (int s = 0; s < values.length; s++) {
                values[s] = Arrays.copyOf(values[s], count * 2);
            }
        }
        times[count] = sim.nowPs();
        int s = 0;
        for (int i = 0; i < portsOfLayer.length; i++) {
            long max = 0;
            long sum = 0;
            int[] ports = portsOfLayer[i];
            for (int k = 0; k < ports.length; k++) {
                long tx = network.txBytes(ports[k]);
                long d = tx - lastTx[i][k];
                lastTx[i][k] = tx;
                max = Math.max(max, d);
                sum += d;
            }
            values[s++][count] = sum == 0 ? 0 : max * (double) ports.length / sum;
        }
        OutOfOrderStats o = transport.outOfOrder();
        values[s++][count] = o.degreeQuantile(0.5);
        values[s++][count] = o.degreeQuantile(0.99);
        values[s][count] = o.outOfOrderDegreeQuantile(0.99);
        count++;
    }

    List<TimeSeries> series() {
        List<TimeSeries> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            out.add(new TimeSeries(names.get(i), units.get(i), Arrays.copyOf(times, count), Arrays.copyOf(values[i], count)));
        }
        return out;
    }
}
