package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.lbsim.api.Lbsim;
import org.lbsim.api.RunOptions;
import org.lbsim.scenario.SetException;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TraceFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.store.BuildInfo;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.files.ScenarioTemplate;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;

/** {@code lbsim init [FILE]}: a commented example scenario with every section at its defaults. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Write a commented example scenario: every section with its default values and what each key means.",
                "Never overwrites a file. '-' writes to standard output."},
        footer = {"",
                "Examples:",
                "  lbsim init my.yaml --set topology.k=4 --set loadBalancing.type=ofan"})
public final class InitCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", defaultValue = "scenario.yaml",
            description = "File to create (default: ${DEFAULT-VALUE}), or '-' for standard output.")
    String file;

    @Option(names = "--set", paramLabel = "PATH=VALUE",
            description = {"Start from this value instead of the default; repeatable.", "Examples: topology.k=4, loadBalancing.type=ofan"})
    List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        boolean stdout = file.equals("-");
        Path target = stdout ? null : Path.of(file).toAbsolutePath().normalize();
        if (target != null && Files.exists(target)) {
            throw exists();
        }
        Scenario scenario = scenario(target);
        String text = ScenarioTemplate.write(scenario, header(stdout ? "scenario.yaml" : file));
        if (stdout) {
            main.out().print(text);
            return ExitCode.OK.status();
        }
        try {
            Files.writeString(target, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw exists();
        } catch (NoSuchFileException e) {
            throw UserError.at(file, "", "cannot create: the folder " + ScenarioLoader.shownPath(target.getParent()) + " does not exist");
        } catch (IOException e) {
            throw UserError.at(file, "", "cannot write: " + e.getMessage());
        }
        main.out().println("wrote " + file + " (check it: lbsim validate " + file + "; run it: lbsim run " + file + ")");
        return ExitCode.OK.status();
    }

    private UserError exists() {
        return UserError.at(file, "", "already exists; init never overwrites a file (choose another name, or '-' for standard output)");
    }

    /** The defaults with the --set values (named after the file unless --set name=...), checked as 'validate' would. */
    private Scenario scenario(Path target) {
        Map<String, Object> tree = new LinkedHashMap<>();
        if (target != null) {
            String stem = target.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
            if (!stem.isEmpty()) {
                tree.put("name", stem);
            }
        }
        try {
            Scenario s = Lbsim.bind(tree, sets, null);
            Lbsim.check(s, RunOptions.sequential(target == null ? Path.of("").toAbsolutePath() : target.getParent()));
            return s;
        } catch (SetException e) {
            throw UserError.at("--set " + e.argument(), e.field(), e.problem());
        } catch (ScenarioException e) {
            String where = Lbsim.blame(sets, e).map(a -> "--set " + a).orElse("init");
            throw UserError.at(where, e.field(), Yaml.oneLine(e.problem()));
        } catch (TraceFormatException e) {
            throw UserError.at(e.file() + ":" + e.line(), e.column(), Yaml.oneLine(e.problem()));
        } catch (java.io.UncheckedIOException e) {
            throw UserError.at("init", "workload.file", "cannot read: " + e.getCause().getMessage());
        }
    }

    private static List<String> header(String shown) {
        return List.of(
                "lbsim scenario, written by 'lbsim init' (lbsim " + BuildInfo.version() + "): every section at its default values.",
                "Every key is optional: delete what you do not change and its default applies. Units are in the",
                "key names (Gbps, Ns, Bytes, Us). What a key or type means, and the other types:",
                "  lbsim explain scenario | lbsim explain switches.pfc | lbsim explain ofan | lbsim list schemes",
                "Check it, then run it:",
                "  lbsim validate " + shown,
                "  lbsim run " + shown + " [--set topology.k=4] [--seed 2]");
    }
}
