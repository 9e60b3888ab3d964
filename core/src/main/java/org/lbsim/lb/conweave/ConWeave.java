package org.lbsim.lb.conweave;

import org.lbsim.lb.tor.SourceRoutedSelector;
import org.lbsim.lb.tor.TorView;
import org.lbsim.net.Network;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.BundledScheme;
import org.lbsim.spi.CounterSink;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.spi.PacketKinds;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.spi.SwitchContext;

/**
 * ConWeave (Song et al., SIGCOMM 2023) as its authors' ns-3 model runs it
 * (conweave-ns3: src/point-to-point/model/conweave-routing.cc, conweave-voq.cc): the source ToR
 * watches each flow's current path with an RTT request riding on a data packet and reroutes when
 * the reply misses its deadline, marking the last packet on the old path TAIL and the packets after
 * it as phase 1 of the epoch; the destination ToR holds phase-1 packets that overtake the TAIL in a
 * reorder queue until the TAIL arrives or a predicted deadline passes. Per-ToR programs are in
 * {@link ConWeaveTor}. Defaults are the ns-3 leaf-spine settings of run.py:261-267.
 */
public final class ConWeave extends org.lbsim.lb.tor.TorProgramScheme implements BundledScheme {
    /** Name of the packet kind of RTT_REPLY and CLEAR (ns-3's ConWeaveReplyTag), made by the destination ToR and consumed by the source ToR. */
    public static final String REPLY = "CONWEAVE_REPLY";
    /** Name of the packet kind of NOTIFY (ns-3's ConWeaveNotifyTag): an ECN-marked packet's path, sent back to the source ToR. */
    public static final String NOTIFY = "CONWEAVE_NOTIFY";
    /** A kind id no packet has: the ToR programs make no control packet before the run registers the kinds. */
    static final byte UNREGISTERED = -1;

    public record Params(
            @Doc("us added to the base RTT for the RTT_REPLY deadline (run.py:261: 4)") double replyDeadlineExtraUs,
            @Doc("us a path stays out of the candidates after a NOTIFY (run.py:262: 16)") double pathPauseUs,
            @Doc("us of idleness after which a flow starts a new epoch on a freshly chosen path (run.py:267 leaf-spine: 300)") double txExpiryUs,
            @Doc("us added to the predicted TAIL arrival before a reorder queue is flushed anyway (run.py:265 leaf-spine: 16)") double reorderFlushExtraUs,
            @Doc("us a reorder queue waits when no phase-0 timing is known (run.py:266 leaf-spine: 200)") double defaultReorderWaitUs,
            @Doc("reorder queues per ToR port towards a host; a flow that finds none free is not reordered (conweave-p4 macro.p4: 3 stages x 8 at 100G; 0 = unlimited as in ns-3)") int reorderQueuesPerPort,
            @Doc("bytes of an RTT_REPLY, CLEAR or NOTIFY packet (ns-3: 64)") int controlBytes,
            @Doc("RTT_REPLY, CLEAR and NOTIFY leave every switch port from its strict-priority control queue, outside the buffer and PFC, as ns-3 sends them with ACK priority (conweave-routing.cc:311, :358; switch-node.cc:228-232, :293-296); false = in the data FIFO, charged to the trigger's ingress port") boolean controlPriority) {
        public Params {
            ScenarioException.require(replyDeadlineExtraUs >= 0, "replyDeadlineExtraUs", "must be >= 0, got " + replyDeadlineExtraUs);
            ScenarioException.require(pathPauseUs >= 0, "pathPauseUs", "must be >= 0, got " + pathPauseUs);
            ScenarioException.require(txExpiryUs > 0, "txExpiryUs", "must be > 0, got " + txExpiryUs);
            ScenarioException.require(reorderFlushExtraUs >= 0, "reorderFlushExtraUs", "must be >= 0, got " + reorderFlushExtraUs);
            ScenarioException.require(defaultReorderWaitUs >= 0, "defaultReorderWaitUs", "must be >= 0, got " + defaultReorderWaitUs);
            ScenarioException.require(reorderQueuesPerPort >= 0, "reorderQueuesPerPort", "must be >= 0 (0 = unlimited), got " + reorderQueuesPerPort);
            ScenarioException.require(controlBytes >= 64, "controlBytes", "must be >= 64, got " + controlBytes);
        }

        /** The ns-3 leaf-spine settings (run.py:261-267) with the Tofino2 prototype's 24 reorder queues per port. */
        public static Params defaults() {
            return new Params(4, 16, 300, 16, 200, 24, 64, true);
        }
    }

    final Params params;
    final Stats stats = new Stats();
    /** The run's kind ids, registered with the run's other packet kinds ({@link #queuePairScheme}). */
    byte replyKind = UNREGISTERED;
    byte notifyKind = UNREGISTERED;
    private Network network;

