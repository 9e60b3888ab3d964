package org.lbsim.lb.conweave;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.lb.tor.TorView;
import org.lbsim.net.IngressStage;
import org.lbsim.net.Packet;
import org.lbsim.net.Switch;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * One ToR's ConWeave program, both roles (conweave-routing.cc RouteInput, :363-1062). Per-flow
 * state lives in arrays indexed by queue pair. Line references are to that file unless named.
 *
 * <p>In-network header of a data packet between ToRs: {@link Packet#pathId} (the uplink index),
 * {@link Packet#switchBits} = epoch (bits 0-23) | phase (bit 24) | flag (bits 25-26: DATA, INIT =
 * RTT_REQUEST, TAIL), {@link Packet#switchStampPs} = TX_TSTAMP, {@link Packet#switchTailStampPs} =
 * the TAIL's TX_TSTAMP (phase 1 and TAIL only).
 */
final class ConWeaveTor implements IngressStage, EventHandler {
    static final int EPOCH_MASK = 0xFF_FFFF;
    static final int PHASE_BIT = 1 << 24;
    static final int FLAG_SHIFT = 25;
    static final int DATA = 1;
    static final int INIT = 2;
    static final int TAIL = 3;
    static final int REPLY_INIT = 1;
    static final int REPLY_TAIL = 2;
    private static final long NEVER = Long.MAX_VALUE;
    private static final int FLUSH = 0;

    private final ConWeave scheme;
    private final ConWeave.Params params;
    private final ConWeave.Stats stats;
    private final TorView tors;
    private final Topology topology;
    private final int node;
    private final int firstPort;
    private final Switch sw;
    private final Simulator sim;
    private final SplittableRandom rng;
    private final int handler;
    private final int replyConsumed;
    private final int notifyConsumed;
    private final long replyExtraPs;
    private final long pausePs;
    private final long expiryPs;
    private final long flushExtraPs;
    private final long defaultWaitPs;
    private final long[] baseRttPs;
    /** Per (destination leaf, path): until when NOTIFY keeps the path out of the candidates (:995-1006). */
    private final long[] pausedUntilPs;
    private final int maxPaths;

    // source-ToR state per queue pair (conweaveTxState, conweave-routing.h:80-89)
    private boolean[] txKnown = new boolean[0];
    private boolean[] txStable = new boolean[0];
    private long[] txActivePs = new long[0];
    private long[] txReplyDeadlinePs = new long[0];
    private int[] txEpoch = new int[0];
    private boolean[] txPhase1 = new boolean[0];
    private int[] txPath = new int[0];
    private long[] txTailPs = new long[0];

    // destination-ToR state per queue pair (conweaveRxState, conweave-routing.h:91-102)
    private boolean[] rxKnown = new boolean[0];
    private int[] rxEpoch = new int[0];
    private boolean[] rxPhase1 = new boolean[0];
    private long[] rxPhase0TxPs = new long[0];
    private long[] rxPhase0RxPs = new long[0];
    private boolean[] rxPhase0Cache = new boolean[0];
    private long[] rxTailPs = new long[0];
    /** The reorder queue a flow holds, -1 when it is not reordering. */
    private int[] rxQueue = new int[0];

    // reorder queues, pooled: slot -> packets, flow, port, deadline, live timer
    private Packet[][] queued = new Packet[0][];
    private int[] queuedCount = new int[0];
    private long[] queuedBytes = new long[0];
    private int[] queueFlow = new int[0];
    private int[] queuePort = new int[0];
    private long[] queueDeadlinePs = new long[0];
    private long[] queueTimerPs = new long[0];
    private int[] queueGeneration = new int[0];
    private boolean[] queueTailArrived = new boolean[0];
    private int[] freeQueues = new int[0];
    private int freeCount;
    private final int[] queuesInUseAtPort;
    private long heldBytes;

    ConWeaveTor(ConWeave scheme, TorView tors, SwitchContext ctx, Switch sw) {
        this.scheme = scheme;
        this.params = scheme.params;
        this.stats = scheme.stats;
        this.tors = tors;
        this.topology = ctx.topology();
        this.node = ctx.node();
        this.firstPort = topology.firstPort(node);
        this.sw = sw;
        this.sim = ctx.simulator();
        this.rng = ctx.rng().split();
        this.handler = sim.register(this);
        this.replyConsumed = sw.network().consumeReason("conweave: RTT_REPLY / CLEAR reached the source ToR");
        this.notifyConsumed = sw.network().consumeReason("conweave: NOTIFY reached the source ToR");
        this.replyExtraPs = us(params.replyDeadlineExtraUs());
        this.pausePs = us(params.pathPauseUs());
        this.expiryPs = us(params.txExpiryUs());
        this.flushExtraPs = us(params.reorderFlushExtraUs());
        this.defaultWaitPs = us(params.defaultReorderWaitUs());
        int leaves = tors.leafCount();
        this.baseRttPs = new long[leaves];
        Fib fib = ctx.fib();
        for (int l = 0; l < leaves; l++) {
            baseRttPs[l] = tors.baseRttPs(topology, fib, node, l);
        }
        this.maxPaths = Math.max(1, topology.portEnd(node) - firstPort);
        this.pausedUntilPs = new long[leaves * maxPaths];
        this.queuesInUseAtPort = new int[topology.portEnd(node) - firstPort];
    }

    private static long us(double us) {
        return Math.round(us * 1_000_000);
    }

    @Override
    public boolean onIngress(Packet p, int ingressPort) {
        int srcTor = tors.torOf(p.src);
        int dstTor = tors.torOf(p.dst);
        if (srcTor == dstTor) {
            return true; // intra-ToR traffic has one path (:382-385)
        }
        if (p.kind == Packet.DATA) {
            if (srcTor == node) {
                atSource(p);
                return true;
            }
            if (dstTor == node && p.pathId >= 0) {
                return atDestination(p);
            }
            return true;
        }
        if (dstTor == node) { // control packets going back to the data's source ToR (this one)
            if (p.kind == scheme.replyKind) {
                onReply(p);
                sw.consume(p, replyConsumed);
                return false;
            }
            if (p.kind == scheme.notifyKind) {
                onNotify(p);
                sw.consume(p, notifyConsumed);
                return false;
            }
        }
        return true; // ACKs, NACKs, CNPs: flow ECMP (:388-393)
    }

    // ------------------------------------------------------------------------------ source ToR

    /** The source ToR's pipeline for one data packet (:444-641). */
    private void atSource(Packet p) {
        int f = p.flow;
        if (f >= txKnown.length) {
            growTx(f);
        }
        long now = sim.nowPs();
        boolean newFlow = !txKnown[f];
        txKnown[f] = true;
        boolean expired = newFlow || txActivePs[f] + expiryPs < now; // :466-472
        boolean stabilized = false;
        if (expired) {
            txStable[f] = false;
        } else if (txStable[f]) {
            stabilized = true;
            txStable[f] = false;
        }
        txActivePs[f] = now;
        int dstLeaf = tors.leafOfHost(p.dst);
        boolean replyTimeout = false;
        if (expired || stabilized) { // a new epoch asks for an RTT_REPLY by base RTT + extra (:481-484)
            txReplyDeadlinePs[f] = now + baseRttPs[dstLeaf] + replyExtraPs;
        } else if (txReplyDeadlinePs[f] < now) { // the reply is late: this packet is the TAIL (:485-488)
            txReplyDeadlinePs[f] = NEVER;
            replyTimeout = true;
        }
        if (expired || stabilized) { // :502-507
            txEpoch[f]++;
            stats.epochs++;
        }
        boolean packetPhase1;
        if (expired || stabilized) { // :512-521
            txPhase1[f] = false;
            packetPhase1 = false;
        } else if (replyTimeout) {
            txPhase1[f] = true;
            packetPhase1 = false;
        } else {
            packetPhase1 = txPhase1[f];
        }
        int currentPath = choosePath(p, f, dstLeaf, now, newFlow, expired, replyTimeout);
        if (expired || stabilized) { // :603-610
            txTailPs[f] = 0;
        } else if (replyTimeout) {
            txTailPs[f] = now;
        }
        int flag;
        if (expired || stabilized) {
            flag = INIT;
            stats.rttRequests++;
        } else if (replyTimeout) {
            flag = TAIL;
            stats.tails++;
        } else {
            flag = DATA;
        }
        p.pathId = currentPath;
        p.switchBits = (txEpoch[f] & EPOCH_MASK) | (packetPhase1 ? PHASE_BIT : 0) | (flag << FLAG_SHIFT);
        p.switchStampPs = now;
        p.switchTailStampPs = txTailPs[f];
    }

    /**
     * The path of this packet: path-aware, the first of two random paths not paused by a NOTIFY (:531-566);
     * a new epoch moves the flow to it, a TAIL keeps the old path and moves the packets after it.
     */
    private int choosePath(Packet p, int f, int dstLeaf, long now, boolean newFlow, boolean expired, boolean replyTimeout) {
        Fib fib = sw.network().fib();
        int paths = Math.max(1, fib.groupSize(fib.group(node, p.dst)));
        int first = rng.nextInt(paths);
        int second = rng.nextInt(paths);
        int good = -1;
        if (!paused(dstLeaf, first, now)) {
            good = first;
        } else if (!paused(dstLeaf, second, now)) {
            good = second;
        }
        if (newFlow) {
            txPath[f] = good >= 0 ? good : first;
        }
        int currentPath;
        if (expired) { // :579-587
            if (good >= 0) {
                if (!newFlow) {
                    stats.reroutes++;
                }
                txPath[f] = good;
            }
            currentPath = txPath[f];
        } else if (replyTimeout) { // the TAIL takes the old path, the packets after it the new one (:588-597)
            currentPath = txPath[f];
            if (good >= 0) {
                stats.reroutes++;
                txPath[f] = good;
            }
        } else {
            currentPath = txPath[f];
        }
        return currentPath;
    }

    private boolean paused(int dstLeaf, int path, long now) {
        return path < maxPaths && pausedUntilPs[dstLeaf * maxPaths + path] > now;
    }

    /** RTT_REPLY or CLEAR back at the source ToR (:944-989). */
    private void onReply(Packet p) {
        int f = p.flow;
        if (f >= txKnown.length || !txKnown[f]) {
            return;
        }
        int epoch = p.switchBits & EPOCH_MASK;
        boolean phase1 = (p.switchBits & PHASE_BIT) != 0;
        int flag = p.switchBits >>> FLAG_SHIFT;
        if (epoch != (txEpoch[f] & EPOCH_MASK) || phase1 != txPhase1[f]) {
            return;
        }
        long now = sim.nowPs();
        if (flag == REPLY_INIT) {
            if (now < txReplyDeadlinePs[f] && txReplyDeadlinePs[f] != NEVER) { // in time: the path is fine, start a new epoch
                txStable[f] = true;
                txReplyDeadlinePs[f] = NEVER;
                stats.repliesInTime++;
            }
        } else if (flag == REPLY_TAIL) { // CLEAR: the reordering of this epoch is over
            txStable[f] = true;
            txReplyDeadlinePs[f] = NEVER;
        }
    }

    /** NOTIFY: keep the congested path out of the candidates for the pause time (:991-1008). */
    private void onNotify(Packet p) {
        int path = p.switchBits;
        if (path >= 0 && path < maxPaths) {
            pausedUntilPs[tors.leafOfHost(p.src) * maxPaths + path] = sim.nowPs() + pausePs;
        }
    }

    // ------------------------------------------------------------------------- destination ToR

    /** The destination ToR's pipeline for one data packet (:646-942); false when the packet is held. */
    private boolean atDestination(Packet p) {
        int f = p.flow;
        if (f >= rxKnown.length) {
            growRx(f);
        }
        long now = sim.nowPs();
        if (!rxKnown[f]) {
            rxKnown[f] = true;
            rxEpoch[f] = 1;
        }
        int bits = p.switchBits;
        int epoch = bits & EPOCH_MASK;
        boolean phase1 = (bits & PHASE_BIT) != 0;
        int flag = bits >>> FLAG_SHIFT;
        boolean newEpoch = false;
        if (rxEpoch[f] < epoch) {
            rxEpoch[f] = epoch;
            newEpoch = true;
        } else if (rxEpoch[f] > epoch) {
            return true; // a previous epoch's packet goes straight on, nothing else (:689-693)
        }
        if (!phase1) { // :700-703
            rxPhase0TxPs[f] = p.switchStampPs;
            rxPhase0RxPs[f] = now;
        }
        boolean outOfOrder = false;
        if (newEpoch) { // :707-715
            rxPhase1[f] = flag == TAIL;
            outOfOrder = phase1 && !rxPhase1[f];
            rxPhase0Cache[f] = !phase1;
        } else {
            if (flag == TAIL) { // :747-753: phase 1 only once this epoch's queue (if any) has gone
                if (rxQueue[f] < 0) {
                    rxPhase1[f] = true;
                }
            } else if (phase1 && !rxPhase1[f]) {
                outOfOrder = true;
            }
            if (!phase1) {
                rxPhase0Cache[f] = true;
            }
        }
        if (flag == TAIL || phase1) { // :765-771
            rxTailPs[f] = p.switchTailStampPs;
        }
        // predicted TAIL arrival (:777-825)
        long gapPs = rxPhase0Cache[f] ? Math.max(0, rxTailPs[f] - rxPhase0TxPs[f]) : defaultWaitPs;
        long flushAtPs;
        if (phase1) {
            flushAtPs = outOfOrder ? (rxPhase0Cache[f] ? rxPhase0RxPs[f] : now) + gapPs + flushExtraPs : 0;
        } else if (flag == TAIL) {
            flushAtPs = now + 1_000; // 1 ns after the TAIL, which goes first (:817-820)
        } else {
            flushAtPs = now + gapPs + flushExtraPs;
        }
        boolean hold = false;
        if (!phase1) { // a phase-0 packet moves the deadline of an ongoing reorder (:842-864)
            int q = rxQueue[f];
            if (q >= 0) {
                if (flag == TAIL) {
                    queueTailArrived[q] = true;
                }
                setDeadline(q, Math.max(flushAtPs, now));
            }
        } else if (outOfOrder) { // :866-899
            int q = rxQueue[f];
            if (q < 0) {
                q = openQueue(f, p.dst, Math.max(flushAtPs, now));
            }
            if (q >= 0) {
                hold = true;
                enqueue(q, p);
            } else { // no reorder queue left: give up reordering this epoch, deliver as it comes (conweave-p4 conweave_ingress.p4:525-532)
                stats.queuesExhausted++;
                rxPhase1[f] = true;
            }
        }
        finishAtDestination(p, flag, epoch);
        return !hold;
    }

    /** NOTIFY for ECN-marked data, RTT_REPLY for INIT, CLEAR for TAIL (:909-926). */
    private void finishAtDestination(Packet p, int flag, int epoch) {
        if (p.ecnMarked) {
            Packet n = control(p, scheme.notifyKind);
            n.switchBits = p.pathId;
            stats.notifies++;
            sw.forward(n);
        }
        if (flag == INIT || flag == TAIL) {
            Packet r = control(p, scheme.replyKind);
            boolean tail = flag == TAIL;
            r.switchBits = (epoch & EPOCH_MASK) | (tail ? PHASE_BIT : 0) | ((tail ? REPLY_TAIL : REPLY_INIT) << FLAG_SHIFT);
            if (tail) {
                stats.clears++;
            } else {
                stats.rttReplies++;
            }
            sw.forward(r);
        }
    }

    private Packet control(Packet data, byte kind) {
        if (kind == ConWeave.UNREGISTERED) {
            throw new IllegalStateException("ConWeave's packet kinds are not registered: the run gave it no queue pair of its own");
        }
        Packet c = sw.originate();
        c.kind = kind;
        c.flow = data.flow;
        c.src = data.dst;
        c.dst = data.src;
        c.sizeBytes = params.controlBytes();
        c.entropy = data.entropy;
        c.trafficClass = data.trafficClass;
        // in the data FIFO (controlPriority false), PFC's ingress accounting charges the port the trigger came in on;
        // in the control queue nothing is charged (ns-3's dummy in-device, switch-node.cc:293-296, :336-343)
        c.ingressPort = data.ingressPort;
        return c;
    }

    // ------------------------------------------------------------------------------ reorder queues

    private int openQueue(int flow, int host, long deadlinePs) {
        int port = topology.peerPort(topology.hostPort(host)) - firstPort;
        if (params.reorderQueuesPerPort() > 0 && queuesInUseAtPort[port] >= params.reorderQueuesPerPort()) {
            return -1;
        }
        if (freeCount == 0) {
            growQueues();
        }
        int q = freeQueues[--freeCount];
        queueFlow[q] = flow;
        queuePort[q] = port;
        queuedCount[q] = 0;
        queuedBytes[q] = 0;
        queueTailArrived[q] = false;
        queueDeadlinePs[q] = deadlinePs;
        queueGeneration[q]++;
        queueTimerPs[q] = deadlinePs;
        sim.schedule(handler, deadlinePs, FLUSH, timerTag(q));
        rxQueue[flow] = q;
        queuesInUseAtPort[port]++;
        stats.queuesInUseMax = Math.max(stats.queuesInUseMax, queuesInUseAtPort[port]);
        return q;
    }

    private long timerTag(int q) {
        return ((long) queueGeneration[q] << 32) | q;
    }

    /** ns-3 cancels and reschedules the flush (conweave-voq.cc:75-90); here one live timer per queue, re-armed only when the deadline comes earlier. */
    private void setDeadline(int q, long deadlinePs) {
        queueDeadlinePs[q] = deadlinePs;
        if (deadlinePs < queueTimerPs[q]) {
            queueGeneration[q]++;
            queueTimerPs[q] = deadlinePs;
            sim.schedule(handler, deadlinePs, FLUSH, timerTag(q));
        }
    }

    private void enqueue(int q, Packet p) {
        if (queuedCount[q] == queued[q].length) {
            queued[q] = Arrays.copyOf(queued[q], queued[q].length * 2);
        }
        queued[q][queuedCount[q]++] = p;
        queuedBytes[q] += p.sizeBytes;
        heldBytes += p.sizeBytes;
        sw.hold(p);
        stats.packetsHeld++;
        stats.queuePacketsMax = Math.max(stats.queuePacketsMax, queuedCount[q]);
        stats.heldBytesMax = Math.max(stats.heldBytesMax, heldBytes);
    }

    @Override
    public void onEvent(int kind, long tag) {
        int q = (int) tag;
        if ((int) (tag >>> 32) != queueGeneration[q]) {
            return; // superseded by an earlier deadline, or the queue was flushed
        }
        long now = sim.nowPs();
        if (queueDeadlinePs[q] > now) { // the deadline moved later since this timer was set
            queueTimerPs[q] = queueDeadlinePs[q];
            sim.schedule(handler, queueDeadlinePs[q], FLUSH, tag);
            return;
        }
        flush(q);
    }

    /** Releases a reorder queue in arrival order and ends the flow's reordering (conweave-voq.cc:48-61, routing :1094-1107). */
    private void flush(int q) {
        int f = queueFlow[q];
        int n = queuedCount[q];
        if (queueTailArrived[q]) {
            stats.queuesFlushedByTail++;
            stats.releasedByTail += n;
        } else {
            stats.queuesFlushedByTimeout++;
            stats.releasedByTimeout += n;
        }
        rxQueue[f] = -1;
        rxPhase1[f] = true;
        queuesInUseAtPort[queuePort[q]]--;
        queueGeneration[q]++;
        queueTimerPs[q] = NEVER;
        heldBytes -= queuedBytes[q];
        Packet[] packets = queued[q];
        queuedCount[q] = 0;
        freeQueues[freeCount++] = q;
        for (int i = 0; i < n; i++) {
            Packet p = packets[i];
            packets[i] = null;
            sw.release(p);
        }
    }

    // ------------------------------------------------------------------------------ growth

    private void growTx(int flow) {
        int n = Math.max(flow + 1, Math.max(64, txKnown.length * 2));
        txKnown = Arrays.copyOf(txKnown, n);
        txStable = Arrays.copyOf(txStable, n);
        txActivePs = Arrays.copyOf(txActivePs, n);
        txReplyDeadlinePs = Arrays.copyOf(txReplyDeadlinePs, n);
        txEpoch = Arrays.copyOf(txEpoch, n);
        txPhase1 = Arrays.copyOf(txPhase1, n);
        txPath = Arrays.copyOf(txPath, n);
        txTailPs = Arrays.copyOf(txTailPs, n);
    }

    private void growRx(int flow) {
        int old = rxKnown.length;
        int n = Math.max(flow + 1, Math.max(64, old * 2));
        rxKnown = Arrays.copyOf(rxKnown, n);
        rxEpoch = Arrays.copyOf(rxEpoch, n);
        rxPhase1 = Arrays.copyOf(rxPhase1, n);
        rxPhase0TxPs = Arrays.copyOf(rxPhase0TxPs, n);
        rxPhase0RxPs = Arrays.copyOf(rxPhase0RxPs, n);
        rxPhase0Cache = Arrays.copyOf(rxPhase0Cache, n);
        rxTailPs = Arrays.copyOf(rxTailPs, n);
        rxQueue = Arrays.copyOf(rxQueue, n);
        Arrays.fill(rxQueue, old, n, -1);
    }

    private void growQueues() {
        int old = queued.length;
        int n = Math.max(8, old * 2);
        queued = Arrays.copyOf(queued, n);
        queuedCount = Arrays.copyOf(queuedCount, n);
        queuedBytes = Arrays.copyOf(queuedBytes, n);
        queueFlow = Arrays.copyOf(queueFlow, n);
        queuePort = Arrays.copyOf(queuePort, n);
        queueDeadlinePs = Arrays.copyOf(queueDeadlinePs, n);
        queueTimerPs = Arrays.copyOf(queueTimerPs, n);
        queueGeneration = Arrays.copyOf(queueGeneration, n);
        queueTailArrived = Arrays.copyOf(queueTailArrived, n);
        freeQueues = Arrays.copyOf(freeQueues, n);
        for (int q = old; q < n; q++) {
            queued[q] = new Packet[16];
            freeQueues[freeCount++] = q;
        }
    }
}
