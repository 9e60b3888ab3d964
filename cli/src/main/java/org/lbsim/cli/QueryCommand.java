package org.lbsim.cli;

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

@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Run one SQL query on a results database (read-only) and print the result.",
                "Tables: runs, flows, layers, counters, series, ooo_histogram (docs/results.md).",
                "Example: lbsim query sweeps/schemes/results.duckdb \\",
                "  'SELECT \"loadBalancing.type\", avg(cct_ps) FROM runs GROUP BY 1'"})
final class QueryCommand implements Callable<Integer> {
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
                throw new UserError("query: " + ResultsStore.message(e));
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

    static Connection open(Path db, String shown) {
        try {
            return ResultsStore.openReadOnly(db, shown);
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
    }
}
