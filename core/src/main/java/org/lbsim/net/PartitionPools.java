package org.lbsim.net;

import org.lbsim.kernel.Simulator;

/**
 * The packet pools of a partitioned run: one per thread, each used only by that thread (for all the
 * partitions it runs). A packet made on one thread and freed on another simply changes pools. How many
 * packet objects the pools created depends on the split (packets wander between pools), so
 * {@link #created()} reports instead the most packets in use at any synchronisation point, which
 * does not: the same for every {@code --threads N}.
 */
final class PartitionPools extends PacketPool {
    private final Simulator sim;
    private final PacketPool[] pools;

    PartitionPools(Simulator sim) {
        this.sim = sim;
        this.pools = new PacketPool[sim.threadCount()];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = new PacketPool();
        }
        sim.atEverySynchronisationPoint(() -> peakInUse = Math.max(peakInUse, outstanding()));
    }

    private long peakInUse;

    @Override
    public Packet acquire() {
        return pools[sim.threadIndex()].acquire();
    }

    @Override
    public void release(Packet p) {
        pools[sim.threadIndex()].release(p);
    }

    @Override
    public long outstanding() {
        long n = 0;
        for (PacketPool p : pools) {
            n += p.outstanding();
        }
        return n;
    }

    @Override
    public long acquired() {
        long n = 0;
        for (PacketPool p : pools) {
            n += p.acquired();
        }
        return n;
    }

    @Override
    public int created() {
        return (int) Math.max(peakInUse, outstanding());
    }
}
