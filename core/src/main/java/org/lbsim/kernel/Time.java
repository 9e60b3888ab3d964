package org.lbsim.kernel;

/** Conversions to and from the kernel's unit, the picosecond. */
public final class Time {
    public static final long PS_PER_NS = 1_000L;
    public static final long PS_PER_US = 1_000_000L;
    public static final long PS_PER_MS = 1_000_000_000L;
    public static final long PS_PER_S = 1_000_000_000_000L;

    private Time() {
    }

    public static long ns(double ns) {
        return Math.round(ns * PS_PER_NS);
    }

    public static long us(double us) {
        return Math.round(us * PS_PER_US);
    }

    public static double toUs(long ps) {
        return ps / (double) PS_PER_US;
    }

    public static double toNs(long ps) {
        return ps / (double) PS_PER_NS;
    }

    /**
     * Time to put {@code bytes} on a line of {@code rateMbps}, rounded up to a whole picosecond.
     * Exact for the usual rates: 1 byte is 10 ps at 800 Gb/s, 20 ps at 400 Gb/s, 80 ps at 100 Gb/s.
     */
    public static long serializationPs(long bytes, long rateMbps) {
        long bitsTimesMillion = bytes * 8L * 1_000_000L;
        return (bitsTimesMillion + rateMbps - 1) / rateMbps;
    }

    /**
     * Picoseconds per byte at {@code rateMbps} when that is a whole number (8,000,000 divisible by the
     * rate: 10 at 800 Gb/s, 20 at 400, 80 at 100), else 0. Where it is not 0,
     * {@code bytes * exactPsPerByte(r) == serializationPs(bytes, r)} for every {@code bytes}: no rounding.
     */
    public static long exactPsPerByte(long rateMbps) {
        return rateMbps > 0 && 8_000_000L % rateMbps == 0 ? 8_000_000L / rateMbps : 0;
    }

    /**
     * {@link #serializationPs(long, long)} with a multiplication instead of a division when the rate
     * has an exact whole number of picoseconds per byte ({@code exactPsPerByte} from {@link #exactPsPerByte});
     * the same result, bit for bit.
     */
    public static long serializationPs(long bytes, long rateMbps, long exactPsPerByte) {
        return exactPsPerByte != 0 ? bytes * exactPsPerByte : serializationPs(bytes, rateMbps);
    }
}
