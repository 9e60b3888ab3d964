package org.lbsim.cli.ledger;

import org.lbsim.cli.Main;
import org.lbsim.cli.errors.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.command.LedgerCommand;
import org.lbsim.cli.command.ReproduceCommand;

/**
 * The ledger pages in docs/papers/ are what the committed results in results/ give: regenerated
 * here and compared byte for byte, so no number in them can drift from the data or be typed by hand.
 */
@org.junit.jupiter.api.TestInstance(org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS)
class LedgerTest {
    private static final Path ROOT = RepositoryRoot.find();
    /** Each figure's probe, run once for all the pages this class draws (one instance for the class's tests). */
    private final Map<String, Probe.Fingerprint> probes = new java.util.concurrent.ConcurrentHashMap<>();

    private String page(String paper, Path root) {
        return LedgerCommand.page(paper, root, (name, raw) -> probes.computeIfAbsent(name, n -> Probe.run(n, raw)));
    }

    static Stream<String> papers() {
        return LedgerCommand.papers().stream();
    }

    @ParameterizedTest
    @MethodSource("papers")
    void everyPageIsWhatTheCommittedResultsGive(String paper) throws IOException {
        Path page = ROOT.resolve(LedgerCommand.PAGES_DIR).resolve(paper + ".md");
        assertThat(page).as("run 'lbsim ledger' to write it").isRegularFile();
        assertThat(page(paper, ROOT)).as(page + " differs from what the committed results give: run 'lbsim ledger'")
                .isEqualTo(Files.readString(page, StandardCharsets.UTF_8));
    }

