package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.util.concurrent.Callable;
import org.lbsim.api.Catalog;
import org.lbsim.scenario.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;

/** {@code lbsim explain NAME}: a type or a scenario key with its parameters, defaults and documentation. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Explain a type or a scenario key: summary, source and every parameter with its type, default and meaning.",
                "NAME: a scheme, cc, recovery, topology, workload or buffer type (ofan, dcqcn, fat-tree, " +
                    "shared-dynamic ...), 'scenario' for the top-level keys, or a key path (topology, " +
                    "switches.pfc, switches.ecn.kminBytes, failures.links)."},
        footer = {"",
                "Examples:",
                "  lbsim explain ofan",
                "  lbsim explain switches.pfc"})
public final class ExplainCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", paramLabel = "NAME", description = "Type name, 'scenario', or key path.")
    String name;

    @Override
    public Integer call() {
        String text;
        try {
            text = Catalog.explain(name);
        } catch (ScenarioException e) {
            throw UserError.at("explain", e.field(), Yaml.oneLine(e.problem()));
        }
        main.out().print(text);
        return ExitCode.OK.status();
    }
}
