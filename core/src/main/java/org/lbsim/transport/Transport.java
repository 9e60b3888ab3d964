package org.lbsim.transport;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Network;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.PacketKinds;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.QueuePairs;

/**
 * All queue pairs of a run and the host stacks they live in. A connection (one flow of the
 * workload) is carried by one or more queue pairs (NCCL_IB_QPS_PER_CONNECTION). The transport
 * assembles the pieces and routes each completion between them: {@link QueuePairLifecycle} builds,
 * starts and releases queue pairs, {@link FlowScheduler} starts them on time, after their
 * dependencies ({@link ConnectionGraph}) and after the previous message on a persistent queue pair
 * ({@link PersistentChains}), and {@link ConnectionProgress} stops the simulation when the last
 * connection the run waits for completes.
 *
 * <p>Persistent queue pairs ({@code nic.queuePairs: persistent}): a message may name the previous
 * message on its queue pair. It starts only once that one is fully acknowledged (a message ready
 * earlier waits for it), and it is built from what the previous one leaves: the same congestion
 * control object (DCQCN's rate, alpha, timers and pacing go on), the scheme's per-queue-pair state
 * through {@link QueuePairScheme#next}, the receiver's CNP pacing and ACK labels. Loss recovery and
 * the receiver's PSN state start afresh per message; each message is still its own flow with its
 * own completion time.
 */
public final class Transport implements QueuePairs {
    private final Simulator sim;
    private final HostStack[] stacks;
    private final QueuePairLifecycle queuePairs;
    private final FlowScheduler scheduler;
    private final ConnectionProgress progress;
    /** Persistent queue pairs, or null when every message has its own. */
    private final PersistentChains chains;
    /** By partition (one in a sequential run): each receiver records into its host's partition's statistics. */
    private final OutOfOrderStats[] outOfOrderByPartition;
    private final PacketKinds kinds = new PacketKinds();
    private final long[] lostData;
    private Runnable onAllDone;

    /**
     * Builds the queue pairs of independent connections and schedules every start.
     *
     * @param batchPackets packets a queue pair may send in a row before its host serves the next (PRO III-A batches)
     */
    public Transport(Network network, ConnectionPlan plan, QueuePairRecipe recipe, int batchPackets) {
        this.sim = network.simulator();
        outOfOrderByPartition = new OutOfOrderStats[sim.partitionCount()];
        for (int i = 0; i < outOfOrderByPartition.length; i++) {
            outOfOrderByPartition[i] = new OutOfOrderStats();
        }
        registerKinds(recipe.bundleOfQp());
        int n = plan.qpCount();
        if (n >= 1 << 30) {
            throw new IllegalArgumentException(n + " queue pairs, more than a run can address (2^30)");
        }
        int hosts = network.topology().hostCount();
        chains = plan.previousOnQp() != null ? new PersistentChains(plan.previousOnQp()) : null;
        progress = new ConnectionProgress(plan.connectionOfQp(), plan.connections());
        ConnectionGraph graph = new ConnectionGraph(plan.connections(), plan.connectionOfQp(), plan.startPsOfQp(), plan.depsOfConnection(),
                plan.gapPsOfConnection());
        stacks = new HostStack[hosts];
        queuePairs = new QueuePairLifecycle(network, plan, recipe, stacks, chains, outOfOrderByPartition);
        scheduler = new FlowScheduler(sim, hosts, plan, queuePairs, graph, progress, chains);
        for (int h = 0; h < hosts; h++) {
            stacks[h] = new HostStack(h, network.nic(h), network.pool(), this, queuePairs, scheduler, batchPackets);
        }
        queuePairs.buildUpFront();
        this.onAllDone = sim::stop;
        lostData = new long[n];
        network.setLossListener(new Network.LossListener() {
            @Override
            public void onDataLost(int qp, int psn) {
                lostData[qp]++;
            }

            @Override
            public void onPacketGone(int qp) {
                if (qp >= 0 && qp < lostData.length) { // a switch may make packets of its own
                    queuePairs.gone(qp);
                }
            }
        });
        scheduler.scheduleStarts();
    }

