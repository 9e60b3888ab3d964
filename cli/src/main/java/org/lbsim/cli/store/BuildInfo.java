package org.lbsim.cli.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/** The lbsim version (filtered in from the Maven project version) and the git commit of its sources. */
public final class BuildInfo {
    private BuildInfo() {
    }

    public static String version() {
        try (InputStream in = BuildInfo.class.getResourceAsStream("lbsim.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * {@code git rev-parse HEAD} run where lbsim's own classes are (the repository it was built
     * from), or "unknown" when that is not a git working tree or git is missing.
     */
    public static String gitCommit() {
        String out = git("rev-parse", "HEAD");
        return out != null && out.matches("[0-9a-f]{40,64}") ? out : "unknown";
    }

    /** {@link #gitCommit} and {@link #gitDirty} together. */
    public record Source(String commit, Boolean dirty) {
    }

    /**
     * {@link #gitCommit} and {@link #gitDirty}, looked up on a thread of their own: {@code run} starts it before
     * simulating and reads it after, so the two git processes overlap the simulation.
     */
    public static FutureTask<Source> sourceInBackground() {
        FutureTask<Source> task = new FutureTask<>(() -> new Source(gitCommit(), gitDirty()));
        Thread t = new Thread(task, "lbsim-git");
        t.setDaemon(true);
        t.start();
        return task;
    }

    /** The result of {@link #sourceInBackground}, waiting for it; unknown (as when git is missing) if it failed. */
    public static Source await(FutureTask<Source> source) {
        try {
            return source.get();
        } catch (ExecutionException e) {
            return new Source("unknown", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Source("unknown", null);
        }
    }

    /** Whether tracked files differ from the commit; null when unknown. */
    public static Boolean gitDirty() {
        String out = git("status", "--porcelain", "--untracked-files=no");
        return out == null ? null : !out.isEmpty();
    }

    private static String git(String... args) {
        Path dir = codeDirectory();
        if (dir == null) {
            return null;
        }
        String[] command = new String[args.length + 1];
        command[0] = "git";
        System.arraycopy(args, 0, command, 1, args.length);
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            byte[] bytes = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(bytes, StandardCharsets.UTF_8).strip() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static Path codeDirectory() {
        try {
            Path p = Path.of(BuildInfo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(p) ? p : p.getParent();
            return dir != null && Files.isDirectory(dir) ? dir : null;
        } catch (Exception e) {
            return null;
        }
    }
}
