package org.lbsim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;
import java.util.List;

/** What the CSV trace readers share: the row loop, a header naming columns in any order, and bounded integer cells. */
final class TraceColumns {
    private TraceColumns() {
    }

    /** Reads the header row into a column index. */
    @FunctionalInterface
    interface Header {
        int[] index(String[] cells, String file, int line);
    }

    /** Takes one data row, its cells placed by the header's index. */
    @FunctionalInterface
    interface Row {
        void accept(String[] cells, int[] index, int line);
    }

    /**
     * The header row, then every data row with as many cells as the header; blank lines and lines
     * starting with '#' are skipped. A file without a header or without rows is an error naming
     * {@code expectedHeader}.
     */
    static void read(Reader in, String file, String expectedHeader, Header header, Row row) throws IOException {
        BufferedReader r = new BufferedReader(in);
        int[] index = null;
        int columns = 0;
        int lineNo = 0;
        int rows = 0;
        String line;
        while ((line = r.readLine()) != null) {
            lineNo++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] cells = trimmed.split(",", -1);
            if (index == null) {
                index = header.index(cells, file, lineNo);
                columns = cells.length;
                continue;
            }
            if (cells.length != columns) {
                throw new TraceFormatException(file, lineNo, "", "expected " + columns + " comma-separated values (as the header), got " + cells.length);
            }
            row.accept(cells, index, lineNo);
            rows++;
        }
        if (index == null) {
            throw new TraceFormatException(file, Math.max(1, lineNo), "", "empty trace: expected a header row " + expectedHeader);
        }
        if (rows == 0) {
            throw new TraceFormatException(file, lineNo, "", "the trace has a header but no flows");
        }
    }

    /**
     * Where each of {@code columns} stands in the header row (-1 when absent); the first {@code required}
     * of them must be there, the others may.
     */
    static int[] index(String[] cells, String[] columns, int required, String file, int line) {
        int[] index = new int[columns.length];
        Arrays.fill(index, -1);
        List<String> names = Arrays.asList(columns);
        for (int i = 0; i < cells.length; i++) {
            String name = cells[i].strip();
            int c = names.indexOf(name);
            if (c < 0) {
                throw new TraceFormatException(file, line, name, "unknown column; allowed columns are " + String.join(", ", columns));
            }
            if (index[c] >= 0) {
                throw new TraceFormatException(file, line, name, "column appears twice");
            }
            index[c] = i;
        }
        for (int c = 0; c < required; c++) {
            if (index[c] < 0) {
                throw new TraceFormatException(file, line, columns[c], "column is missing; the header must name "
                        + String.join(", ", Arrays.copyOf(columns, required)));
            }
        }
        return index;
    }

    static long integer(String cell, String file, int line, String column, long min, long max) {
        String s = cell.strip();
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line, column, "must be an integer between " + min + " and " + max + ", got '" + s + "'");
        }
        if (v < min || v > max) {
            throw new TraceFormatException(file, line, column, "must be an integer between " + min + " and " + max + ", got " + v);
        }
        return v;
    }
}
