package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.util.concurrent.Callable;
import org.lbsim.api.ScenarioText;
import org.lbsim.api.CapabilityTable;
import org.lbsim.api.Catalog;
import org.lbsim.api.Catalog.Kind;
import org.lbsim.api.ExtensionPoints;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.errors.UserError;

/** {@code lbsim list KIND}: read from the registries and the scenario types, never from a hand-kept list. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List what a scenario can name, one per line: name, summary and [source].",
                "KIND: schemes, topologies, workloads, cc, recovery or buffers (all of them when left out), " +
                    "or hooks: the extension points a new scheme plugs into (docs/extending.md).",
                "'lbsim explain NAME' shows one with its parameters."},
        footer = {"",
                "Examples:",
                "  lbsim list schemes",
                "  lbsim list hooks",
                "  lbsim list --markdown"})
public final class ListCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "KIND",
            description = "schemes | topologies | workloads | cc | recovery | buffers | hooks")
    String kind;

    @Option(names = "--markdown", description = "Print the registered schemes, congestion controls and loss recoveries with what each declares "
            + "(granularity, port choice, --threads) and its parameters: docs/schemes.md's generated section.")
    boolean markdown;

    @Override
    public Integer call() {
        if (markdown) {
            if (kind != null) {
                throw UserError.at("list", "--markdown", "takes no KIND (it lists every registry), got '" + kind + "'");
            }
            main.out().print(CapabilityTable.markdown());
            return ExitCode.OK.status();
        }
        if (kind == null) {
            boolean first = true;
            for (Kind k : Kind.values()) {
                if (!first) {
                    main.out().println();
                }
                first = false;
                main.out().println(k.word() + " (" + k.path() + ".type):");
                Catalog.list(k).lines().forEach(l -> main.out().println("  " + l));
            }
            main.out().println();
            main.out().println("hooks (extension points, docs/extending.md):");
            ExtensionPoints.listing().lines().forEach(l -> main.out().println("  " + l));
            return ExitCode.OK.status();
        }
        if (kind.equals("hooks")) {
            main.out().print(ExtensionPoints.listing());
            return ExitCode.OK.status();
        }
        Kind k = Kind.byWord(kind).orElseThrow(() -> UserError.at("list", "", "unknown kind '" + kind + "'"
                + ScenarioText.closest(kind, Kind.words()).map(s -> ", did you mean '" + s + "'?").orElse("")
                + " (kinds: " + String.join(", ", Kind.words()) + ", hooks)"));
        main.out().print(Catalog.list(k));
        return ExitCode.OK.status();
    }
}
