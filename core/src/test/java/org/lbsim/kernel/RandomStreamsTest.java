package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandomStreamsTest {

    private static long[] draw(SplittableRandom r, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextLong();
        }
        return out;
    }

    @Test
    void theSameNameGivesTheSameNumbers() {
        RandomStreams a = new RandomStreams(42);
        RandomStreams b = new RandomStreams(42);
        assertThat(draw(a.stream("workload"), 100)).isEqualTo(draw(b.stream("workload"), 100));
        assertThat(draw(a.stream("workload"), 100)).isEqualTo(draw(a.stream("workload"), 100));
        assertThat(draw(a.stream("switch", 17), 100)).isEqualTo(draw(b.stream("switch", 17), 100));
    }

    @Test
    void differentNamesIndicesAndSeedsGiveDifferentNumbers() {
        RandomStreams r = new RandomStreams(42);
        long[] workload = draw(r.stream("workload"), 16);
        assertThat(draw(r.stream("failures"), 16)).isNotEqualTo(workload);
        assertThat(draw(r.stream("workloaD"), 16)).isNotEqualTo(workload);
        assertThat(draw(new RandomStreams(43).stream("workload"), 16)).isNotEqualTo(workload);
        assertThat(draw(r.stream("switch", 0), 16)).isNotEqualTo(draw(r.stream("switch", 1), 16));
        assertThat(draw(r.stream("switch", 0), 16)).isNotEqualTo(draw(r.stream("switch"), 16));
        assertThat(draw(r.stream("switch", 3), 16)).isNotEqualTo(draw(r.stream("ecn", 3), 16));
    }

    @Test
    void addingAStreamDoesNotShiftTheNumbersOfAnother() {
        RandomStreams alone = new RandomStreams(7);
        SplittableRandom workloadAlone = alone.stream("workload");
        long[] expected = draw(workloadAlone, 50);

        RandomStreams crowded = new RandomStreams(7);
        SplittableRandom extra = crowded.stream("a-new-consumer");
        draw(extra, 1_000);
        SplittableRandom switches = crowded.stream("switch", 3);
        SplittableRandom workload = crowded.stream("workload");
        long[] interleaved = new long[50];
        for (int i = 0; i < 50; i++) {
            switches.nextLong();
            extra.nextInt();
            interleaved[i] = workload.nextLong();
        }
        assertThat(interleaved).isEqualTo(expected);
        assertThat(crowded.masterSeed()).isEqualTo(7);
    }

    @Test
    void indexedStreamsOfOneNameDoNotCollideOverAFabricsWorthOfComponents() {
        RandomStreams r = new RandomStreams(1);
        java.util.Set<Long> firsts = new java.util.HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            firsts.add(r.stream("entropy", i).nextLong());
        }
        assertThat(firsts).hasSize(100_000);
    }
}
