package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.ledger.Ledger;
import org.lbsim.cli.ledger.PaperDef;
import org.lbsim.cli.ledger.Probe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code lbsim ledger}: writes each paper's results ledger ({@code docs/papers/PAPER.md}) from the
 * results committed under {@code results/} and the reproductions' definitions; {@code --check}
 * only compares, for a build that must fail when a page and its data disagree.
 */
@Command(name = "ledger", mixinStandardHelpOptions = true,
        description = {"Write each paper's results ledger (docs/papers/PAPER.md) from the results committed in results/PAPER/FIGURE/*.csv.",
                "The pages are generated, never edited: 'lbsim reproduce FIGURE --out results/PAPER/FIGURE' adds runs, this command redraws."},
        footer = {"", "Examples:", "  lbsim ledger", "  lbsim ledger --check", "  lbsim ledger --paper ofan"})
public final class LedgerCommand implements Callable<Integer> {
    /** Where the page of each paper is written, relative to the repository. */
    public static final String PAGES_DIR = "docs/papers";

    @ParentCommand
    Console main;

    @Option(names = "--root", paramLabel = "DIR", defaultValue = ".", description = "The repository (holding results/ and docs/). Default: the current folder.")
    Path root;

    @Option(names = "--paper", paramLabel = "NAME", description = "Only this paper's page.")
    String paper;

    @Option(names = "--check", description = "Write nothing; exit 2 naming every page that differs from what the committed results give.")
    boolean check;

    @Override
    public Integer call() throws IOException {
        List<String> names = papers();
        if (paper != null && !names.contains(paper)) {
            throw new UserError("ledger: --paper: unknown paper '" + paper + "' (papers: " + String.join(", ", names) + ")");
        }
        if (!Files.isDirectory(root)) {
            throw new UserError("ledger: --root: " + root + " is not a folder");
        }
        List<String> stale = new ArrayList<>();
        for (String n : names) {
            if (paper != null && !paper.equals(n)) {
                continue;
            }
            String page = page(n, root);
            Path file = root.resolve(PAGES_DIR).resolve(n + ".md");
            String current = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
            if (page.equals(current)) {
                continue;
            }
            if (check) {
                stale.add(file.toString());
            } else {
                Files.createDirectories(file.getParent());
                Files.writeString(file, page, StandardCharsets.UTF_8);
                main.out().println("ledger: wrote " + file);
            }
        }
        if (!stale.isEmpty()) {
            throw UserError.lines(stale.stream().map(f -> "ledger: " + f + ": differs from what the committed results give (run 'lbsim ledger')").toList());
        }
        return ExitCode.OK.status();
    }

    /** The papers with a ledger page, in index order. */
    public static List<String> papers() {
        List<String> names = new ArrayList<>();
        for (String line : ReproduceCommand.resourceText("reproduce/papers/index.txt").split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.strip());
            }
        }
        return names;
    }

    /** A paper's declaration. */
    @SuppressWarnings("unchecked")
    public static PaperDef paperDef(String name) {
        String file = "reproduce/papers/" + name + ".yaml";
        Map<String, Object> def = (Map<String, Object>) Yaml.parse(ReproduceCommand.resourceText(file), file);
        return PaperDef.parse(name, def, ReproduceCommand.names());
    }

    /** The page of one paper as the results under {@code root} give it. */
    public static String page(String name, Path root) {
        return page(name, root, Probe::run);
    }

    /** The same, with the probes run by {@code probe}. */
    public static String page(String name, Path root, BiFunction<String, Map<String, Object>, Probe.Fingerprint> probe) {
        return Ledger.page(paperDef(name), ReproduceCommand::definition, root, probe);
    }
}
