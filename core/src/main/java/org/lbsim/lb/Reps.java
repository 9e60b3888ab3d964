package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.rtt.RtoEstimator;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/**
 * HOST PKT AR (OFAN 3.2 (6)): REPS, recycled entropy packet spraying. A small circular buffer
 * holds the entropies of recent ACKs that came back without an ECN echo, each with a valid bit.
 * A packet explores a fresh random entropy during the queue pair's first base RTT of sending (its
 * first bandwidth-delay product), before any ACK came back, and whenever no valid entropy is left;
 * otherwise it takes the oldest valid one and clears its bit (each good ACK pays for one reuse), so
 * marked entropies drop out by not coming back. A timeout outside exploration puts the queue pair
 * into freezing mode: it stops exploring and, once the valid entropies are used up, cycles through
 * the whole buffer (the last known-good paths) in order. The first unmarked ACK after
 * {@code freezeUs} ends the freeze and the queue pair explores for one base RTT again. A lost
 * entropy is never purged: its ACK never returns, so it is never written back. Switches hash.
 *
 * <p>What a timeout is decides how often REPS freezes. By default it is what the OFAN authors'
 * htsim (the simulator behind the paper's figures) checks: each entropy has a timer from its oldest
 * unanswered send, stopped by any ACK on it; when the sender is about to send on an entropy whose
 * timer is older than its RTO (RFC 6298 from its own RTT samples, at least {@code minRtoUs}), that
 * is a timeout, and the entropy is skipped for the next one. Since the buffer only holds entropies
 * that came back, a failed path is mostly forgotten without any timeout. With {@code timeoutFrom:
 * loss-recovery} (REPS's ns-3 port) every packet the loss-recovery layer presumes lost is one. The
 * exploration window is time, not a packet count, so that a queue pair sending at a fraction of the
 * line rate (one of the n - 1 of an all-to-all) explores its own BDP (docs/schemes.md).
 */
public final class Reps implements LoadBalancer {
    /** A timeout is noticed when the sender is about to reuse an entropy that has gone unanswered for an RTO (htsim). */
    public static final String TIMEOUT_ON_REUSE = "reuse";
    /** A timeout is the loss-recovery layer's: any presumed-lost packet (REPS's ns-3 port). */
    public static final String TIMEOUT_FROM_LOSS_RECOVERY = "loss-recovery";

    public record Params(
            @Doc("entries of the entropy buffer (REPS: 8)") int cacheSize,
            @Doc("microseconds of freezing after a timeout; 0 = never freeze") double freezeUs,
            @Doc("base RTTs a queue pair explores after its first packet and after a freeze (REPS: one BDP)") double exploreRtts,
            @Doc("what counts as a timeout: 'reuse' (an entropy about to be reused has gone unanswered for the queue pair's RTO, as the OFAN authors' htsim checks it) or 'loss-recovery' (any packet the loss-recovery layer presumes lost)") String timeoutFrom,
            @Doc("with timeoutFrom 'reuse': the floor of the RFC 6298 RTO the policy estimates from its ACKs, in microseconds (htsim: 10)") double minRtoUs,
            @Doc("random entropies are drawn from 0 .. entropyValues-1 (htsim: 16000)") int entropyValues) {
        public Params {
            ScenarioException.require(cacheSize >= 1 && cacheSize <= 1 << 16, "cacheSize", "must be between 1 and 65536, got " + cacheSize);
            org.lbsim.scenario.Checks.periodOrZeroUs(freezeUs, "freezeUs");
            ScenarioException.require(exploreRtts >= 0 && Double.isFinite(exploreRtts), "exploreRtts", "must be >= 0, got " + exploreRtts);
            ScenarioException.require(TIMEOUT_ON_REUSE.equals(timeoutFrom) || TIMEOUT_FROM_LOSS_RECOVERY.equals(timeoutFrom), "timeoutFrom",
                    "must be '" + TIMEOUT_ON_REUSE + "' or '" + TIMEOUT_FROM_LOSS_RECOVERY + "', got '" + timeoutFrom + "'");
            org.lbsim.scenario.Checks.periodUs(minRtoUs, "minRtoUs");
            ScenarioException.require(entropyValues >= 2 && entropyValues <= 1 << 16, "entropyValues", "must be between 2 and 65536, got " + entropyValues);
        }
    }

