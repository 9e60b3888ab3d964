package org.lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * ASTRA-sim's ring AllReduce (algorithm astra-ring) against schedules derived by hand from ASTRA-sim's code:
 * Sys::determine_chunk_size / Sys::generate_collective (astra-sim/system/Sys.cc) split the collective into chunks,
 * Ring (astraccl/native_collectives/collective_algorithm/Ring.cc) sends 2(n-1) messages of chunk / n per chunk and
 * rank, each after the message the rank received, and the scheduler starts a rank's next chunk when one of its
 * activeChunks running chunks received its last message.
 */
class CollectiveAstraRingTest {
    private static final Topology FABRIC = Topologies.fatTree(4, new LinkSpec(100, 1000), new LinkSpec(100, 1000),
            new LinkSpec(100, 1000));

    private static Workload build(long bytes, int ranks, int chunks, int activeChunks, double gapNs) {
        WorkloadSpec.JobSpec job = new WorkloadSpec.JobSpec("ar", "all-reduce", "astra-ring", bytes, ranks, "packed", 1, gapNs, 1, 0, 0,
                chunks, activeChunks);
        return Workloads.build(new WorkloadSpec.Jobs(List.of(job), List.of()), FABRIC, 4096, new SplittableRandom(1), null);
    }

    /** One line per flow: "id: src->dst bytes phase deps". */
    private static List<String> schedule(Workload w) {
        List<String> out = new ArrayList<>();
        for (int id = 0; id < w.flows().size(); id++) {
            Flow f = w.flows().get(id);
            out.add(id + ": " + f.src() + "->" + f.dst() + " " + f.bytes() + " p" + f.phase() + " "
                    + Arrays.stream(f.deps()).mapToObj(String::valueOf).collect(Collectors.joining(",", "[", "]")));
        }
        return out;
    }

    @Test
    void fourRanksTwoChunksOneAtATime() {
        // S = 1,000,000 B in 2 chunks of 500,000 B; each message is 500,000 / 4 = 125,000 B. Per chunk 2(4-1) = 6 steps:
        // steps 1-3 ReduceScatter, 4-6 AllGather; rank i sends to i+1 (clockwise). A rank's step-t message waits for the
        // step t-1 message it received from rank i-1 (Ring::run inserts a packet on PacketReceived), not for its own
        // step t-1 send. Chunk 2 starts on rank i when chunk 1 received its last message there: rank i-1's step-6 send.
        List<String> expected = List.of(
                // chunk 1, step 1: StreamInit, no waiting
                "0: 0->1 125000 p0 []", "1: 1->2 125000 p0 []", "2: 2->3 125000 p0 []", "3: 3->0 125000 p0 []",
                // step 2: rank 0 forwards what rank 3 sent (flow 3), rank 1 what rank 0 sent (flow 0), ...
                "4: 0->1 125000 p0 [3]", "5: 1->2 125000 p0 [0]", "6: 2->3 125000 p0 [1]", "7: 3->0 125000 p0 [2]",
                "8: 0->1 125000 p0 [7]", "9: 1->2 125000 p0 [4]", "10: 2->3 125000 p0 [5]", "11: 3->0 125000 p0 [6]",
                // step 4: the AllGather half
                "12: 0->1 125000 p1 [11]", "13: 1->2 125000 p1 [8]", "14: 2->3 125000 p1 [9]", "15: 3->0 125000 p1 [10]",
                "16: 0->1 125000 p1 [15]", "17: 1->2 125000 p1 [12]", "18: 2->3 125000 p1 [13]", "19: 3->0 125000 p1 [14]",
                "20: 0->1 125000 p1 [19]", "21: 1->2 125000 p1 [16]", "22: 2->3 125000 p1 [17]", "23: 3->0 125000 p1 [18]",
                // chunk 2, step 1: rank 0 starts once it received rank 3's last chunk-1 message (flow 23)
                "24: 0->1 125000 p2 [23]", "25: 1->2 125000 p2 [20]", "26: 2->3 125000 p2 [21]", "27: 3->0 125000 p2 [22]",
                "28: 0->1 125000 p2 [27]", "29: 1->2 125000 p2 [24]", "30: 2->3 125000 p2 [25]", "31: 3->0 125000 p2 [26]",
                "32: 0->1 125000 p2 [31]", "33: 1->2 125000 p2 [28]", "34: 2->3 125000 p2 [29]", "35: 3->0 125000 p2 [30]",
                "36: 0->1 125000 p3 [35]", "37: 1->2 125000 p3 [32]", "38: 2->3 125000 p3 [33]", "39: 3->0 125000 p3 [34]",
                "40: 0->1 125000 p3 [39]", "41: 1->2 125000 p3 [36]", "42: 2->3 125000 p3 [37]", "43: 3->0 125000 p3 [38]",
                "44: 0->1 125000 p3 [43]", "45: 1->2 125000 p3 [40]", "46: 2->3 125000 p3 [41]", "47: 3->0 125000 p3 [42]");
        Workload w = build(1_000_000, 4, 2, 1, 0);
        assertThat(schedule(w)).containsExactlyElementsOf(expected);
        assertThat(w.jobs()).singleElement().satisfies(j -> {
            assertThat(j.collective()).isEqualTo("all-reduce/astra-ring");
            assertThat(j.phases()).containsExactly("chunk1/reduce-scatter", "chunk1/all-gather", "chunk2/reduce-scatter", "chunk2/all-gather");
            assertThat(j.bytes()).isEqualTo(1_000_000);
        });
    }

