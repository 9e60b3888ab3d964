package org.lbsim.transport;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Network;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.QpParts;
import org.lbsim.topology.Fib;

/**
 * The life of every queue pair: built, started, and released once done. Queue pairs of independent
 * connections are built up front. Those of dependent connections and later messages of persistent
 * queue pairs (collective steps, which may number tens of millions) are built when they start and
 * released once done and nothing refers to them any more: the sender has all its data acknowledged,
 * no packet it or its receiver made is still anywhere (in the fabric, a host's control queue or the
 * sender's extras), and the receiver's timer is idle. What the results need of a released queue pair
 * is kept in {@link RetiredQueuePairs}, so memory follows the queue pairs in progress.
 */
final class QueuePairLifecycle {
    private final Simulator sim;
    private final Network network;
    /** The host stacks, filled by the transport before any queue pair is built. */
    private final HostStack[] stacks;
    private final SenderQueuePair[] senders;
    private final ReceiverQueuePair[] receivers;
    /** Each queue pair's context; a connection's shares may be re-split when it starts ({@code LoadBalancer.carriesData}). */
    private final List<QpContext> contexts;
    private final QueuePairRecipe recipe;
    private final long[] startPsOfQp;
    /** Persistent queue pairs, or null when every message has its own. */
    private final PersistentChains chains;
    /** By partition (one in a sequential run): each receiver records into its host's partition's statistics. */
    private final OutOfOrderStats[] outOfOrderByPartition;
    /** The routes hosts know: the converged ones, then each FIB the network announces (for queue pairs built later). */
    private Fib hostFib;
    /** Whether each queue pair is built when it starts and released when done. */
    private final boolean[] lazy;
    private final boolean anyLazy;
    /** Kept until the end (for the sampler's rate series), never released. */
    private final boolean[] kept;
    /** Packets each queue pair's sender or receiver made that were not yet delivered or lost. */
    private final int[] outstanding;
    /**
     * A partitioned run: the same count kept per thread (a packet made on one thread may be gone on
     * another), summed when read; {@code outstanding} is then thread 0's. Queue pairs are never
     * released there, so no single thread's count has to reach zero.
     */
    private final int[][] outstandingByThread;
    private final RetiredQueuePairs retired;
    private boolean releasing = true;
    /** rho_max of the fabric as routing last converged, once it changed during the run; -1 before. */
    private long rhoMaxNowMbps = -1;
    private int live;
    private int maxLive;
    private long released;
    private long idleQueuePairs;
    private final int senderTimers;
    private final int receiverTimers;

    /** Registers the queue pairs' timers and follows the routes; builds nothing yet ({@link #buildUpFront}). */
    QueuePairLifecycle(Network network, ConnectionPlan plan, QueuePairRecipe recipe, HostStack[] stacks, PersistentChains chains,
                       OutOfOrderStats[] outOfOrderByPartition) {
        this.sim = network.simulator();
        this.network = network;
        this.stacks = stacks;
        this.recipe = recipe;
        this.chains = chains;
        this.outOfOrderByPartition = outOfOrderByPartition;
        int n = plan.qpCount();
        senders = new SenderQueuePair[n];
        receivers = new ReceiverQueuePair[n];
        contexts = new ArrayList<>(plan.qps());
        startPsOfQp = plan.startPsOfQp();
        hostFib = recipe.convergedFib();
        network.addRoutingListener(fib -> hostFib = fib);
        kept = new boolean[n];
        outstandingByThread = new int[sim.threadCount()][];
        for (int i = 0; i < outstandingByThread.length; i++) {
            outstandingByThread[i] = new int[n];
        }
        outstanding = outstandingByThread[0];
        lazy = new boolean[n];
        int lazyCount = 0;
        for (int i = 0; i < n; i++) {
            // a later message of a persistent queue pair is built from its predecessor's state, so when it starts
            lazy[i] = plan.dependent(i) || continues(i);
            lazyCount += lazy[i] ? 1 : 0;
        }
        anyLazy = lazyCount > 0;
        // each queue pair's timer is a creator of its own in a partitioned run's tie-break key
        senderTimers = sim.registerMultiplexed((qp, tag) -> {
            SenderQueuePair s = senders[qp];
            if (s != null) { // a released queue pair's timer is stale
                s.onTimer(tag);
            }
        }, Math.max(1, n));
        receiverTimers = sim.registerMultiplexed((qp, tag) -> {
            ReceiverQueuePair r = receivers[qp];
            if (r != null) {
                r.onTimer(tag);
                if (lazy[qp]) {
                    releaseIfDone(qp);
                }
            }
        }, Math.max(1, n));
        retired = new RetiredQueuePairs(anyLazy ? n : 0);
    }

