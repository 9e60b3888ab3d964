package org.lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TraceFormatException;
import org.lbsim.scenario.WorkloadSpec;

class FlowTraceTest {
    private static final int HOSTS = 16;

    private static List<Flow> read(String text) throws IOException {
        return FlowTrace.read(new StringReader(text), "t.csv", HOSTS);
    }

    @Test
    void readsFlowsWithColumnsInAnyOrderSkippingCommentsAndBlankLines() throws IOException {
        List<Flow> flows = read("""
                # a comment before the header

                bytes, start_ns ,dst,src
                4096,0,15,0
                # and one between rows
                1,1.5,0,15
                """);
        assertThat(flows).containsExactly(new Flow(0, 15, 4096, 0), new Flow(15, 0, 1, 1_500));
    }

    static List<Arguments> badTraces() {
        String h = "src,dst,bytes,start_ns\n";
        return List.of(
                Arguments.of("empty file", "", 1, ""),
                Arguments.of("only comments", "# nothing\n\n# here\n", 3, ""),
                Arguments.of("unknown column", "src,dst,bytes,start\n", 1, "start"),
                Arguments.of("column twice", "src,src,bytes,start_ns\n", 1, "src"),
                Arguments.of("header too short", "src,dst,bytes\n", 1, ""),
                Arguments.of("header without flows", "# c\n" + h + "\n", 3, ""),
                Arguments.of("row too short", h + "0,1,100,0\n0,1,100\n", 3, ""),
                Arguments.of("row too long", h + "0,1,100,0,9\n", 2, ""),
                Arguments.of("src not a number", h + "x,1,100,0\n", 2, "src"),
                Arguments.of("src beyond the hosts", h + "16,1,100,0\n", 2, "src"),
                Arguments.of("dst negative", h + "0,-1,100,0\n", 2, "dst"),
                Arguments.of("dst a decimal", h + "0,1.0,100,0\n", 2, "dst"),
                Arguments.of("zero bytes", h + "0,1,0,0\n", 2, "bytes"),
                Arguments.of("bytes not a number", h + "0,1,1e6,0\n", 2, "bytes"),
                Arguments.of("negative start", h + "0,1,100,-5\n", 2, "start_ns"),
                Arguments.of("start not a number", h + "0,1,100,soon\n", 2, "start_ns"),
                Arguments.of("start NaN", h + "0,1,100,NaN\n", 2, "start_ns"),
                Arguments.of("start infinite", h + "0,1,100,Infinity\n", 2, "start_ns"),
                Arguments.of("flow to itself", h + "3,3,100,0\n", 2, "dst"),
                Arguments.of("line numbers count comments and blanks", "# c\n\n" + h + "0,1,100,0\n\n# c\n5,5,1,0\n", 7, "dst"),
                Arguments.of("columns found by name", "dst,src,bytes,start_ns\n1,99,100,0\n", 2, "src"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTraces")
    void aBadTraceIsRejectedWithItsLineAndColumn(String name, String text, int line, String column) {
        TraceFormatException e = catchThrowableOfType(() -> read(text), TraceFormatException.class);
        assertThat(e).as(name).isNotNull();
        assertThat(e.file()).isEqualTo("t.csv");
        assertThat(e.line()).isEqualTo(line);
        assertThat(e.column()).isEqualTo(column);
        assertThat(e.getMessage()).startsWith("t.csv:" + line + ": ");
    }

    @Test
    void aTraceWorkloadResolvesARelativePathAgainstTheScenarioFolder(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("traces"));
        Files.writeString(dir.resolve("traces/x.csv"), "src,dst,bytes,start_ns\n2,7,5000,10\n");
        List<Flow> flows = Workloads.generate(new WorkloadSpec.Trace("traces/x.csv"), HOSTS, new SplittableRandom(1), dir);
        assertThat(flows).containsExactly(new Flow(2, 7, 5000, 10_000));
    }

    @Test
    void aMissingTraceFileIsAScenarioErrorOnTheWorkloadFile(@TempDir Path dir) {
        assertThatThrownBy(() -> Workloads.generate(new WorkloadSpec.Trace("nope.csv"), HOSTS, new SplittableRandom(1), dir))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.field()).isEqualTo("workload.file"))
                .hasMessageContaining("nope.csv");
    }

    @Test
    void aBadRowInATraceFileNamesTheFileAsTheScenarioGaveIt(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("bad.csv"), "src,dst,bytes,start_ns\n0,1,100,0\n0,16,100,0\n");
        TraceFormatException e = catchThrowableOfType(
                () -> Workloads.generate(new WorkloadSpec.Trace("bad.csv"), HOSTS, new SplittableRandom(1), dir), TraceFormatException.class);
        assertThat(e.file()).isEqualTo("bad.csv");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.column()).isEqualTo("dst");
    }
}
