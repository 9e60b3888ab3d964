package org.lbsim.cli.command;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import org.lbsim.cli.files.ScenarioLoader;

/** The scenario file and the options that change it, shared by run and validate. */
final class ScenarioOptions {
    @Parameters(index = "0", paramLabel = "FILE", description = "Scenario YAML file.")
    String file;

    @Option(names = "--set", paramLabel = "PATH=VALUE",
            description = {"Override a scenario field; repeatable.", "Examples: topology.k=4, loadBalancing.type=host-spray, failures.links[0].a=e0"})
    List<String> sets = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "N", description = "Master seed (overrides the scenario's seed).")
    Long seed;

    ScenarioLoader.Loaded load() {
        return ScenarioLoader.load(file, sets, seed);
    }

    /** Prepared as a partitioned run on {@code threads} threads (0 = sequential). */
    ScenarioLoader.Loaded load(int threads) {
        return ScenarioLoader.load(file, sets, seed, threads);
    }
}
