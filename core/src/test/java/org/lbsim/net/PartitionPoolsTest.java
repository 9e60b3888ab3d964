package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Simulator;

/**
 * The pools of a partitioned run, driven by a simulator that says which thread is running and hands
 * over the synchronisation-point observer: each thread takes from and returns to its own pool, the
 * counts add up over all pools, and {@code created} reports the most packets in use at any
 * synchronisation point (or now, if more), not how many objects the pools happened to make.
 */
class PartitionPoolsTest {
    /** Three threads; the test chooses which one is running. */
    private static final class ThreeThreads extends Simulator {
        int thread;
        final List<Runnable> observers = new ArrayList<>();

        @Override
        public boolean partitioned() {
            return true;
        }

        @Override
        public int threadCount() {
            return 3;
        }

        @Override
        public int threadIndex() {
            return thread;
        }

        @Override
        public void atEverySynchronisationPoint(Runnable observer) {
            observers.add(observer);
        }

        void synchronise() {
            observers.forEach(Runnable::run);
        }
    }

    @Test
    void eachThreadRecyclesThroughItsOwnPool() {
        ThreeThreads sim = new ThreeThreads();
        PartitionPools pools = new PartitionPools(sim);
        sim.thread = 0;
        Packet a = pools.acquire();
        pools.release(a);
        sim.thread = 1;
        Packet b = pools.acquire();
        assertThat(b).as("thread 1's pool is empty: a new packet, not thread 0's").isNotSameAs(a);
        sim.thread = 0;
        assertThat(pools.acquire()).as("thread 0 gets its packet back").isSameAs(a);
        // a packet made on thread 1 and freed on thread 2 joins thread 2's pool
        sim.thread = 2;
        pools.release(b);
        assertThat(pools.acquire()).isSameAs(b);
        sim.thread = 1;
        assertThat(pools.acquire()).isNotSameAs(a).isNotSameAs(b);
    }

    @Test
    void acquiredAndOutstandingAddUpOverEveryThreadsPool() {
        ThreeThreads sim = new ThreeThreads();
        PartitionPools pools = new PartitionPools(sim);
        assertThat(pools.outstanding()).isZero();
        assertThat(pools.acquired()).isZero();
        List<Packet> held = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            sim.thread = t;
            for (int i = 0; i <= t; i++) {
                held.add(pools.acquire()); // 1, 2 and 3 packets on threads 0, 1, 2
            }
        }
        assertThat(pools.acquired()).isEqualTo(6);
        assertThat(pools.outstanding()).isEqualTo(6);
        sim.thread = 0;
        pools.release(held.get(5)); // made on thread 2, freed on thread 0
        pools.release(held.get(4));
        assertThat(pools.outstanding()).isEqualTo(4);
        assertThat(pools.acquired()).isEqualTo(6);
        sim.thread = 2;
        pools.acquire();
        assertThat(pools.acquired()).isEqualTo(7);
        assertThat(pools.outstanding()).isEqualTo(5);
    }

    @Test
    void createdIsTheMostPacketsInUseAtASynchronisationPoint() {
        ThreeThreads sim = new ThreeThreads();
        PartitionPools pools = new PartitionPools(sim);
        assertThat(sim.observers).as("one observer of synchronisation points").hasSize(1);
        assertThat(pools.created()).isZero();
        List<Packet> held = new ArrayList<>();
        sim.thread = 1;
        for (int i = 0; i < 5; i++) {
            held.add(pools.acquire());
        }
        assertThat(pools.created()).as("no synchronisation point yet: the packets in use now").isEqualTo(5);
        sim.synchronise(); // peak 5
        sim.thread = 2;
        for (Packet p : held.subList(0, 4)) {
            pools.release(p);
        }
        assertThat(pools.outstanding()).isEqualTo(1);
        assertThat(pools.created()).as("the peak at the synchronisation point").isEqualTo(5);
        sim.synchronise(); // 1 in use: the peak stays 5
        assertThat(pools.created()).isEqualTo(5);
        sim.thread = 0;
        for (int i = 0; i < 7; i++) {
            pools.acquire(); // 8 in use, the peak not yet seen at a synchronisation point
        }
        assertThat(pools.created()).isEqualTo(8);
        sim.synchronise();
        sim.thread = 1;
        pools.release(held.get(4));
        assertThat(pools.outstanding()).isEqualTo(7);
        assertThat(pools.created()).isEqualTo(8);
    }

    @Test
    void createdDoesNotCountObjectsThatMerelyWanderedBetweenPools() {
        // thread 0 makes 4 packets and thread 1 frees them, 3 rounds: the pools made 12 objects in all (thread 0's pool
        // never gets one back), but never more than 4 were in use at a synchronisation point
        ThreeThreads sim = new ThreeThreads();
        PartitionPools pools = new PartitionPools(sim);
        for (int round = 0; round < 3; round++) {
            sim.thread = 0;
            List<Packet> made = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                made.add(pools.acquire());
            }
            sim.synchronise();
            sim.thread = 1;
            made.forEach(pools::release);
            sim.synchronise();
        }
        assertThat(pools.acquired()).isEqualTo(12);
        assertThat(pools.outstanding()).isZero();
        assertThat(pools.created()).isEqualTo(4);
    }
}
