package org.lbsim.cli.command;

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
import org.lbsim.cli.Main;
import org.lbsim.cli.UserError;

@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Run one SQL query on a results database (read-only) and print the result.",
                "Tables: runs, flows, layers, counters, series, ooo_histogram (docs/results.md)."},
        footer = {"",
                "Examples:",
                "  lbsim query sweeps/schemes/results.duckdb 'SELECT \"loadBalancing.type\", avg(cct_ps) FROM runs GROUP BY 1'"})
public final class QueryCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "DB", description = "The DuckDB results database (results.duckdb).")
    Path db;

    @Parameters(index = "1", paramLabel = "SQL", description = "The query; quote it for the shell.")
    String sql;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table (aligned columns; long text cut at " + ResultTable.MAX_CELL + " characters), csv or json. Default: ${DEFAULT-VALUE}.")
    ResultTable.Format format;

    @Override
    public Integer call() {
        String shown = db.toString();
        try (Connection c = open(db, shown); Statement s = c.createStatement()) {
            boolean hasRows;
            try {
                hasRows = s.execute(sql);
            } catch (SQLException e) {
                throw new UserError("query: " + ResultsStore.message(e) + dottedColumnHint(ResultsStore.message(e), sql));
            }
            if (!hasRows) {
                throw new UserError("query: the statement returned no rows; lbsim query opens the database read-only, for SELECT-like queries");
            }
            try (ResultSet rs = s.getResultSet()) {
                main.out.print(ResultTable.read(rs).format(format));
            }
            return Main.OK;
        } catch (SQLException e) {
            throw new UserError("query: " + ResultsStore.message(e));
        }
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

    static Connection open(Path db, String shown) {
        try {
            return ResultsStore.openReadOnly(db, shown);
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
    }
}
