package org.lbsim.cli;

import java.util.concurrent.Callable;
import org.lbsim.api.Catalog;
import org.lbsim.api.Catalog.Kind;
import org.lbsim.config.Suggestions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code lbsim list KIND}: read from the registries and the scenario types, never from a hand-kept list. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List what a scenario can name, one per line: name, summary and [source].",
                "KIND: schemes, topologies, workloads, cc, recovery or buffers (all of them when left out).",
                "'lbsim explain NAME' shows one with its parameters."})
final class ListCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "KIND",
            description = "schemes | topologies | workloads | cc | recovery | buffers")
    String kind;

    @Override
    public Integer call() {
        if (kind == null) {
            boolean first = true;
            for (Kind k : Kind.values()) {
                if (!first) {
                    main.out.println();
                }
                first = false;
                main.out.println(k.word() + " (" + k.path() + ".type):");
                Catalog.list(k).lines().forEach(l -> main.out.println("  " + l));
            }
            return Main.OK;
        }
        Kind k = Kind.byWord(kind).orElseThrow(() -> UserError.at("list", "", "unknown kind '" + kind + "'"
                + Suggestions.closest(kind, Kind.words()).map(s -> ", did you mean '" + s + "'?").orElse("")
                + " (kinds: " + String.join(", ", Kind.words()) + ")"));
        main.out.print(Catalog.list(k));
        return Main.OK;
    }
}
