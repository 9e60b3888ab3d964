package org.lbsim.bench;

import java.util.Locale;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * Retained heap of a healthy k-ary fat tree's FIB (used heap after full collections, before and after
 * computing it, so within a megabyte or two of class-loading garbage) and the time to compute it.
 * A checksum of sampled lookups lets two builds be compared: equal checksums, same group ids.
 *
 * <pre>java -XX:+UseSerialGC -cp bench/target/lbsim-bench.jar org.lbsim.bench.FibFootprint 32</pre>
 */
public final class FibFootprint {
    private FibFootprint() {
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    public static void main(String[] args) {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        LinkSpec link = LinkSpec.defaults();
        Topology t = Topologies.fatTree(k, link, link, link);
        long before = usedAfterGc();
        long t0 = System.nanoTime();
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        long t1 = System.nanoTime();
        long after = usedAfterGc();
        long checksum = 0;
        for (int s = t.hostCount(); s < t.nodeCount(); s += 7) {
            for (int d = 0; d < t.hostCount(); d += 3) {
                checksum = checksum * 31 + fib.group(s, d);
            }
        }
        System.out.println(String.format(Locale.ROOT, "k=%d hosts=%d switches=%d destination_classes=%d groups=%d fib_retained_mb=%.2f compute_s=%.2f checksum=%d",
                k, t.hostCount(), t.nodeCount() - t.hostCount(), fib.destinationClasses(), fib.groupCount(), (after - before) / 1e6,
                (t1 - t0) / 1e9, checksum));
    }
}
