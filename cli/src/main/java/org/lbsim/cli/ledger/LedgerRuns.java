package org.lbsim.cli.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.store.ResultsStore;

/**
 * The bridge between a reproduction's results database and its committed files: a folder holding
 * committed results and no database starts a database from them (so {@code lbsim reproduce}
 * resumes: the recorded runs are not run again), and after the sweep the figure's runs, with
 * their measures, are written back as files.
 */
public final class LedgerRuns {
    /** Runs read from committed files: their flows are not in the database, so their measures are not recomputed. */
    static final String IMPORTED = "ledger_imported";

    private LedgerRuns() {
    }

    /** Creates {@code db} from the committed files in {@code dir}. */
    public static void importCommitted(Path dir, Path db) {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath()); Statement s = c.createStatement()) {
            ResultsCsv.load(c, dir);
            s.execute("CREATE TABLE IF NOT EXISTS " + IMPORTED + " AS SELECT run_id FROM runs");
        } catch (SQLException e) {
            throw new UserError(db + ": cannot start it from the committed results in " + dir + ": " + ResultsStore.message(e));
        }
    }

    /**
     * Computes the measures of the runs that {@code runCondition} selects and that were not
     * imported, then writes those runs' rows of every committed table to {@code dir}.
     */
    public static void exportCommitted(Path db, Map<String, String> measures, String runCondition, Path dir) {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + IMPORTED + " (run_id VARCHAR)");
            FigureResults.computeMeasures(c, measures, "(" + runCondition + ") AND run_id NOT IN (SELECT run_id FROM " + IMPORTED + ")");
            ResultsCsv.export(c, runCondition, dir);
        } catch (SQLException e) {
            throw new UserError(db + ": cannot write the committed results to " + dir + ": " + ResultsStore.message(e));
        }
    }
}