    /** Builds every queue pair that is not built when it starts. */
    void buildUpFront() {
        for (int i = 0; i < senders.length; i++) {
            if (!lazy[i]) {
                build(i, recipe.convergedFib());
            }
        }
    }

    /** Whether some queue pair is built when it starts (so a completion may start queue pairs). */
    boolean anyBuiltOnStart() {
        return anyLazy;
    }

    int count() {
        return senders.length;
    }

    int senderTimerHandler() {
        return senderTimers;
    }

    int receiverTimerHandler() {
        return receiverTimers;
    }

    SenderQueuePair sender(int qp) {
        return senders[qp];
    }

    ReceiverQueuePair receiver(int qp) {
        return receivers[qp];
    }

    QpContext context(int qp) {
        return contexts.get(qp);
    }

    /** Whether queue pair {@code q} carries a later message of a persistent queue pair. */
    private boolean continues(int q) {
        return chains != null && chains.continues(q);
    }

    /** Queue pair {@code q}'s sender, built now if it is not yet. */
    SenderQueuePair builtSender(int q) {
        return senders[q] != null ? senders[q] : build(q, hostFib);
    }

    /** Queue pair {@code qp} starts sending now; a persistent queue pair's later message goes on where the previous one stopped. */
    void activate(int q, SenderQueuePair qp, long nowPs) {
        if (!continues(q)) {
            qp.congestionControl().onStart(nowPs);
            stacks[qp.ctx.src()].pacingChanged();
        }
        stacks[qp.ctx.src()].activate(qp);
    }

    /** Builds queue pair {@code i}'s sender and receiver; host policies see {@code fib} as the routes. */
    private SenderQueuePair build(int i, Fib fib) {
        QpContext ctx = contexts.get(i);
        SenderQueuePair before = chains == null ? null : chains.carriedSender(i);
        ReceiverQueuePair receivedBefore = before == null ? null : chains.carriedReceiver(i);
        // a persistent queue pair's next message goes on with its congestion control and scheme state
        CongestionControl congestion = before != null ? before.congestionControl() : recipe.cc().create(ctx);
        HostContext host = new HostContext(ctx, network.topology(), fib, recipe.rng().stream("entropy", i), sim);
        QpParts parts = before != null ? recipe.bundleOfQp()[i].next(host, before.parts) : recipe.bundleOfQp()[i].create(host);
        senders[i] = new SenderQueuePair(ctx, stacks[ctx.src()], sim, network.pool(), congestion, parts.recovery(), parts.entropy(),
                parts.sender(), startPsOfQp[i]);
        senders[i].parts = parts;
        receivers[i] = new ReceiverQueuePair(i, ctx.dst(), ctx.src(), ctx.messageBytes(), ctx.packets(), recipe.ackBytes(), ctx.trafficClass(),
                receivedBefore != null ? receivedBefore.ackPolicy()
                        : recipe.lbOfQp()[i].newAckPolicy(new HostContext(ctx, network.topology(), fib, recipe.rng().stream("ack-entropy", i), sim)),
                parts.receiver(), recipe.cc().cnpIntervalPs(), outOfOrderByPartition[sim.partitionOfNode(ctx.dst())], stacks[ctx.dst()],
                network.pool(), sim);
        if (before != null) {
            receivers[i].continueFrom(receivedBefore);
            chains.handedOver(i);
        } else if (rhoMaxNowMbps >= 0) {
            senders[i].onRhoMaxChange(rhoMaxNowMbps, sim.nowPs());
        }
        maxLive = Math.max(maxLive, ++live);
        return senders[i];
    }

    /** Whether queue pair {@code q}'s scheme gives it data, asked when its connection starts. */
    boolean carriesData(int q) {
        return recipe.lbOfQp()[q].carriesData(contexts.get(q));
    }

    boolean built(int q) {
        return senders[q] != null;
    }

    /** Queue pair {@code q} gets {@code shareBytes} of its connection's data instead of its own share. */
    void reshare(int q, long shareBytes) {
        QpContext x = contexts.get(q);
        int packets = (int) Math.max(1, (shareBytes + x.mtuBytes() - 1) / x.mtuBytes());
        contexts.set(q, new QpContext(x.qp(), x.src(), x.dst(), shareBytes, packets, x.mtuBytes(), x.headerBytes(), x.gapBytes(),
                x.lineRateMbps(), x.baseRttPs(), x.rhoMaxMbps(), x.startPs(), x.hostPhase(), x.trafficClass(), x.qpIndex(),
                x.qpsPerConnection()));
    }

