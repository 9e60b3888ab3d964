package org.lbsim.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Packet;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Topology;

/**
 * Test helper for driving one switch's program packet by packet on a prepared run: the run's clock moved by hand,
 * data packets from the run's pool, a switch context with a seed the test can mirror. Prepared on
 * {@link #lateTrace}, the run's own traffic starts only after everything a test does here.
 */
public final class TorBench {
    /** When the run's own flow starts: 10 ms. */
    public static final long LATE_START_NS = 10_000_000;

    public final PreparedRun run;
    public final Topology t;
    public final Simulator sim;
    private final int tick;

    public TorBench(PreparedRun run) {
        this.run = run;
        this.t = run.topology();
        this.sim = run.simulator();
        this.tick = sim.register((kind, tag) -> { });
    }

    /** A trace in {@code dir} of one flow of 1000 B from {@code src} to {@code dst} starting at {@link #LATE_START_NS}; returns its path. */
    public static String lateTrace(Path dir, int src, int dst) throws IOException {
        Path file = dir.resolve("late.csv");
        Files.writeString(file, "src,dst,bytes,start_ns\n" + src + "," + dst + ",1000," + LATE_START_NS + "\n");
        return file.toString();
    }

    /** Runs the fabric up to {@code ps}; packets handed to a program afterwards arrive then. */
    public void advanceTo(long ps) {
        sim.schedule(tick, ps, 0, 0);
        sim.run(ps);
        assertThat(sim.nowPs()).isEqualTo(ps);
    }

    /** A data packet from the run's pool: see {@link Packets#data}. */
    public Packet data(int flow, int src, int dst, int psn, int sizeBytes) {
        return Packets.data(run.network().pool(), flow, src, dst, psn, sizeBytes);
    }

    /** The port of {@code host}'s ToR that faces the host. */
    public int downPort(int host) {
        return t.peerPort(t.hostPort(host));
    }

    /** The (first) port of node {@code from} that faces node {@code to}. */
    public int port(String from, String to) {
        return t.portsBetween(t.nodeByName(from), t.nodeByName(to))[0];
    }

    /** The context of switch {@code node} in the run, its random stream seeded with {@code seed}. */
    public SwitchContext context(int node, long seed) {
        return new SwitchContext(node, t, run.network().fib(), new SplittableRandom(seed), run.network(), sim);
    }
}