    @Test
    void everyReproductionIsOnExactlyOnePage() {
        Map<String, String> seen = new HashMap<>();
        for (String paper : LedgerCommand.papers()) {
            for (PaperDef.Entry e : LedgerCommand.paperDef(paper).entries()) {
                if (e.attempted()) {
                    assertThat(seen.put(e.reproduction(), paper)).as(e.reproduction() + " on two pages").isNull();
                }
            }
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(ReproduceCommand.names());
    }

    @Test
    void aReproductionInLedgerFormNamesThePaperWhosePageListsIt() {
        for (String paper : LedgerCommand.papers()) {
            for (PaperDef.Entry e : LedgerCommand.paperDef(paper).entries()) {
                if (e.attempted()) {
                    assertThat(FigureDef.paperOf(ReproduceCommand.definition(e.reproduction()))).as(e.reproduction()).isEqualTo(paper);
                }
            }
        }
    }

    /** The figures with committed results, as (paper, results folder). */
    static List<String[]> withResults() {
        List<String[]> out = new ArrayList<>();
        for (String paper : LedgerCommand.papers()) {
            for (PaperDef.Entry e : LedgerCommand.paperDef(paper).entries()) {
                if (e.attempted()) {
                    String folder = Ledger.folder(paper, e.reproduction(), ReproduceCommand.definition(e.reproduction()));
                    if (ResultsCsv.present(ROOT.resolve(folder))) {
                        out.add(new String[] {paper, folder});
                    }
                }
            }
        }
        return out;
    }

    @Test
    void aDeletedNumberInTheResultsChangesThePageOrIsRefused(@TempDir Path tmp) throws IOException {
        Path repo = copyResults(tmp).resolve(RESULTS_SUB);
        java.util.Set<String> tried = new java.util.HashSet<>();
        int deleted = 0;
        for (String paper : LedgerCommand.papers()) {
            PaperDef def = LedgerCommand.paperDef(paper);
            for (PaperDef.Entry e : def.entries()) {
                if (!e.attempted()) {
                    continue;
                }
                Map<String, Object> raw = ReproduceCommand.definition(e.reproduction());
                String folder = Ledger.folder(paper, e.reproduction(), raw);
                if (!ResultsCsv.present(ROOT.resolve(folder)) || !tried.add(folder)) {
                    continue; // no results, or a folder two figures read (sweepOf): tried once
                }
                // the figure's part of the page: what a change to its own folder can move
                String committed = figurePart(def, e, raw, ROOT);
                // files with one row per line (runs.csv holds each run's scenario as multi-line text)
                for (String file : List.of("measures.csv", "layers.csv", "counters.csv")) {
                    Path csv = repo.resolve(folder).resolve(file);
                    if (!Files.isRegularFile(csv)) {
                        continue;
                    }
                    String original = Files.readString(csv);
                    // the last number of the second line, deleted
                    String[] lines = original.split("\n", -1);
                    lines[1] = lines[1].replaceFirst("-?[0-9][0-9.E-]*$", "");
                    assertThat(lines[1]).as(file + " has a number at the end of its first row").isNotEqualTo(original.split("\n")[1]);
                    Files.writeString(csv, String.join("\n", lines));
                    String part;
                    try {
                        part = figurePart(def, e, raw, repo);
                    } catch (UserError x) {
                        part = "refused: " + x.getMessage();
                    }
                    assertThat(part).as(file + " of " + folder + " without one number").isNotEqualTo(committed);
                    Files.writeString(csv, original);
                    deleted++;
                }
            }
        }
        assertThat(deleted).as("numbers deleted").isPositive();
    }

    /** One figure's rows and section of its paper's page, drawn from the results under {@code root}. */
    private String figurePart(PaperDef paper, PaperDef.Entry e, Map<String, Object> raw, Path root) {
        return LedgerPage.render(paper, List.of(Ledger.evaluate(e, paper.name(), raw, root,
                (name, r) -> probes.computeIfAbsent(name, n -> Probe.run(n, r)))));
    }

    private static final String RESULTS_SUB = "repo";

    /** A copy of the committed results (the CSV files under results/) in {@code to}/repo. */
    private static Path copyResults(Path to) throws IOException {
        Path repo = to.resolve(RESULTS_SUB);
        try (Stream<Path> files = Files.walk(ROOT.resolve(Ledger.RESULTS_DIR))) {
            for (Path p : files.filter(x -> Files.isRegularFile(x) && x.toString().endsWith(".csv")).toList()) {
                Path target = repo.resolve(ROOT.relativize(p).toString());
                Files.createDirectories(target.getParent());
                Files.copy(p, target);
            }
        }
        return to;
    }

    @Test
    void aPageEditedByHandFailsTheCheck(@TempDir Path tmp) throws IOException {
        String paper = withResults().isEmpty() ? LedgerCommand.papers().get(0) : withResults().get(0)[0];
        copyResults(tmp);
        Path repo = tmp.resolve(RESULTS_SUB);
        Path page = repo.resolve(LedgerCommand.PAGES_DIR).resolve(paper + ".md");
        Files.createDirectories(page.getParent());
        String text = Files.readString(ROOT.resolve(LedgerCommand.PAGES_DIR).resolve(paper + ".md"));
        Files.writeString(page, text);
        assertThat(check(repo, paper)).isEqualTo(ExitCode.OK.status());
        int digit = text.indexOf("(n=");
        assertThat(digit).as("the page shows a count").isPositive();
        Files.writeString(page, text.substring(0, digit + 3) + "9" + text.substring(digit + 3));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.execute(new String[] {"ledger", "--check", "--root", repo.toString(), "--paper", paper}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(ExitCode.BAD_INPUT.status());
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(paper + ".md").contains("differs");
    }

    private static int check(Path repo, String paper) {
        return Main.execute(new String[] {"ledger", "--check", "--root", repo.toString(), "--paper", paper}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
    }

    /** A figure whose committed runs are only part of its sweep says so in its verdict and size. */
    @Test
    void partialResultsAreNamedPartial(@TempDir Path tmp) throws IOException {
        // the first figure whose committed runs are its whole sweep
        Path dir = null;
        Map<String, Object> raw = null;
        PaperDef.Entry entry = null;
        Ledger.FigureResult whole = null;
        for (String[] f : withResults()) {
            String reproduction = f[1].substring(f[1].lastIndexOf('/') + 1);
            dir = tmp.resolve(reproduction);
            Files.createDirectories(dir);
            try (Stream<Path> files = Files.list(ROOT.resolve(f[1]))) {
                for (Path p : files.filter(x -> x.toString().endsWith(".csv")).toList()) {
                    Files.copy(p, dir.resolve(p.getFileName()));
                }
            }
            raw = ReproduceCommand.definition(reproduction);
            entry = new PaperDef.Entry(reproduction, reproduction, null);
            whole = Ledger.evaluateAt(entry, raw, "fig", dir, null);
            if (!whole.facts().partial()) {
                break;
            }
        }
        assertThat(whole.facts().partial()).as("some figure has all its runs committed").isFalse();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); java.sql.Statement st = c.createStatement()) {
            ResultsCsv.load(c, dir);
            st.execute("DELETE FROM runs WHERE run_id = (SELECT max(run_id) FROM runs)");
            ResultsCsv.export(c, "TRUE", dir);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        Ledger.FigureResult part = Ledger.evaluateAt(entry, raw, "fig", dir, null);
        assertThat(part.facts().partial()).isTrue();
        assertThat(part.verdict()).startsWith("partial results (" + (whole.facts().runs() - 1) + " of the figure's " + whole.facts().figureRuns() + " runs)");
    }

    /**
     * A figure whose committed part lacks a scenario column that only its unrun part sets (themis-fig5's
     * Themis-D reading point, set by the Themis runs alone) is judged on what was run, never "the metric failed".
     */
    @Test
    void aColumnOnlyTheUnrunPartSetsSelectsNoRunInsteadOfFailing(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("themis-fig5");
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(ROOT.resolve("results/themis/themis-fig5"))) {
            for (Path p : files.filter(x -> x.toString().endsWith(".csv")).toList()) {
                Files.copy(p, dir.resolve(p.getFileName()));
            }
        }
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); java.sql.Statement st = c.createStatement()) {
            ResultsCsv.load(c, dir);
            st.execute("DELETE FROM runs WHERE \"loadBalancing.type\" = 'themis'");
            try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM information_schema.columns WHERE table_name = 'runs'"
                    + " AND column_name = 'loadBalancing.observeDataAt'")) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    st.execute("ALTER TABLE runs DROP COLUMN \"loadBalancing.observeDataAt\"");
                }
            }
            ResultsCsv.export(c, "TRUE", dir);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> raw = ReproduceCommand.definition("themis-fig5");
        Ledger.FigureResult r = Ledger.evaluateAt(new PaperDef.Entry("Fig. 5", "themis-fig5", null), raw, "fig", dir, null);
        List<String> whys = r.claims().stream().flatMap(c -> c.byReading().values().stream()).map(Expectation.Outcome::why)
                .filter(java.util.Objects::nonNull).toList();
        assertThat(whys).noneMatch(w -> w.contains("the metric failed"));
        assertThat(r.claims().stream().filter(c -> c.claim().id().equals("ar-worst-at-recommended")).findFirst().orElseThrow().byReading()
                .get("per-message").judged()).as("AR's own claim, judged on the AR runs").isTrue();
    }
}
