package org.lbsim.workload;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import org.lbsim.scenario.TraceFormatException;

/**
 * Reads flows from CSV: a header row naming the columns src, dst, bytes and start_ns (in any
 * order) and optionally class (the flow's traffic class, DSCP 0-63, default 0), then one flow per
 * row with hosts given by index. Blank lines and lines starting with
 * '#' are skipped. Any bad row stops the read with the file, line and column at fault.
 */
public final class FlowTrace {
    private static final String[] COLUMNS = {"src", "dst", "bytes", "start_ns", "class"};
    /** The columns every trace must have; {@code class} may be left out. */
    private static final int REQUIRED = 4;

    private static final double MAX_START_NS = org.lbsim.scenario.Checks.MAX_TIME_US * 1000;
    private static final String MAX_START = org.lbsim.scenario.Checks.fmt(MAX_START_NS);

    private FlowTrace() {
    }

    public static List<Flow> read(Reader in, String fileName, int hostCount) throws IOException {
        List<Flow> flows = new ArrayList<>();
        TraceColumns.read(in, fileName, "src,dst,bytes,start_ns", FlowTrace::header, (cells, index, lineNo) -> {
            long src = TraceColumns.integer(cells[index[0]], fileName, lineNo, "src", 0, hostCount - 1);
            long dst = TraceColumns.integer(cells[index[1]], fileName, lineNo, "dst", 0, hostCount - 1);
            long bytes = TraceColumns.integer(cells[index[2]], fileName, lineNo, "bytes", 1, Long.MAX_VALUE / 8_000_000);
            double startNs = decimal(cells[index[3]], fileName, lineNo, "start_ns");
            if (src == dst) {
                throw new TraceFormatException(fileName, lineNo, "dst", "must differ from src (" + src + ")");
            }
            int trafficClass = index[4] < 0 ? 0 : (int) TraceColumns.integer(cells[index[4]], fileName, lineNo, "class", 0, 63);
            flows.add(new Flow((int) src, (int) dst, bytes, Math.round(startNs * 1000), trafficClass));
        });
        return flows;
    }

    private static int[] header(String[] cells, String file, int line) {
        if (cells.length != REQUIRED && cells.length != COLUMNS.length) {
            throw new TraceFormatException(file, line, "", "header must name the columns src,dst,bytes,start_ns and optionally class, got '"
                    + String.join(",", cells) + "'");
        }
        return TraceColumns.index(cells, COLUMNS, REQUIRED, file, line);
    }

    private static double decimal(String cell, String file, int line, String column) {
        String s = cell.strip();
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line, column, "must be a number of nanoseconds between 0 and " + MAX_START + ", got '" + s + "'");
        }
        // beyond the longest simulated time the picosecond arithmetic would overflow
        if (!(v >= 0) || !(v <= MAX_START_NS)) {
            throw new TraceFormatException(file, line, column, "must be a number of nanoseconds between 0 and " + MAX_START + ", got " + s);
        }
        return v;
    }
}
