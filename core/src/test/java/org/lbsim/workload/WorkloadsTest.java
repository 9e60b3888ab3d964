package org.lbsim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.WorkloadSpec;

class WorkloadsTest {

    private static int[] range(int n) {
        return IntStream.range(0, n).toArray();
    }

    @ParameterizedTest(name = "{0} hosts")
    @ValueSource(ints = {2, 3, 5, 16, 128})
    void aPermutationIsADerangementUsingEveryHostOnceAsSenderAndOnceAsReceiver(int n) {
        for (long seed = 1; seed <= 50; seed++) {
            List<Flow> flows = Workloads.permutation(range(n), 4096, new SplittableRandom(seed));
            assertThat(flows).hasSize(n);
            assertThat(flows).allSatisfy(f -> {
                assertThat(f.src()).isNotEqualTo(f.dst());
                assertThat(f.bytes()).isEqualTo(4096);
                assertThat(f.startPs()).isZero();
            });
            assertThat(flows.stream().map(Flow::src)).containsExactlyInAnyOrderElementsOf(IntStream.range(0, n).boxed().toList());
            assertThat(flows.stream().map(Flow::dst)).containsExactlyInAnyOrderElementsOf(IntStream.range(0, n).boxed().toList());
        }
    }

    @Test
    void everyDerangementOfFourHostsIsAboutEquallyLikely() {
        // 4 hosts have 9 derangements; 9000 draws: each should come up 1000 +- 4 sigma times
        Map<String, Integer> seen = new HashMap<>();
        SplittableRandom rng = new SplittableRandom(3);
        int draws = 9_000;
        for (int i = 0; i < draws; i++) {
            String key = Workloads.permutation(range(4), 1, rng).stream().map(f -> String.valueOf(f.dst())).reduce("", String::concat);
            seen.merge(key, 1, Integer::sum);
        }
        double expected = draws / 9.0;
        double sigma = Math.sqrt(draws * (1 / 9.0) * (8 / 9.0));
        assertThat(seen).hasSize(9);
        assertThat(seen.values()).allSatisfy(c -> assertThat((double) c).isBetween(expected - 4 * sigma, expected + 4 * sigma));
    }

    @ParameterizedTest(name = "{1} of {0} hosts")
    @CsvSource({"16, 5", "128, 2", "128, 100", "16, 16", "16, 0"})
    void aPermutationOverSomeHostsUsesExactlyThoseHostsOnEachSide(int hostCount, int participants) {
        for (long seed = 1; seed <= 20; seed++) {
            List<Flow> flows = Workloads.generate(new WorkloadSpec.Permutation(100, participants), hostCount, new SplittableRandom(seed), null);
            int n = participants == 0 ? hostCount : participants;
            Set<Integer> senders = new HashSet<>();
            Set<Integer> receivers = new HashSet<>();
            flows.forEach(f -> {
                senders.add(f.src());
                receivers.add(f.dst());
                assertThat(f.src()).isNotEqualTo(f.dst()).isBetween(0, hostCount - 1);
            });
            assertThat(flows).hasSize(n);
            assertThat(senders).hasSize(n).isEqualTo(receivers);
        }
    }

    @Test
    void differentStreamsDrawDifferentPermutations() {
        List<Flow> a = Workloads.permutation(range(64), 1, new SplittableRandom(1));
        List<Flow> b = Workloads.permutation(range(64), 1, new SplittableRandom(2));
        assertThat(b).isNotEqualTo(a);
        assertThat(Workloads.permutation(range(64), 1, new SplittableRandom(1))).isEqualTo(a);
    }

    @ParameterizedTest(name = "{0} hosts")
    @ValueSource(ints = {2, 3, 16, 40})
    void allToAllSendsOneMessageForEveryOrderedPairOfDistinctHosts(int n) {
        List<Flow> flows = Workloads.allToAll(range(n), 777);
        assertThat(flows).hasSize(n * (n - 1));
        Set<Long> pairs = new HashSet<>();
        for (Flow f : flows) {
            assertThat(f.src()).isNotEqualTo(f.dst());
            assertThat(f.bytes()).isEqualTo(777);
            assertThat(f.startPs()).isZero();
            pairs.add((long) f.src() * n + f.dst());
        }
        assertThat(pairs).hasSize(n * (n - 1));
    }

    @ParameterizedTest(name = "{0} hosts")
    @ValueSource(ints = {2, 3, 16, 40})
    void allToAllIsStaggeredSoThatEachRoundOfQueuePairsIsAPermutation(int n) {
        // the i-th flow of every host (the queue pairs a round-robin NIC serves at the same step) must
        // address every host exactly once: host s sends to s+1, s+2, ... (mod n)
        List<Flow> flows = Workloads.allToAll(range(n), 1);
        for (int round = 0; round < n - 1; round++) {
            Set<Integer> receivers = new HashSet<>();
            for (int s = 0; s < n; s++) {
                Flow f = flows.get(s * (n - 1) + round);
                assertThat(f.src()).isEqualTo(s);
                assertThat(f.dst()).isEqualTo((s + round + 1) % n);
                receivers.add(f.dst());
            }
            assertThat(receivers).hasSize(n);
        }
    }

    @Test
    void allToAllOverSomeHostsIsStaggeredAmongTheParticipants() {
        int[] hosts = {3, 7, 8, 20};
        List<Flow> flows = Workloads.allToAll(hosts, 1);
        assertThat(flows.stream().filter(f -> f.src() == 8).map(Flow::dst)).containsExactly(20, 3, 7);
        assertThat(flows.stream().filter(f -> f.src() == 20).map(Flow::dst)).containsExactly(3, 7, 8);
    }

    @Test
    void allToAllOverSomeHostsStaysAmongThem() {
        List<Flow> flows = Workloads.generate(new WorkloadSpec.AllToAll(10, 6), 128, new SplittableRandom(9), null);
        assertThat(flows).hasSize(30);
        Set<Integer> hosts = new HashSet<>();
        flows.forEach(f -> {
            hosts.add(f.src());
            hosts.add(f.dst());
        });
        assertThat(hosts).hasSize(6);
    }
}
