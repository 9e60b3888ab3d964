package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;
import org.lbsim.workload.Flow;
import org.lbsim.workload.Workloads;

/** The heap estimate follows the memory model: dependent flows cost their full queue-pair state only while alive. */
class FeasibilityEstimateTest {
    @Test
    void levelsFollowTheDependenciesWhateverTheOrderOfTheFlows() {
        List<Flow> flows = List.of(
                new Flow(0, 1, 1000, 0).withDeps(new int[] {2}, 0),
                new Flow(1, 2, 1000, 0),
                new Flow(2, 3, 1000, 0).withDeps(new int[] {1}, 0),
                new Flow(3, 0, 1000, 0).withDeps(new int[] {0, 1}, 0));
        assertThat(Feasibility.levels(flows)).containsExactly(2, 0, 1, 3);
    }

    private static Feasibility.Estimate fsdp(int layers) {
        Topology t = Topologies.build(TestScenarios.fatTree(4));
        WorkloadSpec w = new WorkloadSpec.Fsdp("llama-7b", layers, 0, 4, 2, 0);
        return Feasibility.estimate(Workloads.build(w, t, 4096, new SplittableRandom(1), null).flows(), 1, 4096);
    }

    @Test
    void moreLayersCostOnlyTheWaitingStateOfTheirQueuePairs() {
        // 2 servers x 4 GPUs: one ReduceScatter and one AllGather step per GPU and layer, 104 packets each
        Feasibility.Estimate four = fsdp(4);
        assertThat(four.qps()).isEqualTo(8); // the first step of each GPU waits for nothing
        assertThat(four.packets()).isEqualTo(8 * 104);
        assertThat(four.waitingQps()).isEqualTo(8 * 2 * 4 - 8);
        assertThat(four.liveQps()).isEqualTo(2 * 8); // the widest level, twice
        assertThat(four.livePackets()).isEqualTo(2 * 8 * 104);
        Feasibility.Estimate twenty = fsdp(20); // Llama 7B has 32 layers
        assertThat(twenty.liveQps()).isEqualTo(four.liveQps());
        assertThat(twenty.bytes() - four.bytes()).isEqualTo(8 * 2 * 16 * Feasibility.BYTES_PER_WAITING_QP);
    }
}
