package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.metrics.JobResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Flow;
import org.lbsim.workload.Workload;
import org.lbsim.workload.Workloads;

/**
 * FSDP's {@code stepsPerCollective}: each collective keeps its first N ring steps, chained as the whole
 * collective's are, and the bound (the critical path) covers exactly those steps.
 */
class FsdpStepsPerCollectiveTest {
    private static final int GPUS = 4;
    private static final int SERVERS = 6;
    private static final int RANKS = GPUS * SERVERS;

    /** 6 leaves of 4 hosts and 4 spines (non-blocking), 4 GPUs per server: each server is one leaf, so every ring flow crosses leaf, spine, leaf. */
    private static TopologySpec leafPerServer() {
        return new TopologySpec.LeafSpine(GPUS, GPUS, SERVERS, GPUS, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
    }

    private static WorkloadSpec.Fsdp fsdp(int layers, int steps) {
        return new WorkloadSpec.Fsdp("llama-7b", layers, steps, GPUS, 0, 0);
    }

    private static Workload build(WorkloadSpec.Fsdp w) {
        Topology t = Topologies.build(leafPerServer());
        return Workloads.build(w, t, 4096, new SplittableRandom(7), null);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void eachCollectiveKeepsItsFirstStepsChainedAsInTheWholeRing(int steps) {
        int layers = 2;
        Workload w = build(fsdp(layers, steps));
        List<Flow> flows = w.flows();
        assertThat(flows).hasSize(layers * 2 * steps * RANKS);
        // steps in order, RANKS flows each: rank k sends to rank k + GPUS; a step waits for the rank's own previous
        // step and for what it received in it, across collectives and layers
        for (int s = 0; s < flows.size() / RANKS; s++) {
            for (int k = 0; k < RANKS; k++) {
                Flow f = flows.get(s * RANKS + k);
                assertThat(f.phase()).isEqualTo(s / steps);
                assertThat(f.bytes()).isEqualTo(104 * 4096L);
                assertThat(f.dst()).isEqualTo(flows.get(s * RANKS + (k + GPUS) % RANKS).src());
                if (s == 0) {
                    assertThat(f.deps()).isEmpty();
                } else {
                    assertThat(f.deps()).containsExactlyInAnyOrder((s - 1) * RANKS + k, (s - 1) * RANKS + (k - GPUS + RANKS) % RANKS);
                }
            }
        }
        assertThat(w.jobs()).hasSize(1);
        assertThat(w.jobs().get(0).phases()).containsExactly("layer2/reduce-scatter", "layer2/all-gather", "layer1/reduce-scatter",
                "layer1/all-gather");
    }

    @Test
    void zeroMeansEveryStepOfTheRing() {
        assertThat(describe(build(fsdp(1, 0)))).isEqualTo(describe(build(fsdp(1, SERVERS - 1))));
        assertThat(build(fsdp(1, 0)).flows()).hasSize(2 * (SERVERS - 1) * RANKS);
    }

    private static List<String> describe(Workload w) {
        return w.flows().stream().map(f -> f.src() + ">" + f.dst() + " " + f.bytes() + " " + f.phase() + " " + java.util.Arrays.toString(f.deps()))
                .toList();
    }

    @Test
    void theBoundIsTheCriticalPathOfTheKeptStepsOnly() {
        // every flow alone takes the same time a; the critical path of 2N chained steps is 2N a
        long one = Simulation.prepare(TestScenarios.scenario(leafPerServer(), "ecmp", fsdp(1, 1), 1), null).lowerBoundPs();
        for (int steps = 2; steps <= SERVERS - 1; steps++) {
            long bound = Simulation.prepare(TestScenarios.scenario(leafPerServer(), "ecmp", fsdp(1, steps), 1), null).lowerBoundPs();
            assertThat(bound).isEqualTo(steps * one);
        }
        // one flow alone at 400 Gb/s (20 ps per byte): 103 frames of 4,178 B with their gap, the last one's 4,158 B on
        // each of the 4 hops, 1 us per hop, then the 64 B ACK over the 4 hops back; N = 1 chains two such flows (the
        // first step of the ReduceScatter, then of the AllGather)
        assertThat(one).isEqualTo(2 * (103 * 83_560L + 4 * 83_160L + 4 * 1_000_000L + 4 * 1_280L + 4 * 1_000_000L));
    }

    @Test
    void theRunMeasuresThePrefixAgainstItsOwnBound() {
        Scenario s = TestScenarios.scenario(leafPerServer(), "ofan", fsdp(1, 2), 3);
        CheckedRun run = CheckedRun.of(s);
        RunResult r = run.result();
        assertThat(r.flowsFinished()).isEqualTo(r.flows()).isEqualTo(2 * 2 * RANKS);
        JobResult job = r.jobs().get(0);
        assertThat(job.idealPs()).isEqualTo(r.lowerBoundPs());
        assertThat(job.jctPs()).isEqualTo(r.cctPs()).isGreaterThanOrEqualTo(r.lowerBoundPs());
        assertThat(job.phases()).extracting(JobResult.Phase::flows).containsExactly(2 * RANKS, 2 * RANKS);
        assertThat(job.busFactor()).isEqualTo(2.0 / SERVERS);
    }

    @Test
    void moreStepsThanTheRingHasOrANegativeCountAreRefusedNamingTheField() {
        assertThatThrownBy(() -> build(fsdp(1, SERVERS))).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("stepsPerCollective").hasMessageContaining("must be at most 5, the ring steps of a collective over 6 servers");
        assertThatThrownBy(() -> fsdp(1, -1)).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("stepsPerCollective").hasMessageContaining("must be >= 0");
    }
}
