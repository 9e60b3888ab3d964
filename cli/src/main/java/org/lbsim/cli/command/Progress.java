package org.lbsim.cli.command;

import org.lbsim.cli.errors.ControlCharacters;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Progress of a sweep. On a terminal: one line rewritten in place (count, rate, ETA, the last run
 * finished and its wall time, the runs under way and how long each has been running), refreshed
 * every {@link #TERMINAL_REFRESH_NS} while runs go on. Otherwise (a file, a pipe, a CI log): one
 * plain line per finished run, as it is recorded (count, ETA, the run, its wall time and its point);
 * no carriage return or other control character, so the file reads (and greps)
 * as a list of runs. Thread-safe: workers report the runs they start, the sweep's writer thread
 * those it recorded.
 */
final class Progress {
    private static final long TERMINAL_REFRESH_NS = 200_000_000L;

    private final PrintStream out;
    private final boolean terminal;
    private final String label;
    private final int total;
    private final int alreadyDone;
    private final long startNs;
    private int done;
    private int failed;
    private long lastPrintNs;
    private int lastWidth;
    /** Runs under way (local engine): run id to when it started. */
    private final Map<String, Long> running = new LinkedHashMap<>();
    private String lastRun;
    private long lastRunMs;
    private long runMsSum;
    private Thread ticker;

    /**
     * @param total       runs of the sweep, including those already recorded
     * @param alreadyDone runs recorded by an earlier invocation (not counted in the rate)
     */
    Progress(PrintStream out, boolean terminal, String label, int total, int alreadyDone) {
        this.out = out;
        this.terminal = terminal;
        this.label = label;
        this.total = total;
        this.alreadyDone = alreadyDone;
        this.startNs = System.nanoTime();
        this.lastPrintNs = startNs;
    }

    /** On a terminal, refreshes the line while runs go on (the times of the runs under way change between completions). */
    synchronized void startTicker() {
        if (!terminal || ticker != null) {
            return;
        }
        ticker = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(TERMINAL_REFRESH_NS / 1_000_000);
                    synchronized (this) {
                        if (ticker != null) {
                            print(System.nanoTime());
                        }
                    }
                }
            } catch (InterruptedException e) {
                // finished
            }
        }, "lbsim-sweep-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** A worker started a run (shown on a terminal as running, with its time so far). */
    synchronized void runStarted(String runId) {
        running.put(runId, System.nanoTime());
    }

    /** A worker finished simulating a run (it waits to be recorded: no longer shown as running). */
    synchronized void runEnded(String runId) {
        running.remove(runId);
    }

    /**
     * A run was recorded; {@code wallMs} is its own simulation time, {@code point} what it ran
     * ({@code point 3 (loadBalancing.type=ecmp)}).
     */
    synchronized void runDone(String runId, String point, long wallMs) {
        running.remove(runId);
        lastRun = runId;
        lastRunMs = wallMs;
        runMsSum += wallMs;
        done++;
        if (terminal) {
            maybePrint();
        } else {
            printLine(line(System.nanoTime()) + "; " + runId + " in " + duration(wallMs / 1000.0) + ": " + point);
        }
    }

    synchronized void runFailed(String runId, String point) {
        running.remove(runId);
        failed++;
        if (terminal) {
            maybePrint();
        } else {
            printLine(line(System.nanoTime()) + "; " + runId + " failed (stderr says why): " + point);
        }
    }

    private void printLine(String line) {
        lastPrintNs = System.nanoTime();
        out.println(org.lbsim.cli.errors.ControlCharacters.escape(line)); // one line, whatever the point's values hold
        out.flush();
    }

    /** A message on its own line (a failed run), without breaking the terminal's progress line. */
    synchronized void message(PrintStream stream, String line) {
        if (terminal && lastWidth > 0) {
            clearLine(out, lastWidth);
            out.flush();
            lastWidth = 0;
        }
        stream.println(line);
        stream.flush();
    }

    private void maybePrint() {
        long now = System.nanoTime();
        if (now - lastPrintNs >= TERMINAL_REFRESH_NS) {
            print(now);
        }
    }

    /** The final state; ends the terminal line. Off a terminal, only when no run finished (the last run's line says it all). */
    synchronized void finish() {
        if (ticker != null) {
            ticker.interrupt();
            ticker = null;
        }
        running.clear();
        if (!terminal && done + failed > 0) {
            return; // the last run's line already gave the final count and the elapsed time
        }
        print(System.nanoTime());
        if (terminal) {
            out.println();
            out.flush();
        }
    }

    /**
     * Blanks a terminal's progress line of {@code width} characters and returns to its start; the carriage
     * returns go as bytes, since printed text has its control characters escaped (ControlCharacters).
     */
    static void clearLine(PrintStream out, int width) {
        out.write('\r');
        out.print(" ".repeat(width));
        out.write('\r');
    }

    private void print(long now) {
        lastPrintNs = now;
        String line = org.lbsim.cli.errors.ControlCharacters.escape(line(now));
        if (terminal) {
            int pad = Math.max(0, lastWidth - line.length());
            out.write('\r'); // as a byte: printed text has its control characters escaped (ControlCharacters)
            out.print(line + " ".repeat(pad));
            lastWidth = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    synchronized String line(long now) {
        int finished = alreadyDone + done + failed;
        double seconds = (now - startNs) / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        int left = total - finished;
        StringBuilder sb = new StringBuilder(label).append(": ").append(finished).append('/').append(total).append(" runs");
        if (failed > 0) {
            sb.append(" (").append(failed).append(" failed)");
        }
        if (done > 0) {
            sb.append(String.format(Locale.ROOT, ", %.1f runs/s", rate));
        }
        if (left > 0 && done > 0) {
            sb.append(", ETA ").append(duration(left / rate));
        } else if (left == 0) {
            sb.append(", ").append(duration(seconds)).append(" elapsed");
        }
        if (terminal && lastRun != null && left > 0) {
            sb.append("; last ").append(lastRun).append(' ').append(duration(lastRunMs / 1000.0))
                    .append(" (mean ").append(duration(runMsSum / 1000.0 / done)).append(" per run)");
        }
        if (terminal && !running.isEmpty()) {
            sb.append("; running");
            int shown = 0;
            for (Map.Entry<String, Long> r : running.entrySet()) {
                if (shown++ == 3) {
                    sb.append(" and ").append(running.size() - 3).append(" more");
                    break;
                }
                sb.append(shown == 1 ? " " : ", ").append(r.getKey()).append(' ').append(duration((now - r.getValue()) / 1e9));
            }
        }
        return sb.toString();
    }

    /**
     * Whether standard output is a terminal (not a file or a pipe): JDK 17's {@code System.console()}
     * is null unless stdin and stdout are both terminals; from JDK 22 on it may be a console even when
     * redirected, and {@code Console.isTerminal()} (looked up, as lbsim builds for 17) says which.
     */
    static boolean stdoutIsTerminal() {
        java.io.Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (NoSuchMethodException e) {
            return true; // before JDK 22: a console is a terminal
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** 42s, 3m05s, 2h07m. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (seconds < 10) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
}