    /** Each scheme bundle registers its packet kinds once. */
    private void registerKinds(QueuePairScheme[] bundleOfQp) {
        Set<QueuePairScheme> registered = Collections.newSetFromMap(new IdentityHashMap<>());
        for (QueuePairScheme scheme : bundleOfQp) {
            if (registered.add(scheme)) {
                scheme.registerKinds(kinds);
            }
        }
    }

    /** Serialised: in a partitioned run, queue pairs complete in every partition. */
    synchronized void onFlowComplete(SenderQueuePair qp) {
        int q = qp.qp();
        long now = sim.nowPs();
        boolean connectionDone = progress.qpCompleted(q, now);
        if (chains != null) {
            int following = chains.onComplete(q, qp, queuePairs.receiver(q));
            if (following >= 0) {
                scheduler.startWaiting(following, now);
            }
        }
        if (connectionDone) {
            int c = progress.connectionOf(q);
            boolean lastAwaited = progress.connectionCompleted(c, now);
            scheduler.connectionCompleted(c, now);
            if (lastAwaited) {
                // now when sequential; when partitioned, where every partition has caught up, at the last completion's time
                // (the partition that counts the last completion is not always the one that completed last)
                sim.atSynchronisationPoint(progress.lastCompletionPs(), onAllDone);
            }
        }
        queuePairs.completed(q);
    }

    /** Out-of-order statistics of all receivers (in a partitioned run, gathered from the partitions now). */
    public OutOfOrderStats outOfOrder() {
        if (outOfOrderByPartition.length == 1) {
            return outOfOrderByPartition[0];
        }
        OutOfOrderStats all = new OutOfOrderStats();
        for (OutOfOrderStats o : outOfOrderByPartition) {
            all.add(o);
        }
        return all;
    }

    /** NACKs and CNPs sent by all receivers. */
    public long nacksSent() {
        return queuePairs.nacksSent();
    }

    public long cnpsSent() {
        return queuePairs.cnpsSent();
    }

    /** The packet kinds of this run, the schemes' own included. */
    public PacketKinds kinds() {
        return kinds;
    }

    /** Data copies all senders injected and sent (not retransmissions). */
    public long duplicatesSent() {
        return queuePairs.duplicatesSentTotal();
    }

    /** Payload-free scheme packets (notifications, probes) all senders injected and sent. */
    public long notificationsSent() {
        return queuePairs.notificationsSent();
    }

    /** Queue pairs of dependent connections that their scheme left without data when the connection started. */
    public long idleQueuePairs() {
        return queuePairs.idleQueuePairs();
    }

    /**
     * Hosts leave out a look at their queue pairs when the last one found all of them held back by
     * pacing that no feedback moves, until the earliest may send (HostStack); the run is the same.
     */
    public void skipPacedLooks() {
        for (HostStack stack : stacks) {
            stack.skipPacedLooks();
        }
    }

    /** Looks at a host's queue pairs left out by {@link #skipPacedLooks}, over all hosts. */
    public long pacedLooksSkipped() {
        long n = 0;
        for (HostStack stack : stacks) {
            n += stack.pacedLooksSkipped();
        }
        return n;
    }

    /** Queue pairs the hosts' looks passed on what their last look found, without asking them. */
    public long heldQpsPassed() {
        long n = 0;
        for (HostStack stack : stacks) {
            n += stack.heldQpsPassed();
        }
        return n;
    }

    /**
     * Routing converged around a failure or repair and the fabric's rho_max is now {@code mbps}: every
     * queue pair built so far hears of it, and those built later start with it (OFAN App. A's sender
     * for the fabric as it is; congestion controls other than a rho_max sender ignore it).
     */
    public void setRhoMaxMbps(long mbps) {
        queuePairs.rhoMaxChanged(mbps);
        for (HostStack stack : stacks) {
            stack.pacingChanged();
        }
    }

    /**
     * Keeps queue pairs {@code 0 .. count-1} from being released and builds those not built yet, so
     * that they can be read during and after the run (the sampler's rate series).
     */
    public void keepQueuePairs(int count) {
        queuePairs.keep(count);
    }

    /** Keeps every queue pair until the end of the run (tests that inspect them afterwards). */
    public void keepAllQueuePairs() {
        keepQueuePairs(queuePairs.count());
    }

    /** Most queue pairs built and not yet released at any one time. */
    public int maxLiveQueuePairs() {
        return queuePairs.maxLive();
    }

