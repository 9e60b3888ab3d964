package org.lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.scenario.TraceFormatException;

/** CSV traces read as spreadsheets write them, and endless or huge inputs refused with the line at fault. */
class TraceLimitsTest {
    /** Rows "0,1,1000,0" without end. */
    private static Reader endlessRows() {
        return new Reader() {
            private static final String ROW = "0,1,1000,0\n";
            private long at;

            @Override
            public int read(char[] buf, int off, int len) {
                for (int i = 0; i < len; i++) {
                    buf[off + i] = at++ < 23 ? "src,dst,bytes,start_ns\n".charAt((int) at - 1) : ROW.charAt((int) ((at - 24) % ROW.length()));
                }
                return len;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void anEndlessTraceIsRefusedAtTheRowLimit() {
        assertThatThrownBy(() -> TraceColumns.read(endlessRows(), "t.csv", "src,dst,bytes,start_ns",
                (cells, file, line) -> new int[] {0, 1, 2, 3}, (cells, index, line) -> { }, 1000))
                .isInstanceOfSatisfying(TraceFormatException.class, e -> {
                    assertThat(e.line()).isEqualTo(1002);
                    assertThat(e.problem()).startsWith("more than 1000 rows, more flows than a run can hold (2^30) or this JVM's heap");
                });
        assertThat(TraceColumns.maxRows()).isBetween(1L, 1L << 30);
    }

    @Test
    void anEndlessLineIsRefusedAtTheLineLimit() {
        Reader zeros = new Reader() {
            @Override
            public int read(char[] buf, int off, int len) {
                java.util.Arrays.fill(buf, off, off + len, '\0');
                return len;
            }

            @Override
            public void close() {
            }
        };
        assertThatThrownBy(() -> FlowTrace.read(zeros, "zero.csv", 16)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
            assertThat(e.line()).isEqualTo(1);
            assertThat(e.problem()).isEqualTo("the line is longer than 1048576 characters; expected CSV rows (is this a trace file?)");
        });
    }

    @Test
    void quotedCellsByteOrderMarksAndEveryLineEndReadAsPlainCsv() throws Exception {
        List<Flow> plain = FlowTrace.read(new StringReader("src,dst,bytes,start_ns,class\n0,1,1000,0,0\n2,3,5000,10.5,7\n"), "a.csv", 16);
        List<Flow> excel = FlowTrace.read(new StringReader("\uFEFF\"src\",\"dst\",\"bytes\",\"start_ns\",\"class\"\r\n\"0\",1,\"1000\",0,0\r\n"
                + " \"2\" ,\"3\",5000,\"10.5\",7"), "b.csv", 16);
        List<Flow> mac = FlowTrace.read(new StringReader("src,dst,bytes,start_ns,class\r0,1,1000,0,0\r2,3,5000,10.5,7\r"), "c.csv", 16);
        assertThat(fields(plain)).hasSize(2);
        assertThat(fields(excel)).isEqualTo(fields(plain));
        assertThat(fields(mac)).isEqualTo(fields(plain));
    }

    private static List<List<Long>> fields(List<Flow> flows) {
        return flows.stream().map(f -> List.of((long) f.src(), (long) f.dst(), f.bytes(), f.startPs(), (long) f.trafficClass())).toList();
    }

    @Test
    void aQuotedCellKeepsCommasAndDoubledQuotes() {
        assertThat(TraceColumns.cells("a,\"b,c\",\"d\"\"e\",,\"\"", "x.csv", 1)).containsExactly("a", "b,c", "d\"e", "", "");
        assertThat(TraceColumns.cells("1,2,3", "x.csv", 1)).containsExactly("1", "2", "3");
        assertThatThrownBy(() -> TraceColumns.cells("\"1\"x,2", "x.csv", 4)).hasMessageContaining("unexpected text after a quoted value");
    }

    @Test
    void aDagTraceGapBeyondTheLongestSimulatedTimeNamesTheColumn() {
        assertThatThrownBy(() -> DagTrace.read(new StringReader("id,src,dst,bytes,deps,gap_ns\n0,0,1,1000,,1e300\n"), "d.csv", 16))
                .isInstanceOfSatisfying(TraceFormatException.class, e -> {
                    assertThat(e.column()).isEqualTo("gap_ns");
                    assertThat(e.problem()).isEqualTo("must be a number of nanoseconds between 0 and 1000000000000, got 1e300");
                });
    }
}
