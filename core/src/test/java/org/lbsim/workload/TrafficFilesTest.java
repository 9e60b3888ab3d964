package org.lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.TraceFormatException;

/**
 * htsim connection matrices and ns-3 flow files written by those projects' own generators
 * (src/test/resources/traffic/README.md) read as the files say, and hostile files refused with the line and the key.
 */
class TrafficFilesTest {
    static String resource(String name) throws IOException {
        try (InputStream in = TrafficFilesTest.class.getResourceAsStream("/traffic/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Workload cm(String text, int hosts) throws IOException {
        return HtsimConnectionMatrix.read(new StringReader(text), "m.cm", hosts);
    }

    private static List<Flow> ns3(String text, int hosts) throws IOException {
        return Ns3FlowFile.read(new StringReader(text), "flow.txt", hosts);
    }

    /** The connection lines of a matrix, in order: src, dst, size, start (-1: triggered), trigger, send_done_trigger. */
    private static List<long[]> connections(String text) {
        Pattern conn = Pattern.compile("^(\\d+)->(\\d+) (.*)$", Pattern.MULTILINE);
        Matcher m = conn.matcher(text);
        List<long[]> out = new ArrayList<>();
        while (m.find()) {
            Map<String, Long> kv = new HashMap<>();
            String[] t = m.group(3).trim().split(" ");
            for (int i = 0; i + 1 < t.length; i += 2) {
                kv.put(t[i], Long.parseLong(t[i + 1]));
            }
            out.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), kv.get("size"), kv.getOrDefault("start", -1L),
                    kv.getOrDefault("trigger", 0L), kv.getOrDefault("send_done_trigger", 0L)});
        }
        return out;
    }

    @Test
    void htsimsOwnPermutationReadsAsItsLinesSay() throws IOException {
        String text = resource("perm_128.cm");
        Workload w = cm(text, 128);
        List<long[]> lines = connections(text);
        assertThat(lines).hasSize(128);
        assertThat(w.flows()).hasSize(128);
        assertThat(w.jobs()).isEmpty();
        assertThat(w.hasDependencies()).isFalse();
        for (int i = 0; i < lines.size(); i++) {
            long[] l = lines.get(i);
            // gen_permutation.py 2.5 us of extra start time: "start 2500000", picoseconds
            assertThat(w.flows().get(i)).isEqualTo(new Flow((int) l[0], (int) l[1], 100_000, 2_500_000));
        }
        // a permutation: every node sends once and receives once
        assertThat(w.flows().stream().mapToInt(Flow::src).distinct().count()).isEqualTo(128);
        assertThat(w.flows().stream().mapToInt(Flow::dst).distinct().count()).isEqualTo(128);
    }

    @Test
    void htsimsAllReduceTriggersBecomeDependenciesOnTheConnectionThatFiresThem() throws IOException {
        String text = resource("allreduce_8.cm");
        Workload w = cm(text, 8);
        List<long[]> lines = connections(text);
        assertThat(w.flows()).hasSize(120);
        Map<Long, Integer> firedBy = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i)[5] != 0) {
                firedBy.put(lines.get(i)[5], i);
            }
        }
        int started = 0;
        for (int i = 0; i < lines.size(); i++) {
            long[] l = lines.get(i);
            Flow f = w.flows().get(i);
            assertThat(new long[] {f.src(), f.dst(), f.bytes()}).containsExactly(l[0], l[1], 50_000);
            if (l[4] == 0) {
                started++;
                assertThat(f.deps()).isEmpty();
                assertThat(f.startPs()).isEqualTo(l[3]);
            } else {
                assertThat(f.deps()).containsExactly(firedBy.get(l[4]));
                assertThat(f.gapPs()).isZero();
            }
        }
        assertThat(started).isEqualTo(8); // one chain per rank
        assertThat(w.jobs()).hasSize(1);
        assertThat(w.jobs().get(0).collective()).isEqualTo("htsim-cm");
    }

    @Test
    void aMultishotFiredByOneConnectionMapsAndOneFiredByTwoIsRefused() throws IOException {
        Workload serial = cm(resource("a2a_serial.cm"), 16);
        assertThat(serial.flows()).hasSize(56);
        assertThat(serial.flows().stream().filter(Flow::dependent).count()).isEqualTo(48);
        TraceFormatException e = catchThrowableOfType(() -> cm(resource("a2a_par2.cm"), 16), TraceFormatException.class);
        assertThat(e).isNotNull();
        assertThat(e.line()).isEqualTo(60);
        assertThat(e.column()).isEqualTo("trigger");
        assertThat(e.problem()).contains("multishot trigger 1 is fired by 2 connections");
    }

    @Test
    void aBarrierWaitsForEveryConnectionThatFiresIt() throws IOException {
        Workload w = cm("""
                Nodes 4
                Connections 3
                Triggers 1
                0->1 start 0 size 1000 send_done_trigger 7
                2->1 start 10 size 2000 send_done_trigger 7
                1->3 id 3 trigger 7 size 3000
                trigger id 7 barrier count 2
                """, 4);
        assertThat(w.flows().get(2).deps()).containsExactly(0, 1);
        assertThat(w.flows().get(1).startPs()).isEqualTo(10);
    }

    @Test
    void anNs3FlowFileWrittenByConWeavesGeneratorReadsAsItsLinesSay() throws IOException {
        String text = resource("flow_conweave.txt");
        List<Flow> flows = ns3(text, 16);
        String[] lines = text.split("\n");
        assertThat(flows).hasSize(Integer.parseInt(lines[0].strip()));
        for (int i = 0; i < flows.size(); i++) {
            String[] t = lines[i + 1].split(" ");
            assertThat(t).hasSize(5);
            Flow f = flows.get(i);
            assertThat(new long[] {f.src(), f.dst(), f.trafficClass(), f.bytes()})
                    .containsExactly(Long.parseLong(t[0]), Long.parseLong(t[1]), 3, Long.parseLong(t[3]));
            // "%.9f" seconds: whole nanoseconds, from the generator's base of 2 s
            assertThat(f.startPs()).isEqualTo(new java.math.BigDecimal(t[4]).movePointRight(12).longValueExact());
            assertThat(f.startPs()).isGreaterThanOrEqualTo(2_000_000_000_000L);
        }
    }

    @Test
    void anNs3FlowFileWrittenByHpccsGeneratorReadsAsItsLinesSay() throws IOException {
        String text = resource("flow_hpcc.txt");
        List<Flow> flows = ns3(text, 16);
        String[] lines = text.split("\n");
        assertThat(flows).hasSize(Integer.parseInt(lines[0].strip()));
        for (int i = 0; i < flows.size(); i++) {
            String[] t = lines[i + 1].split(" ");
            assertThat(t).hasSize(6);
            assertThat(t[3]).isEqualTo("100"); // dport
            Flow f = flows.get(i);
            assertThat(new long[] {f.src(), f.dst(), f.bytes(), f.startPs()}).containsExactly(Long.parseLong(t[0]), Long.parseLong(t[1]),
                    Long.parseLong(t[4]), new java.math.BigDecimal(t[5]).movePointRight(12).longValueExact());
        }
    }

    @Test
    void aConWeaveSizeOfZeroIsOneByteAsItsSimulatorSendsIt() throws IOException {
        assertThat(ns3("1\n0 1 3 0 0.5\n", 2)).containsExactly(new Flow(0, 1, 1, 500_000_000_000L, 3));
    }

    static List<Arguments> badMatrices() {
        String h = "Nodes 4\nConnections 1\n";
        return List.of(
                Arguments.of("empty file", "", 1, "Nodes"),
                Arguments.of("truncated", "Nodes 4\nConnections 3\n0->1 start 0 size 10\n1->2 start 0 size 10\n", 2, "Connections"),
                Arguments.of("more connections than the header says", h + "0->1 start 0 size 10\n1->2 start 0 size 10\n", 2, "Connections"),
                Arguments.of("no Connections line", "Nodes 4\n0->1 start 0 size 10\n", 1, "Connections"),
                Arguments.of("no Nodes line", "Connections 1\n0->1 start 0 size 10\n", 2, "Nodes"),
                Arguments.of("more nodes than the fabric", "Nodes 5\nConnections 1\n0->1 start 0 size 10\n", 1, "Nodes"),
                Arguments.of("node beyond Nodes", h + "0->4 start 0 size 10\n", 3, "dst"),
                Arguments.of("node not a number", h + "a->1 start 0 size 10\n", 3, "src->dst"),
                Arguments.of("to itself", h + "2->2 start 0 size 10\n", 3, "dst"),
                Arguments.of("negative size", h + "0->1 start 0 size -10\n", 3, "size"),
                Arguments.of("zero size", h + "0->1 start 0 size 0\n", 3, "size"),
                Arguments.of("size beyond htsim's int", h + "0->1 start 0 size 2147483648\n", 3, "size"),
                Arguments.of("no size", h + "0->1 start 0\n", 3, "size"),
                Arguments.of("negative start", h + "0->1 start -1 size 10\n", 3, "start"),
                Arguments.of("start not a number", h + "0->1 start soon size 10\n", 3, "start"),
                Arguments.of("no start and no trigger", h + "0->1 size 10\n", 3, "start"),
                Arguments.of("start and trigger", "Nodes 4\nConnections 2\nTriggers 1\n0->1 start 0 size 10 send_done_trigger 1\n"
                        + "1->2 trigger 1 start 0 size 10\ntrigger id 1 oneshot\n", 5, "trigger"),
                Arguments.of("a key without value", h + "0->1 start 0 size\n", 3, "size"),
                Arguments.of("a key twice", h + "0->1 start 0 size 10 size 20\n", 3, "size"),
                Arguments.of("unknown key", h + "0->1 start 0 size 10 colour red\n", 3, "colour"),
                Arguments.of("receiver-side trigger", h + "0->1 start 0 size 10 recv_done_trigger 1\n", 3, "recv_done_trigger"),
                Arguments.of("message id", h + "0->1 start 0 size 10 msg 4\n", 3, "msg"),
                Arguments.of("priority", h + "0->1 start 0 size 10 prio 3\n", 3, "prio"),
                Arguments.of("flow id zero", h + "0->1 id 0 start 0 size 10\n", 3, "id"),
                Arguments.of("unknown line", h + "0->1 start 0 size 10\nflows 3\n", 4, "flows"),
                Arguments.of("header after a connection", h + "0->1 start 0 size 10\nTriggers 0\n", 4, "Triggers"),
                Arguments.of("header twice", "Nodes 4\nNodes 4\n", 2, "Nodes"),
                Arguments.of("link failures", "Nodes 4\nConnections 1\nFailures 1\n", 3, "Failures"),
                Arguments.of("a failure line", h + "0->1 start 0 size 10\nfailure switch_type TOR switch_id 0 link_id 1\n", 4, "failure"),
                Arguments.of("unknown trigger type", "Nodes 4\nConnections 1\nTriggers 1\n0->1 start 0 size 10\ntrigger id 1 twoshot\n", 5, "twoshot"),
                Arguments.of("trigger without type", "Nodes 4\nConnections 1\nTriggers 1\n0->1 start 0 size 10\ntrigger id 1\n", 5, "trigger"),
                Arguments.of("trigger without id", "Nodes 4\nConnections 1\nTriggers 1\n0->1 start 0 size 10\ntrigger oneshot\n", 5, "id"),
                Arguments.of("trigger declared twice", "Nodes 4\nConnections 1\nTriggers 2\n0->1 start 0 size 10\ntrigger id 1 oneshot\n"
                        + "trigger id 1 barrier count 1\n", 6, "id"),
                Arguments.of("wrong trigger count", "Nodes 4\nConnections 1\nTriggers 2\n0->1 start 0 size 10\ntrigger id 1 oneshot\n", 3, "Triggers"),
                Arguments.of("trigger never declared", "Nodes 4\nConnections 2\n0->1 start 0 size 10 send_done_trigger 1\n"
                        + "1->2 trigger 1 size 10\n", 3, "send_done_trigger"),
                Arguments.of("awaited trigger nobody fires", "Nodes 4\nConnections 2\nTriggers 1\n0->1 start 0 size 10\n"
                        + "1->2 trigger 1 size 10\ntrigger id 1 oneshot\n", 6, "trigger"),
                Arguments.of("oneshot fired twice", "Nodes 4\nConnections 3\nTriggers 1\n0->1 start 0 size 10 send_done_trigger 1\n"
                        + "2->1 start 0 size 10 send_done_trigger 1\n1->3 trigger 1 size 10\ntrigger id 1 oneshot\n", 7, "trigger"),
                Arguments.of("barrier count short", "Nodes 4\nConnections 3\nTriggers 1\n0->1 start 0 size 10 send_done_trigger 1\n"
                        + "2->1 start 0 size 10 send_done_trigger 1\n1->3 trigger 1 size 10\ntrigger id 1 barrier count 3\n", 7, "count"),
                Arguments.of("multishot starting two on one firing", "Nodes 4\nConnections 3\nTriggers 1\n0->1 start 0 size 10 send_done_trigger 1\n"
                        + "1->2 trigger 1 size 10\n1->3 trigger 1 size 10\ntrigger id 1 multishot\n", 7, "trigger"),
                Arguments.of("dependency cycle", "Nodes 4\nConnections 2\nTriggers 2\n0->1 trigger 2 size 10 send_done_trigger 1\n"
                        + "1->2 trigger 1 size 10 send_done_trigger 2\ntrigger id 1 oneshot\ntrigger id 2 oneshot\n", 4, "trigger"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badMatrices")
    void aHostileMatrixIsRefusedNamingTheLineAndTheKey(String what, String text, int line, String key) {
        TraceFormatException e = catchThrowableOfType(() -> cm(text, 4), TraceFormatException.class);
        assertThat(e).as(what).isNotNull();
        assertThat(e.file()).isEqualTo("m.cm");
        assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
        assertThat(e.column()).as(e.getMessage()).isEqualTo(key);
        assertThat(e.getMessage()).doesNotContain("\n").startsWith("m.cm:" + line + ": " + key + ": ");
    }

    static List<Arguments> badFlowFiles() {
        return List.of(
                Arguments.of("empty file", "", 1, "count"),
                Arguments.of("truncated", "3\n0 1 3 100 1000 2.0\n1 2 3 100 1000 2.0\n", 1, "count"),
                Arguments.of("more flows than the count", "1\n0 1 3 100 1000 2.0\n1 2 3 100 1000 2.0\n", 3, "count"),
                Arguments.of("count not a number", "many\n0 1 3 100 1000 2.0\n", 1, "count"),
                Arguments.of("count zero", "0\n", 1, "count"),
                Arguments.of("count with a flow on its line", "1 0 1 3 100 1000 2.0\n", 1, "count"),
                Arguments.of("four values", "1\n0 1 1000 2.0\n", 2, ""),
                Arguments.of("forms mixed", "2\n0 1 3 100 1000 2.0\n1 2 3 1000 2.0\n", 3, ""),
                Arguments.of("src beyond the fabric", "1\n4 1 3 100 1000 2.0\n", 2, "src"),
                Arguments.of("dst negative", "1\n0 -1 3 100 1000 2.0\n", 2, "dst"),
                Arguments.of("to itself", "1\n2 2 3 100 1000 2.0\n", 2, "dst"),
                Arguments.of("pg beyond 7", "1\n0 1 8 100 1000 2.0\n", 2, "pg"),
                Arguments.of("dport beyond 65535", "1\n0 1 3 65536 1000 2.0\n", 2, "dport"),
                Arguments.of("negative size", "1\n0 1 3 100 -1000 2.0\n", 2, "size"),
                Arguments.of("HPCC size zero", "1\n0 1 3 100 0 2.0\n", 2, "size"),
                Arguments.of("size beyond uint32", "1\n0 1 3 4294967296 2.0\n", 2, "size"),
                Arguments.of("negative start", "1\n0 1 3 100 1000 -2.0\n", 2, "start_s"),
                Arguments.of("start not a number", "1\n0 1 3 100 1000 later\n", 2, "start_s"),
                Arguments.of("start beyond the longest run", "1\n0 1 3 100 1000 1e4\n", 2, "start_s"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFlowFiles")
    void aHostileFlowFileIsRefusedNamingTheLineAndTheField(String what, String text, int line, String field) {
        TraceFormatException e = catchThrowableOfType(() -> ns3(text, 4), TraceFormatException.class);
        assertThat(e).as(what).isNotNull();
        assertThat(e.file()).isEqualTo("flow.txt");
        assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
        assertThat(e.column()).as(e.getMessage()).isEqualTo(field);
        assertThat(e.getMessage()).doesNotContain("\n");
    }

    /** Values that have broken parsers: signs, overflow, exponents, non-numbers, keys where values go. */
    private static final String[] HOSTILE = {"-1", "0", "1", "2147483647", "2147483648", "4294967296", "9223372036854775808", "1e300",
        "1e-999999999", "1e2147483648", "NaN", "Infinity", "x", "->", "0->", "->0", "3->3", "start", "size", "trigger", "barrier",
        "0.5", "-0", "1" + "0".repeat(80), "\u00e9"};

    /**
     * Seeded random damage to the generators' files (a token replaced or dropped, a line dropped or doubled, the file cut short):
     * each either reads or is refused with one line naming the file and a line in it, never another exception.
     */
    @Test
    void damagedFilesAreReadOrRefusedInOneLineNeverCrash() throws IOException {
        SplittableRandom r = new SplittableRandom(11);
        String[][] files = {{"allreduce_8.cm", "8"}, {"a2a_serial.cm", "16"}, {"perm_128.cm", "128"}, {"flow_conweave.txt", "16"}, {"flow_hpcc.txt", "16"}};
        int refused = 0;
        for (int n = 0; n < 3000; n++) {
            String[] f = files[r.nextInt(files.length)];
            List<String> lines = new ArrayList<>(List.of(resource(f[0]).split("\n")));
            int at = r.nextInt(lines.size());
            String[] tokens = lines.get(at).split(" ");
            int k = r.nextInt(tokens.length);
            switch (r.nextInt(5)) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(at, lines.get(at));
                case 2 -> {
                    List<String> t = new ArrayList<>(List.of(tokens));
                    t.remove(k);
                    lines.set(at, String.join(" ", t));
                }
                default -> {
                    tokens[k] = HOSTILE[r.nextInt(HOSTILE.length)];
                    lines.set(at, String.join(" ", tokens));
                }
            }
            String text = String.join("\n", lines) + "\n";
            if (r.nextInt(10) == 0) {
                text = text.substring(0, r.nextInt(text.length()));
            }
            String damaged = text;
            int hosts = Integer.parseInt(f[1]);
            try {
                if (f[0].endsWith(".cm")) {
                    cm(damaged, hosts);
                } else {
                    ns3(damaged, hosts);
                }
            } catch (TraceFormatException e) {
                refused++;
                String name = f[0].endsWith(".cm") ? "m.cm" : "flow.txt";
                assertThat(e.getMessage()).as(damaged).startsWith(name + ":" + e.line() + ": ").doesNotContain("\n");
                assertThat(e.line()).isBetween(1, lines.size() + 1);
            }
        }
        assertThat(refused).isBetween(1000, 2999);
    }

    @Test
    void theResourcesAreTheGeneratorsOutputNotEdited() throws IOException {
        // the first flow lines as the generators print them ("%d %d 3 %d %.9f", "%d %d 3 100 %d %.9f")
        assertThat(resource("flow_conweave.txt").split("\n")[1]).matches("\\d+ \\d+ 3 \\d+ \\d+\\.\\d{9}");
        assertThat(resource("flow_hpcc.txt").split("\n")[1]).matches("\\d+ \\d+ 3 100 \\d+ \\d+\\.\\d{9}");
        assertThat(Arrays.asList(resource("perm_128.cm").split("\n")).subList(0, 2)).containsExactly("Nodes 128", "Connections 128");
    }
}