    private final Params params;

    public Reps(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        long explorePs = Math.round(params.exploreRtts() * host.qp().baseRttPs());
        return new Policy(host.rng(), host.simulator(), params.cacheSize(), Time.us(params.freezeUs()), explorePs,
                TIMEOUT_ON_REUSE.equals(params.timeoutFrom()), Time.us(params.minRtoUs()), params.entropyValues());
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    static final class Policy implements EntropyPolicy {
        /** htsim's RTO before the first RTT sample. */
        private static final long INITIAL_RTO_PS = Time.us(1000);
        private final SplittableRandom rng;
        private final Simulator sim;
        private final int[] buffer;
        private final boolean[] valid;
        private final long freezePs;
        private final long explorePs;
        private final boolean timeoutOnReuse;
        private final int entropyValues;
        private final EntropyTimers timers;
        private final RtoEstimator rto;
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
        private long timeouts;

        /** Timeouts from loss recovery, entropies of 16 bits (REPS's ns-3 port). */
        Policy(SplittableRandom rng, Simulator sim, int cacheSize, long freezePs, long explorePs) {
            this(rng, sim, cacheSize, freezePs, explorePs, false, Time.us(10), 1 << 16);
        }

        Policy(SplittableRandom rng, Simulator sim, int cacheSize, long freezePs, long explorePs,
               boolean timeoutOnReuse, long minRtoPs, int entropyValues) {
            this.rng = rng;
            this.sim = sim;
            this.buffer = new int[cacheSize];
            this.valid = new boolean[cacheSize];
            this.freezePs = freezePs;
            this.explorePs = explorePs;
            this.timeoutOnReuse = timeoutOnReuse;
            this.entropyValues = entropyValues;
            this.timers = timeoutOnReuse ? new EntropyTimers() : null;
            this.rto = timeoutOnReuse ? new RtoEstimator(minRtoPs, INITIAL_RTO_PS) : null;
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
            int e = next();
            if (timeoutOnReuse) {
                // htsim (OFAN authors' REPS sender): before sending on an entropy whose oldest
                // unanswered packet is older than the RTO, report the timeout, forget the entropy
                // and take the next one; each pass clears a timer, so the loop ends.
                long now = sim.nowPs();
                for (long since = timers.sinceOrStart(e, now); now - since > rto.rtoPs(); since = timers.sinceOrStart(e, now)) {
                    timeouts++;
                    timeout();
                    timers.clear(e);
                    e = next();
                }
            }
            return e;
        }

        private int next() {
            if (written == 0 || (validCount == 0 && !freezing) || exploring()) { // written == 0: no ACK yet
                explored++;
                return rng.nextInt(entropyValues);
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
        public void onAck(Packet ack, long nowPs) {
            if (timeoutOnReuse) {
                timers.clear(ack.entropy); // htsim: any ACK on an entropy stops its timer
                rto.sample(nowPs - ack.echoSentPs); // htsim: RFC 6298-like, floor minRtoUs
            }
            onAck(ack.entropy, ack.ecnEcho);
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
            if (!timeoutOnReuse) {
                timeout();
            }
        }

        // REPS: a timeout during exploration or an ongoing freeze changes nothing
        private void timeout() {
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

        long timeouts() {
            return timeouts;
        }

        long rtoPs() {
            return timeoutOnReuse ? rto.rtoPs() : -1;
        }

        long timerSincePs(int entropy) {
            return timeoutOnReuse ? timers.sincePs(entropy) : -1;
        }

        int runningTimers() {
            return timeoutOnReuse ? timers.size() : 0;
        }

        boolean exploring() {
            return sim.nowPs() < exploreUntilPs;
        }
    }
}
