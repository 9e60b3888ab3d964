package org.lbsim.cli.command;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A line on stderr every {@link #EVERY_MILLIS} while a run is read, checked and built, once that has
 * taken {@link #AFTER_MILLIS} (a large fabric takes tens of seconds before its first simulated event),
 * such as {@code big.yaml: reading, checking and building the run, 8 s ...}. Nothing for a quick build.
 */
final class BuildTicker implements AutoCloseable {
    static final long AFTER_MILLIS = 3_000;
    static final long EVERY_MILLIS = 5_000;

    private final Thread thread;

    private BuildTicker(Thread thread) {
        this.thread = thread;
    }

    /** Starts ticking for {@code file} on {@code err} when {@code show}; closing stops it before it prints again. */
    static BuildTicker start(PrintStream err, boolean show, String file) {
        return start(err, show, file, AFTER_MILLIS, EVERY_MILLIS);
    }

    /** With other delays. */
    static BuildTicker start(PrintStream err, boolean show, String file, long afterMillis, long everyMillis) {
        if (!show) {
            return new BuildTicker(null);
        }
        long started = System.nanoTime();
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(afterMillis);
                while (!Thread.currentThread().isInterrupted()) {
                    err.printf(Locale.ROOT, "%s: reading, checking and building the run, %d s ...%n", file, (System.nanoTime() - started) / 1_000_000_000L);
                    err.flush();
                    Thread.sleep(everyMillis);
                }
            } catch (InterruptedException e) {
                // closed: the build is over
            }
        }, "lbsim-build-ticker");
        t.setDaemon(true);
        t.start();
        return new BuildTicker(t);
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
