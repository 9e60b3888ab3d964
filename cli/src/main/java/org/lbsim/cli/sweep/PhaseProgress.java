package org.lbsim.cli.sweep;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A line on stderr now and then while a long phase before the runs goes on (binding a large grid's
 * points, checking them): nothing for a phase shorter than {@link #AFTER_NANOS}, then one line at most
 * every {@link #EVERY_NANOS}, such as {@code sweep big: checking points 120000 of 1000000 ...}.
 * Steps are reported from one thread.
 */
public final class PhaseProgress {
    /** Silent before a phase has taken this long. */
    public static final long AFTER_NANOS = 3_000_000_000L;
    /** At most one line per this long. */
    public static final long EVERY_NANOS = 2_000_000_000L;

    private final PrintStream err;
    private final String label;
    private final long afterNanos;
    private final long everyNanos;
    private String phase;
    private long phaseStart;
    private long lastLine;

    /**
     * @param err   where the lines go; null for none
     * @param label what the lines start with, such as {@code sweep big}
     */
    public PhaseProgress(PrintStream err, String label) {
        this(err, label, AFTER_NANOS, EVERY_NANOS);
    }

    /** With other delays (0 and 0: a line for every step). */
    public PhaseProgress(PrintStream err, String label, long afterNanos, long everyNanos) {
        this.err = err;
        this.label = label;
        this.afterNanos = afterNanos;
        this.everyNanos = everyNanos;
    }

    /** Nothing is printed. */
    public static PhaseProgress silent() {
        return new PhaseProgress(null, "");
    }

    /** {@code done} of {@code total} items of {@code phase} (such as "binding points") are done. */
    public void step(String phase, long done, long total) {
        if (err == null) {
            return;
        }
        long now = System.nanoTime();
        if (!phase.equals(this.phase)) {
            this.phase = phase;
            phaseStart = now;
            lastLine = now - everyNanos;
        }
        if (now - phaseStart >= afterNanos && now - lastLine >= everyNanos) {
            lastLine = now;
            err.printf(Locale.ROOT, "%s: %s %d of %d ...%n", label, phase, done, total);
            err.flush();
        }
    }
}
