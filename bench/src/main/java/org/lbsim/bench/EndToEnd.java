package org.lbsim.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;

/**
 * Runs reference scenarios once each in this JVM and prints one line of {@code key=value} pairs
 * per run. Meant to be started in a fresh JVM per scenario by {@code bench/run-e2e.sh}, which adds
 * the whole-process wall time and peak RSS seen from outside.
 *
 * <pre>java -XX:+UseSerialGC -cp bench/target/lbsim-bench.jar org.lbsim.bench.EndToEnd S1 [S2 ...] [--check]</pre>
 *
 * Fields: {@code setup_s} building the run (topology, routing, network, transport),
 * {@code sim_s} the event loop plus result collection ({@link PreparedRun#run()}),
 * {@code events_per_s} and {@code hops_per_s} over {@code sim_s}, {@code events_per_hop} kernel events
 * per packet-hop (target: at most 1.2; independent of the machine), {@code peak_heap_mb} the sum of
 * the peak usage of the heap memory pools, {@code vmhwm_mb} the peak resident set size of this
 * process (from /proc/self/status, -1 where unavailable), {@code uptime_s} the JVM uptime when the
 * line is printed.
 */
public final class EndToEnd {
    private EndToEnd() {
    }

    public static void main(String[] args) {
        boolean check = false;
        List<String> names = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--check")) {
                check = true;
            } else if (a.equals("-h") || a.equals("--help")) {
                System.out.println("usage: EndToEnd [--check] S1|S2|S3|S4 ...   (--check verifies the run's invariants afterwards, untimed)");
                return;
            } else {
                names.add(a);
            }
        }
        if (names.isEmpty()) {
            names.addAll(Scenarios.NAMES);
        }
        int failures = 0;
        for (String name : names) {
            Scenario scenario;
            try {
                scenario = Scenarios.byName(name);
            } catch (IllegalArgumentException e) {
                System.err.println(e.getMessage());
                System.exit(2);
                return;
            }
            long t0 = System.nanoTime();
            PreparedRun prepared = Simulation.prepare(scenario, null);
            long t1 = System.nanoTime();
            RunResult r = prepared.run();
            long t2 = System.nanoTime();
            double setupS = (t1 - t0) / 1e9;
            double simS = (t2 - t1) / 1e9;
            RunResult.Counters c = r.counters();
            String status = r.flowsFinished() == r.flows() ? "ok" : "UNFINISHED";
            if (check) {
                List<String> v = Invariants.violations(prepared);
                if (!v.isEmpty()) {
                    status = "INVARIANTS_VIOLATED";
                    v.forEach(System.err::println);
                }
            }
            if (!status.equals("ok")) {
                failures++;
            }
            System.out.println(String.format(Locale.ROOT,
                    "scenario=%s hosts=%d flows=%d finished=%d cct_us=%.3f bound_us=%.3f setup_s=%.3f sim_s=%.3f events=%d"
                            + " events_per_s=%.0f hops=%d hops_per_s=%.0f events_per_hop=%.3f drops=%d packets_created=%d peak_heap_mb=%.1f vmhwm_mb=%.1f uptime_s=%.3f status=%s",
                    name.toUpperCase(Locale.ROOT), r.hosts(), r.flows(), r.flowsFinished(), r.cctPs() / 1e6,
                    r.lowerBoundPs() / 1e6, setupS, simS, c.events(), c.events() / simS, c.packetHops(),
                    c.packetHops() / simS, eventsPerHop(c), c.dropped(), c.packetsCreated(), peakHeapMb(), vmHwmMb(),
                    ManagementFactory.getRuntimeMXBean().getUptime() / 1e3, status));
        }
        System.out.flush();
        if (failures > 0) {
            System.exit(1);
        }
    }

    /** Kernel events per packet-hop (frame sent by a NIC or a switch port); NaN for a run without hops. */
    static double eventsPerHop(RunResult.Counters c) {
        return c.packetHops() == 0 ? Double.NaN : (double) c.events() / c.packetHops();
    }

    /** Sum of the peak usage of every heap memory pool, in MB (10^6 bytes). */
    static double peakHeapMb() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                bytes += pool.getPeakUsage().getUsed();
            }
        }
        return bytes / 1e6;
    }

    /** Peak resident set size of this process in MB (10^6 bytes), or -1 if /proc is not there. */
    static double vmHwmMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024 / 1e6;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return -1;
    }
}
