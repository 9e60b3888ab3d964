package org.lbsim.sim;

import java.util.List;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.LowerBound;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.topology.FabricCuts;
import org.lbsim.topology.Fib;
import org.lbsim.topology.PathFacts;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Flow;

/** The analytic CCT lower bound of a run's flows (OFAN 5 "Metric", App. B). */
final class Bounds {
    private Bounds() {
    }

    /** Path latencies of a flow, as App. B splits them. */
    record PathTimes(long dataSerPs, long lastDataSerPs, long gapPs, long dataLatencyPs, long ackSerPs, long ackLatencyPs) {
    }

    static PathTimes pathTimes(Topology t, Fib fib, int src, int dst, int lastPayload, PacketSpec pk) {
        int[] path = PathFacts.path(t, fib, src, dst);
        long nicRate = t.rateMbps(path[0]);
        int dataBytes = pk.mtuBytes() + pk.headerBytes();
        int lastBytes = lastPayload + pk.headerBytes();
        long prop = PathFacts.propagationPs(t, path);
        // frames after the last one have the same size as the last on every hop after the NIC
        long dataLatency = prop + PathFacts.serializationPs(t, path, 1, lastBytes);
        long ackLatency = prop + PathFacts.serializationPs(t, path, 1, pk.ackBytes());
        return new PathTimes(Time.serializationPs(dataBytes, nicRate), Time.serializationPs(lastBytes, nicRate),
                Time.serializationPs(pk.interFrameGapBytes(), nicRate), dataLatency,
                Time.serializationPs(pk.ackBytes(), nicRate), ackLatency);
    }

    /**
     * Whether independent flows are a permutation in App. B's sense, whatever workload made them (a
     * trace, a collective step): one message each, all of one size and one start time, every host
     * that sends sends once and receives once, so its NIC carries its data and the ACKs of the one
     * message it receives.
     */
    static boolean formPermutation(List<Flow> flows) {
        if (flows.size() < 2) {
            return false;
        }
        Flow first = flows.get(0);
        java.util.BitSet senders = new java.util.BitSet();
        java.util.BitSet receivers = new java.util.BitSet();
        for (Flow f : flows) {
            if (f.deps().length > 0 || f.bytes() != first.bytes() || f.startPs() != first.startPs()
                    || senders.get(f.src()) || receivers.get(f.dst())) {
                return false;
            }
            senders.set(f.src());
            receivers.set(f.dst());
        }
        return senders.equals(receivers);
    }

    /** Round trip of one MTU frame and its ACK over an idle path. */
    static long baseRttPs(Topology t, Fib fib, int src, int dst, PacketSpec pk) {
        PathTimes p = pathTimes(t, fib, src, dst, pk.mtuBytes(), pk);
        return p.dataSerPs() + p.dataLatencyPs() + p.ackSerPs() + p.ackLatencyPs();
    }

    /**
     * For a permutation: the largest App. B bound over its flows (each with its own path). For any
     * other set of flows: the largest of (a) each flow alone on an idle path, (b) each host's NIC
     * link carrying, back to back, all its data frames and one ACK for every data frame it receives
     * (the host is sender and receiver at once, OFAN App. B), then the faster of a data frame's
     * round trip and an ACK's one-way trip, and (c) each receiver's NIC link taking all frames
     * addressed to it back to back; (d) on a fabric with oversubscribed cuts (a leaf's or pod's
     * uplinks narrower than its NICs), each such cut carrying all the traffic across it
     * ({@link #cutPs}). Cuts at least as wide as their NICs are left out: their throughput term never
     * exceeds the NIC terms (b), whose bytes include everything crossing the cut.
     * When queue pairs are paced below line rate ({@code pacedRateMbps}, e.g. rho_max under failures,
     * as OFAN Fig. 4 normalizes), a flow's frames are spaced by the paced slot instead of the NIC's.
     *
     * @param pacedRateMbps per-queue-pair sending rate, or Long.MAX_VALUE when unpaced
     */
    static long collectivePs(Topology t, Fib fib, List<Flow> flows, boolean permutation, PacketSpec pk, long pacedRateMbps,
                             FabricCuts cuts) {
        if (flows.isEmpty()) {
            return 0;
        }
        long firstStart = flows.stream().mapToLong(Flow::startPs).min().orElse(0);
        NicLinkLoads loads = new NicLinkLoads(t.hostCount());
        long best = 0;
        for (Flow f : flows) {
            int packets = (int) Math.max(1, (f.bytes() + pk.mtuBytes() - 1) / pk.mtuBytes());
            int lastPayload = (int) (f.bytes() - (long) (packets - 1) * pk.mtuBytes());
            PathTimes p = pathTimes(t, fib, f.src(), f.dst(), lastPayload, pk);
            int frameBytes = pk.mtuBytes() + pk.headerBytes() + pk.interFrameGapBytes();
            long pacedSlot = pacedRateMbps == Long.MAX_VALUE ? 0 : Time.serializationPs(frameBytes, pacedRateMbps);
            boolean paced = pacedSlot > p.dataSerPs() + p.gapPs();
            if (paced) {
                // A paced flow alone: frames leave one paced slot apart.
                best = Math.max(best, f.startPs() + (long) (packets - 1) * pacedSlot + p.lastDataSerPs() + p.dataLatencyPs()
                        + p.ackSerPs() + p.ackLatencyPs());
            }
            long alone = permutation && !paced
                    ? LowerBound.permutationPs(packets, p.dataSerPs(), p.lastDataSerPs(), p.gapPs(), p.dataLatencyPs(), p.ackSerPs(), p.ackLatencyPs())
                    : LowerBound.singleMessagePs(packets, p.dataSerPs(), p.lastDataSerPs(), p.gapPs(), p.dataLatencyPs(), p.ackSerPs(), p.ackLatencyPs());
            best = Math.max(best, f.startPs() + alone);
            loads.add(t, fib, f, packets, lastPayload, p, pk);
        }
        best = Math.max(best, loads.boundPs());
        if (flows.stream().anyMatch(Flow::dependent)) {
            // (e) the critical path of the dependency graph, each flow alone on its idle path
            for (long f : earliestFinishPs(t, fib, flows, pk, pacedRateMbps)) {
                best = Math.max(best, f);
            }
        }
        for (FabricCuts.Cut cut : cuts.oversubscribed()) {
            best = Math.max(best, cutPs(t, fib, flows, pk, cuts, cut, true));
            best = Math.max(best, cutPs(t, fib, flows, pk, cuts, cut, false));
        }
        return best - firstStart;
    }