    public ConWeave(Params params) {
        this.params = params;
    }


    @Override
    public void programSwitch(SwitchContext ctx, Switch sw) {
        network = sw.network();
        markPriority();
        if (tors(ctx).leafIndex(ctx.node()) >= 0) {
            sw.addIngressStage(new ConWeaveTor(this, tors(), ctx, sw));
        }
    }

    /**
     * Hosts' parts as any ToR-program scheme (random entropy, the run's loss recovery); the bundle
     * registers ConWeave's two switch-to-switch kinds with the run's packet kinds. They never reach a
     * host: the source ToR consumes them.
     */
    @Override
    public QueuePairScheme queuePairScheme(LossRecoveryFactory recovery) {
        QueuePairScheme hosts = QueuePairScheme.separate(this, recovery);
        return new QueuePairScheme() {
            @Override
            public void registerKinds(PacketKinds kinds) {
                PacketKinds.Handler never = (p, transport, nowPs) -> {
                    throw new IllegalStateException(kinds.name(p.kind) + " reached host " + p.dst + ": ConWeave's source ToR should have consumed it");
                };
                replyKind = kinds.register(REPLY, never);
                notifyKind = kinds.register(NOTIFY, never);
                markPriority();
            }

            @Override
            public QpParts create(HostContext sender) {
                return hosts.create(sender);
            }

            @Override
            public QpParts next(HostContext sender, QpParts previous) {
                return hosts.next(sender, previous);
            }
        };
    }

    /** Once the switches are built and the kinds registered (either order): the control queue for both kinds. */
    private void markPriority() {
        if (params.controlPriority() && network != null && replyKind != UNREGISTERED) {
            network.setPriorityKind(replyKind);
            network.setPriorityKind(notifyKind);
        }
    }


    @Override
    public void reportCounters(CounterSink sink) {
        Stats s = stats;
        sink.add("conweave.rttRequests", s.rttRequests);
        sink.add("conweave.rttReplies", s.rttReplies);
        sink.add("conweave.repliesInTime", s.repliesInTime);
        sink.add("conweave.epochs", s.epochs);
        sink.add("conweave.reroutes", s.reroutes);
        sink.add("conweave.tails", s.tails);
        sink.add("conweave.clears", s.clears);
        sink.add("conweave.notifies", s.notifies);
        sink.add("conweave.packetsHeld", s.packetsHeld);
        sink.add("conweave.releasedByTail", s.releasedByTail);
        sink.add("conweave.releasedByTimeout", s.releasedByTimeout);
        sink.add("conweave.queuesFlushedByTail", s.queuesFlushedByTail);
        sink.add("conweave.queuesFlushedByTimeout", s.queuesFlushedByTimeout);
        sink.add("conweave.queuesExhausted", s.queuesExhausted);
        sink.add("conweave.queuesInUseMaxPerPort", s.queuesInUseMax);
        sink.add("conweave.queuePacketsMax", s.queuePacketsMax);
        sink.add("conweave.heldBytesMaxPerTor", s.heldBytesMax);
    }

    /** The run's counters over all ToRs. */
    public Stats stats() {
        return stats;
    }

    /** Counters of one run, summed over the ToRs. */
    public static final class Stats {
        /** Data packets marked INIT (RTT_REQUEST) at source ToRs. */
        long rttRequests;
        long rttReplies;
        long repliesInTime;
        long tails;
        long clears;
        long notifies;
        long reroutes;
        long epochs;
        long packetsHeld;
        long releasedByTail;
        long releasedByTimeout;
        long queuesFlushedByTail;
        long queuesFlushedByTimeout;
        long queuesExhausted;
        long queuesInUseMax;
        long queuePacketsMax;
        long heldBytesMax;

        public long rttRequests() {
            return rttRequests;
        }

        public long rttReplies() {
            return rttReplies;
        }

        public long repliesInTime() {
            return repliesInTime;
        }

        public long tails() {
            return tails;
        }

        public long clears() {
            return clears;
        }

        public long notifies() {
            return notifies;
        }

        public long reroutes() {
            return reroutes;
        }

        public long epochs() {
            return epochs;
        }

        public long packetsHeld() {
            return packetsHeld;
        }

        public long releasedByTail() {
            return releasedByTail;
        }

        public long releasedByTimeout() {
            return releasedByTimeout;
        }

        public long queuesFlushedByTail() {
            return queuesFlushedByTail;
        }

        public long queuesFlushedByTimeout() {
            return queuesFlushedByTimeout;
        }

        public long queuesExhausted() {
            return queuesExhausted;
        }

        public long queuesInUseMax() {
            return queuesInUseMax;
        }

        public long queuePacketsMax() {
            return queuePacketsMax;
        }

        public long heldBytesMax() {
            return heldBytesMax;
        }
    }
}
