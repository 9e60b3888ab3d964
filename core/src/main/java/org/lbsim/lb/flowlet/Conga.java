package org.lbsim.lb.flowlet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.lb.tor.SourceRoutedSelector;
import org.lbsim.lb.tor.TorView;
import org.lbsim.net.EgressStage;
import org.lbsim.net.IngressStage;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.CounterSink;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * CONGA as the ConWeave authors' ns-3 runs it (conga-routing.cc). Every switch keeps a DRE
 * (discounting rate estimator) per fabric port: bytes sent add to it, every Tdre it decays by
 * (1 - alpha) (:434-441, :481-489); its quantized value (3 bits of link utilization, :452-462) is
 * the port's congestion. A data packet's CE field carries the largest along its path (:357-360).
 * The destination ToR stores the CE per (source leaf, path) and piggybacks one random entry on
 * data going back to that leaf (:197-213, :324-337); the source ToR files it in its to-leaf table
 * (:307-322). At a flowlet boundary (100 us gap) the source ToR samples 4 consecutive paths from a
 * random start and takes the one whose max(local DRE, remote CE) is smallest, ties at random
 * (:377-432). Entries not refreshed for the aging time reset (:491-527). As in ns-3, only data
 * packets carry and learn feedback. Each switch's program keeps its own counters (a switch runs in one
 * partition of a partitioned run); the run's counters are their sums.
 */
public final class Conga extends org.lbsim.lb.tor.TorProgramScheme {
    public record Params(
            @Doc("flowlet timeout in us (ConWeave ns-3: 100, network-load-balance.cc:61)") double flowletTimeoutUs,
            @Doc("DRE period Tdre in us: every Tdre each port's estimate decays by (1 - alpha) (ns-3: 50, :62)") double dreUs,
            @Doc("DRE decay factor alpha (ns-3: 0.2, :65)") double alpha,
            @Doc("bits of quantized congestion (ns-3: 3, :64)") int quantizeBits,
            @Doc("us after which unrefreshed feedback entries reset (ns-3: 500, :63)") double agingUs,
            @Doc("paths sampled at a flowlet boundary (ns-3 GetBestPath(dstToR, 4), conga-routing.cc:254)") int candidatePaths) {
        public Params {
            ScenarioException.require(flowletTimeoutUs > 0, "flowletTimeoutUs", "must be > 0, got " + flowletTimeoutUs);
            ScenarioException.require(dreUs > 0, "dreUs", "must be > 0, got " + dreUs);
            ScenarioException.require(alpha > 0 && alpha < 1, "alpha", "must be in (0, 1), got " + alpha);
            ScenarioException.require(quantizeBits >= 1 && quantizeBits <= 7, "quantizeBits", "must be 1..7, got " + quantizeBits);
            ScenarioException.require(agingUs > 0, "agingUs", "must be > 0, got " + agingUs);
            ScenarioException.require(candidatePaths >= 1, "candidatePaths", "must be >= 1, got " + candidatePaths);
        }
    }

    /** switchBits layout: CE (bits 0-7), feedback metric (8-15), feedback path (16-27), feedback valid (28). */
    static final int CE_MASK = 0xFF;
    static final int FB_VALID = 1 << 28;

    private final Params params;
    private final long timeoutPs;
    private final long drePs;
    private final long agingPs;
    /** Every switch's program, made before the run starts; each counts its own flowlets and feedback. */
    private final List<CongaSwitch> programs = new ArrayList<>();

    public Conga(Params params) {
        this.params = params;
        this.timeoutPs = Math.round(params.flowletTimeoutUs() * 1_000_000);
        this.drePs = Math.round(params.dreUs() * 1_000_000);
        this.agingPs = Math.round(params.agingUs() * 1_000_000);
    }


    @Override
    public void programSwitch(SwitchContext ctx, Switch sw) {
        CongaSwitch program = new CongaSwitch(ctx, sw);
        programs.add(program);
        sw.setEgressStage(program);
        if (tors(ctx).leafIndex(ctx.node()) >= 0) {
            sw.addIngressStage(program);
        }
    }