    /**
     * Critical path on an idle fabric: the earliest each flow can complete if it ran alone on its idle path
     * (frames back to back, or one paced slot apart, then its last ACK back), starting at the later of its
     * start time and its last dependency's earliest completion plus its gap.
     */
    static long[] earliestFinishPs(Topology t, Fib fib, List<Flow> flows, PacketSpec pk, long pacedRateMbps) {
        record Key(int src, int dst, long bytes) {
        }
        java.util.Map<Key, Long> aloneOf = new java.util.HashMap<>();
        long[] finish = new long[flows.size()];
        int frameBytes = pk.mtuBytes() + pk.headerBytes() + pk.interFrameGapBytes();
        long pacedSlot = pacedRateMbps == Long.MAX_VALUE ? 0 : Time.serializationPs(frameBytes, pacedRateMbps);
        for (int i : org.lbsim.workload.FlowGraph.topologicalOrder(flows)) {
            Flow f = flows.get(i);
            long alone = aloneOf.computeIfAbsent(new Key(f.src(), f.dst(), f.bytes()), k -> {
                int packets = (int) Math.max(1, (k.bytes() + pk.mtuBytes() - 1) / pk.mtuBytes());
                int lastPayload = (int) (k.bytes() - (long) (packets - 1) * pk.mtuBytes());
                PathTimes p = pathTimes(t, fib, k.src(), k.dst(), lastPayload, pk);
                long slot = Math.max(pacedSlot, p.dataSerPs() + p.gapPs());
                return (long) (packets - 1) * slot + p.lastDataSerPs() + p.dataLatencyPs() + p.ackSerPs() + p.ackLatencyPs();
            });
            long start = f.startPs();
            for (int d : f.deps()) {
                start = Math.max(start, finish[d] + f.gapPs());
            }
            finish[i] = start + alone;
        }
        return finish;
    }

    /**
     * Each job's ideal completion time (PRO V's "ideal" for the JCT slowdown): its critical path on an
     * idle fabric, from its first flow's start to its last flow's earliest completion.
     */
    static long[] jobBoundsPs(Topology t, Fib fib, org.lbsim.workload.Workload w, PacketSpec pk, long pacedRateMbps) {
        long[] finish = earliestFinishPs(t, fib, w.flows(), pk, pacedRateMbps);
        int jobs = w.jobs().size();
        long[] first = new long[jobs];
        long[] last = new long[jobs];
        java.util.Arrays.fill(first, Long.MAX_VALUE);
        for (int i = 0; i < finish.length; i++) {
            Flow f = w.flows().get(i);
            if (f.job() < jobs) {
                last[f.job()] = Math.max(last[f.job()], finish[i]);
                if (!f.dependent()) {
                    first[f.job()] = Math.min(first[f.job()], f.startPs());
                }
            }
        }
        long[] bound = new long[jobs];
        for (int j = 0; j < jobs; j++) {
            bound[j] = first[j] == Long.MAX_VALUE ? 0 : last[j] - first[j];
        }
        return bound;
    }

