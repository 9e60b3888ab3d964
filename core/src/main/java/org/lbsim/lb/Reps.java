package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;

/**
 * HOST_PKT_AR (OFAN 3.2 (6), after REPS): per-packet spraying that recycles good entropies. Every
 * ACK without an ECN echo puts its entropy into a small circular cache; each new packet takes the
 * oldest cached entropy (consuming it) or, with an empty cache, explores a fresh random one, so
 * marked entropies are dropped simply by not being recycled. On a timeout the lost packets'
 * entropies are purged from the cache and the queue pair freezes for {@code freezeUs}: it stops
 * exploring and keeps cycling through the cached entropies without consuming them, so it avoids
 * the failed path while routes are broken. OFAN runs it with switches marking at 10% of the buffer
 * (Table 2). Switches hash.
 */
public final class Reps implements LoadBalancer {
    public record Params(
            @Doc("entropies the cache holds") int cacheSize,
            @Doc("microseconds of freezing after a timeout; 0 = never freeze") double freezeUs) {
        public Params {
            ScenarioException.require(cacheSize >= 1 && cacheSize <= 1 << 16, "cacheSize", "must be between 1 and 65536, got " + cacheSize);
            ScenarioException.require(freezeUs >= 0 && Double.isFinite(freezeUs), "freezeUs", "must be >= 0, got " + freezeUs);
        }
    }

    private final Params params;

    public Reps(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return new Policy(host.rng(), host.simulator(), params.cacheSize(), Time.us(params.freezeUs()));
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    static final class Policy implements EntropyPolicy {
        private final SplittableRandom rng;
        private final Simulator sim;
        private final int[] cache;
        private final long freezePs;
        private int head;
        private int count;
        private int frozenCursor;
        private long frozenUntilPs = Long.MIN_VALUE;
        private long explored;
        private long recycled;

        Policy(SplittableRandom rng, Simulator sim, int cacheSize, long freezePs) {
            this.rng = rng;
            this.sim = sim;
            this.cache = new int[cacheSize];
            this.freezePs = freezePs;
        }

        boolean frozen() {
            return sim.nowPs() < frozenUntilPs;
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            if (count > 0) {
                recycled++;
                if (frozen()) {
                    int e = cache[(head + frozenCursor % count) % cache.length];
                    frozenCursor++;
                    return e;
                }
                int e = cache[head];
                head = (head + 1) % cache.length;
                count--;
                return e;
            }
            explored++;
            return rng.nextInt(1 << 16);
        }

        @Override
        public void onAck(int entropy, boolean ecnEcho) {
            if (ecnEcho) {
                return;
            }
            if (count == cache.length) {
                head = (head + 1) % cache.length; // overwrite the oldest
                count--;
            }
            cache[(head + count) % cache.length] = entropy;
            count++;
        }

        @Override
        public void onLoss(int entropy) {
            // Purge the failed label, keeping the order of the others.
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int e = cache[(head + i) % cache.length];
                if (e != entropy) {
                    cache[(head + kept) % cache.length] = e;
                    kept++;
                }
            }
            count = kept;
            if (freezePs > 0) {
                frozenUntilPs = sim.nowPs() + freezePs;
            }
        }

        long explored() {
            return explored;
        }

        long recycled() {
            return recycled;
        }

        int cached() {
            return count;
        }
    }
}
