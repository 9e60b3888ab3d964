package org.lbsim.metrics;

import java.util.List;

/**
 * Everything a run measured. Deterministic: the same scenario and seed give an equal result
 * (wall-clock figures are kept apart in {@link #wallTimeMs()} and are not part of summaries).
 *
 * @param scenarioName        the scenario's {@code name} (summary.json {@code scenarioName}, runs.scenario_name)
 * @param cctPs               completion time of the whole collective (last flow's end), -1 if unfinished
 * @param lowerBoundPs        analytic lower bound of the CCT
 * @param rhoMaxMbps          OFAN App. A per-flow rate under the run's failures (Long.MAX_VALUE if unlimited)
 * @param oversubscription    largest NIC-to-uplink capacity ratio of a leaf / edge switch or pod (above 1 the lower
 *                            bound includes those cuts' capacity, docs/lower-bounds.md)
 * @param outOfOrder          reordering seen by the receivers
 * @param series              sampled time series (empty when sampling is off)
 * @param jobs                per-job results (JCT, phase CCTs, algbw / busbw); empty for workloads without jobs
 * @param ending              why the run ended: {@code completed}, {@code time-limit}, {@code wall-limit},
 *                            {@code pfc-deadlock}, {@code no-route} or {@code stalled}
 * @param endingDetail        one line on why it ended ("" when completed)
 * @param seriesDecimations   how often the sampler halved its series to stay within its cap (0 = none; the
 *                            interval of the series is then metrics.sampleIntervalUs x 2^n)
 * @param failureEvents       failures, repairs and degradations during the run, in time order (empty without any)
 * @param schemeCounters      counters the run's schemes and switch programs reported (name -> Long or Double, in report
 *                            order; empty for schemes without any)
 */
public record RunResult(
        String scenarioName,
        long seed,
        int hosts,
        int flows,
        int flowsFinished,
        long cctPs,
        long lowerBoundPs,
        long rhoMaxMbps,
        double oversubscription,
        long simulatedPs,
        List<LayerStats> layers,
        List<FlowResult> flowResults,
        Counters counters,
        OutOfOrder outOfOrder,
        List<TimeSeries> series,
        List<JobResult> jobs,
        String ending,
        String endingDetail,
        int seriesDecimations,
        long wallTimeMs,
        List<FailureEventStats> failureEvents,
        java.util.Map<String, Number> schemeCounters) {

    public RunResult {
        failureEvents = List.copyOf(failureEvents);
        schemeCounters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(schemeCounters));
    }

    public static final String COMPLETED = "completed";
    public static final String TIME_LIMIT = "time-limit";
    public static final String WALL_LIMIT = "wall-limit";
    public static final String PFC_DEADLOCK = "pfc-deadlock";
    public static final String NO_ROUTE = "no-route";
    public static final String STALLED = "stalled";

    /** Whether the fabric has cuts narrower than their NICs, whose capacity the lower bound then counts. */
    public boolean oversubscribed() {
        return oversubscription > 1;
    }

    public boolean completed() {
        return COMPLETED.equals(ending);
    }

    /** CCT increase over the lower bound, in percent; NaN when unfinished. */
    public double cctIncreasePct() {
        if (cctPs < 0 || lowerBoundPs <= 0) {
            return Double.NaN;
        }
        return 100.0 * (cctPs - lowerBoundPs) / lowerBoundPs;
    }

    /**
     * Run-wide counters.
     *
     * @param events            kernel events processed
     * @param packetHops        frames sent by switch ports plus frames sent by NICs
     * @param packetsCreated    distinct packet objects the pool ever created (its high-water mark)
     * @param pfcPauses         PAUSE frames sent by switches
     * @param pfcDeadlock       the PFC deadlock that ended the run (ports of the cycle), or "" if none
     * @param nacks             NACKs sent by receivers
     * @param cnps              congestion notification packets sent by receivers
     */
    public record Counters(long events, long packetHops, long injected, long delivered, long dropped, long drops,
                           long linkLoss, long noRouteDrops, long ecnMarks, long retransmissions,
                           long spuriousRetransmissions, long timeouts, long inFlightAtEnd, long packetsCreated,
                           int failedLinks, long pfcPauses, String pfcDeadlock, long nacks, long cnps) {
    }
}
