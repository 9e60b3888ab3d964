package org.lbsim.cli.command;

import org.lbsim.cli.errors.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.lbsim.cli.store.ResultsStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.errors.UserError;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write every table of a results database (runs, flows, layers, counters, series, " +
                    "ooo_histogram) to DIR/<table>.csv or DIR/<table>.parquet, replacing older files."},
        footer = {"",
                "Examples:",
                "  lbsim export sweeps/schemes/results.duckdb",
                "  lbsim export sweeps/schemes/results.duckdb --format parquet --out /tmp/tables"})
public final class ExportCommand implements Callable<Integer> {
    enum Format { csv, parquet }

    @ParentCommand
    Console main;

    @Parameters(index = "0", paramLabel = "DB", description = "The DuckDB results database (results.duckdb).")
    Path db;

    @Option(names = "--format", paramLabel = "FORMAT", description = "csv (with a header line, the default) or parquet.")
    Format format = Format.csv;

    @Option(names = "--out", paramLabel = "DIR", description = "Folder to write into (created if missing). Default: the database's folder.")
    Path out;

    @Override
    public Integer call() {
        String shown = db.toString();
        Path dir = out != null ? out : db.toAbsolutePath().normalize().getParent();
        // its COPY statements are lbsim's own, into the folder the user named
        try (Connection c = QueryCommand.open(db, shown, true)) {
            List<String> tables = tables(c);
            if (tables.isEmpty()) {
                throw new UserError(shown + ": has no tables to export");
            }
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw UserError.at(out == null ? dir.toString() : out.toString(), "", "cannot create the folder: " + e.getMessage());
            }
            for (String table : tables) {
                String ext = format.name();
                Path target = dir.resolve(table + "." + ext);
                Path tmp = dir.resolve("." + table + "." + ext + ".tmp-" + ProcessHandle.current().pid());
                String options = format == Format.csv ? "FORMAT csv, HEADER true" : "FORMAT parquet";
                long rows;
                try (Statement s = c.createStatement()) {
                    s.execute("COPY " + quote(table) + " TO '" + tmp.toAbsolutePath().toString().replace("'", "''") + "' (" + options + ")");
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + quote(table))) {
                        rs.next();
                        rows = rs.getLong(1);
                    }
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (SQLException e) {
                    throw UserError.at(target.toString(), "", "cannot export table " + table + ": " + ResultsStore.message(e));
                } catch (IOException e) {
                    throw UserError.at(target.toString(), "", "cannot write: " + e.getMessage());
                } finally {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException ignored) {
                        // best effort
                    }
                }
                main.out().printf(Locale.ROOT, "%s (%d rows)%n", ScenarioLoader.shownPath(target), rows);
            }
            return ExitCode.OK.status();
        } catch (SQLException e) {
            throw UserError.at(shown, "", ResultsStore.message(e));
        }
    }

    /** The results tables first, in the order of docs/results.md, then any other table. */
    private static List<String> tables(Connection c) throws SQLException {
        List<String> found = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
                     + " AND table_type = 'BASE TABLE' ORDER BY table_name")) {
            while (rs.next()) {
                found.add(rs.getString(1));
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String t : ResultsStore.TABLES) {
            if (found.remove(t)) {
                ordered.add(t);
            }
        }
        ordered.addAll(found);
        return ordered;
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
