package org.lbsim.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.lbsim.kernel.KeyedEventQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The kernels' event heap ({@link KeyedEventQueue}: time, target, sequence) throughput in the classic "hold" model: the queue stays at {@code pending} events;
 * each operation pops the earliest event and pushes one new event a random time later, as a
 * simulation in steady state does. Score: hold operations (one pop + one push) per microsecond.
 *
 * <p>Two delay distributions: {@code uniform} (0..2 us, every new event lands somewhere random in
 * the heap) and {@code serialization} (a few fixed delays such as a frame time, a link delay and a
 * gap, which produces many ties and near-FIFO insertions like the real model).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EventQueueBench {
    private static final int DELAYS = 1 << 16;

    @Param({"1000", "100000"})
    public int pending;

    @Param({"uniform", "serialization"})
    public String delays;

    private KeyedEventQueue queue;
    private long[] delayPs;
    private int next;
    private long seq;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom rng = new SplittableRandom(42);
        delayPs = new long[DELAYS];
        long[] fixed = {41_580, 500_000, 200, 640, 41_580 + 500_000};
        for (int i = 0; i < DELAYS; i++) {
            delayPs[i] = delays.equals("uniform") ? rng.nextLong(2_000_000) : fixed[rng.nextInt(fixed.length)];
        }
        queue = new KeyedEventQueue(pending);
        for (int i = 0; i < pending; i++) {
            queue.push(rng.nextLong(2_000_000), i & 1023, seq++, i, 0, i);
        }
    }

    /** Pop the earliest event and schedule its successor. */
    @Benchmark
    public long hold() {
        KeyedEventQueue q = queue;
        long t = q.peekTime();
        int h = q.peekHandler();
        long tag = q.peekTag();
        q.pop();
        q.push(t + delayPs[next++ & (DELAYS - 1)], h & 1023, seq++, h, 0, tag + 1);
        return t;
    }
}
