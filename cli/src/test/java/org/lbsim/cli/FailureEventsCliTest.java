package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.cli.MainTest.SMALL;
import static org.lbsim.cli.MainTest.lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code failures.events} from YAML: per-event losses in summary.json, the effective scenario re-runs, bad events are one line with exit 2. */
class FailureEventsCliTest {
    @TempDir
    Path dir;

    // the 80 us erasure timer keeps the run going past the last event (9 us)
    private static final String WITH_EVENTS = SMALL + """
            lossRecovery: {type: erasure, endOfMessage: rto}
            failures:
              convergenceDelayNs: 2000
              events:
                - {atUs: 9, link: {a: a0, b: c0}, action: up}
                - {atUs: 2, link: {a: a0, b: c0}, action: down}
                - {atUs: 3, node: c2, action: down}
                - {atUs: 4, link: {a: e0, b: a0}, action: degrade, rateGbps: 400}
                - {atUs: 8, node: c2, action: up}
            """;

    @Test
    void eventsRunInTimeOrderAndSummaryJsonCountsTheLossesAroundEachOnlyWhenThereAreEvents() throws IOException {
        Path p = dir.resolve("f.yaml");
        Files.writeString(p, WITH_EVENTS);
        MainTest.Result r = lbsim("run", p.toString(), "--out", dir.resolve("a").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("failures     5 events during the run, ");
        com.fasterxml.jackson.databind.JsonNode summary = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(Files.readString(dir.resolve("a/summary.json")));
        List<String> order = new java.util.ArrayList<>();
        summary.get("failureEvents").forEach(e -> order.add(e.get("target").asText() + " " + e.get("action").asText()));
        assertThat(order).containsExactly("a0-c0 down", "c2 down", "e0-a0 degrade", "c2 up", "a0-c0 up");
        com.fasterxml.jackson.databind.JsonNode first = summary.get("failureEvents").get(0);
        assertThat(first.get("event").asLong()).isEqualTo(1);
        assertThat(first.get("atPs").asLong()).isEqualTo(2_000_000L);
        assertThat(first.get("convergedAtPs").asLong()).isEqualTo(4_000_000L);
        assertThat(first.get("during").fieldNames()).toIterable().containsExactly("bufferDrops", "linkLoss", "noRoute");
        com.fasterxml.jackson.databind.JsonNode degrade = summary.get("failureEvents").get(2);
        assertThat(degrade.get("rateMbps").asLong()).isEqualTo(400_000L);
        assertThat(degrade.get("convergedAtPs").asLong()).isEqualTo(-1L);
        assertThat(summary.get("failureEventsNote").asText()).contains("lower bound and rhoMaxMbps are those of the fabric before the first event");
        // the effective scenario re-runs to the same bytes
        MainTest.Result again = lbsim("run", dir.resolve("a/scenario.yaml").toString(), "--out", dir.resolve("b").toString());
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(Files.readString(dir.resolve("b/summary.json"))).isEqualTo(Files.readString(dir.resolve("a/summary.json")));
        // without events the key is absent
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, SMALL);
        assertThat(lbsim("run", plain.toString(), "--out", dir.resolve("c").toString()).code()).isZero();
        assertThat(Files.readString(dir.resolve("c/summary.json"))).doesNotContain("failureEvents");
    }

    @Test
    void theDatabaseHoldsOneFailureEventRowPerEventWithTheNumbersOfSummaryJson() throws IOException {
        Path p = dir.resolve("f.yaml");
        Files.writeString(p, WITH_EVENTS);
        Path db = dir.resolve("r.duckdb");
        MainTest.Result r = lbsim("run", p.toString(), "--out", dir.resolve("a").toString(), "--db", db.toString());
        assertThat(r.code()).as(r.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode events = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(Files.readString(dir.resolve("a/summary.json"))).get("failureEvents");
        List<String> expected = new java.util.ArrayList<>();
        expected.add("event,target,action,at_ps,rate_mbps,converged_at_ps,lost_at_event,before,during,after");
        for (com.fasterxml.jackson.databind.JsonNode e : events) {
            expected.add(String.join(",", e.get("event").asText(), e.get("target").asText(), e.get("action").asText(), e.get("atPs").asText(),
                    e.has("rateMbps") ? e.get("rateMbps").asText() : "0", e.get("convergedAtPs").asText(), e.get("lostAtEvent").asText(),
                    losses(e.get("before")), losses(e.get("during")), losses(e.get("after"))));
        }
        List<String> rows = SweepTest.query(db, "SELECT event, target, action, at_ps, rate_mbps, converged_at_ps, lost_at_event,"
                + " before_buffer_drops || '/' || before_link_loss || '/' || before_no_route AS before,"
                + " during_buffer_drops || '/' || during_link_loss || '/' || during_no_route AS during,"
                + " after_buffer_drops || '/' || after_link_loss || '/' || after_no_route AS after"
                + " FROM failure_events WHERE run_id = 'a' ORDER BY at_ps");
        assertThat(rows).hasSize(6).isEqualTo(expected);
        // the first event took a link down while traffic flowed: losses are counted somewhere around it
        assertThat(SweepTest.query(db, "SELECT sum(during_link_loss + during_buffer_drops + during_no_route + lost_at_event) > 0"
                + " FROM failure_events")).element(1).isEqualTo("true");
        // a run without events adds no rows
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, SMALL);
        assertThat(lbsim("run", plain.toString(), "--out", dir.resolve("c").toString(), "--db", db.toString()).code()).isZero();
        assertThat(SweepTest.query(db, "SELECT count(*) FROM failure_events WHERE run_id = 'c'")).element(1).isEqualTo("0");
    }

    private static String losses(com.fasterxml.jackson.databind.JsonNode l) {
        return l.get("bufferDrops").asText() + "/" + l.get("linkLoss").asText() + "/" + l.get("noRoute").asText();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "failures.events[0].atUs=-3 | failures.events[0].atUs: must be a finite time >= 0 us, got -3.0",
            "failures.events[0].action=fail | failures.events[0].action: must be one of down, up, degrade, got 'fail'",
            "failures.events[0].link.b=c9 | failures.events[0].link.b: no switch named 'c9' in this fat-tree (switches are named e0 .. c3)",
            "failures.events[0].rateGbps=100 | failures.events[0].rateGbps: is only for action degrade, got 100.0 with down",
            "failures.events[0].node=a1 | failures.events[0].node: give either link or node, not both",
            "failures.mtbfUs=50 | failures.mttrUs: must be > 0 us when mtbfUs is set (a failed link must come back), got 0.0",
            "failures.events[0].when=3 | failures.events[0].when: unknown key"})
    void aBadEventIsOneLineWithExitCode2(String set, String expected) throws IOException {
        Path p = dir.resolve("bad.yaml");
        Files.writeString(p, SMALL + "failures:\n  events:\n    - {atUs: 1, link: {a: a0, b: c0}, action: down}\n");
        String line = lbsim("run", p.toString(), "--out", dir.resolve("x").toString(), "--set", set).errorLine();
        assertThat(line).contains(expected);
        assertThat(Files.exists(dir.resolve("x"))).isFalse();
    }
}
