package org.lbsim.lb.flowlet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.lb.tor.SourceRoutedSelector;
import org.lbsim.lb.tor.TorView;
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

/**
 * LetFlow as the ConWeave authors' ns-3 runs it (letflow-routing.cc): the source ToR keeps one
 * flowlet entry per queue pair; a packet that comes more than the flowlet timeout after the previous
 * one of its queue pair starts a new flowlet on a uniformly random path (letflow-routing.cc:149-170,
 * GetRandomPath :242-249); every other packet follows its flowlet's path. Other switches forward on
 * the path the source ToR chose. Each source ToR counts its own flowlets (a switch runs in one
 * partition of a partitioned run); the run's counters are their sums.
 */
public final class LetFlow extends org.lbsim.lb.tor.TorProgramScheme {
    public record Params(@Doc("flowlet timeout in us: a gap longer than this starts a new flowlet (ConWeave ns-3: 100, network-load-balance.cc:68)") double flowletTimeoutUs) {
        public Params {
            ScenarioException.require(flowletTimeoutUs > 0, "flowletTimeoutUs", "must be > 0, got " + flowletTimeoutUs);
        }
    }

    private final long timeoutPs;
    /** The source ToRs' programs, made before the run starts (one per ToR switch). */
    private final List<SourceTor> sourceTors = new ArrayList<>();

    public LetFlow(Params params) {
        this.timeoutPs = Math.round(params.flowletTimeoutUs() * 1_000_000);
    }


    @Override
    public void programSwitch(SwitchContext ctx, Switch sw) {
        if (tors(ctx).leafIndex(ctx.node()) >= 0) {
            SourceTor tor = new SourceTor(ctx, sw);
            sourceTors.add(tor);
            sw.addIngressStage(tor);
        }
    }


    @Override
    public void reportCounters(CounterSink sink) {
        sink.add("letflow.flowlets", flowlets());
        sink.add("letflow.flowletTimeouts", flowletTimeouts());
    }

    /** Flowlets started (first packets of queue pairs included), over all source ToRs. */
    public long flowlets() {
        long n = 0;
        for (SourceTor t : sourceTors) {
            n += t.flowlets;
        }
        return n;
    }

    /** Flowlets started because the previous one timed out (ns-3's nFlowletTimeout), over all source ToRs. */
    public long flowletTimeouts() {
        long n = 0;
        for (SourceTor t : sourceTors) {
            n += t.flowletTimeouts;
        }
        return n;
    }

    /** The flowlet table of one source ToR, indexed by queue pair. */
    private final class SourceTor implements IngressStage {
        private final int node;
        private final Switch sw;
        private final Simulator sim;
        private final SplittableRandom rng;
        private long[] lastPs = new long[64];
        private int[] path = new int[64];
        private long flowlets;
        private long flowletTimeouts;

        SourceTor(SwitchContext ctx, Switch sw) {
            this.node = ctx.node();
            this.sw = sw;
            this.sim = ctx.simulator();
            this.rng = ctx.rng().split();
            Arrays.fill(path, -1);
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.kind != Packet.DATA || tors().torOf(p.src) != node || tors().torOf(p.dst) == node) {
                return true;
            }
            int f = p.flow;
            if (f >= path.length) {
                grow(f);
            }
            long now = sim.nowPs();
            if (path[f] < 0 || now - lastPs[f] > timeoutPs) {
                if (path[f] >= 0) {
                    flowletTimeouts++;
                }
                flowlets++;
                Fib fib = sw.network().fib();
                path[f] = rng.nextInt(Math.max(1, fib.groupSize(fib.group(node, p.dst))));
            }
            lastPs[f] = now;
            p.pathId = path[f];
            return true;
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
