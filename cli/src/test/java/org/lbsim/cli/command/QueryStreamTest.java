package org.lbsim.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import org.junit.jupiter.api.Test;

/** {@code lbsim query --format csv} prints rows as they come: output starts long before the last row is read. */
class QueryStreamTest {
    static final int ROWS = 300_000;

    /** A result of {@code ROWS} rows (i, i * 2) made one at a time; at each row it notes how much had been printed. */
    static final class Rows {
        final ByteArrayOutputStream printed;
        int row;
        long printedAtLastRow = -1;
        long printedAtRow1000 = -1;

        Rows(ByteArrayOutputStream printed) {
            this.printed = printed;
        }

        ResultSet resultSet() {
            ResultSetMetaData md = (ResultSetMetaData) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ResultSetMetaData.class},
                    (p, m, a) -> switch (m.getName()) {
                        case "getColumnCount" -> 2;
                        case "getColumnLabel", "getColumnName" -> (int) a[0] == 1 ? "i" : "twice";
                        case "getColumnType" -> Types.BIGINT;
                        case "getColumnTypeName" -> "BIGINT";
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
            return (ResultSet) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ResultSet.class}, (p, m, a) -> switch (m.getName()) {
                case "getMetaData" -> md;
                case "next" -> {
                    row++;
                    if (row == 1000) {
                        printedAtRow1000 = printed.size();
                    }
                    if (row == ROWS) {
                        printedAtLastRow = printed.size();
                    }
                    yield row <= ROWS;
                }
                case "getObject" -> (long) row * ((int) a[0]);
                case "getString" -> Long.toString((long) row * ((int) a[0]));
                case "close" -> null;
                default -> throw new UnsupportedOperationException(m.getName());
            });
        }
    }

    @Test
    void csv_rows_are_printed_while_the_result_is_still_being_read() throws SQLException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Rows rows = new Rows(bytes);
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        long[] printedRows = {0};
        ResultTable.streamCsv(rows.resultSet(), out, printedRows);
        out.flush();
        String csv = bytes.toString(StandardCharsets.UTF_8);
        assertThat(csv).startsWith("i,twice\n1,2\n2,4\n").endsWith(ROWS + "," + 2L * ROWS + "\n");
        assertThat(csv.lines()).hasSize(ROWS + 1);
        // small pieces as they fill: most of the output was out before the last row was read, none of it before row 1000
        assertThat(rows.printedAtRow1000).isZero();
        assertThat(rows.printedAtLastRow).isGreaterThan(bytes.size() * 9L / 10);
        assertThat(printedRows[0]).isGreaterThan(ROWS * 9L / 10);
    }
}
