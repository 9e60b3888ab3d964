package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.files.ScenarioLoader;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check a scenario as 'run' would (file, keys, values, fabric, failed links, trace) without simulating.",
        footer = {"", "Examples:", "  lbsim validate examples/quickstart.yaml --set topology.k=6"})
public final class ValidateCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Mixin
    ScenarioOptions scenario;

    @Override
    public Integer call() {
        ScenarioLoader.Loaded loaded;
        // the process's own stderr only: a caller that passed its streams reads what it asked for
        try (BuildTicker ticker = BuildTicker.start(main.err(), main.err() == System.err, scenario.file)) {
            loaded = scenario.load();
        }
        int hosts = loaded.prepared().hostCount();
        int flows = loaded.prepared().flowCount();
        main.out().println(scenario.file + ": ok (" + hosts + " hosts, " + flows + " flows)");
        return ExitCode.OK.status();
    }
}
