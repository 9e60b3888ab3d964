package org.lbsim.cli.command;

import org.lbsim.cli.errors.ControlCharacters;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.lbsim.api.Run;

/**
 * Progress of one long {@code lbsim run} on a terminal: a line rewritten in place with the simulated
 * time, the events per second, the flows done and an estimate of the time left, cleared when the
 * run ends. Nothing for runs shorter than {@link #QUIET_START_MS}, with {@code --quiet}, or when the
 * output is not a terminal (a pipe, a file, a CI log).
 *
 * <p>A daemon thread samples the simulator's clock and event count while the run's thread
 * simulates: the simulation loop is not touched (nothing per event or packet). Those reads race with
 * the simulating thread on purpose; a value one sample old is good enough for a progress line.
 */
final class RunProgress implements AutoCloseable {
    /** Runs shorter than this print no progress at all. */
    static final long QUIET_START_MS = 1000;
    private static final long REFRESH_MS = 500;

    private final PrintStream out;
    private final Thread thread;
    private volatile boolean stopped;
    private int lastWidth;

    private RunProgress(PrintStream out, LongSupplier simPs, LongSupplier events, LongSupplier flowsDone, int flows, long boundPs) {
        this.out = out;
        long startNs = System.nanoTime();
        this.thread = new Thread(() -> {
            try {
                Thread.sleep(QUIET_START_MS);
                while (!stopped) {
                    String line = line((System.nanoTime() - startNs) / 1e9, simPs.getAsLong(), events.getAsLong(),
                            (int) flowsDone.getAsLong(), flows, boundPs);
                    synchronized (this) {
                        if (!stopped) {
                            print(line);
                        }
                    }
                    Thread.sleep(REFRESH_MS);
                }
            } catch (InterruptedException e) {
                // stopped
            }
        }, "lbsim-run-progress");
        thread.setDaemon(true);
    }

    /** Starts showing the progress of {@code run} on {@code out} if {@code show}; a no-op otherwise. */
    static RunProgress start(Run run, PrintStream out, boolean show) {
        if (!show) {
            return null;
        }
        RunProgress p = new RunProgress(out, run::simulatedPs, run::eventsProcessed, run::queuePairsDone, run.queuePairCount(), run.lowerBoundPs());
        p.thread.start();
        return p;
    }

    /**
     * The progress line. The time left is estimated from the simulated time still to go until the
     * lower bound at the rate simulated so far: a run ends no earlier than its bound, so this is
     * the least time left ("at least"); past the bound nothing is estimated.
     */
    static String line(double wallSeconds, long simPs, long events, int flowsDone, int flows, long boundPs) {
        StringBuilder sb = new StringBuilder("simulated ").append(Run.formatPs(simPs));
        if (boundPs > 0) {
            sb.append(" (lower bound ").append(Run.formatPs(boundPs)).append(')');
        }
        sb.append(String.format(Locale.ROOT, ", %.2f M events/s, %d/%d flows done", wallSeconds > 0 ? events / wallSeconds / 1e6 : 0.0,
                flowsDone, flows));
        if (boundPs > 0 && simPs > 0 && simPs < boundPs && wallSeconds > 0) {
            sb.append(", at least ").append(Progress.duration(wallSeconds * (boundPs - simPs) / simPs)).append(" left");
        } else if (boundPs > 0 && simPs >= boundPs) {
            sb.append(", past the lower bound");
        }
        sb.append(", ").append(Progress.duration(wallSeconds)).append(" elapsed");
        return sb.toString();
    }

    private void print(String line) {
        int pad = Math.max(0, lastWidth - line.length());
        out.write('\r'); // as a byte: printed text has its control characters escaped (ControlCharacters)
        out.print(line + " ".repeat(pad));
        out.flush();
        lastWidth = line.length();
    }

    /** Stops and clears the line, so the summary that follows starts on a clean line. */
    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (lastWidth > 0) {
                Progress.clearLine(out, lastWidth);
                out.flush();
                lastWidth = 0;
            }
        }
    }
}
