package org.lbsim.workload;

import java.util.stream.IntStream;
import org.lbsim.scenario.WorkloadSpec;

/** ASTRA-sim's ring AllReduce ({@code algorithm: astra-ring}): its chunking and its per-chunk Ring schedule. */
public final class AstraRing {
    private AstraRing() {
    }

    /**
     * How ASTRA-sim splits an AllReduce of {@code bytes} over {@code n} ranks into {@code splits} chunks:
     * {chunks, bytes per chunk, bytes per message}. Sys::determine_chunk_size (astra-sim/system/Sys.cc): a chunk
     * is bytes / splits, raised to n bytes (and the collective to splits x n) when smaller; Sys::generate_collective
     * makes ceil(bytes / chunk) streams of a whole chunk each (a remainder becomes one more full chunk); Ring's
     * constructor (astraccl/native_collectives/collective_algorithm/Ring.cc) sends chunk / n per message.
     */
    public static long[] chunking(long bytes, int splits, int n) {
        long size = bytes;
        long chunk = size / splits;
        if (n > chunk) {
            chunk = n;
            size = (long) splits * chunk;
        }
        long streams = (size + chunk - 1) / chunk;
        return new long[] {streams, chunk, chunk / n};
    }

    /**
     * ASTRA-sim's ring AllReduce on one ring dimension, as its system layer schedules it with the ns-3 frontend. The
     * collective is split into chunks ({@link #chunking}); each chunk is a stream running Ring with ComType
     * All_Reduce (Ring.cc): stream_count = 2(n-1) messages of chunk / n per rank, rank i sending to i+1 (a single
     * queue per dimension, as the ns-3 frontend's num-queues-per-dim 1, is clockwise: QueueLevelHandler.cc). Ring::run
     * inserts the first message at StreamInit and every later one on PacketReceived, so a rank's message t waits only
     * for the message t-1 it received from rank i-1, not for its own previous send; the first 2(n-1)/2 are the
     * ReduceScatter half. A rank runs activeChunks streams at once (SchedulerUnit's queue_threshold,
     * active-chunks-per-dimension); the next one starts (StreamInit) when one of them has received its last message
     * (Ring::iteratable -> exit -> notify_stream_removed). gapNs stands for the endpoint delay between a receive and
     * the send it triggers (MemBus, endpoint-delay; 10 ns in ASTRA-sim's examples). The chunks are identical, so
     * ASTRA-sim's LIFO order among them changes nothing. One difference: ASTRA-sim matches a receive by (stream,
     * source) in completion order, so when message t of a pair overtakes message t-1 its completion already lets the
     * next send go; here a send waits for message t-1 itself.
     */
    static int[][] allReduce(Collectives.Builder b, WorkloadSpec.JobSpec spec, int[] hosts, int job, int phase, long gapPs, long startPs,
                             int[][] wait) {
        int n = hosts.length;
        long[] split = chunking(spec.bytes(), spec.astraChunks(), n);
        int streams = (int) split[0];
        long message = split[2];
        int active = spec.astraActiveChunks();
        int steps = 2 * (n - 1);
        int[][] last = new int[streams][]; // per chunk: the flow id rank i sends at its last step
        for (int c = 0; c < streams; c++) {
            int[] previous = null;
            for (int t = 0; t < steps; t++) {
                int[] ids = new int[n];
                for (int i = 0; i < n; i++) {
                    int from = (i - 1 + n) % n;
                    int[] deps;
                    if (t > 0) {
                        deps = new int[] {previous[from]};
                    } else if (c >= active) {
                        deps = new int[] {last[c - active][from]};
                    } else {
                        deps = wait[i];
                    }
                    ids[i] = b.flows.size();
                    b.flows.add(new Flow(hosts[i], hosts[(i + 1) % n], message, startPs, spec.trafficClass(), job,
                            phase + 2 * c + (t < n - 1 ? 0 : 1), deps, deps.length == 0 ? 0 : gapPs, 0));
                }
                previous = ids;
            }
            last[c] = previous;
        }
        // the collective ends on a rank when each of its last chunks has received its last message
        int[][] end = new int[n][];
        for (int i = 0; i < n; i++) {
            int from = (i - 1 + n) % n;
            end[i] = IntStream.range(Math.max(0, streams - active), streams).map(c -> last[c][from]).toArray();
        }
        return end;
    }
}
