package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.net.PortStates;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * AR as Broadcom Tomahawk switches do it (PRO 5 baselines): every egress port has a quality
 * derived from its recent link load and its queue length, recomputed every {@code refreshUs}
 * (1 us in PRO); each packet goes to a candidate port of the best quality, ties broken at random.
 * Between refreshes the qualities are stale, which is what makes AR lag behind bursts. Load and
 * queue are each quantized into {@code levels} bands and the worse of the two is the port's quality.
 */
public final class AdaptiveRouting implements LoadBalancer {
    public record Params(
            @Doc("microseconds between port-quality refreshes (PRO: 1)") double refreshUs,
            @Doc("quantization bands for link load and for queue length") int levels) {
        public Params {
            org.lbsim.scenario.Checks.periodUs(refreshUs, "refreshUs");
            ScenarioException.require(levels >= 2 && levels <= 64, "levels", "must be between 2 and 64, got " + levels);
        }
    }

    private final Params params;

    public AdaptiveRouting(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return EntropyPolicy.randomFixed(host);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new Selector(sw, Time.us(params.refreshUs()), params.levels());
    }

    static final class Selector implements PortSelector, EventHandler, WeightedChoice.Score {
        private final Simulator sim;
        private final PortStates ports;
        private final SplittableRandom rng;
        private final int firstPort;
        private final int portCount;
        private final long[] capacityBytesPerRefresh;
        private final long[] lastTx;
        private final int[] quality;
        private final int levels;
        private final long refreshPs;
        private final int handlerId;
        private Fib fib;

        Selector(SwitchContext sw, long refreshPs, int levels) {
            Topology t = sw.topology();
            this.sim = sw.simulator();
            this.ports = sw.ports();
            ports.watchTxBytes(); // the link load of every refresh
            this.rng = sw.rng();
            this.fib = sw.fib();
            this.firstPort = t.firstPort(sw.node());
            this.portCount = t.degree(sw.node());
            this.capacityBytesPerRefresh = new long[portCount];
            for (int i = 0; i < portCount; i++) {
                capacityBytesPerRefresh[i] = Math.max(1, t.rateMbps(firstPort + i) * refreshPs / 8_000_000L);
            }
            this.lastTx = new long[portCount];
            this.quality = new int[portCount];
            this.levels = levels;
            this.refreshPs = refreshPs;
            this.handlerId = sim.register(this);
            sim.place(handlerId, sw.node());
            sim.scheduleBackground(handlerId, sim.nowPs() + refreshPs, 0, 0);
        }

        @Override
        public void onEvent(int kind, long tag) {
            for (int i = 0; i < portCount; i++) {
                int port = firstPort + i;
                long tx = ports.txBytes(port);
                double load = (tx - lastTx[i]) / (double) capacityBytesPerRefresh[i];
                lastTx[i] = tx;
                double fill = ports.queueBytes(port) / (double) ports.bufferBytes(port);
                quality[i] = Math.max(band(load), band(fill));
            }
            sim.scheduleBackground(handlerId, sim.nowPs() + refreshPs, 0, 0);
        }

        private int band(double fraction) {
            return (int) Math.min(levels - 1, Math.max(0, fraction * levels));
        }

        @Override
        public void onRoutingChange(Fib newFib) {
            this.fib = newFib;
        }

        @Override
        public long of(int port) {
            return quality[port - firstPort];
        }

        /** The best quality wins, random tie-break; under W-ECMP within a weight class drawn by weight (OFAN 5.2, {@link WeightedChoice}). */
        @Override
        public int select(Packet p, int group, int[] candidates, int offset, int count) {
            return WeightedChoice.lowest(fib, group, candidates, offset, count, this, rng);
        }
    }
}
