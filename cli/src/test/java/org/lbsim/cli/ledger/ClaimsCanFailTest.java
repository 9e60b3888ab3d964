package org.lbsim.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.cli.command.LedgerCommand;
import org.lbsim.cli.command.ReproduceCommand;

/**
 * Every claim of every reproduction in the ledger can fail: starting from its committed results (or,
 * for a figure not run yet at its size, its quick version at 3 seeds kept in cli/src/test/claims; for a
 * figure whose committed results are partial, the quick version for each claim they leave unjudged), the
 * test changes them (one group of runs, by scheme, point or seed, scaled up or down in every
 * number) until the claim's metric yields numbers for which the declared comparison does not hold.
 * A claim whose metric does not depend on the data (say {@code SELECT true}) never gets there and
 * fails this test; so does a claim whose metric cannot be computed at all.
 */
class ClaimsCanFailTest {
    private static final Path ROOT = RepositoryRoot.find();
    private static final double[] FACTORS = {0.01, 100};

    record Figure(String paper, PaperDef.Entry entry, String reproduction, String folder) {
        @Override
        public String toString() {
            return reproduction;
        }
    }

    static Stream<Figure> ledgerFigures() {
        List<Figure> out = new ArrayList<>();
        for (String paper : LedgerCommand.papers()) {
            for (PaperDef.Entry e : LedgerCommand.paperDef(paper).entries()) {
                if (e.attempted()) {
                    Map<String, Object> raw = ReproduceCommand.definition(e.reproduction());
                    out.add(new Figure(paper, e, e.reproduction(), Ledger.folder(paper, e.reproduction(), raw)));
                }
            }
        }
        return out.stream();
    }