    /** Queue pair {@code q} was left without data when its connection started: it is done without being built. */
    void leftIdle(int q, long nowPs) {
        retired.leftOut(q, nowPs);
        idleQueuePairs++;
    }

    long idleQueuePairs() {
        return idleQueuePairs;
    }

    /** A packet of queue pair {@code qp} was made by its sender or receiver. */
    void made(int qp) {
        outstandingByThread[sim.threadIndex()][qp]++;
    }

    /** A packet of queue pair {@code qp} was delivered, lost or thrown away. */
    void gone(int qp) {
        if (--outstandingByThread[sim.threadIndex()][qp] == 0 && lazy[qp]) {
            releaseIfDone(qp);
        }
    }

    /** Queue pair {@code q} completed: released now if it is built on start and nothing refers to it any more. */
    void completed(int q) {
        if (lazy[q]) {
            releaseIfDone(q);
        }
    }

    /** Releases a built-on-start queue pair once done and unreferenced, keeping what the results need. */
    private void releaseIfDone(int q) {
        SenderQueuePair s = senders[q];
        ReceiverQueuePair r = receivers[q];
        if (s == null || s.completedPs() < 0 || outstanding[q] != 0 || r.timerPs() != Long.MAX_VALUE || kept[q] || !releasing) {
            return;
        }
        if (network.originated() > 0) {
            releasing = false; // a switch program made packets: which queue pairs they refer to is unknown
            return;
        }
        retired.retire(q, s, r);
        senders[q] = null;
        receivers[q] = null;
        live--;
        released++;
    }

    /** Keeps queue pairs {@code 0 .. count-1} from being released and builds those not built yet. */
    void keep(int count) {
        for (int i = 0; i < Math.min(count, senders.length); i++) {
            kept[i] = true;
            if (senders[i] == null && !continues(i)) { // a persistent queue pair's later message is built from its predecessor
                build(i, hostFib);
            }
        }
    }

    /** The fabric's rho_max changed: every queue pair built so far hears of it, and those built later start with it. */
    void rhoMaxChanged(long mbps) {
        rhoMaxNowMbps = mbps;
        long now = sim.nowPs();
        for (SenderQueuePair s : senders) {
            if (s != null) {
                s.onRhoMaxChange(mbps, now);
            }
        }
    }

    /** See {@link Transport#congestionControlOf}. */
    CongestionControl congestionControlOf(int qp) {
        for (int q = qp; q >= 0; q = continues(q) ? chains.previous(q) : -1) {
            if (senders[q] != null) {
                return senders[q].congestionControl();
            }
            if (chains != null && chains.carriedSender(q) != null) {
                return chains.carriedSender(q).congestionControl();
            }
        }
        return null;
    }

    int maxLive() {
        return maxLive;
    }

    long released() {
        return released;
    }

    int outstandingPackets(int qp) {
        int n = 0;
        for (int[] byQp : outstandingByThread) {
            n += byQp[qp];
        }
        return n;
    }

    long sentPackets(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.sentPackets() : retired.sent(qp);
    }

    long retransmissions(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.recovery().retransmissions() : retired.retransmissions(qp);
    }

    long timeouts(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.recovery().timeouts() : retired.timeouts(qp);
    }

    long duplicatesSent(int qp) {
        SenderQueuePair s = senders[qp];
        return s != null ? s.duplicatesSent() : retired.duplicatesSent(qp);
    }

    long duplicatesReceived(int qp) {
        ReceiverQueuePair r = receivers[qp];
        return r != null ? r.duplicates() : retired.duplicatesReceived(qp);
    }

    long receiverCompletedPs(int qp) {
        ReceiverQueuePair r = receivers[qp];
        return r != null ? r.completedPs() : retired.receiverDonePs(qp);
    }

    long nacksSent() {
        return retired.nacks() + sum(receivers, ReceiverQueuePair::nacks);
    }

    long cnpsSent() {
        return retired.cnps() + sum(receivers, ReceiverQueuePair::cnps);
    }

    long duplicatesSentTotal() {
        return retired.duplicatesSentTotal() + sum(senders, SenderQueuePair::duplicatesSent);
    }

    long notificationsSent() {
        return retired.notifications() + sum(senders, SenderQueuePair::notificationsSent);
    }

    /** {@code count} summed over the queue pairs still live (released ones are null; {@link RetiredQueuePairs} keeps theirs). */
    private static <T> long sum(T[] live, java.util.function.ToLongFunction<T> count) {
        long n = 0;
        for (T q : live) {
            n += q == null ? 0 : count.applyAsLong(q);
        }
        return n;
    }
}
