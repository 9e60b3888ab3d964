package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cli.store.ResultsStore;

/**
 * {@code lbsim sweep --engine spark} on a Spark standalone cluster, submitted as docs/sweeps.md ("On a
 * cluster") says: a master and a worker of one executor (2 cores) as separate JVMs on the loopback
 * (Spark's own deploy classes, as {@code sbin/start-master.sh} and {@code sbin/start-worker.sh} run
 * them), then {@code spark-submit --deploy-mode client} of {@code spark/target/lbsim-spark.jar} with
 * {@code --jars cli/target/lbsim.jar}. The cluster's class path is Spark's jars alone
 * (target/cluster-classpath.txt), so lbsim reaches the driver and the executor only through the
 * submitted jars. The database the driver writes holds the rows the local engine of the same
 * {@code lbsim.jar} writes for the same sweep file.
 *
 * <p>Runs in {@code verify} (maven-failsafe, after {@code package} has built both jars).
 */
class SparkClusterSweepIT {
    /** Against a hang (a worker that never registers, an executor that never starts), not a timing. */
    static final Duration SUBMIT_LIMIT = Duration.ofMinutes(6);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void a_standalone_cluster_records_the_local_engines_rows() throws Exception {
        Path lbsimJar = existing("lbsim.jar");
        Path sparkJar = existing("lbsim.spark.jar");
        List<String> sparkClassPath = Arrays.asList(Files.readString(existing("lbsim.spark.classpath.file")).strip().split(File.pathSeparator));
        assertThat(sparkClassPath).as("Spark's class path holds neither lbsim nor its libraries")
                .map(e -> Path.of(e).getFileName().toString()).noneMatch(jar -> jar.startsWith("lbsim") || jar.startsWith("duckdb") || jar.startsWith("picocli"));

        Path sweep = dir.resolve("s.yaml");
        Files.writeString(sweep, SparkSweepTest.SWEEP);
        // the local engine of the very jar the cluster gets (as ./lbsim runs it), not of this JVM's class path
        Path local = dir.resolve("local");
        Path localLog = dir.resolve("local.log");
        Process l = new ProcessBuilder(javaCommand(), "-Xss8m", "-XX:+UseSerialGC", "-jar", lbsimJar.toString(),
                "sweep", sweep.toString(), "--out", local.toString(), "--jobs", "2")
                .redirectErrorStream(true).redirectOutput(localLog.toFile()).start();
        try {
            assertThat(l.waitFor(SUBMIT_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("the local sweep ended within %s", SUBMIT_LIMIT).isTrue();
        } finally {
            StandaloneCluster.stop(l);
        }
        assertThat(l.exitValue()).as("the local sweep's exit code%n%s", StandaloneCluster.tail(localLog, 40)).isZero();

        Path out = dir.resolve("cluster");
        try (StandaloneCluster cluster = StandaloneCluster.start(dir.resolve("spark"), sparkClassPath)) {
            Submitted s = cluster.submit(SUBMIT_LIMIT, "--master", cluster.masterUrl(), "--deploy-mode", "client",
                    "--class", "org.lbsim.cli.Main",
                    "--jars", lbsimJar.toString(),
                    "--conf", "spark.driver.extraJavaOptions=-Xss8m", "--conf", "spark.executor.extraJavaOptions=-Xss8m",
                    sparkJar.toString(),
                    "sweep", sweep.toString(), "--engine", "spark", "--out", out.toString());
            assertThat(s.code()).as("spark-submit's exit code%n%s", s.logs()).isZero();
            assertThat(s.out()).as(s.logs()).startsWith("sweep sp: 2 points x 2 seeds = 4 runs on the spark engine -> ")
                    .contains(System.lineSeparator() + "spark: 4 runs as tasks on " + cluster.masterUrl() + " (application app-")
                    .contains("sweep sp: 4 of 4 runs recorded (4 now in ");
            // the executor the worker started fetched both jars from the driver
            assertThat(cluster.executorFiles()).as(s.logs()).contains("lbsim.jar", "lbsim-spark.jar");
        }
        SparkSweepTest.assertSameRows(local.resolve(ResultsStore.DEFAULT_FILE), out.resolve(ResultsStore.DEFAULT_FILE), 4);
    }

    static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A path the build passes as a system property, which must exist (the jars are built by {@code package}). */
    static Path existing(String property) {
        String value = System.getProperty(property);
        assertThat(value).as("system property %s (set by the spark module's failsafe configuration)", property).isNotBlank();
        Path path = Path.of(value);
        assertThat(path).as("%s (built by ./mvnw package)", property).isRegularFile();
        return path;
    }

    record Submitted(int code, String out, String logs) {
    }

    /**
     * A Spark standalone master and one worker, each a JVM of its own, laid out as a Spark distribution:
     * SPARK_HOME/jars holds Spark's jars, which is where the worker's launcher looks when it builds an
     * executor's command line.
     */
    static final class StandaloneCluster implements AutoCloseable {
        private final Path home;
        private final List<String> sparkJvmOptions;
        private final int masterPort;
        private final List<Process> daemons = new ArrayList<>();
        private final List<Path> daemonLogs = new ArrayList<>();
        /** The daemons and the submissions, in the order they started. */
        private final List<Process> started = new CopyOnWriteArrayList<>();
        /** Stops them all if the test JVM itself is ended (e.g. the build interrupted) before close. */
        private final Thread onJvmExit = new Thread(this::stopAll, "spark-cluster-stop");

        private StandaloneCluster(Path home, List<String> sparkJvmOptions, int masterPort) {
            this.home = home;
            this.sparkJvmOptions = sparkJvmOptions;
            this.masterPort = masterPort;
        }

        static StandaloneCluster start(Path home, List<String> sparkClassPath) throws IOException {
            Files.createDirectories(home.resolve("jars"));
            Files.createDirectories(home.resolve("conf"));
            Files.createDirectories(home.resolve("work"));
            Files.createDirectories(home.resolve("local"));
            for (String entry : sparkClassPath) {
                Path jar = Path.of(entry);
                Files.createSymbolicLink(home.resolve("jars").resolve(jar.getFileName()), jar);
            }
            String options = System.getProperty("lbsim.spark.java.options", "");
            List<String> jvm = options.isBlank() ? List.of() : List.of(options.strip().split("\\s+"));
            StandaloneCluster cluster = new StandaloneCluster(home, jvm, freePort());
            Runtime.getRuntime().addShutdownHook(cluster.onJvmExit);
            try {
                // daemons: the REST submission server off (its fixed port 6066 would clash), web UIs on any free port
                cluster.daemon("master", List.of("-Xmx256m", "-Dspark.master.rest.enabled=false"), "org.apache.spark.deploy.master.Master",
                        "--host", "127.0.0.1", "--port", Integer.toString(cluster.masterPort), "--webui-port", "0");
                cluster.daemon("worker", List.of("-Xmx256m"), "org.apache.spark.deploy.worker.Worker",
                        "--host", "127.0.0.1", "--port", "0", "--webui-port", "0", "--cores", "2", "--memory", "1g",
                        "--work-dir", home.resolve("work").toString(), cluster.masterUrl());
            } catch (IOException | RuntimeException e) {
                cluster.close();
                throw e;
            }
            return cluster;
        }

        String masterUrl() {
            return "spark://127.0.0.1:" + masterPort;
        }

        private ProcessBuilder java(List<String> heap, String mainClass, String... args) {
            List<String> cmd = new ArrayList<>();
            cmd.add(javaCommand());
            cmd.addAll(sparkJvmOptions);
            cmd.addAll(heap);
            // what bin/spark-class gives a Spark JVM: the configuration folder and SPARK_HOME/jars/*
            cmd.add("-cp");
            cmd.add(home.resolve("conf") + File.pathSeparator + home.resolve("jars") + File.separator + "*");
            cmd.add(mainClass);
            cmd.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.keySet().removeIf(k -> k.startsWith("SPARK_") || k.startsWith("HADOOP_") || k.startsWith("PYSPARK_"));
            env.put("SPARK_HOME", home.toString());
            // bin/load-spark-env.sh exports it; the worker's launcher needs it to build an executor's class path
            env.put("SPARK_SCALA_VERSION", "2.13");
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.put("SPARK_LOCAL_IP", "127.0.0.1");
            env.put("SPARK_LOCAL_HOSTNAME", "127.0.0.1");
            env.put("SPARK_LOCAL_DIRS", home.resolve("local").toString());
            return pb;
        }

        private void daemon(String name, List<String> heap, String mainClass, String... args) throws IOException {
            Path log = home.resolve(name + ".log");
            daemonLogs.add(log);
            Process p = java(heap, mainClass, args).redirectOutput(log.toFile()).start();
            started.add(p);
            daemons.add(p);
        }

        /**
         * spark-submit with these arguments; waits up to {@code limit}, and ends early if the master or the
         * worker dies.
         */
        Submitted submit(Duration limit, String... args) throws IOException, InterruptedException {
            Path stdout = home.resolve("submit.out");
            Path log = home.resolve("submit.log");
            // spark-submit runs the driver with spark.driver.memory (1g) and spark.driver.extraJavaOptions
            Process p = java(List.of("-Xmx1g", "-Xss8m"), "org.apache.spark.deploy.SparkSubmit", args)
                    .redirectErrorStream(false).redirectOutput(stdout.toFile()).redirectError(log.toFile()).start();
            started.add(p);
            long deadline = System.nanoTime() + limit.toNanos();
            try {
                while (!p.waitFor(1, TimeUnit.SECONDS)) {
                    for (int i = 0; i < daemons.size(); i++) {
                        if (!daemons.get(i).isAlive()) {
                            fail("%s ended with exit code %d while the sweep ran%n%s", daemonLogs.get(i).getFileName(), daemons.get(i).exitValue(), logs(stdout, log));
                        }
                    }
                    if (System.nanoTime() > deadline) {
                        fail("spark-submit still running after %s%n%s", limit, logs(stdout, log));
                    }
                }
            } finally {
                stop(p);
            }
            return new Submitted(p.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8), logs(stdout, log));
        }

        /** The files of the executors' folders (the worker's work folder: app-ID/EXECUTOR/...). */
        List<String> executorFiles() throws IOException {
            try (Stream<Path> files = Files.walk(home.resolve("work"))) {
                return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).toList();
            }
        }

        /** The driver's output and the tail of every log of the cluster, for a failure's message. */
        private String logs(Path... more) {
            StringBuilder sb = new StringBuilder();
            List<Path> all = new ArrayList<>(List.of(more));
            all.addAll(daemonLogs);
            try (Stream<Path> work = Files.walk(home.resolve("work"))) {
                work.filter(f -> f.getFileName().toString().equals("stderr")).forEach(all::add);
            } catch (IOException | UncheckedIOException e) {
                sb.append("(work folder: ").append(e).append(")\n");
            }
            for (Path f : all) {
                sb.append("--- ").append(home.relativize(f)).append(" (last lines)\n").append(tail(f, 40));
            }
            return sb.toString();
        }

        static String tail(Path file, int lines) {
            try {
                List<String> all = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
                return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
            } catch (IOException | UncheckedIOException e) {
                return "(unreadable: " + e + ")\n";
            }
        }

        /** The worker first (it ends its executors), then the master; each with every process it started. */
        @Override
        public void close() {
            stopAll();
            Runtime.getRuntime().removeShutdownHook(onJvmExit);
        }

        private void stopAll() {
            for (int i = started.size() - 1; i >= 0; i--) {
                stop(started.get(i));
            }
        }

        /** Ends a process and its descendants: asked first, forced after 30 s. */
        static void stop(Process p) {
            List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
            tree.add(p.toHandle());
            tree.forEach(ProcessHandle::destroy);
            for (ProcessHandle h : tree) {
                try {
                    h.onExit().get(30, TimeUnit.SECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    h.destroyForcibly();
                } catch (InterruptedException e) {
                    h.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }

        static int freePort() throws IOException {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            }
        }
    }
}
