package org.lbsim.lb;

import java.util.List;
import java.util.SplittableRandom;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.CounterSink;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.PerPartition;
import org.lbsim.spi.SwitchContext;

/**
 * PLB, Protective Load Balancing (Qureshi et al., SIGCOMM 2022), as Linux runs it (net/ipv4/tcp_plb.c with
 * DCTCP's rounds, a round ending once the packets sent when it began are acknowledged): once per round trip the
 * queue pair looks at the share of the round's ACKs that echoed ECN;
 * at or above K the round is congested. After N congested rounds in a row it moves to a fresh random label
 * (the IPv6 flow label switches hash on), after M when nothing is in flight (it prefers to repath when idle, so
 * nothing is reordered). A timeout moves the label too (TCP's own rehash on RTO) and then holds congestion-driven
 * moves for a random time between 1x and 2x the suspension, so PLB does not lead a flow back into a black hole.
 * Switches hash. Everything it keeps is per queue pair, its counters per partition. The policy is not told the
 * instant of a loss or of a send, so the pause after a timeout, and the check when sending after idle, take the
 * instant of the latest ACK (at most one RTO earlier; the default pause is 60 s).
 */
public final class Plb implements LoadBalancer {
    public record Params(
            @Doc("share of a round's ACKs echoing ECN at which the round counts as congested (K; Linux tcp_plb_cong_thresh 128 of 256)") double congestedShare,
            @Doc("congested rounds in a row after which the label changes (N; Linux tcp_plb_rehash_rounds, default 12)") int rehashRounds,
            @Doc("congested rounds in a row after which the label changes when no packet is in flight (M; Linux tcp_plb_idle_rehash_rounds, default 3; 0 = never)") int idleRehashRounds,
            @Doc("after a timeout, congestion-driven changes wait a random 1x-2x of this (Linux tcp_plb_suspend_rto_sec, default 60 s)") long suspendAfterTimeoutUs) {
        public Params {
            ScenarioException.require(congestedShare >= 0 && congestedShare <= 1, "congestedShare", "must be between 0 and 1, got " + congestedShare);
            ScenarioException.require(rehashRounds >= 1 && rehashRounds <= 31, "rehashRounds", "must be between 1 and 31 (Linux's range without 0), got " + rehashRounds);
            ScenarioException.require(idleRehashRounds >= 0 && idleRehashRounds <= 31, "idleRehashRounds", "must be between 0 and 31, got " + idleRehashRounds);
            ScenarioException.require(suspendAfterTimeoutUs >= 0 && suspendAfterTimeoutUs <= 255_000_000L, "suspendAfterTimeoutUs",
                    "must be between 0 and 255000000 (Linux's 0-255 s), got " + suspendAfterTimeoutUs);
        }

        /** Linux's defaults. */
        public static Params defaults() {
            return new Params(0.5, 12, 3, 60_000_000L);
        }
    }

    /** What the queue pairs of one partition did. */
    static final class Counters {
        long rounds;
        long congestedRounds;
        long forcedRepaths;
        long idleRepaths;
        long timeoutRepaths;
    }

    private final Params params;
    private final PerPartition<Counters> counters = new PerPartition<>(Counters::new);

    public Plb(Params params) {
        this.params = params;
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return new Policy(host.rng(), params, counters.at(host.simulator(), host.qp().src()));
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }

    @Override
    public void reportCounters(CounterSink sink) {
        List<Counters> all = counters.all();
        sink.add("plb.rounds", all.stream().mapToLong(c -> c.rounds).sum());
        sink.add("plb.congestedRounds", all.stream().mapToLong(c -> c.congestedRounds).sum());
        sink.add("plb.forcedRepaths", all.stream().mapToLong(c -> c.forcedRepaths).sum());
        sink.add("plb.idleRepaths", all.stream().mapToLong(c -> c.idleRepaths).sum());
        sink.add("plb.timeoutRepaths", all.stream().mapToLong(c -> c.timeoutRepaths).sum());
    }

    /** One queue pair's PLB state (struct tcp_plb_state) and the DCTCP round it is fed from. */
    static final class Policy implements EntropyPolicy {
        private static final long NOT_PAUSED = -1;
        private final SplittableRandom rng;
        private final double congestedShare;
        private final int rehashRounds;
        private final int idleRehashRounds;
        private final long suspendPs;
        private final Counters counters;
        private int entropy;
        private long sent;
        /** Packets acknowledged or given up as lost: DCTCP's snd_una as a count. */
        private long done;
        /** The round ends once {@code done} reaches this: the packets sent when it began (DCTCP's next_seq). */
        private long roundEnd;
        private int roundAcks;
        private int roundMarked;
        private int consecutiveCongested;
        private long pausedUntilPs = NOT_PAUSED;
        /** The latest instant the policy was told of: a loss or a send reaches it without one. */
        private long lastFeedbackPs;

        Policy(SplittableRandom rng, Params params, Counters counters) {
            this.rng = rng;
            this.congestedShare = params.congestedShare();
            this.rehashRounds = params.rehashRounds();
            this.idleRehashRounds = params.idleRehashRounds();
            this.suspendPs = params.suspendAfterTimeoutUs() * 1_000_000L;
            this.counters = counters;
            this.entropy = rng.nextInt(1 << 16);
        }

        @Override
        public int entropyFor(int psn, boolean retransmission) {
            if (sent <= done) {
                maybeRepath(lastFeedbackPs); // CA_EVENT_TX_START: the check when sending with nothing in flight
            }
            sent++;
            return entropy;
        }

        @Override
        public void onAck(Packet ack, long nowPs) {
            lastFeedbackPs = nowPs;
            done++;
            roundAcks++;
            if (ack.ecnEcho) {
                roundMarked++;
            }
            if (done >= roundEnd) {
                endRound(nowPs);
            }
        }

        /** tcp_plb_update_state, then tcp_plb_check_rehash, as DCTCP calls them when a round ends. */
        private void endRound(long nowPs) {
            counters.rounds++;
            if (roundMarked >= congestedShare * roundAcks) {
                counters.congestedRounds++;
                consecutiveCongested = Math.min(consecutiveCongested + 1, rehashRounds);
            } else {
                consecutiveCongested = 0;
            }
            roundAcks = 0;
            roundMarked = 0;
            roundEnd = sent;
            maybeRepath(nowPs);
        }

        private void maybeRepath(long nowPs) {
            if (pausedUntilPs != NOT_PAUSED && nowPs >= pausedUntilPs) {
                pausedUntilPs = NOT_PAUSED;
            }
            boolean idle = idleRehashRounds > 0 && sent <= done && consecutiveCongested >= idleRehashRounds;
            boolean forced = consecutiveCongested >= rehashRounds;
            if (pausedUntilPs == NOT_PAUSED && (idle || forced)) {
                entropy = rng.nextInt(1 << 16);
                consecutiveCongested = 0;
                if (forced) {
                    counters.forcedRepaths++;
                } else {
                    counters.idleRepaths++;
                }
            }
        }

        @Override
        public void onLoss(int lostEntropy) {
            done++;
            if (lostEntropy != entropy) {
                return; // the label already moved on this timeout
            }
            // The RTO's own rehash (sk_rethink_txhash), then tcp_plb_update_state_upon_rto: a pause of 1x-2x the suspension.
            entropy = rng.nextInt(1 << 16);
            counters.timeoutRepaths++;
            consecutiveCongested = 0;
            pausedUntilPs = lastFeedbackPs + suspendPs + (suspendPs > 0 ? rng.nextLong(suspendPs) : 0);
        }

        int label() {
            return entropy;
        }
    }
}
