package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.cli.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.errors.UserError;

@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Run one SQL query on a results database and print the result. The database is opened read-only and its SQL"
                + " reaches no other file (no COPY TO, ATTACH or read_csv of a path) unless --allow-files is given.",
                "Tables: runs, flows, layers, counters, series, ooo_histogram (docs/results.md)."},
        footer = {"",
                "Examples:",
                "  lbsim query sweeps/schemes/results.duckdb 'SELECT \"loadBalancing.type\", avg(cct_ps) FROM runs GROUP BY 1'"})
public final class QueryCommand implements Callable<Integer> {
    @ParentCommand
    Console main;

    @Parameters(index = "0", paramLabel = "DB", description = "The DuckDB results database (results.duckdb).")
    Path db;

    @Parameters(index = "1", paramLabel = "SQL", description = "The query; quote it for the shell (a leading -- comment is part of it).")
    String sql;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table (aligned columns; long text cut at " + ResultTable.MAX_CELL + " characters), csv (streamed row by row) or json."
                    + " Default: ${DEFAULT-VALUE}.")
    ResultTable.Format format;

    @Option(names = "--allow-files", description = "Let the SQL read and write other files (read_csv, read_parquet, COPY ... TO): "
            + "files it names are replaced without asking. The database itself stays read-only.")
    boolean allowFiles;

    @Override
    public Integer call() {
        String shown = db.toString();
        boolean stream = format == ResultTable.Format.csv;
        long[] printed = {0};
        try (Connection c = open(db, shown, allowFiles, stream)) {
            return execute(c, printed);
        } catch (SQLException e) {
            if (stream && printed[0] == 0 && ResultsStore.message(e).contains("Invalid result set")) {
                // a streamed result says no more of an error: the same query on a plain connection says what it is
                try (Connection c = open(db, shown, allowFiles, false)) {
                    return execute(c, printed);
                } catch (SQLException again) {
                    throw failed(again);
                }
            }
            if (printed[0] > 0) {
                throw new UserError("query: failed after " + printed[0] + " rows were printed: " + ResultsStore.message(e));
            }
            throw failed(e);
        }
    }

    private int execute(Connection c, long[] printed) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!s.execute(sql)) {
                throw new UserError("query: the statement returned no rows; lbsim query opens the database read-only, for SELECT-like queries");
            }
            try (ResultSet rs = s.getResultSet()) {
                if (format == ResultTable.Format.csv) {
                    ResultTable.streamCsv(rs, main.out(), printed);
                } else {
                    main.out().print(ResultTable.read(rs).format(format));
                }
            }
            return ExitCode.OK.status();
        }
    }

    private UserError failed(SQLException e) {
        String m = ResultsStore.message(e);
        return new UserError("query: " + m + dottedColumnHint(m, sql)
                + (!allowFiles && m.contains("disabled by configuration") ? " (lbsim query reaches no file but the database; --allow-files lets it)" : ""));
    }

    /**
     * Scenario columns have dots in their names ({@code loadBalancing.type}); unquoted, SQL reads the
     * part before the dot as a table. Names the quoted spelling when DuckDB says so.
     */
    static String dottedColumnHint(String message, String sql) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Referenced table \"([A-Za-z0-9_]+)\" not found").matcher(message);
        if (!m.find()) {
            return "";
        }
        java.util.regex.Matcher col = java.util.regex.Pattern.compile("(?<![\"\\w.])" + java.util.regex.Pattern.quote(m.group(1)) + "\\.([A-Za-z0-9_.]+)")
                .matcher(sql);
        return " (scenario columns have dots in their names: quote them, e.g. \"" + m.group(1) + "." + (col.find() ? col.group(1) : "type")
                + "\")";
    }

    /** Read-only; with {@code fileAccess} false the engine reaches no other file. */
    static Connection open(Path db, String shown, boolean fileAccess) {
        return open(db, shown, fileAccess, false);
    }

    private static Connection open(Path db, String shown, boolean fileAccess, boolean streamResults) {
        try {
            return ResultsStore.openReadOnly(db, shown, fileAccess, streamResults);
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
    }
}