    /**
     * The earliest time all flows can finish given one direction of a cut ({@code outward}: the
     * ports leaving it). Everything that crosses it that way, the data of flows from inside to
     * outside and one ACK per data frame of flows from outside to inside, is serialized on the cut's
     * ports, which together send at most their summed rate. So the last crossing frame ends no
     * earlier than t0 + (bytes - one trailing gap per port) / capacity, where t0 is the earliest any
     * crossing frame can reach the cut; then it still travels on (a data frame to its receiver and
     * its ACK back, an ACK to its sender), which takes at least the shortest such tail.
     */
    static long cutPs(Topology t, Fib fib, List<Flow> flows, PacketSpec pk, FabricCuts cuts, FabricCuts.Cut cut, boolean outward) {
        long bytes = 0;
        long reach = Long.MAX_VALUE;
        long tail = Long.MAX_VALUE;
        int dataBytes = pk.mtuBytes() + pk.headerBytes();
        int gap = pk.interFrameGapBytes();
        for (Flow f : flows) {
            boolean srcIn = cuts.inside(cut, f.src());
            boolean dstIn = cuts.inside(cut, f.dst());
            if (srcIn == dstIn) {
                continue;
            }
            int packets = (int) Math.max(1, (f.bytes() + pk.mtuBytes() - 1) / pk.mtuBytes());
            int lastBytes = (int) (f.bytes() - (long) (packets - 1) * pk.mtuBytes()) + pk.headerBytes();
            int firstBytes = packets == 1 ? lastBytes : dataBytes;
            int[] path = PathFacts.path(t, fib, f.src(), f.dst());
            int[] back = PathFacts.path(t, fib, f.dst(), f.src());
            long ackLatency = PathFacts.propagationPs(t, back) + PathFacts.serializationPs(t, back, 1, pk.ackBytes());
            long ackSer = Time.serializationPs(pk.ackBytes(), t.rateMbps(back[0]));
            if (srcIn == outward) {
                // the data crosses this way: frames of the flow, each with its gap
                bytes += (long) (packets - 1) * (dataBytes + gap) + lastBytes + gap;
                int i = crossing(t, cuts, cut, path);
                reach = Math.min(reach, f.startPs() + hopsPs(t, path, 0, i, firstBytes));
                // after the cut: the rest of the path (the shortest frame is the last one), then its ACK back
                tail = Math.min(tail, t.delayPs(path[i]) + hopsPs(t, path, i + 1, path.length, lastBytes) + ackSer + ackLatency);
            } else {
                // the ACKs cross this way, one per data frame, each sent after its frame arrived
                bytes += (long) packets * (pk.ackBytes() + gap);
                int i = crossing(t, cuts, cut, back);
                long firstArrival = f.startPs() + hopsPs(t, path, 0, path.length, firstBytes);
                reach = Math.min(reach, firstArrival + hopsPs(t, back, 0, i, pk.ackBytes()));
                tail = Math.min(tail, t.delayPs(back[i]) + hopsPs(t, back, i + 1, back.length, pk.ackBytes()));
            }
        }
        if (bytes == 0) {
            return 0;
        }
        // every port may leave its last gap unused before the last frame ends
        long bits = 8 * Math.max(0, bytes - (long) cut.outPorts().length * gap);
        long capacity = cut.capacityMbps();
        long wirePs = bits / capacity * 1_000_000L + bits % capacity * 1_000_000L / capacity; // floor(bits / capacity), in ps
        return reach + wirePs + tail;
    }

    /** Index in {@code path} of the first port that crosses the cut. */
    private static int crossing(Topology t, FabricCuts cuts, FabricCuts.Cut cut, int[] path) {
        for (int i = 0; i < path.length; i++) {
            if (cuts.inside(cut, t.portOwner(path[i])) != cuts.inside(cut, t.peerNode(path[i]))) {
                return i;
            }
        }
        throw new IllegalStateException("a path between the two sides of cut " + cut.name() + " does not cross it");
    }

