package org.lbsim.cli.sweep;

import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import org.lbsim.cli.files.Yaml;
import org.lbsim.api.Lbsim;
import org.lbsim.api.RunOptions;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;

/**
 * One run of a sweep as it travels to an engine's worker: the effective scenario as YAML text (the
 * text the store records in {@code runs.scenario}, seed included) and what the worker needs besides.
 * {@link #run()} is the whole simulation; its {@link Outcome} travels back with the run's result
 * encoded by {@link RunResultCodec}.
 *
 * @param runId         the run's key in the store ({@code <sweep>-p<point>-seed<seed>})
 * @param scenarioYaml  the effective scenario (a YAML comment may follow it, e.g. a trace's SHA-256)
 * @param baseDir       the folder relative trace paths resolve against (it must exist on the worker)
 * @param wallSeconds   {@code --max-wall-seconds}, or 0 for no limit
 */
public record SweepRun(String runId, String scenarioYaml, String baseDir, double wallSeconds) implements Serializable {
    private static final long serialVersionUID = 1L;

    public SweepRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(scenarioYaml, "scenarioYaml");
        Objects.requireNonNull(baseDir, "baseDir");
    }

    /** The scenario the YAML describes, bound as {@code lbsim run} binds a file. */
    public Scenario scenario() {
        return Lbsim.bind(Yaml.parse(scenarioYaml, "run " + runId)); // read as lbsim reads a scenario file
    }

    /** Simulates the run (the same calls as a local sweep's worker); never throws: a failure is the outcome's error. */
    public Outcome run() {
        try {
            RunResult r = Lbsim.prepare(scenario(), RunOptions.sequential(Path.of(baseDir))).run(wallSeconds);
            return new Outcome(runId, RunResultCodec.encode(r), null);
        } catch (Throwable t) {
            return new Outcome(runId, null, portable(t));
        }
    }

    /** The error itself when it can be serialized (lbsim's own exceptions can), else its class, message and stack. */
    private static Throwable portable(Throwable t) {
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            out.writeObject(t);
            return t;
        } catch (NotSerializableException e) {
            RuntimeException r = new RuntimeException(t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
            r.setStackTrace(t.getStackTrace());
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * How a run ended, as sent back by a worker: the encoded result, or the error that stopped it.
     *
     * @param runId   the run
     * @param result  {@link RunResultCodec#encode} of the result, null when it failed
     * @param error   what stopped it, null when it finished
     */
    public record Outcome(String runId, byte[] result, Throwable error) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** The decoded result (call only when {@link #error()} is null). */
        public RunResult decode() {
            return RunResultCodec.decode(result);
        }
    }

    /** JSON of a {@link RunResult} (every record component, doubles to the last bit), and back. */
    public static final class RunResultCodec {
        private static final JsonMapper JSON = JsonMapper.builder()
                .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .build();

        private RunResultCodec() {
        }

        public static byte[] encode(RunResult r) {
            try {
                return JSON.writeValueAsBytes(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public static RunResult decode(byte[] json) {
            try {
                return JSON.readValue(json, RunResult.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
