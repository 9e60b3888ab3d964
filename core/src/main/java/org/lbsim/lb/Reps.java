package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;

/**
 * HOST_PKT_AR (OFAN 3.2 (6)): REPS, recycled entropy packet spraying. A small circular buffer
 * holds the entropies of recent ACKs that came back without an ECN echo, each with a valid bit.
 * A packet explores a fresh random entropy during the queue pair's first base RTT of sending (its
 * first bandwidth-delay product), before any ACK came back, and whenever no valid entropy is left;
 * otherwise it takes the oldest valid one and clears its bit (each good ACK pays for one reuse), so marked entropies drop out by
 * not coming back. A timeout (failure detection) outside exploration puts the queue pair into
 * freezing mode: it stops exploring and, once the valid entropies are used up, cycles through the
 * whole buffer (the last known-good paths) in order. The first unmarked ACK after {@code freezeUs}
 * ends the freeze and the queue pair explores for one base RTT again. The exploration window is
 * time, not a packet count, so that a queue pair sending at a fraction of the line rate (one of
 * the n - 1 of an all-to-all) explores its own BDP, not the line rate's (docs/schemes.md). A lost entropy is never
 * purged: its ACK never returns, so it is never written back. Switches hash.
 */
public final class Reps implements LoadBalancer {
    public record Params(
            @Doc("entries of the entropy buffer (REPS: 8)") int cacheSize,
            @Doc("microseconds of freezing after a timeout; 0 = never freeze") double freezeUs,
            @Doc("base RTTs a queue pair explores after its first packet and after a freeze (REPS: one BDP)") double exploreRtts) {
        public Params {
            ScenarioException.require(cacheSize >= 1 && cacheSize <= 1 << 16, "cacheSize", "must be between 1 and 65536, got " + cacheSize);
            ScenarioException.require(freezeUs >= 0 && Double.isFinite(freezeUs), "freezeUs", "must be >= 0, got " + freezeUs);
            ScenarioException.require(exploreRtts >= 0 && Double.isFinite(exploreRtts), "exploreRtts", "must be >= 0, got " + exploreRtts);
        }
    }

    private final Params params;

    public Reps(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        long explorePs = Math.round(params.exploreRtts() * host.qp().baseRttPs());
        return new Policy(host.rng(), host.simulator(), params.cacheSize(), Time.us(params.freezeUs()), explorePs);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    static final class Policy implements EntropyPolicy {
        private final SplittableRandom rng;
        private final Simulator sim;
        private final int[] buffer;
        private final boolean[] valid;
        private final long freezePs;
        private final long explorePs;
        private int head;
        private int validCount;
        private int written;
        private int frozenCursor;
        private boolean started;
        private long exploreUntilPs;
        private boolean freezing;
        private long freezeEndsPs;
        private long explored;
        private long recycled;
        private long freezes;

        Policy(SplittableRandom rng, Simulator sim, int cacheSize, long freezePs, long explorePs) {
            this.rng = rng;
            this.sim = sim;
            this.buffer = new int[cacheSize];
            this.valid = new boolean[cacheSize];
            this.freezePs = freezePs;
            this.explorePs = explorePs;
        }

        boolean frozen() {
            return freezing;
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            if (!started) {
                started = true; // REPS: the first BDP explores
                exploreUntilPs = sim.nowPs() + explorePs;
            }
            if (written == 0 || (validCount == 0 && !freezing) || exploring()) { // written == 0: no ACK yet
                explored++;
                return rng.nextInt(1 << 16);
            }
            recycled++;
            int n = buffer.length;
            if (validCount > 0) {
                int oldest = Math.floorMod(head - validCount, n);
                valid[oldest] = false;
                validCount--;
                return buffer[oldest];
            }
            // frozen with every valid entropy used: cycle through the buffer's known-good entropies
            if (written < n) { // slots 0 .. written-1 hold entropies; head == written
                return buffer[frozenCursor++ % written];
            }
            int slot = head;
            head = (head + 1) % n;
            return buffer[slot];
        }

        @Override
        public void onAck(int entropy, boolean ecnEcho) {
            if (ecnEcho) {
                return;
            }
            if (!valid[head]) {
                validCount++;
            }
            buffer[head] = entropy;
            valid[head] = true;
            if (written < buffer.length) {
                written++;
            }
            head = (head + 1) % buffer.length;
            if (freezing && sim.nowPs() > freezeEndsPs) {
                freezing = false;
                exploreUntilPs = sim.nowPs() + explorePs;
            }
        }

        @Override
        public void onLoss(int entropy) {
            // REPS: a timeout during exploration or an ongoing freeze changes nothing
            if (freezePs > 0 && !freezing && !exploring()) {
                freezing = true;
                freezes++;
                freezeEndsPs = sim.nowPs() + freezePs;
            }
        }

        long explored() {
            return explored;
        }

        long recycled() {
            return recycled;
        }

        int validEntropies() {
            return validCount;
        }

        long freezes() {
            return freezes;
        }

        boolean exploring() {
            return sim.nowPs() < exploreUntilPs;
        }
    }
}