    @Test
    void atLeastOneReproductionIsInTheLedger() {
        assertThat(ledgerFigures()).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("ledgerFigures")
    void everyClaimCanBeMadeToFail(Figure f) throws SQLException {
        FigureDef def = FigureDef.parse(f.reproduction(), ReproduceCommand.definition(f.reproduction()));
        Path dir = base(f);
        assertThat(ResultsCsv.present(dir)).as(f.reproduction() + ": a reproduction in the ledger has committed results in " + f.folder()
                + " or, until it has, its quick version at 3 seeds in " + FIXTURES + "/" + f.reproduction()).isTrue();
        List<FigureDef.ClaimDef> unjudgedInPart = new ArrayList<>();
        List<String> cannotFail = new ArrayList<>();
        boolean partial = !dir.equals(fixture(f)) && Ledger.evaluateAt(f.entry(), ReproduceCommand.definition(f.reproduction()), f.folder(), dir, null)
                .facts().partial();
        try (FigureResults r = FigureResults.load(def, dir)) {
            for (FigureDef.ClaimDef c : def.claims()) {
                if (partial && !r.judge(c, def.defaultReading()).judged()) {
                    unjudgedInPart.add(c);
                } else if (falsify(r, c, def.defaultReading()) == null) {
                    cannotFail.add(c.id() + " (" + r.judge(c, def.defaultReading()).why() + ")");
                }
            }
        }
        if (!unjudgedInPart.isEmpty()) {
            // the runs that would judge these claims are not committed yet: their quick version stands in
            try (FigureResults r = FigureResults.load(def, fixture(f))) {
                for (FigureDef.ClaimDef c : unjudgedInPart) {
                    if (falsify(r, c, def.defaultReading()) == null) {
                        cannotFail.add(c.id() + " (quick version: " + r.judge(c, def.defaultReading()).why() + ")");
                    }
                }
            }
        }
        assertThat(cannotFail).as(f.reproduction() + ": claims no change of the results makes differ").isEmpty();
    }

    /** Where a reproduction's quick version at 3 seeds is kept for this test, for a figure without committed results. */
    static final String FIXTURES = "cli/src/test/claims";

    /** The results the claims are tried on: the committed ones, else the quick fixture. */
    static Path base(Figure f) {
        Path committed = ROOT.resolve(f.folder());
        return ResultsCsv.present(committed) ? committed : fixture(f);
    }

    static Path fixture(Figure f) {
        return ROOT.resolve(FIXTURES).resolve(f.reproduction());
    }

    /** A change of the results under which the claim is judged and does not hold, described; null when none is found. */
    static String falsify(FigureResults r, FigureDef.ClaimDef c, FigureDef.Reading reading) throws SQLException {
        if (differs(r, c, reading)) {
            return "the committed results";
        }
        Connection conn = r.connection();
        Map<String, List<String>> numeric = numericColumns(conn);
        List<String> groups = groupingColumns(conn);
        // first every number of a group of runs at once; then one column at a time, scaled or moved off zero,
        // for claims on a ratio of two numbers of the same run or on a count that is zero
        for (String group : groups) {
            for (String value : distinct(conn, group)) {
                for (double factor : FACTORS) {
                    if (tryChange(r, c, reading, numeric, group, value, "%s * " + factor)) {
                        return group + " = " + value + " scaled by " + factor;
                    }
                }
            }
        }
        // two groups at once (one scheme at one size, say), for claims on how a difference changes across groups
        for (int a = 0; a < groups.size(); a++) {
            for (int b = a + 1; b < groups.size(); b++) {
                if (groups.get(a).equals("seed") || groups.get(b).equals("seed")) {
                    continue;
                }
                for (String va : distinct(conn, groups.get(a))) {
                    for (String vb : distinct(conn, groups.get(b))) {
                        for (double factor : FACTORS) {
                            String both = "CAST(" + ResultsCsv.ident(groups.get(a)) + " AS VARCHAR) = " + ResultsCsv.literal(va) + " AND CAST("
                                    + ResultsCsv.ident(groups.get(b)) + " AS VARCHAR) = " + ResultsCsv.literal(vb);
                            if (tryChangeWhere(r, c, reading, numeric, both, "%s * " + factor)) {
                                return groups.get(a) + " = " + va + " and " + groups.get(b) + " = " + vb + " scaled by " + factor;
                            }
                        }
                    }
                }
            }
        }
        for (Map.Entry<String, List<String>> t : numeric.entrySet()) {
            for (String col : t.getValue()) {
                Map<String, List<String>> one = Map.of(t.getKey(), List.of(col));
                for (String group : groups) {
                    for (String value : distinct(conn, group)) {
                        for (String change : COLUMN_CHANGES) {
                            if (tryChange(r, c, reading, one, group, value, change)) {
                                return t.getKey() + "." + col + " of " + group + " = " + value + ": " + change;
                            }
                        }
                    }
                }
            }
        }
        return null;
    }

    /** How one column is changed: scaled either way, or moved off zero. */
    private static final String[] COLUMN_CHANGES = {"%s * 0.01", "%s * 100", "%s * 100 + 1"};

    /** Whether the claim differs after {@code change} (a SQL expression of the column, {@code %s}) of the columns, in the runs of one group; undone after. */
    private static boolean tryChange(FigureResults r, FigureDef.ClaimDef c, FigureDef.Reading reading, Map<String, List<String>> columns,
                                     String group, String value, String change) throws SQLException {
        return tryChangeWhere(r, c, reading, columns, "CAST(" + ResultsCsv.ident(group) + " AS VARCHAR) = " + ResultsCsv.literal(value), change);
    }

    /** The same for the runs a SQL condition over {@code runs} selects. */
    private static boolean tryChangeWhere(FigureResults r, FigureDef.ClaimDef c, FigureDef.Reading reading, Map<String, List<String>> columns,
                                          String runs, String change) throws SQLException {
        Connection conn = r.connection();
        conn.setAutoCommit(false);
        try {
            scale(conn, columns, runs, change);
            return differs(r, c, reading);
        } finally {
            conn.rollback();
            conn.setAutoCommit(true);
        }
    }

    private static boolean differs(FigureResults r, FigureDef.ClaimDef c, FigureDef.Reading reading) {
        Expectation.Outcome o = r.judge(c, reading);
        return o.judged() && !o.holds();
    }

    /** Every listed column of the runs {@code condition} selects changed by {@code change} (SQL, the column as {@code %s}). */
    private static void scale(Connection conn, Map<String, List<String>> numeric, String condition, String change) throws SQLException {
        String runs = "SELECT run_id FROM runs WHERE " + condition;
        try (Statement s = conn.createStatement()) {
            for (Map.Entry<String, List<String>> t : numeric.entrySet()) {
                List<String> sets = new ArrayList<>();
                for (String col : t.getValue()) {
                    sets.add(ResultsCsv.ident(col) + " = TRY_CAST(" + change.replace("%s", ResultsCsv.ident(col)) + " AS " + type(conn, t.getKey(), col) + ")");
                }
                if (!sets.isEmpty()) {
                    s.execute("UPDATE " + ResultsCsv.ident(t.getKey()) + " SET " + String.join(", ", sets) + " WHERE run_id IN (" + runs + ")");
                }
            }
        }
    }

    /** The numeric columns of every table that are results, not keys: no run or row identifiers, no scenario settings. */
    private static Map<String, List<String>> numericColumns(Connection conn) throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Statement s = conn.createStatement(); var rs = s.executeQuery("SELECT table_name, column_name FROM information_schema.columns"
                + " WHERE table_schema = 'main' AND data_type IN ('BIGINT', 'INTEGER', 'DOUBLE') AND table_name IN (SELECT table_name FROM"
                + " information_schema.tables WHERE table_type = 'BASE TABLE') ORDER BY table_name, ordinal_position")) {
            while (rs.next()) {
                String col = rs.getString(2);
                if (!col.contains(".") && !List.of("seed", "point", "hosts", "job", "phase", "layer_index", "bucket", "event").contains(col)) {
                    out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(col);
                }
            }
        }
        return out;
    }

    private static String type(Connection conn, String table, String col) throws SQLException {
        try (var p = conn.prepareStatement("SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = ?")) {
            p.setString(1, table);
            p.setString(2, col);
            try (var rs = p.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** Columns of runs that tell runs apart: the seed, the point's name and every scenario setting that varies. */
    private static List<String> groupingColumns(Connection conn) throws SQLException {
        List<String> out = new ArrayList<>(List.of("seed", "scenario_name"));
        try (Statement s = conn.createStatement(); var rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = 'runs'"
                + " AND column_name LIKE '%.%' ORDER BY ordinal_position")) {
            List<String> dotted = new ArrayList<>();
            while (rs.next()) {
                dotted.add(rs.getString(1));
            }
            for (String d : dotted) {
                if (distinct(conn, d).size() > 1) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    private static List<String> distinct(Connection conn, String column) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = conn.createStatement(); var rs = s.executeQuery("SELECT DISTINCT CAST(" + ResultsCsv.ident(column) + " AS VARCHAR) FROM runs"
                + " WHERE " + ResultsCsv.ident(column) + " IS NOT NULL ORDER BY 1 LIMIT 64")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * The search itself can fail: a metric that ignores the data is never made to differ (shown on one figure, the one with
     * the fewest committed runs: a search that finds nothing tries every change).
     */
    @Test
    void aMetricThatIgnoresTheDataCannotBeMadeToFail() throws SQLException {
        Figure f = ledgerFigures().filter(x -> ResultsCsv.present(ROOT.resolve(x.folder())))
                .min(java.util.Comparator.comparingLong(x -> runsFileBytes(ROOT.resolve(x.folder()))))
                .orElseGet(() -> ledgerFigures().findFirst().orElseThrow());
        FigureDef def = FigureDef.parse(f.reproduction(), ReproduceCommand.definition(f.reproduction()));
        Path dir = base(f);
        if (!ResultsCsv.present(dir)) {
            return; // the test above fails for it
        }
        try (FigureResults r = FigureResults.load(def, dir)) {
            FigureDef.ClaimDef real = def.claims().get(0);
            FigureDef.ClaimDef constant = new FigureDef.ClaimDef("constant", real.kind(), real.paper(), "",
                    "SELECT seed, 2.0 AS value FROM results WHERE {where} GROUP BY seed", Expectation.parse(Map.of("above", 1, "in", "every-seed"), "t", "t"));
            FigureDef.ClaimDef selectTrue = new FigureDef.ClaimDef("true", real.kind(), real.paper(), "", "SELECT true AS holds FROM results WHERE {where}", real.expect());
            assertThat(falsify(r, constant, def.defaultReading())).isNull();
            // SELECT true returns no seed and value, whatever the data: never judged, so never made to differ
            assertThat(r.judge(selectTrue, def.defaultReading()).judged()).isFalse();
            assertThat(r.judge(selectTrue, def.defaultReading()).why()).contains("seed and value");
        }
    }

    private static long runsFileBytes(Path dir) {
        try {
            return java.nio.file.Files.size(dir.resolve("runs.csv"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
