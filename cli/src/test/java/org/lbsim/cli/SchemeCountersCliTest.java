package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.lbsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.cli.files.RunFolder;
import org.lbsim.cli.store.ResultsStore;
import org.lbsim.cli.store.RunRecord;
import org.lbsim.lb.HostPacketSpray;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.net.Switch;
import org.lbsim.spi.CounterSink;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.SwitchContext;

/** What schemes and switch programs count reaches summary.json, the results database and the report; runs that count nothing carry no key. */
class SchemeCountersCliTest {
    @TempDir
    Path dir;

    /** Sprays like host-spray; every ToR consumes the first ACK it sees and the scheme reports a count of its own. */
    static final class CountingScheme implements org.lbsim.spi.LoadBalancer {
        private final HostPacketSpray spray = new HostPacketSpray();
        private int programmed;

        @Override
        public EntropyPolicy newEntropyPolicy(HostContext host) {
            return spray.newEntropyPolicy(host);
        }

        @Override
        public PortSelector newPortSelector(SwitchContext sw) {
            return spray.newPortSelector(sw);
        }

        @Override
        public void programSwitch(SwitchContext ctx, Switch sw) {
            programmed++;
        }

        @Override
        public void reportCounters(CounterSink sink) {
            sink.add("counting.switchesProgrammed", programmed);
            sink.add("counting.ratio", 0.5);
            sink.add("counting.switchesProgrammed", 1); // a repeated name is summed
        }
    }

    @Test
    void schemeAndSwitchCountersReachSummaryJsonTheDatabaseAndTheReport() throws IOException {
        ScenarioBuilder b = Lbsim.scenario().fatTree(4).permutation(65536).lossRecovery("nic-sr").seed(3);
        var run = b.prepare(new CountingScheme());
        int dropped = run.network().consumeReason("test-drop");
        Switch sw = run.network().switchAt(run.topology().peerNode(run.topology().hostPort(0)));
        boolean[] done = {false};
        sw.addIngressStage((Packet p, int port) -> {
            if (!done[0] && p.kind == Packet.ACK) {
                done[0] = true;
                sw.consume(p, dropped);
                return false;
            }
            return true;
        });
        RunResult r = run.run();
        assertThat(r.schemeCounters()).containsExactly(Map.entry("switch.consumed", 1L), Map.entry("switch.consumed.test-drop", 1L),
                Map.entry("switch.originated", 0L), Map.entry("switch.heldAtEnd", 0L), Map.entry("counting.switchesProgrammed", 21L),
                Map.entry("counting.ratio", 0.5));

        Path folder = RunFolder.write(dir.resolve("a"), false, b.build(), dir, r, Map.of());
        JsonNode counters = new ObjectMapper().readTree(Files.readString(folder.resolve("summary.json"))).get("schemeCounters");
        assertThat(counters.get("switch.consumed.test-drop").asLong()).isEqualTo(1);
        assertThat(counters.get("counting.ratio").asDouble()).isEqualTo(0.5);
        Path db = dir.resolve("r.duckdb");
        try (ResultsStore store = ResultsStore.open(db, db.toString())) {
            store.write(new RunRecord("run-1", null, null, b.build(), "name: x\n", r, "test", "none", RunRecord.SEQUENTIAL));
        }
        MainTest.Result q = lbsim("query", db.toString(), "SELECT name, value FROM scheme_counters ORDER BY rowid", "--format", "csv");
        assertThat(q.code()).as(q.err()).isZero();
        assertThat(q.out()).contains("switch.consumed,1\n", "counting.switchesProgrammed,21\n", "counting.ratio,0.5");
        MainTest.Result report = lbsim("report", folder.toString(), "--out", dir.resolve("report.html").toString());
        assertThat(report.code()).as(report.err()).isZero();
        assertThat(Files.readString(dir.resolve("report.html"))).contains("counting.switchesProgrammed");
    }

    @Test
    void aRunWhoseSchemeCountsNothingHasNoSchemeCountersKey() throws IOException {
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, MainTest.SMALL);
        assertThat(lbsim("run", plain.toString(), "--out", dir.resolve("b").toString()).code()).isZero();
        assertThat(Files.readString(dir.resolve("b/summary.json"))).doesNotContain("schemeCounters");
    }
}