    @Test
    void twoActiveChunksStartTogetherAndTheThirdWaitsForTheFirst() {
        // 3 ranks, 3 chunks of 300 B (S = 900), 100 B messages, 2(3-1) = 4 steps per chunk, 2 chunks at a time
        Workload w = build(900, 3, 3, 2, 10);
        List<Flow> f = w.flows();
        assertThat(f).hasSize(3 * 4 * 3).allMatch(x -> x.bytes() == 100 && x.dst() == (x.src() + 1) % 3);
        // chunks 1 and 2 start at once (ids 0-2 and 12-14); chunk 3 (ids 24-26) on rank i after chunk 1's last
        // message from rank i-1 (chunk 1, step 4: ids 9-11)
        for (int i = 0; i < 3; i++) {
            assertThat(f.get(i).deps()).isEmpty();
            assertThat(f.get(12 + i).deps()).isEmpty();
            assertThat(f.get(24 + i).deps()).containsExactly(9 + (i + 2) % 3);
            assertThat(f.get(24 + i).gapPs()).isEqualTo(10_000); // the endpoint delay after the receive
            assertThat(f.get(i).gapPs()).isZero();
        }
        // a second iteration would wait for the last messages of chunks 2 and 3 (ASTRA-sim: the dataset ends when every stream has)
        Workload twice = Workloads.build(new WorkloadSpec.Jobs(List.of(new WorkloadSpec.JobSpec("ar", "all-reduce", "astra-ring", 900, 3,
                "packed", 1, 0, 2, 0, 0, 3, 2)), List.of()), FABRIC, 4096, new SplittableRandom(1), null);
        assertThat(twice.flows()).hasSize(72);
        assertThat(twice.flows().get(36).deps()).containsExactly(21 + 2, 33 + 2); // rank 0 waits for rank 2's last of chunks 2 and 3
    }

    @ParameterizedTest(name = "S = {0} B, {1} ranks, {2} splits: {3} chunks of {4} B, messages of {5} B")
    @CsvSource({
            "1048576, 64, 4, 4, 262144, 4096",   // the 1 MiB AllReduce on 64 accelerators
            "16777216, 64, 4, 4, 4194304, 65536",
            "1000001, 4, 4, 5, 250000, 62500",   // a remainder is one more whole chunk (Sys::generate_collective: remain_size = chunk_size)
            "100, 64, 4, 4, 64, 1",              // a chunk below n bytes is raised to n (Sys::determine_chunk_size)
    })
    void chunkingFollowsAstraSimsSystemLayer(long bytes, int n, int splits, long streams, long chunk, long message) {
        assertThat(AstraRing.chunking(bytes, splits, n)).containsExactly(streams, chunk, message);
    }

    @Test
    void chunkFieldsBelongToAstraRingAndAstraRingToAllReduce() {
        assertThatThrownBy(() -> new WorkloadSpec.JobSpec("", "all-reduce", "ring", 1 << 20, 4, "packed", 1, 0, 1, 0, 0, 4, 0))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("chunks").hasMessageContaining("astra-ring only");
        assertThatThrownBy(() -> new WorkloadSpec.JobSpec("", "all-gather", "astra-ring", 1 << 20, 4, "packed", 1, 0, 1, 0, 0, 0, 0))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("algorithm");
        assertThatThrownBy(() -> new WorkloadSpec.JobSpec("", "many-to-few", "astra-ring", 1 << 20, 4, "packed", 1, 0, 1, 0, 0, 0, 0))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("ASTRA-sim's ring all-reduce");
        WorkloadSpec.JobSpec defaults = new WorkloadSpec.JobSpec("", "all-reduce", "astra-ring", 1 << 20, 4, "packed", 1, 0, 1, 0, 0);
        assertThat(defaults.astraChunks()).isEqualTo(4);
        assertThat(defaults.astraActiveChunks()).isEqualTo(1);
    }
}
