package org.lbsim.bench.eventset;

import java.io.IOException;
import java.nio.file.Path;
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
 * Replays a recorded event trace ({@link EventTraceRecorder}; directory {@code $LBSIM_TRACES}, default
 * {@code /tmp/s10-events/traces}, file {@code NAME.trace}) against a candidate event set: every push
 * and pop of the run, in order, with its times and ties. One operation = the whole trace; divide by
 * the trace's events for ns per event (one push + one pop). Before measuring, each candidate's pop
 * order is checked against the kernel's 4-ary heap on the same trace.
 *
 * <pre>java -jar bench/target/lbsim-bench.jar EventTraceBench -p trace=S1,S2,S3</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC", "-Xmx2g"})
public class EventTraceBench {
    static long calendar(EventTrace t) {
        CalendarQueue q = new CalendarQueue(CAPACITY);
        int[] pops = t.popsBefore;
        long[] delays = t.delayPs;
        long now = 0;
        long check = 0;
        for (int i = 0; i < delays.length; i++) {
            for (int k = pops[i]; k > 0; k--) {
                now = q.peekTime();
                check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
                q.pop();
            }
            q.push(now + delays[i], 1, 0, i);
        }
        for (long k = t.trailingPops; k > 0; k--) {
            check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
            q.pop();
        }
        return check;
    }

    /** The kernel's initial capacity ({@code Simulator}). */
    private static final int CAPACITY = 1 << 12;

    @Param({"S1", "S2", "S3"})
    public String trace;

    @Param({"kernel", "bottomUp", "nearFar", "delayClass4", "delayClass8", "calendar"})
    public String queue;

    private EventTrace t;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        String dir = System.getenv().getOrDefault("LBSIM_TRACES", "/tmp/s10-events/traces");
        t = EventTrace.read(Path.of(dir, trace + ".trace"));
        long expected = kernel(t);
        long got = replay();
        if (got != expected) {
            throw new IllegalStateException(queue + " pops in another order than the kernel's heap on " + trace);
        }
    }

    @Benchmark
    public long replay() {
        switch (queue) {
            case "bottomUp":
                return bottomUp(t);
            case "nearFar":
                return nearFar(t);
            case "delayClass4":
                return delayClass(t, 4);
            case "delayClass8":
                return delayClass(t, 8);
            case "calendar":
                return calendar(t);
            case "kernel":
                return kernel(t);
            default:
                throw new IllegalArgumentException("unknown queue " + queue);
        }
    }

    // One copy of the loop per structure, so that each call site sees one class.

    static long bottomUp(EventTrace t) {
        BottomUpHeap q = new BottomUpHeap(CAPACITY);
        int[] pops = t.popsBefore;
        long[] delays = t.delayPs;
        long now = 0;
        long check = 0;
        for (int i = 0; i < delays.length; i++) {
            for (int k = pops[i]; k > 0; k--) {
                now = q.peekTime();
                check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
                q.pop();
            }
            q.push(now + delays[i], 1, 0, i);
        }
        for (long k = t.trailingPops; k > 0; k--) {
            check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
            q.pop();
        }
        return check;
    }

    static long nearFar(EventTrace t) {
        NearFarQueue q = new NearFarQueue(CAPACITY);
        int[] pops = t.popsBefore;
        long[] delays = t.delayPs;
        long now = 0;
        long check = 0;
        for (int i = 0; i < delays.length; i++) {
            for (int k = pops[i]; k > 0; k--) {
                now = q.peekTime();
                check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
                q.pop();
            }
            q.push(now + delays[i], 1, 0, i);
        }
        for (long k = t.trailingPops; k > 0; k--) {
            check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
            q.pop();
        }
        return check;
    }

    static long delayClass(EventTrace t, int classes) {
        DelayClassQueue q = new DelayClassQueue(CAPACITY, classes);
        int[] pops = t.popsBefore;
        long[] delays = t.delayPs;
        long now = 0;
        long check = 0;
        for (int i = 0; i < delays.length; i++) {
            for (int k = pops[i]; k > 0; k--) {
                now = q.peekTime();
                check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
                q.pop();
            }
            q.push(now + delays[i], 1, 0, i);
        }
        for (long k = t.trailingPops; k > 0; k--) {
            check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
            q.pop();
        }
        return check;
    }

    /** The kernels' {@link KeyedEventQueue} as built (one target, the push order as sequence): the 4-ary heap, the reference every candidate's pop order is checked against (on commits d473a4e-cf39910 it was the calendar queue, and a copy of the heap, `current`, was the reference). */
    static long kernel(EventTrace t) {
        KeyedEventQueue q = new KeyedEventQueue(CAPACITY);
        int[] pops = t.popsBefore;
        long[] delays = t.delayPs;
        long now = 0;
        long check = 0;
        for (int i = 0; i < delays.length; i++) {
            for (int k = pops[i]; k > 0; k--) {
                now = q.peekTime();
                check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
                q.pop();
            }
            q.push(now + delays[i], 0, i, 1, 0, i);
        }
        for (long k = t.trailingPops; k > 0; k--) {
            check = check * 31 + q.peekTag() + q.peekHandler() + q.peekKind();
            q.pop();
        }
        return check;
    }
}
