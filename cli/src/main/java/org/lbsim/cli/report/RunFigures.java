package org.lbsim.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.cli.plot.Charts;
import org.lbsim.cli.plot.Figure;
import org.lbsim.metrics.TimeSeries;

/** The standard figures of one run: CDFs of flow FCT, queue depth and out-of-order degree; time series of queues, QP rates and goodput. */
public final class RunFigures {
    /** Figures drawn, for each one left out why, and remarks on what is shown. */
    public record Result(List<Figure> figures, List<String> missing, List<String> notes) {
    }

    private RunFigures() {
    }

    /** At the size of report figures. */
    public static Result of(RunData run) {
        return of(run, Charts.Size.REPORT);
    }

    public static Result of(RunData run, Charts.Size size) {
        List<Figure> figures = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<TimeSeries> all = trimmed(run, notes);
        Map<String, double[]> fct = new LinkedHashMap<>();
        if (run.fctPs().length > 0) {
            double[] us = new double[run.fctPs().length];
            for (int i = 0; i < us.length; i++) {
                us[i] = run.fctPs()[i] / 1e6;
            }
            fct.put("finished flows (" + us.length + ")", us);
        }
        // a source can lack the flows of a run that finished some (a run folder without flows.csv)
        boolean finished = run.summary().get("flows_finished") instanceof Number n && n.longValue() > 0;
        add(figures, missing, Charts.cdf("fct-cdf", "Flow completion time", "FCT (\u00b5s)", fct, true, size), "flow FCT CDF: "
                + (finished ? "the source has no flow completion times of its " + run.summary().get("flows_finished") + " finished flows"
                + " (a run folder without flows.csv)" : "no flow finished"));

        List<TimeSeries> queues = all.stream().filter(s -> s.name().startsWith("queue.max ")).toList();
        Map<String, double[]> queueSamples = new LinkedHashMap<>();
        for (TimeSeries s : queues) {
            double[] kb = new double[s.size()];
            for (int i = 0; i < kb.length; i++) {
                kb[i] = s.values()[i] / 1e3;
            }
            queueSamples.put(layer(s.name()), kb);
        }
        String noSeries = all.isEmpty() ? "no sampled series (metrics.sampleIntervalUs: 0, or the source has none)" : null;
        add(figures, missing, Charts.cdf("queue-cdf", "Queue depth (largest port queue of each layer, over samples)", "queue (KB)",
                queueSamples, false, size), "queue depth CDF: " + (noSeries != null ? noSeries : "no queue series"));
        add(figures, missing, Charts.outOfOrderCdf("ooo-cdf", "Out-of-order degree at the receivers", run.oooHistogram(), size),
                "out-of-order CDF: no data packet arrival recorded");
        add(figures, missing, Charts.timeSeries("queue-series", "Queue depth per layer (largest port queue)", "queue (KB)", queues, 1e-3,
                RunFigures::layer, size), "queue time series: " + (noSeries != null ? noSeries : "no queue series"));
        List<TimeSeries> rates = all.stream().filter(s -> s.name().startsWith("rate ")).toList();
        add(figures, missing, Charts.timeSeries("rate-series", "Sending rate of sampled queue pairs", "rate (Gb/s)", rates, 1,
                n -> n.substring("rate ".length()), size), "sending rates: " + (noSeries != null ? noSeries : "no queue pair sampled (metrics.rateSeriesQps: 0)"));
        List<TimeSeries> goodput = all.stream().filter(s -> s.name().equals("goodput")).toList();
        add(figures, missing, Charts.timeSeries("goodput-series", "Goodput of the fabric (payload delivered)", "goodput (Gb/s)", goodput, 1,
                n -> n, size), "goodput: " + (noSeries != null ? noSeries : "no goodput series"));
        return new Result(figures, missing, notes);
    }

    /**
     * The series up to the end of the run: sampling can go on after the last flow finished (while
     * timers are pending), with nothing queued or delivered; that tail is cut at the later of the
     * run's simulated time and the last sample with a queue or goodput above zero.
     */
    static List<TimeSeries> trimmed(RunData run, List<String> notes) {
        long last = 0;
        long end = 0;
        for (TimeSeries s : run.series()) {
            if (s.size() == 0) {
                continue;
            }
            end = Math.max(end, s.timesPs()[s.size() - 1]);
            if (s.name().startsWith("queue.") || s.name().equals("goodput")) {
                for (int i = s.size() - 1; i >= 0; i--) {
                    if (s.values()[i] != 0) {
                        last = Math.max(last, s.timesPs()[i]);
                        break;
                    }
                }
            }
        }
        Object simulated = run.summary().get("simulated_ps");
        long cut = Math.max(last, simulated instanceof Number n ? n.longValue() : 0);
        if (cut <= 0 || cut >= end) {
            return run.series();
        }
        long limit = cut + Math.max(1, cut / 20); // a little past it, so the drop to zero shows
        List<TimeSeries> out = new ArrayList<>();
        for (TimeSeries s : run.series()) {
            int n = 0;
            while (n < s.size() && s.timesPs()[n] <= limit) {
                n++;
            }
            out.add(new TimeSeries(s.name(), s.unit(), java.util.Arrays.copyOf(s.timesPs(), n), java.util.Arrays.copyOf(s.values(), n)));
        }
        notes.add(String.format(java.util.Locale.ROOT, "Time series end at %.3f \u00b5s; sampling went on to %.3f \u00b5s with no queue and no delivery.",
                limit / 1e6, end / 1e6));
        return out;
    }

    private static String layer(String seriesName) {
        int sp = seriesName.indexOf(' ');
        return sp < 0 ? seriesName : seriesName.substring(sp + 1);
    }

    private static void add(List<Figure> figures, List<String> missing, Figure f, String why) {
        if (f == null) {
            missing.add(why);
        } else {
            figures.add(f);
        }
    }
}
