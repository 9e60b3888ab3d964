package org.lbsim.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.Simulation;

/** A sweep run as an engine's worker executes it: the run's whole result survives the trip as JSON, to the last bit. */
class SweepRunTest {
    /** A collective (jobs and phases), DNLB's counters, PFC. */
    static final String COLLECTIVE = """
            name: ring
            seed: 3
            topology: {type: rail-leaf-spine, serversPerGroup: 4, groups: 1, nicsPerServer: 2, spines: 2, linksPerLeafSpine: 2}
            nic: {qpsPerConnection: 4}
            workload: {type: collective, op: all-reduce, algorithm: ring, bytes: 262144, placement: packed}
            loadBalancing: {type: dnlb}
            congestionControl: {type: dcqcn}
            lossRecovery: {type: go-back-n}
            switches: {pfc: {enabled: true}}
            """;

    /** A link that fails mid-run (failure events, drops), sampled series, reordering. */
    static final String FAILURE = """
            name: fail
            seed: 7
            topology: {type: fat-tree, k: 4}
            workload: {type: all-to-all, messageBytes: 65536}
            loadBalancing: {type: host-spray}
            metrics: {sampleIntervalUs: 1}
            failures:
              events:
                - {atUs: 2, link: {a: a0, b: c0}, action: down}
            """;

    @ParameterizedTest
    @ValueSource(strings = {COLLECTIVE, FAILURE})
    void a_run_decoded_on_the_driver_is_the_run_simulated_here(String yaml) {
        SweepRun run = new SweepRun("r", yaml, Path.of("").toAbsolutePath().toString(), 0);
        SweepRun.Outcome o = run.run();
        assertThat(o.error()).isNull();
        assertThat(o.runId()).isEqualTo("r");
        RunResult got = o.decode();
        RunResult want = Simulation.prepare(run.scenario(), null).run();

        assertThat(SweepRun.RunResultCodec.encode(got)).isEqualTo(o.result());
        assertThat(got.flowResults()).isNotEmpty().isEqualTo(want.flowResults());
        assertThat(got.layers()).isEqualTo(want.layers());
        assertThat(got.counters()).isEqualTo(want.counters());
        assertThat(got.jobs()).isEqualTo(want.jobs());
        assertThat(got.failureEvents()).isEqualTo(want.failureEvents());
        assertThat(got.cctPs()).isEqualTo(want.cctPs());
        assertThat(got.cctIncreasePct()).isEqualTo(want.cctIncreasePct());
        assertThat(got.outOfOrder().log2Histogram()).isEqualTo(want.outOfOrder().log2Histogram());
        assertThat(got.series()).hasSameSizeAs(want.series());
        for (int i = 0; i < got.series().size(); i++) {
            TimeSeries g = got.series().get(i);
            TimeSeries w = want.series().get(i);
            assertThat(g.name()).isEqualTo(w.name());
            assertThat(g.timesPs()).isEqualTo(w.timesPs());
            assertThat(g.values()).isEqualTo(w.values());
        }
        assertThat(doubles(got.schemeCounters())).isEqualTo(doubles(want.schemeCounters()));
        if (yaml.equals(COLLECTIVE)) {
            assertThat(got.jobs()).isNotEmpty();
            assertThat(got.jobs().get(0).phases()).isNotEmpty();
            assertThat(got.schemeCounters()).isNotEmpty();
        } else {
            assertThat(got.failureEvents()).isNotEmpty();
            assertThat(got.series()).isNotEmpty();
        }
    }

    @Test
    void bad_input_comes_back_as_the_error_that_names_the_field() {
        SweepRun.Outcome o = new SweepRun("bad", "topology: {type: fat-tree, k: 5}\n", "/", 0).run();
        assertThat(o.result()).isNull();
        assertThat(o.error()).isInstanceOf(ScenarioException.class);
        assertThat(((ScenarioException) o.error()).field()).isEqualTo("topology.k");
    }

    static Map<String, Double> doubles(Map<String, Number> m) {
        Map<String, Double> d = new LinkedHashMap<>();
        m.forEach((k, v) -> d.put(k, v.doubleValue()));
        return d;
    }
}