    /** Queue pairs released during the run. */
    public long releasedQueuePairs() {
        return queuePairs.released();
    }

    /** Packets of queue pair {@code qp} made by its sender or receiver and not yet delivered or lost. */
    public int outstandingPackets(int qp) {
        return queuePairs.outstandingPackets(qp);
    }

    /** Data packets queue pair {@code qp} sent (first transmissions and retransmissions). */
    public long sentPackets(int qp) {
        return queuePairs.sentPackets(qp);
    }

    public long retransmissions(int qp) {
        return queuePairs.retransmissions(qp);
    }

    public long timeouts(int qp) {
        return queuePairs.timeouts(qp);
    }

    /** Data copies the scheme of queue pair {@code qp} sent on purpose. */
    public long duplicatesSent(int qp) {
        return queuePairs.duplicatesSent(qp);
    }

    /** Data packets queue pair {@code qp}'s receiver already had. */
    public long duplicatesReceived(int qp) {
        return queuePairs.duplicatesReceived(qp);
    }

    /** When queue pair {@code qp}'s receiver first held the whole message, or -1. */
    public long receiverCompletedPs(int qp) {
        return queuePairs.receiverCompletedPs(qp);
    }

    Simulator simulator() {
        return sim;
    }

    /** Payload bytes of every data packet that reached its receiver, duplicates included. */
    public long deliveredPayloadBytes() {
        long n = 0;
        for (HostStack s : stacks) {
            n += s.deliveredPayloadBytes();
        }
        return n;
    }

    /**
     * What happens when the last connection completes; by default the simulation stops. A run may
     * instead snapshot its statistics and let the packets still in flight drain, so that late
     * duplicates are counted.
     */
    public void onAllDone(Runnable action) {
        this.onAllDone = action;
    }

    /**
     * Connection {@code c} runs only while the others do: the last of the others to complete ends the
     * run (its {@link #onAllDone} action), whether or not {@code c} has completed. Call before the run.
     */
    public void lastsForeground(int c) {
        progress.lastsForeground(c);
    }

    /** Whether every connection the run waits for has completed (all of them, without {@link #lastsForeground}). */
    public boolean foregroundDone() {
        return progress.foregroundDone();
    }

    /** When every queue pair of connection {@code c} had its data acknowledged, or -1. */
    public long connectionDonePs(int c) {
        return progress.connectionDonePs(c);
    }

    /**
     * When connection {@code c} started: its start time if independent, else when its dependencies and
     * gap allowed it to start; -1 if it never started.
     */
    public long connectionStartedPs(int c) {
        return scheduler.connectionStartedPs(c);
    }

    /** The connection a queue pair carries part of. */
    public int connectionOf(int qp) {
        return progress.connectionOf(qp);
    }

    /** Number of queue pairs. */
    public int flowCount() {
        return queuePairs.count();
    }

    public int connectionCount() {
        return progress.connectionCount();
    }

    public int completedFlows() {
        return progress.completedQps();
    }

    public long lastCompletionPs() {
        return progress.lastCompletionPs();
    }

    /**
     * Queue pair {@code qp}'s sender; null for a dependent connection's queue pair not started yet
     * or already released (see {@link #keepAllQueuePairs}).
     */
    @Override
    public SenderQueuePair senderOf(int qp) {
        return queuePairs.sender(qp);
    }

    /**
     * The congestion control that sets queue pair {@code qp}'s rate: its sender's, or, for a later message of
     * a persistent queue pair not built yet, that of the nearest earlier message still held; null if none is.
     */
    public CongestionControl congestionControlOf(int qp) {
        return queuePairs.congestionControlOf(qp);
    }

    /** Queue pair {@code qp}'s receiver; null when its sender is (see {@link #senderOf}). */
    @Override
    public ReceiverQueuePair receiverOf(int qp) {
        return queuePairs.receiver(qp);
    }

    public HostStack stack(int host) {
        return stacks[host];
    }

    /** Data packets of this flow the fabric lost (dropped or sent onto a failed link). */
    public long lostData(int qp) {
        return lostData[qp];
    }

    public long dataArrivals() {
        long n = 0;
        for (HostStack s : stacks) {
            n += s.dataArrivals();
        }
        return n;
    }
}
