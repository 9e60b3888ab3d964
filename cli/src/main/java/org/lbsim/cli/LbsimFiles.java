package org.lbsim.cli;

import org.lbsim.cli.errors.UserError;
import java.nio.file.Path;
import java.util.Map;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.cli.store.RunRecord;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.cli.files.Yaml;

/**
 * The files of the command line from Java (README "Use from Java"): a scenario YAML file as a
 * {@link ScenarioBuilder}, and a run recorded in a results database as {@code lbsim run --db}
 * records it. For notebooks and scripts that mix their own code with lbsim's files.
 */
public final class LbsimFiles {
    private LbsimFiles() {
    }

    /**
     * Reads a scenario file with the same YAML reading, units and checks as {@code lbsim run FILE};
     * relative trace paths resolve against the file's folder. The builder can then be changed
     * ({@code .scheme("ofan")}, {@code .set(...)}) before {@code .run()}.
     *
     * @throws IllegalArgumentException when the file cannot be read or is not YAML (the message
     *     names the file, the line and the problem)
     * @throws ScenarioException when a key or value is wrong (from {@code build()} / {@code run()})
     */
    public static ScenarioBuilder load(Path scenarioFile) {
        Path file = scenarioFile.toAbsolutePath().normalize();
        Object tree;
        try {
            tree = Yaml.read(file, scenarioFile.toString());
        } catch (UserError e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!(tree instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(scenarioFile + ": expected a map of scenario keys at the top level");
        }
        @SuppressWarnings("unchecked")
        Map<String, ?> typed = (Map<String, ?>) map;
        return Lbsim.scenario(typed).baseDir(file.getParent());
    }

    /**
     * Records one run in the DuckDB results database {@code db} (created if missing) exactly as
     * {@code lbsim run --db} does, under {@code name} (made unique with -2, -3 ... if taken), and
     * returns its {@code run_id}. Query it with {@code lbsim query}, {@code lbsim report} or JDBC.
     *
     * @throws IllegalStateException when the database cannot be written (locked by a sweep, not a
     *     DuckDB file ...)
     */
    public static String record(Path db, String name, Scenario scenario, RunResult result) {
        return record(db, name, scenario, result, RunRecord.SEQUENTIAL);
    }

    /** As {@link #record(Path, String, Scenario, RunResult)}, for a run of the given kernel ({@link RunRecord#kernel()}). */
    public static String record(Path db, String name, Scenario scenario, RunResult result, String kernel) {
        return ResultsStore.recordRun(db, name, scenario, Yaml.write(Lbsim.tree(scenario)), result, kernel);
    }
}