    /** Store-and-forward time of one frame of {@code bytes} over the hops {@code from .. to - 1} of a path. */
    private static long hopsPs(Topology t, int[] path, int from, int to, int bytes) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += Time.serializationPs(bytes, t.rateMbps(path[i])) + t.delayPs(path[i]);
        }
        return sum;
    }

    /**
     * Terms (b) and (c) of {@link #collectivePs}: per host, the frames its NIC link carries each way
     * (data sent plus ACKs for data received; data received), from the earliest instant each can start,
     * plus the shortest tail after the last of them.
     */
    private static final class NicLinkLoads {
        private final long[] sendWire;
        private final long[] sendStart;
        private final long[] sendTail;
        private final long[] recvWire;
        private final long[] recvFirst;
        private final long[] recvTail;
        private final long[] ackWire;
        private final long[] ackTail;

        NicLinkLoads(int hosts) {
            sendWire = new long[hosts];
            sendStart = new long[hosts];
            sendTail = new long[hosts];
            recvWire = new long[hosts];
            recvFirst = new long[hosts];
            recvTail = new long[hosts];
            ackWire = new long[hosts];
            ackTail = new long[hosts];
            java.util.Arrays.fill(ackTail, Long.MAX_VALUE);
            java.util.Arrays.fill(sendStart, Long.MAX_VALUE);
            java.util.Arrays.fill(sendTail, Long.MAX_VALUE);
            java.util.Arrays.fill(recvFirst, Long.MAX_VALUE);
            java.util.Arrays.fill(recvTail, Long.MAX_VALUE);
        }

        /** Flow {@code f} of {@code packets} frames (the last carrying {@code lastPayload} bytes) over the idle path {@code p}. */
        void add(Topology t, Fib fib, Flow f, int packets, int lastPayload, PathTimes p, PacketSpec pk) {
            long wire = (long) (packets - 1) * (p.dataSerPs() + p.gapPs()) + p.lastDataSerPs() + p.gapPs();
            long tail = p.dataLatencyPs() + p.ackSerPs() + p.ackLatencyPs();
            sendWire[f.src()] += wire;
            sendStart[f.src()] = Math.min(sendStart[f.src()], f.startPs());
            sendTail[f.src()] = Math.min(sendTail[f.src()], tail - p.gapPs());
            // Receiver side: every frame crosses the last link into dst one after another.
            int[] path = PathFacts.path(t, fib, f.src(), f.dst());
            int last = path.length - 1;
            long downRate = t.rateMbps(path[last]);
            int dataBytes = pk.mtuBytes() + pk.headerBytes();
            long downGap = Time.serializationPs(pk.interFrameGapBytes(), downRate);
            long downWire = (long) (packets - 1) * (Time.serializationPs(dataBytes, downRate) + downGap)
                    + Time.serializationPs(lastPayload + pk.headerBytes(), downRate) + downGap;
            // The earliest any frame can start on the last link: the first frame, or a short last frame
            // that leaves later but may overtake on another path.
            long firstFrameBytes = packets == 1 ? lastPayload + pk.headerBytes() : dataBytes;
            long reachLastHop = f.startPs();
            long lastFrameReach = f.startPs() + (long) (packets - 1) * (p.dataSerPs() + p.gapPs());
            for (int i = 0; i < last; i++) {
                reachLastHop += Time.serializationPs(firstFrameBytes, t.rateMbps(path[i])) + t.delayPs(path[i]);
                lastFrameReach += Time.serializationPs(lastPayload + pk.headerBytes(), t.rateMbps(path[i])) + t.delayPs(path[i]);
            }
            reachLastHop = Math.min(reachLastHop, lastFrameReach);
            // The receiver's NIC answers every data frame with an ACK on its own link (ACK per packet).
            int[] back = PathFacts.path(t, fib, f.dst(), f.src());
            long backRate = t.rateMbps(back[0]);
            long backGap = Time.serializationPs(pk.interFrameGapBytes(), backRate);
            ackWire[f.dst()] += packets * (Time.serializationPs(pk.ackBytes(), backRate) + backGap);
            long backLatency = PathFacts.propagationPs(t, back) + PathFacts.serializationPs(t, back, 1, pk.ackBytes());
            ackTail[f.dst()] = Math.min(ackTail[f.dst()], backLatency - backGap);
            recvWire[f.dst()] += downWire;
            recvFirst[f.dst()] = Math.min(recvFirst[f.dst()], reachLastHop);
            recvTail[f.dst()] = Math.min(recvTail[f.dst()], t.delayPs(path[last]) - downGap + p.ackSerPs() + p.ackLatencyPs());
        }

        /** The largest of the hosts' NIC-link terms, as an absolute time. */
        long boundPs() {
            long best = 0;
            for (int h = 0; h < sendWire.length; h++) {
                if (sendWire[h] > 0 || ackWire[h] > 0) {
                    // the NIC link is busy with data from its first start and with ACKs from the first
                    // frame that can reach it, whichever comes first; the last frame it sends is data
                    // (a round trip to go) or an ACK (a one-way trip)
                    long start = Math.min(sendStart[h], recvFirst[h]);
                    best = Math.max(best, start + sendWire[h] + ackWire[h] + Math.min(sendTail[h], ackTail[h]));
                }
                if (recvWire[h] > 0) {
                    best = Math.max(best, recvFirst[h] + recvWire[h] + recvTail[h]);
                }
            }
            return best;
        }
    }
}
