package org.lbsim.sim;

import java.util.List;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.spi.QpContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Flow;

/**
 * The queue pairs of a run and the connection (flow) each carries part of.
 *
 * @param contexts     every queue pair, by id
 * @param connectionOf the connection each queue pair carries part of
 */
record QueuePairLayout(List<QpContext> contexts, int[] connectionOf) {
    /**
     * Persistent queue pairs (NCCL keeps one connection per peer and channel for the whole run): the
     * messages of one job between the same two hosts, in the same traffic class and channel, follow each
     * other on one queue pair (the k-th queue pair of each connection when there are several), in the
     * dependency graph's order (Kahn, stable: a collective's steps in step order, independent flows in
     * workload order). Returns, per queue pair, the queue pair of the previous message on it, or -1.
     */
    int[] persistentChains(List<Flow> flows) {
        List<QpContext> qps = contexts;
        int[] firstQp = new int[flows.size()];
        java.util.Arrays.fill(firstQp, -1);
        for (int q = qps.size() - 1; q >= 0; q--) {
            firstQp[connectionOf[q]] = q;
        }
        record Key(int job, int src, int dst, int trafficClass, int channel, int qpIndex) {
        }
        java.util.Map<Key, Integer> last = new java.util.HashMap<>();
        int[] previous = new int[qps.size()];
        java.util.Arrays.fill(previous, -1);
        for (int c : org.lbsim.workload.FlowGraph.topologicalOrder(flows)) {
            Flow f = flows.get(c);
            for (int q = firstQp[c]; q < qps.size() && connectionOf[q] == c; q++) {
                Key k = new Key(f.job(), f.src(), f.dst(), f.trafficClass(), f.channel(), qps.get(q).qpIndex());
                Integer before = last.put(k, q);
                previous[q] = before == null ? -1 : before;
            }
        }
        return previous;
    }

    /**
     * Each connection (flow) split over {@code qpsPer} queue pairs of (nearly) equal shares, each with
     * its phase among the queue pairs its host starts together.
     */
    static QueuePairLayout of(List<Flow> flows, int qpsPer, Topology topology, Fib healthy, PacketSpec pk, long rhoMax) {
        List<QpContext> qps = new java.util.ArrayList<>();
        List<Integer> connectionOf = new java.util.ArrayList<>();
        // A host's queue pairs that start together, in flow order: rank and count give each its phase.
        // Dependent flows start together when they wait for the same flows with the same gap.
        record HostStart(int src, long startPs, List<Integer> deps, long gapPs) {
            static HostStart of(Flow f) {
                return new HostStart(f.src(), f.startPs(), java.util.Arrays.stream(f.deps()).sorted().boxed().toList(), f.gapPs());
            }
        }
        java.util.Map<HostStart, int[]> together = new java.util.HashMap<>();
        for (Flow f : flows) {
            together.computeIfAbsent(HostStart.of(f), k -> new int[2])[1] += (int) Math.min(qpsPer, f.bytes());
        }
        java.util.Map<Long, Long> rttOfPair = new java.util.HashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            long rtt = rttOfPair.computeIfAbsent(((long) f.src() << 32) | f.dst(), k -> Bounds.baseRttPs(topology, healthy, f.src(), f.dst(), pk));
            int n = (int) Math.min(qpsPer, f.bytes());
            int[] rankCount = together.get(HostStart.of(f));
            for (int j = 0; j < n; j++) {
                long share = f.bytes() / n + (j < f.bytes() % n ? 1 : 0);
                int packets = (int) Math.max(1, (share + pk.mtuBytes() - 1) / pk.mtuBytes());
                double phase = (double) rankCount[0]++ / rankCount[1];
                qps.add(new QpContext(qps.size(), f.src(), f.dst(), share, packets, pk.mtuBytes(), pk.headerBytes(),
                        pk.interFrameGapBytes(), topology.rateMbps(topology.hostPort(f.src())), rtt, rhoMax, f.startPs(), phase,
                        f.trafficClass(), j, qpsPer));
                connectionOf.add(i);
            }
        }
        return new QueuePairLayout(qps, connectionOf.stream().mapToInt(Integer::intValue).toArray());
    }
}
