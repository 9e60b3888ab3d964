package org.lbsim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import org.lbsim.scenario.TraceFormatException;

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
        read(in, file, expectedHeader, header, row, maxRows());
    }

    /** The longest line of a trace, in characters: far beyond any row, short enough that an endless stream is refused at once. */
    static final int MAX_LINE_CHARS = 1 << 20;
    /** What one row costs while the file is read and its flows built, generously (for {@link #maxRows}). */
    private static final long BYTES_PER_ROW = 256;

    /** The most rows a trace may have: 2^30 flows, and fewer when this JVM's heap could not hold them. */
    static long maxRows() {
        return Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 10 * 8 / BYTES_PER_ROW);
    }

    /**
     * As {@link #read(Reader, String, String, Header, Row)}, refusing more than {@code maxRows} data rows.
     * Spreadsheet exports read as written: a UTF-8 byte-order mark before the header, CRLF or CR line
     * ends, and cells in double quotes ({@code "1"}, with {@code ""} for a quote inside) are accepted.
     */
    static void read(Reader in, String file, String expectedHeader, Header header, Row row, long maxRows) throws IOException {
        int[][] index = {null};
        int[] columns = {0};
        long[] rows = {0};
        int last = lines(in, file, (trimmed, lineNo) -> {
            String[] cells = cells(trimmed, file, lineNo);
            if (index[0] != null && rows[0] >= maxRows) {
                throw tooManyRows(file, lineNo, maxRows);
            }
            if (index[0] == null) {
                index[0] = header.index(cells, file, lineNo);
                columns[0] = cells.length;
                return;
            }
            if (cells.length != columns[0]) {
                throw new TraceFormatException(file, lineNo, "", "expected " + columns[0] + " comma-separated values (as the header), got " + cells.length);
            }
            row.accept(cells, index[0], lineNo);
            rows[0]++;
        });
        if (index[0] == null) {
            throw new TraceFormatException(file, Math.max(1, last), "", "empty trace: expected a header row " + expectedHeader);
        }
        if (rows[0] == 0) {
            throw new TraceFormatException(file, last, "", "the trace has a header but no flows");
        }
    }

    /** Takes one line of a trace: stripped, neither blank nor a '#' comment. */
    @FunctionalInterface
    interface Line {
        void accept(String trimmed, int line);
    }

    /**
     * Every line of a trace that is neither blank nor a '#' comment, stripped, with its number (from 1); a
     * UTF-8 byte-order mark before the first line, and LF, CRLF or CR line ends, are accepted. Returns the
     * number of the last line read (0 for an empty file).
     */
    static int lines(Reader in, String file, Line each) throws IOException {
        BufferedReader r = new BufferedReader(in);
        int lineNo = 0;
        StringBuilder buffer = new StringBuilder();
        String line;
        while ((line = line(r, buffer, file, lineNo + 1)) != null) {
            lineNo++;
            if (lineNo == 1 && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            each.accept(trimmed, lineNo);
        }
        return lineNo;
    }

    /** A trace longer than {@code maxRows} flows: names the limit and the way out. */
    static TraceFormatException tooManyRows(String file, int lineNo, long maxRows) {
        return new TraceFormatException(file, lineNo, "", "more than " + maxRows + " rows, more flows than a run can hold (2^30)"
                + " or this JVM's heap ("  + (Runtime.getRuntime().maxMemory() >> 20) + " MiB) can build; use a shorter trace, or"
                + " give Java more heap (LBSIM_OPTS=-Xmx<size>)");
    }

    /** The next line without its end (LF, CRLF or CR), null at the end; a line over {@link #MAX_LINE_CHARS} is refused. */
    private static String line(BufferedReader r, StringBuilder sb, String file, int lineNo) throws IOException {
        sb.setLength(0);
        int c;
        while ((c = r.read()) >= 0) {
            if (c == '\n') {
                return sb.toString();
            }
            if (c == '\r') {
                r.mark(1);
                if (r.read() != '\n') {
                    r.reset();
                }
                return sb.toString();
            }
            if (sb.length() >= MAX_LINE_CHARS) {
                throw new TraceFormatException(file, lineNo, "", "the line is longer than " + MAX_LINE_CHARS + " characters; expected CSV rows"
                        + " (is this a trace file?)");
            }
            sb.append((char) c);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    /** The comma-separated cells of a line; a cell in double quotes may hold commas, and "" stands for one quote. */
    static String[] cells(String line, String file, int lineNo) {
        if (line.indexOf('"') < 0) {
            return line.split(",", -1);
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder cell = new StringBuilder();
        int i = 0;
        int n = line.length();
        while (true) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            if (i < n && line.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        throw new TraceFormatException(file, lineNo, "", "a quoted value is not closed (a '\"' is missing)");
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < n && line.charAt(i) == '"') {
                            cell.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        cell.append(c);
                    }
                }
                while (i < n && line.charAt(i) == ' ') {
                    i++;
                }
                if (i < n && line.charAt(i) != ',') {
                    throw new TraceFormatException(file, lineNo, "", "unexpected text after a quoted value: expected ',' at column " + (i + 1));
                }
            } else {
                while (i < n && line.charAt(i) != ',') {
                    cell.append(line.charAt(i++));
                }
            }
            out.add(cell.toString());
            cell.setLength(0);
            if (i >= n) {
                return out.toArray(new String[0]);
            }
            i++; // the comma
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

    /** The longest number a time cell may be written with: far beyond any time's digits, short enough to convert at once. */
    private static final int MAX_NUMBER_CHARS = 64;

    /**
     * A time cell in some unit ({@code psPerUnit} picoseconds each), between 0 and {@code maxUnits}, exactly in
     * picoseconds, rounded half up to the picosecond. Decimal and exponent forms are read exactly (no binary rounding).
     */
    static long picoseconds(String cell, String file, int line, String column, BigDecimal psPerUnit, BigDecimal maxUnits, String unit) {
        String s = cell.strip();
        String allowed = "must be a number of " + unit + " between 0 and " + maxUnits.toPlainString();
        BigDecimal v;
        try {
            if (s.length() > MAX_NUMBER_CHARS) {
                throw new NumberFormatException();
            }
            v = new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line, column, allowed + ", got '" + (s.length() > MAX_NUMBER_CHARS ? s.substring(0, MAX_NUMBER_CHARS) + "..." : s) + "'");
        }
        if (v.signum() < 0 || v.compareTo(maxUnits) > 0) {
            throw new TraceFormatException(file, line, column, allowed + ", got " + s);
        }
        BigDecimal ps = v.multiply(psPerUnit);
        if (ps.compareTo(BigDecimal.ONE) < 0) {
            // below a picosecond: rounded without scaling a tiny exponent (1e-999999999) down digit by digit
            return ps.compareTo(HALF) >= 0 ? 1 : 0;
        }
        return ps.setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    private static final BigDecimal HALF = new BigDecimal("0.5");

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
