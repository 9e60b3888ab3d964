package org.lbsim.bench.eventset;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.lbsim.bench.Scenarios;
import org.lbsim.kernel.Simulator;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.Simulation;

/**
 * Records the event trace of one reference scenario (S1-S4, or K24 / K32: the S2 permutation at fat
 * tree k = 24 / 32, as {@code bench/scenarios/k32.yaml}) and prints its profile: pending events at
 * push and the distribution of delays. Runs on a subclass of the kernel, so only this tool pays for
 * the recording; product runs never load it.
 *
 * <pre>java -cp bench/target/lbsim-bench.jar org.lbsim.bench.eventset.EventTraceRecorder S1 /tmp/s1.trace</pre>
 */
public final class EventTraceRecorder {
    private EventTraceRecorder() {
    }

    /** The sequential kernel, noting every push. */
    static final class RecordingSimulator extends Simulator {
        int[] popsBefore = new int[1 << 16];
        long[] delayPs = new long[1 << 16];
        int[] pendingAtPush = new int[1 << 16];
        int pushes;
        long popsSeen;

        @Override
        public void schedule(int handlerId, long timePs, int kind, long tag) {
            note(timePs);
            super.schedule(handlerId, timePs, kind, tag);
        }

        @Override
        public void scheduleBackground(int handlerId, long timePs, int kind, long tag) {
            note(timePs);
            super.scheduleBackground(handlerId, timePs, kind, tag);
        }

        private void note(long timePs) {
            if (pushes == delayPs.length) {
                popsBefore = Arrays.copyOf(popsBefore, pushes * 2);
                delayPs = Arrays.copyOf(delayPs, pushes * 2);
                pendingAtPush = Arrays.copyOf(pendingAtPush, pushes * 2);
            }
            long popped = eventsProcessed();
            popsBefore[pushes] = Math.toIntExact(popped - popsSeen);
            popsSeen = popped;
            delayPs[pushes] = timePs - nowPs();
            pendingAtPush[pushes] = pendingEvents();
            pushes++;
        }
    }

    public static Scenario scenario(String name) {
        switch (name.toUpperCase(Locale.ROOT)) {
            case "K24":
                return Scenarios.reference("K24", 24, new WorkloadSpec.Permutation(1L << 20, 0));
            case "K32":
                return Scenarios.reference("K32", 32, new WorkloadSpec.Permutation(1L << 20, 0));
            default:
                return Scenarios.byName(name);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: EventTraceRecorder S1|S2|S3|S4|K24|K32 OUT.trace");
            System.exit(2);
        }
        RecordingSimulator kernel = new RecordingSimulator();
        RunResult result = Simulation.prepareOn(scenario(args[0]), null, () -> kernel).run();
        int n = kernel.pushes;
        EventTrace trace = new EventTrace(Arrays.copyOf(kernel.popsBefore, n), Arrays.copyOf(kernel.delayPs, n),
                kernel.eventsProcessed() - kernel.popsSeen);
        trace.write(Path.of(args[1]));
        System.out.println(profile(args[0], result.counters().events(), trace, Arrays.copyOf(kernel.pendingAtPush, n)));
    }

    /** One Markdown table row: the run's events, pushes, pending at push and delays. */
    static String profile(String name, long events, EventTrace t, int[] pending) {
        int n = t.pushes();
        int[] p = pending.clone();
        Arrays.sort(p);
        long sum = 0;
        for (int v : p) {
            sum += v;
        }
        long[] d = t.delayPs.clone();
        Arrays.sort(d);
        long zero = 0;
        long under100ns = 0;
        long under1us = 0;
        long under10us = 0;
        for (long v : d) {
            zero += v == 0 ? 1 : 0;
            under100ns += v < 100_000 ? 1 : 0;
            under1us += v < 1_000_000 ? 1 : 0;
            under10us += v < 10_000_000 ? 1 : 0;
        }
        return String.format(Locale.ROOT,
                "| %s | %d | %d | %.0f | %d | %d | %d | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %d | %d | %d |",
                name, events, n, (double) sum / n, p[n / 2], p[(int) (n * 0.99)], p[n - 1],
                100.0 * zero / n, 100.0 * under100ns / n, 100.0 * under1us / n, 100.0 * under10us / n, 100.0 * (n - under10us) / n,
                d[n / 2], d[(int) (n * 0.99)], d[n - 1]);
    }
}
