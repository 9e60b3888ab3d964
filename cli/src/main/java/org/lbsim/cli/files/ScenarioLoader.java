package org.lbsim.cli.files;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.lbsim.api.Lbsim;
import org.lbsim.api.Run;
import org.lbsim.api.RunOptions;
import org.lbsim.scenario.SetException;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TraceFormatException;
import org.lbsim.cli.errors.UserError;

/** Everything between a scenario file on the command line and a run ready to start. */
public final class ScenarioLoader {
    private ScenarioLoader() {
    }

    /**
     * @param shownName the file as the user wrote it (used in messages)
     * @param file      the scenario file; relative trace paths resolve against its folder
     */
    public record Loaded(String shownName, Path file, Path baseDir, Scenario scenario, Run prepared,
                         Function<ScenarioException, UserError> blame) {
        /** A bad value found only while simulating, blamed as one found while reading would be. */
        public UserError blame(ScenarioException e) {
            return blame.apply(e);
        }
    }

    /** Reads, overrides, binds and prepares; any bad input is a {@link UserError}. */
    public static Loaded load(String shownName, List<String> sets, Long seed) {
        return load(shownName, sets, seed, 0);
    }

    /** Like {@link #load(String, List, Long)}, prepared as a partitioned run on {@code threads} threads (0 = sequential). */
    public static Loaded load(String shownName, List<String> sets, Long seed, int threads) {
        Path file = Path.of(shownName).toAbsolutePath().normalize();
        Path baseDir = file.getParent();
        Yaml.Document doc = Yaml.readWithPositions(file, shownName);
        Object tree = doc.tree();
        Scenario scenario;
        try {
            scenario = Lbsim.bind(tree, sets, seed);
        } catch (SetException e) {
            throw UserError.at("--set " + e.argument(), e.field(), e.problem());
        } catch (ScenarioException e) {
            throw error(shownName, doc, sets, seed, e);
        }
        try {
            return new Loaded(shownName, file, baseDir, scenario, Lbsim.prepare(scenario, new RunOptions(baseDir, threads)),
                    e -> error(shownName, doc, sets, seed, e));
        } catch (ScenarioException e) {
            throw error(shownName, doc, sets, seed, e);
        } catch (TraceFormatException e) {
            String where = shownPath(baseDir.resolve(e.file())) + ":" + e.line();
            throw UserError.at(where, e.column(), Yaml.oneLine(e.problem()));
        } catch (UncheckedIOException e) {
            throw UserError.at(doc.where(shownName, "workload.file"), "workload.file", "cannot read: " + e.getCause().getMessage());
        }
    }

    /** A path relative to the working directory when it lies inside it, else absolute. */
    public static String shownPath(Path p) {
        Path cwd = Path.of("").toAbsolutePath();
        Path abs = p.toAbsolutePath().normalize();
        // for display only: a name with a line break or an escape sequence stays one visible line
        return org.lbsim.cli.errors.ControlCharacters.escape(abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString());
    }

    /**
     * Every error of the file at once, one line each, each blamed on the --set that caused it or on the file at the
     * line and column of the field (or of the nearest enclosing field the file writes out).
     */
    private static UserError error(String shownName, Yaml.Document doc, List<String> sets, Long seed, ScenarioException e) {
        List<String> lines = new java.util.ArrayList<>();
        for (ScenarioException one : e.all()) {
            String where = Lbsim.blame(sets, one).map(a -> "--set " + a).orElseGet(() -> doc.where(shownName, one.field()));
            if (seed != null && "seed".equals(one.field())) {
                where = "--seed " + seed;
            }
            lines.add(UserError.at(where, one.field(), Yaml.oneLine(one.problem())).getMessage());
        }
        return UserError.lines(lines);
    }
}
