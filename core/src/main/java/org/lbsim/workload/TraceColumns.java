package org.lbsim.workload;

import java.util.Arrays;
import java.util.List;

/** What the CSV trace readers share: a header naming columns in any order, and bounded integer cells. */
final class TraceColumns {
    private TraceColumns() {
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
