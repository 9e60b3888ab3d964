package org.lbsim.workload;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topology;

/** Traffic beside the jobs ({@code jobs.background}): long-lived flows or Poisson arrivals from the HPCC / ConWeave flow-size CDFs. */
public final class BackgroundTraffic {
    private BackgroundTraffic() {
    }

    /**
     * Flow-size CDFs of the HPCC / ConWeave evaluations (HPCC's traffic_gen WebSearch_distribution.txt and
     * FbHdp_distribution.txt): bytes, cumulative percent; sizes in between are interpolated linearly.
     */
    private static final double[][] WEB_SEARCH = {{0, 0}, {10_000, 15}, {20_000, 20}, {30_000, 30}, {50_000, 40}, {80_000, 53},
            {200_000, 60}, {1_000_000, 70}, {2_000_000, 80}, {5_000_000, 90}, {10_000_000, 97}, {30_000_000, 100}};
    private static final double[][] HADOOP = {{0, 0}, {100, 1}, {200, 2}, {300, 5}, {350, 15}, {400, 20}, {500, 30}, {600, 40},
            {700, 50}, {1000, 60}, {2000, 67}, {7000, 70}, {30_000, 72}, {50_000, 82}, {80_000, 87}, {120_000, 90}, {300_000, 95},
            {1_000_000, 97.5}, {2_000_000, 99}, {10_000_000, 100}};
    /** ConWeave's default workload, AliCloud storage (conweave-ns3 traffic_gen/AliStorage2019.txt; run.py:147). */
    private static final double[][] ALI_STORAGE = {{0, 0}, {4_000, 22.93}, {8_000, 69.21}, {16_000, 80.61}, {32_000, 90.47},
            {64_000, 93.53}, {128_000, 96.77}, {256_000, 97.53}, {2_000_000, 100}};

    /** Mean flow size in bytes of a background CDF by name (web-search, hadoop, ali-storage). */
    public static double meanFlowBytes(String cdf) {
        return meanBytes(switch (cdf) {
            case "hadoop" -> HADOOP;
            case "ali-storage" -> ALI_STORAGE;
            default -> WEB_SEARCH;
        });
    }

    /** Mean of a piecewise-linear CDF. */
    static double meanBytes(double[][] cdf) {
        double mean = 0;
        for (int i = 1; i < cdf.length; i++) {
            mean += (cdf[i][0] + cdf[i - 1][0]) / 2 * (cdf[i][1] - cdf[i - 1][1]) / 100;
        }
        return mean;
    }

    /** A size drawn from a piecewise-linear CDF (at least 1 byte). */
    static long drawBytes(double[][] cdf, SplittableRandom rng) {
        double u = rng.nextDouble() * 100;
        for (int i = 1; i < cdf.length; i++) {
            if (u <= cdf[i][1]) {
                double span = cdf[i][1] - cdf[i - 1][1];
                double x = span == 0 ? cdf[i][0] : cdf[i - 1][0] + (u - cdf[i - 1][1]) / span * (cdf[i][0] - cdf[i - 1][0]);
                return Math.max(1, (long) x);
            }
        }
        return (long) cdf[cdf.length - 1][0];
    }

    /**
     * Background traffic on the hosts no job took: long-lived flows between random pairs, all at time 0
     * (DLBF II / IV), or Poisson arrivals at every such host (exponential inter-arrival times with mean
     * = mean flow size / (load x NIC rate), sizes from the CDF, each to a uniformly random other host),
     * as HPCC's traffic generator draws them.
     */
    static void add(Collectives.Builder b, WorkloadSpec.BackgroundSpec spec, Topology t, boolean[] taken, SplittableRandom rng, int index) {
        int[] free = IntStream.range(0, taken.length).filter(h -> !taken[h]).toArray();
        if (free.length < 2) {
            throw new ScenarioException("type", "background traffic needs at least 2 hosts no job uses, " + free.length + " are free");
        }
        int id = b.jobs.size();
        if (spec.type().equals("poisson")) {
            double[][] cdf = switch (spec.cdf()) {
                case "hadoop" -> HADOOP;
                case "ali-storage" -> ALI_STORAGE;
                default -> WEB_SEARCH;
            };
            double mean = meanBytes(cdf);
            long endPs = Math.round(spec.durationUs() * 1_000_000);
            int first = b.flows.size();
            long total = 0;
            for (int src : free) {
                double meanGapPs = mean * 8 / (spec.load() * t.rateMbps(t.hostPort(src))) * 1_000_000;
                long at = Math.round(-Math.log(1 - rng.nextDouble()) * meanGapPs);
                while (at <= endPs) {
                    int dst = free[rng.nextInt(free.length - 1)];
                    if (dst == src) {
                        dst = free[free.length - 1];
                    }
                    long bytes = drawBytes(cdf, rng);
                    total += bytes;
                    b.flows.add(new Flow(src, dst, bytes, at, spec.trafficClass(), id, 0, null, 0));
                    at += Math.round(-Math.log(1 - rng.nextDouble()) * meanGapPs);
                }
            }
            if (b.flows.size() == first) {
                throw new ScenarioException("durationUs", "no arrival within " + spec.durationUs() + " us at load " + spec.load()
                        + " (mean flow " + Math.round(mean) + " B); run longer");
            }
            b.jobs.add(new Job(id, "background" + index, "poisson/" + spec.cdf(), free.length, total, 1.0, List.of("arrivals"), true,
                    spec.lastsForeground()));
            return;
        }
        for (int k = 0; k < spec.flows(); k++) {
            int a = free[rng.nextInt(free.length)];
            int d = free[rng.nextInt(free.length - 1)];
            if (d == a) {
                d = free[free.length - 1];
            }
            b.flows.add(new Flow(a, d, spec.bytes(), 0, spec.trafficClass(), id, 0, null, 0));
            if (spec.bothWays()) {
                b.flows.add(new Flow(d, a, spec.bytes(), 0, spec.trafficClass(), id, 0, null, 0));
            }
        }
        b.jobs.add(new Job(id, "background" + index, "long-lived", spec.flows() * (spec.bothWays() ? 2 : 1), spec.bytes(), 1.0, List.of("long-lived"), true,
                spec.lastsForeground()));
    }
}
