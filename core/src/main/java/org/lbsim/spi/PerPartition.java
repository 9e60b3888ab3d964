package org.lbsim.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.lbsim.kernel.Simulator;

/**
 * One instance per partition of the run (one in a sequential run) of what a scheme counts in pieces
 * that run at different hosts and switches: each piece takes the instance of the partition of the
 * node it runs at when it is made ({@link #at}), so no two threads of a partitioned run
 * ({@code --threads}) ever write the same instance, and the scheme sums {@link #all} when it reports
 * ({@link LoadBalancer#reportCounters}), which gives the sequential run's totals. A queue pair's sender
 * runs at its source host and its receiver at its destination host: they take the instances of those
 * two nodes. Instances are made on first use under a lock (queue pairs are built during the run, in
 * their host's partition); the packet path only touches the instance a piece holds.
 *
 * @param <T> the counters of one partition
 */
public final class PerPartition<T> {
    private final Supplier<T> make;
    private Object[] slots = new Object[0];

    public PerPartition(Supplier<T> make) {
        this.make = make;
    }

    /** The instance of the partition that runs {@code node}'s events. */
    @SuppressWarnings("unchecked")
    public synchronized T at(Simulator sim, int node) {
        int p = sim.partitionOfNode(node);
        if (p >= slots.length) {
            slots = Arrays.copyOf(slots, Math.max(p + 1, sim.partitionCount()));
        }
        if (slots[p] == null) {
            slots[p] = make.get();
        }
        return (T) slots[p];
    }

    /** Every instance made so far, in partition order: what a report sums. */
    @SuppressWarnings("unchecked")
    public synchronized List<T> all() {
        List<T> out = new ArrayList<>();
        for (Object o : slots) {
            if (o != null) {
                out.add((T) o);
            }
        }
        return out;
    }
}
