package org.lbsim.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.net.Network;
import org.lbsim.net.Nic;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PacketSource;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.topology.Topology;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The packet path without a transport: NIC -> link -> switch (FIB lookup + port selector) ->
 * egress port (admission, ECN, serialization) -> link -> ... -> NIC, on a fat tree of radix
 * {@code k} (k=4: 16 hosts), built by {@code Simulation.prepare} with the reference settings and
 * the switch-side part of scheme {@code lb}. The host stacks are then replaced: every host streams
 * MTU frames at line rate to its partner in a fixed derangement (a fresh random entropy per frame,
 * or one per host for {@code ecmp}) and the receiving NIC hands them straight back to the pool. Each benchmark call
 * advances simulated time by 10 us. Score: calls per second; the auxiliary counters
 * {@code events} and {@code hops} give kernel events and frames sent by any port per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FabricBench {
    private static final long SLICE_PS = 10 * Time.PS_PER_US;

    @Param({"4"})
    public int k;

    /** A registered scheme: host-spray = random entropy per frame; ecmp = one entropy per host (one path each). */
    @Param({"host-spray", "ecmp"})
    public String lb;

    private Simulator sim;
    private Network network;

    /** Rates reported next to the score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Rates {
        public long events;
        public long hops;

        @Setup(Level.Iteration)
        public void clear() {
            events = 0;
            hops = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        // Build the fabric through the public API (switch selectors come from the named scheme),
        // then replace every host's stack with an endless streamer: no transport in the loop.
        PreparedRun run = Simulation.prepare(Scenarios.withLoadBalancing(Scenarios.reference("fabric-k" + k, k,
                new WorkloadSpec.Permutation(4096, 0)), lb), null);
        sim = run.simulator();
        network = run.network();
        Topology topology = network.topology();
        RandomStreams rng = new RandomStreams(1);
        int hosts = topology.hostCount();
        int[] partner = derangement(hosts, rng.stream("partners"));
        for (int h = 0; h < hosts; h++) {
            Nic nic = network.nic(h);
            nic.attach(new Streamer(network.pool(), h, partner[h], lb.equals("ecmp"), rng.stream("entropy", h)));
            nic.kick();
        }
        // reach steady state (queues filled) before measuring
        sim.run(sim.nowPs() + 20 * SLICE_PS);
    }

    @Benchmark
    public long advance10us(Rates rates) {
        long events = sim.eventsProcessed();
        long hops = hops();
        sim.run(sim.nowPs() + SLICE_PS);
        rates.events += sim.eventsProcessed() - events;
        rates.hops += hops() - hops;
        return sim.nowPs();
    }

    private long hops() {
        long n = network.injected();
        Topology t = network.topology();
        for (int p = 0; p < t.portCount(); p++) {
            if (network.egress(p) != null) {
                n += network.egress(p).txPackets();
            }
        }
        return n;
    }

    private static int[] derangement(int n, SplittableRandom rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        // Sattolo's algorithm: a single cycle, so nobody sends to itself
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i);
            int tmp = p[i];
            p[i] = p[j];
            p[j] = tmp;
        }
        return p;
    }

    /** An endless line-rate source of MTU frames to one destination; a sink for what arrives. */
    private static final class Streamer implements PacketSource {
        private final PacketPool pool;
        private final int src;
        private final int dst;
        private final boolean fixedEntropy;
        private final SplittableRandom rng;
        private final int entropy;
        private int psn;

        Streamer(PacketPool pool, int src, int dst, boolean fixedEntropy, SplittableRandom rng) {
            this.pool = pool;
            this.src = src;
            this.dst = dst;
            this.fixedEntropy = fixedEntropy;
            this.rng = rng;
            this.entropy = rng.nextInt(1 << 16);
        }

        @Override
        public Packet poll(long nowPs) {
            Packet p = pool.acquire();
            p.kind = Packet.DATA;
            p.flow = src;
            p.src = src;
            p.dst = dst;
            p.payloadBytes = 4096;
            p.sizeBytes = 4096 + 62;
            p.psn = psn++;
            p.entropy = fixedEntropy ? entropy : rng.nextInt(1 << 16);
            return p;
        }

        @Override
        public long nextReadyPs(long nowPs) {
            return nowPs;
        }

        @Override
        public void deliver(Packet packet) {
            pool.release(packet);
        }
    }
}
