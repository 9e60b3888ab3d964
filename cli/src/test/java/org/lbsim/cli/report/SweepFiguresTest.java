package org.lbsim.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.cli.plot.Figure;
import org.lbsim.cli.plot.Stats;

/**
 * The figures and the table of a sweep in a report say what their intervals are and never draw
 * one the numbers do not support: two runs a point give their range, not a Student-t interval
 * (a factor of 12.7 at n = 2); no interval leaves what the quantity can take (a CCT increase
 * >= 0, a queue <= the buffer); series are named as the sweep names its points.
 */
class SweepFiguresTest {
    private static final long BUFFER_BYTES = 800_000;

    /** A sweep of named points (two of one scheme type) over two message sizes, with {@code seeds} runs each, values far apart. */
    private static List<Map<String, Object>> sweep(int seeds, long randomSeed) {
        Random rnd = new Random(randomSeed);
        List<Map<String, Object>> rows = new ArrayList<>();
        String[][] points = {{"ECMP", "ecmp", null}, {"SWITCH PKT, shared pointer", "switch-pkt", "false"},
            {"SWITCH PKT, per-class pointers", "switch-pkt", "true"}};
        int point = 0;
        for (String[] p : points) {
            for (long size : new long[] {262_144, 1_048_576}) {
                for (int seed = 1; seed <= seeds; seed++) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("run_id", "s-p" + point + "-seed" + seed);
                    r.put("point", point);
                    r.put("seed", (long) seed);
                    r.put("scenario_name", p[0]);
                    r.put("loadBalancing.type", p[1]);
                    r.put("loadBalancing.perClass", p[2] == null ? null : Boolean.valueOf(p[2]));
                    r.put("workload.messageBytes", size);
                    r.put("switches.buffer.bytesPerPort", BUFFER_BYTES);
                    // one run near the bound, the others far above: the spread a t interval turns into negative increases
                    r.put("cct_increase_pct", seed == 1 ? 0.5 + rnd.nextDouble() : 300 + 1000 * rnd.nextDouble());
                    // one small queue, the others at or near the buffer: the spread a t interval turns into queues beyond it
                    r.put("max_queue_bytes", seed == 1 ? 5_000 + rnd.nextInt(20_000) : BUFFER_BYTES - rnd.nextInt(3_000));
                    rows.add(r);
                }
                point++;
            }
        }
        return rows;
    }

    /** The CSV behind a figure: header, then rows as column name to text (no quoted commas in these figures' group names but the points'). */
    private static List<Map<String, String>> csv(Figure f) {
        List<Map<String, String>> out = new ArrayList<>();
        String[] lines = f.csv().split("\n");
        List<String> head = split(lines[0]);
        for (int i = 1; i < lines.length; i++) {
            List<String> cells = split(lines[i]);
            Map<String, String> m = new LinkedHashMap<>();
            for (int k = 0; k < head.size(); k++) {
                m.put(head.get(k), cells.get(k));
            }
            out.add(m);
        }
        return out;
    }

    private static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }

    private static Figure figure(List<Figure> figures, String name) {
        return figures.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void two_runs_a_point_draw_the_runs_not_a_t_interval_and_say_n() {
        List<Map<String, Object>> rows = sweep(2, 11);
        List<String> varying = HtmlReport.varyingFields(rows);
        assertThat(varying).as("the points' names stand for the scheme").containsExactly("scenario_name", "workload.messageBytes");
        List<Figure> figures = HtmlReport.sweepFigures("s", rows, varying);
        for (String name : List.of("cct-increase", "max-queue-vs-message")) {
            Figure f = figure(figures, name);
            assertThat(f.caption()).as(name).contains("n = 2", "the runs themselves (min\u2013max), no confidence interval")
                    .doesNotContain("Student t");
            for (Map<String, String> r : csv(f)) {
                assertThat(r.get("interval")).as(name + " " + r).isEqualTo("range");
                assertThat(r.get("low")).as("the whisker starts at the smaller run").isEqualTo(r.get("min"));
                assertThat(r.get("high")).as("the whisker ends at the larger run").isEqualTo(r.get("max"));
            }
        }
        assertThat(csv(figure(figures, "cct-increase"))).extracting(r -> r.get("group")).as("series named as the sweep names its points")
                .containsOnly("ECMP", "SWITCH PKT, shared pointer", "SWITCH PKT, per-class pointers");
        assertThat(HtmlReport.increaseCell(Stats.Summary.of(1, 600))).isEqualTo("+300.50 [+1.00, +600.00] min\u2013max");
    }

    @ParameterizedTest(name = "{0} runs a point")
    @ValueSource(ints = {2, 3, 5})
    void no_drawn_interval_leaves_what_the_quantity_can_take(int seeds) {
        for (long randomSeed = 1; randomSeed <= 5; randomSeed++) {
            List<Map<String, Object>> rows = sweep(seeds, randomSeed);
            List<Figure> figures = HtmlReport.sweepFigures("s", rows, HtmlReport.varyingFields(rows));
            for (Map<String, String> r : csv(figure(figures, "cct-increase"))) {
                assertThat(Double.parseDouble(r.get("low"))).as("a CCT is never below its lower bound: " + r).isGreaterThanOrEqualTo(0);
            }
            for (Map<String, String> r : csv(figure(figures, "max-queue-vs-message"))) {
                assertThat(Double.parseDouble(r.get("low"))).as("a queue is never negative: " + r).isGreaterThanOrEqualTo(0);
                assertThat(Double.parseDouble(r.get("high"))).as("a queue never exceeds the buffer: " + r).isLessThanOrEqualTo(BUFFER_BYTES / 1e3);
            }
            if (seeds >= Stats.MIN_INTERVAL_RUNS) {
                assertThat(figure(figures, "cct-increase").caption()).contains("n = " + seeds, "95 % confidence interval of the mean");
            }
            if (seeds == Stats.MIN_INTERVAL_RUNS) {
                // t(0.975, 2) = 4.30 over one small and two large runs: the interval reaches below 0, and the caption says it was cut
                assertThat(figure(figures, "cct-increase").caption()).contains("intervals cut at what the quantity can take (\u2265 0)");
            }
        }
    }

    /**
     * Two points of one scheme type that differ in a field the table's labels do not tell apart: a list outside the
     * dotted scenario fields ({@code trafficClasses}), or two buffers that print alike (976.6 KiB), beside an ECMP point;
     * {@code seeds} runs each.
     */
    private static List<Map<String, Object>> twoOfanPoints(String field, Object first, Object second, int seeds) {
        List<Map<String, Object>> rows = new ArrayList<>();
        Object[][] points = {{"ecmp", first}, {"ofan", first}, {"ofan", second}};
        for (int point = 0; point < points.length; point++) {
            for (int seed = 1; seed <= seeds; seed++) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("run_id", "s-p" + point + "-seed" + seed);
                r.put("point", point);
                r.put("seed", (long) seed);
                r.put("scenario_name", "s");
                r.put("loadBalancing.type", points[point][0]);
                r.put("switches.buffer.bytesPerPort", 1_000_000L);
                r.put(field, points[point][1]);
                r.put("cct_ps", 1_000_000L * (point + 1) + seed);
                r.put("cct_increase_pct", 10.0 * (point + 1));
                rows.add(r);
            }
        }
        return rows;
    }

    static Stream<Arguments> pointsAlike() {
        return Stream.of(Arguments.of("trafficClasses", "[]", "[{\"trafficClass\":1,\"loadBalancing\":{\"type\":\"ecmp\"}}]"),
                Arguments.of("switches.buffer.bytesPerPort", 1_000_000L, 1_000_040L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pointsAlike")
    void two_points_of_one_scheme_are_two_rows_of_the_table_each_with_its_own_runs(String field, Object first, Object second) {
        int seeds = 5;
        List<Map<String, Object>> rows = twoOfanPoints(field, first, second, seeds);
        List<List<String>> table = HtmlReport.sweepTableCells(rows, HtmlReport.varyingFields(rows));
        List<String> head = table.get(0);
        List<List<String>> body = table.subList(1, table.size());
        assertThat(body).as("a row per point").hasSize(3);
        assertThat(body).extracting(r -> r.get(head.indexOf("n (runs)"))).as("n: the seeds of one point").containsOnly(String.valueOf(seeds));
        assertThat(body).extracting(r -> r.get(head.indexOf("CCT increase (%): mean [interval]")))
                .as("each row the mean of its own point's runs").extracting(c -> c.substring(0, c.indexOf(' ')))
                .containsExactly("+10.00", "+20.00", "+30.00");
        assertThat(head.get(0)).isEqualTo("point");
        assertThat(body).extracting(r -> r.get(0)).as("rows labelled as the sweep numbers its points").containsExactly("point 0", "point 1", "point 2");
    }

    @Test
    void points_the_fields_tell_apart_need_no_point_column() {
        List<Map<String, Object>> rows = sweep(2, 3);
        List<List<String>> table = HtmlReport.sweepTableCells(rows, HtmlReport.varyingFields(rows));
        assertThat(table.get(0)).doesNotContain("point");
        assertThat(table).hasSize(1 + 6);
    }

    @Test
    void the_table_names_each_interval_and_cuts_a_t_interval_at_zero() {
        assertThat(HtmlReport.increaseCell(Stats.Summary.of(7))).isEqualTo("+7.00");
        // mean 203.67, t(0.975, 2) * s / sqrt(3) = 4.3027 * 343.26 / 1.7321 = 852.72: the t interval reaches far below 0
        assertThat(HtmlReport.increaseCell(Stats.Summary.of(1, 10, 600))).isEqualTo("+203.67 [+0.00, +1056.38] 95 % CI");
    }
}
