package org.lbsim.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Human labels, the one number format, log tick placement and the Student-t interval. */
class LabelsTest {
    @Test
    void columns_and_values_read_as_a_person_says_them() {
        assertThat(Labels.title("loadBalancing.type")).isEqualTo("scheme");
        assertThat(Labels.title("workload.messageBytes")).isEqualTo("message size");
        assertThat(Labels.title("topology.linkRateGbps")).isEqualTo("link rate");
        assertThat(Labels.numericAxis("workload.messageBytes", 8 << 20).title()).isEqualTo("message size (MiB)");
        assertThat(Labels.numericAxis("workload.messageBytes", 8 << 20).factor()).isEqualTo(1.0 / (1 << 20));
        assertThat(Labels.value("workload.messageBytes", 2097152L)).isEqualTo("2 MiB");
        assertThat(Labels.value("workload.messageBytes", 1536.0)).isEqualTo("1.5 KiB");
        assertThat(Labels.value("seed", 3.0)).isEqualTo("3");
        // a registered component reads as its paper names it (the registry's display name)
        assertThat(Labels.value("loadBalancing.type", "ofan")).isEqualTo("OFAN");
        assertThat(Labels.value("loadBalancing.type", "host-spray")).isEqualTo("HOST PKT");
        assertThat(Labels.value("trafficClasses[1].loadBalancing.type", "ecmp")).isEqualTo("ECMP");
        assertThat(Labels.value("loadBalancing.type", "not-registered")).isEqualTo("not-registered");
        assertThat(Labels.value("workload.type", "all-to-all")).isEqualTo("all-to-all");
        assertThat(Labels.value("loadBalancing.perClass", null)).as("a field the scenario left at its default").isEqualTo("(default)");
    }

    @Test
    void one_number_format_without_spurious_decimals() {
        assertThat(Labels.number(26402.5)).isEqualTo("26,402.5");
        assertThat(Labels.number(216500)).isEqualTo("216,500");
        assertThat(Labels.number(1.25)).isEqualTo("1.25");
        assertThat(Labels.number(0.125)).isEqualTo("0.125");
        assertThat(Labels.number(-3)).isEqualTo("-3");
        assertThat(Labels.number(1e9)).isEqualTo("10\u2079");
        assertThat(Labels.number(2.5e-5)).isEqualTo("2.5\u00d710\u207b\u2075");
    }

    @Test
    void log_ticks_suit_the_range() {
        assertThat(LabelledLogAxis.values(1, 1e6, 10)).containsExactly(1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6);
        assertThat(LabelledLogAxis.values(1, 1e12, 5)).hasSizeBetween(3, 5);
        assertThat(LabelledLogAxis.values(3, 300, 10)).containsExactly(5.0, 10.0, 20.0, 50.0, 100.0, 200.0);
        assertThat(LabelledLogAxis.values(1.8, 8.5, 10)).containsExactly(2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
        assertThat(LabelledLogAxis.values(2.1, 2.9, 10)).hasSizeGreaterThanOrEqualTo(3).allMatch(v -> v >= 2.1 && v <= 2.9);
    }

    @Test
    void the_95_percent_interval_uses_student_t() {
        assertThat(Stats.studentT975(1)).isCloseTo(12.7062, within(1e-4));
        assertThat(Stats.studentT975(9)).isCloseTo(2.2622, within(1e-4));
        assertThat(Stats.studentT975(31)).isCloseTo(2.0395, within(1e-3));
        assertThat(Stats.studentT975(120)).isCloseTo(1.9799, within(1e-3));
        Stats.Summary s = Stats.Summary.of(10, 12, 14);
        assertThat(s.ci95HalfWidth()).isCloseTo(4.3027 * 2 / Math.sqrt(3), within(1e-4));
        assertThat(Stats.Summary.of(5).ci95HalfWidth()).isNaN();
    }
}
