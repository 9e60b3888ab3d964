package org.lbsim.workload;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.lbsim.scenario.TraceFormatException;

/**
 * ns-3 RDMA flow files ({@code flow.txt}), as the HPCC simulator reads them (alibaba-edu/High-Precision-Congestion-Control,
 * simulation/scratch/third.cc:129-133 and 698: the flow count, then per flow {@code src dst pg dport size start_s}) and
 * ConWeave's (conweave-project/conweave-ns3, scratch/network-load-balance.cc:198-203 and 1146: the same without
 * {@code dport}); both traffic generators write one flow per line (traffic_gen/traffic_gen.py:94 of each). The form
 * is taken from the first flow line (6 or 5 values) and every flow line must have as many.
 *
 * <p>Node ids are host indices (in both projects' topology files the hosts are nodes 0..n-1 and the switches
 * follow). {@code pg}, the flow's priority group (0-7, qbb-net-device.h qCnt), becomes its traffic class;
 * {@code dport} is checked (0-65535) and not used (lbsim draws each flow's entropy itself); a size of 0 is one byte
 * in ConWeave's form (network-load-balance.cc:231-234) and refused in HPCC's; the start is in seconds, converted
 * exactly to picoseconds. A count that differs from the flow lines is refused (third.cc would read past the end, or
 * silently ignore the lines beyond it). Errors name the file, the line and the field.
 */
public final class Ns3FlowFile {
    private static final long UINT32 = 0xffffffffL;
    private static final BigDecimal PS_PER_S = BigDecimal.valueOf(1_000_000_000_000L);
    private static final BigDecimal MAX_START_S = BigDecimal.valueOf(org.lbsim.scenario.Checks.MAX_TIME_US).movePointLeft(6);
    private static final String HPCC = "src dst pg dport size start_s (HPCC, third.cc:131)";
    private static final String CONWEAVE = "src dst pg size start_s (ConWeave, network-load-balance.cc:200)";

    private Ns3FlowFile() {
    }

    public static List<Flow> read(Reader in, String fileName, int hostCount) throws IOException {
        List<Flow> flows = new ArrayList<>();
        long[] count = {-1, 0}; // declared flows, its line
        int[] columns = {0};
        long maxRows = TraceColumns.maxRows();
        int last = TraceColumns.lines(in, fileName, (trimmed, lineNo) -> {
            String[] t = trimmed.split("\\s+");
            if (count[0] < 0) {
                if (t.length != 1) {
                    throw new TraceFormatException(fileName, lineNo, "count", "the first line must be the number of flows alone (third.cc:698),"
                            + " got " + t.length + " values");
                }
                count[0] = TraceColumns.integer(t[0], fileName, lineNo, "count", 1, Math.min(UINT32, maxRows));
                count[1] = lineNo;
                return;
            }
            if (flows.size() == count[0]) {
                throw new TraceFormatException(fileName, lineNo, "count", "the first line says " + count[0] + " flows and this is flow "
                        + (count[0] + 1) + " (ns-3 would read only the first " + count[0] + "); correct the count");
            }
            if (columns[0] == 0) {
                if (t.length != 6 && t.length != 5) {
                    throw new TraceFormatException(fileName, lineNo, "", "expected 6 values, " + HPCC + ", or 5, " + CONWEAVE + "; got " + t.length);
                }
                columns[0] = t.length;
            } else if (t.length != columns[0]) {
                throw new TraceFormatException(fileName, lineNo, "", "expected " + columns[0] + " values as the first flow line ("
                        + (columns[0] == 6 ? HPCC : CONWEAVE) + "), got " + t.length);
            }
            boolean hpcc = columns[0] == 6;
            int src = (int) TraceColumns.integer(t[0], fileName, lineNo, "src", 0, hostCount - 1);
            int dst = (int) TraceColumns.integer(t[1], fileName, lineNo, "dst", 0, hostCount - 1);
            if (src == dst) {
                throw new TraceFormatException(fileName, lineNo, "dst", "must differ from src (" + src + ")");
            }
            int pg = (int) TraceColumns.integer(t[2], fileName, lineNo, "pg", 0, 7);
            if (hpcc) {
                TraceColumns.integer(t[3], fileName, lineNo, "dport", 0, 65535);
            }
            long size = TraceColumns.integer(t[hpcc ? 4 : 3], fileName, lineNo, "size", hpcc ? 1 : 0, UINT32);
            long startPs = picoseconds(t[hpcc ? 5 : 4], fileName, lineNo);
            flows.add(new Flow(src, dst, Math.max(1, size), startPs, pg));
        });
        if (count[0] < 0) {
            throw new TraceFormatException(fileName, Math.max(1, last), "count", "empty file: expected the number of flows on the first line,"
                    + " then one flow per line, " + HPCC + " or " + CONWEAVE);
        }
        if (flows.size() < count[0]) {
            throw new TraceFormatException(fileName, (int) count[1], "count", "the first line says " + count[0] + " flows, the file has "
                    + flows.size() + " (truncated?)");
        }
        return flows;
    }

    /** A start time in seconds (third.cc reads a double), exactly in picoseconds, rounded to the picosecond. */
    private static long picoseconds(String s, String file, int line) {
        return TraceColumns.picoseconds(s, file, line, "start_s", PS_PER_S, MAX_START_S, "seconds");
    }
}