    @Override
    public void reportCounters(CounterSink sink) {
        sink.add("conga.flowlets", flowlets());
        sink.add("conga.flowletTimeouts", flowletTimeouts());
        sink.add("conga.feedbackCarried", feedbackCarried());
    }

    /** Flowlets started at the source ToRs (first packets of queue pairs included). */
    public long flowlets() {
        long n = 0;
        for (CongaSwitch s : programs) {
            n += s.flowlets;
        }
        return n;
    }

    /** Flowlets started because the previous one timed out. */
    public long flowletTimeouts() {
        long n = 0;
        for (CongaSwitch s : programs) {
            n += s.flowletTimeouts;
        }
        return n;
    }

    /** Data packets that carried a feedback entry back to a source leaf. */
    public long feedbackCarried() {
        long n = 0;
        for (CongaSwitch s : programs) {
            n += s.feedbackCarried;
        }
        return n;
    }

    static int ce(Packet p) {
        return p.switchBits & CE_MASK;
    }

    /** One switch's CONGA program: DRE per port (every switch), tables and flowlets (ToRs). */
    final class CongaSwitch implements IngressStage, EgressStage, EventHandler {
        private static final int DECAY = 0;
        private static final int AGE = 1;
        private final int node;
        private final int firstPort;
        private final Switch sw;
        private final Simulator sim;
        private final SplittableRandom rng;
        private final int handler;
        private final long[] dreBytes;
        /** Bytes of a full DRE register at line rate: rate x Tdre / alpha (conga-routing.cc:456). */
        private final double[] fullScaleBytes;
        private final boolean[] towardsHost;
        private final int maxPaths;
        /** To-leaf table (source side): remote CE per (destination leaf, path), with its update time. */
        private final int[] remoteCe;
        private final long[] remoteCePs;
        /** From-leaf table (destination side): CE seen per (source leaf, path), with its update time; -1 = no entry. */
        private final int[] seenCe;
        private final long[] seenCePs;
        private final int[] candidates;
        private long[] lastPs = new long[64];
        private int[] path = new int[64];
        private long flowlets;
        private long flowletTimeouts;
        private long feedbackCarried;

        CongaSwitch(SwitchContext ctx, Switch sw) {
            Topology t = ctx.topology();
            this.node = ctx.node();
            this.sw = sw;
            this.sim = ctx.simulator();
            this.rng = ctx.rng().split();
            this.firstPort = t.firstPort(node);
            int ports = t.portEnd(node) - firstPort;
            this.dreBytes = new long[ports];
            this.fullScaleBytes = new double[ports];
            this.towardsHost = new boolean[ports];
            for (int i = 0; i < ports; i++) {
                fullScaleBytes[i] = t.rateMbps(firstPort + i) * 1e6 / 8 * (drePs / 1e12) / params.alpha();
                towardsHost[i] = t.isHost(t.peerNode(firstPort + i));
            }
            this.maxPaths = Math.max(1, ports);
            int leaves = tors().leafCount();
            this.remoteCe = new int[leaves * maxPaths];
            this.remoteCePs = new long[leaves * maxPaths];
            this.seenCe = new int[leaves * maxPaths];
            this.seenCePs = new long[leaves * maxPaths];
            Arrays.fill(seenCe, -1);
            this.candidates = new int[maxPaths];
            Arrays.fill(path, -1);
            this.handler = sim.register(this);
            sim.place(handler, node);
            sim.scheduleBackground(handler, sim.nowPs() + drePs, DECAY, 0);
            sim.scheduleBackground(handler, sim.nowPs() + agingPs, AGE, 0);
        }

        private int quantized(int localPort) {
            int q = (int) (dreBytes[localPort] / fullScaleBytes[localPort] * (1 << params.quantizeBits()));
            return Math.min(q, CE_MASK);
        }

