package org.lbsim.bench.eventset;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The event-set operations of one sequential run, in order (bench/README.md, "Event set"): for every push,
 * how many events were popped since the previous push and the new event's time relative to the
 * kernel's now; then the pops after the last push. Replaying it against a queue performs exactly the
 * run's pushes and pops, with the run's times, ties and pending sizes (see {@link #replayChecksum}).
 *
 * <p>File: the magic {@code LBEVTR1}, the push count, the trailing pops, then per push two unsigned
 * variable-length integers (pops before, delay in ps).
 */
public final class EventTrace {
    private static final byte[] MAGIC = {'L', 'B', 'E', 'V', 'T', 'R', '1'};

    /** Events popped between the previous push and push i. */
    public final int[] popsBefore;
    /** Push i's time minus the kernel's now at that push, ps. */
    public final long[] delayPs;
    /** Pops after the last push (the run's end). */
    public final long trailingPops;

    public EventTrace(int[] popsBefore, long[] delayPs, long trailingPops) {
        if (popsBefore.length != delayPs.length) {
            throw new IllegalArgumentException("popsBefore and delayPs differ in length");
        }
        this.popsBefore = popsBefore;
        this.delayPs = delayPs;
        this.trailingPops = trailingPops;
    }

    public int pushes() {
        return delayPs.length;
    }

    public long pops() {
        long n = trailingPops;
        for (int p : popsBefore) {
            n += p;
        }
        return n;
    }

    public void write(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            out.write(MAGIC);
            out.writeLong(delayPs.length);
            out.writeLong(trailingPops);
            for (int i = 0; i < delayPs.length; i++) {
                writeVarLong(out, popsBefore[i]);
                writeVarLong(out, delayPs[i]);
            }
        }
    }

    public static EventTrace read(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IOException(file + " is not an event trace (magic " + new String(MAGIC) + " expected)");
            }
            int n = Math.toIntExact(in.readLong());
            long trailing = in.readLong();
            int[] pops = new int[n];
            long[] delays = new long[n];
            for (int i = 0; i < n; i++) {
                pops[i] = Math.toIntExact(readVarLong(in));
                delays[i] = readVarLong(in);
            }
            return new EventTrace(pops, delays, trailing);
        }
    }

    private static void writeVarLong(OutputStream out, long v) throws IOException {
        if (v < 0) {
            throw new IllegalArgumentException("negative value in a trace: " + v);
        }
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static long readVarLong(InputStream in) throws IOException {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("trace ends inside a number");
            }
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }
}