        /** DRE and CE on the way out: fabric ports only, as ns-3 updates at the source ToR and upper switches, never towards a host. */
        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
            int i = port - firstPort;
            if (p.kind != Packet.DATA || towardsHost[i] || p.pathId < 0) {
                return;
            }
            dreBytes[i] += p.sizeBytes;
            int ce = quantized(i);
            if (ce > ce(p)) {
                p.switchBits = (p.switchBits & ~CE_MASK) | ce;
            }
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.kind != Packet.DATA) {
                return true;
            }
            int srcTor = tors().torOf(p.src);
            int dstTor = tors().torOf(p.dst);
            if (srcTor == dstTor) {
                return true;
            }
            if (srcTor == node) {
                atSource(p);
            } else if (dstTor == node && p.pathId >= 0) {
                atDestination(p);
            }
            return true;
        }

        private void atSource(Packet p) {
            long now = sim.nowPs();
            int dstLeaf = tors().leafOfHost(p.dst);
            int bits = 0;
            int entries = 0;
            int pick = -1;
            for (int k = 0; k < maxPaths; k++) { // a uniformly random entry of the from-leaf table (:200-203)
                if (seenCe[dstLeaf * maxPaths + k] >= 0 && rng.nextInt(++entries) == 0) {
                    pick = k;
                }
            }
            if (pick >= 0) {
                bits = FB_VALID | (pick << 16) | (Math.min(seenCe[dstLeaf * maxPaths + pick], CE_MASK) << 8);
                feedbackCarried++;
            }
            int f = p.flow;
            if (f >= path.length) {
                grow(f);
            }
            Fib fib = sw.network().fib();
            int group = fib.group(node, p.dst);
            if (path[f] < 0 || now - lastPs[f] > timeoutPs) {
                if (path[f] >= 0) {
                    flowletTimeouts++;
                }
                flowlets++;
                path[f] = bestPath(fib, group, dstLeaf);
            }
            lastPs[f] = now;
            p.pathId = path[f];
            p.switchBits = bits; // CE starts at 0; the egress stages raise it
        }

        /** GetBestPath (:377-432): nSample consecutive paths from a random start, min of max(local, remote), random among ties. */
        private int bestPath(Fib fib, int group, int dstLeaf) {
            int paths = Math.max(1, fib.groupSize(group));
            int n = Math.min(params.candidatePaths(), paths);
            int start = paths > n ? rng.nextInt(paths - n + 1) : 0;
            int best = Integer.MAX_VALUE;
            int ties = 0;
            for (int k = start; k < start + n; k++) {
                int local = quantized(fib.port(group, k) - firstPort);
                int remote = k < maxPaths ? remoteCe[dstLeaf * maxPaths + k] : 0;
                int congestion = Math.max(local, remote);
                if (congestion < best) {
                    best = congestion;
                    ties = 0;
                }
                if (congestion == best) {
                    candidates[ties++] = k;
                }
            }
            return candidates[rng.nextInt(ties)];
        }

        private void atDestination(Packet p) {
            long now = sim.nowPs();
            int srcLeaf = tors().leafOfHost(p.src);
            int bits = p.switchBits;
            if ((bits & FB_VALID) != 0) {
                int k = (bits >>> 16) & 0xFFF;
                if (k < maxPaths) {
                    remoteCe[srcLeaf * maxPaths + k] = (bits >>> 8) & 0xFF;
                    remoteCePs[srcLeaf * maxPaths + k] = now;
                }
            }
            if (p.pathId < maxPaths) {
                seenCe[srcLeaf * maxPaths + p.pathId] = ce(p);
                seenCePs[srcLeaf * maxPaths + p.pathId] = now;
            }
        }

        @Override
        public void onEvent(int kind, long tag) {
            long now = sim.nowPs();
            if (kind == DECAY) {
                for (int i = 0; i < dreBytes.length; i++) {
                    dreBytes[i] = (long) (dreBytes[i] * (1 - params.alpha()));
                }
                sim.scheduleBackground(handler, now + drePs, DECAY, 0);
                return;
            }
            for (int e = 0; e < remoteCe.length; e++) {
                if (now - remoteCePs[e] > agingPs) {
                    remoteCe[e] = 0;
                }
                if (seenCe[e] >= 0 && now - seenCePs[e] > agingPs) {
                    seenCe[e] = -1;
                }
            }
            sim.scheduleBackground(handler, now + agingPs, AGE, 0);
        }

        private void grow(int flow) {
            int n = Math.max(flow + 1, path.length * 2);
            lastPs = Arrays.copyOf(lastPs, n);
            int old = path.length;
            path = Arrays.copyOf(path, n);
            Arrays.fill(path, old, n, -1);
        }
    }
}
