package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A switch's packet memory on its own: a fixed share per port (a frame joins while the port's queue
 * plus the frame fits the share), or one shared pool under the Choudhury-Hahne dynamic threshold (a
 * frame joins while it fits the free memory and the port's queue plus the frame stays within alpha x
 * free memory).
 */
class BufferModelTest {
    private static final int FRAME = 4158;

    @Test
    void aPerPortBufferAdmitsUpToItsShareInclusive() {
        BufferModel b = BufferModel.perPort(2 * FRAME);
        assertThat(b.isShared()).isFalse();
        assertThat(b.portLimitBytes()).isEqualTo(8_316);
        assertThat(b.sharedTotalBytes()).isZero();
        assertThat(b.admit(0, FRAME)).isTrue();
        assertThat(b.admit(FRAME, FRAME)).as("4,158 + 4,158 = 8,316: exactly full").isTrue();
        assertThat(b.admit(FRAME + 1, FRAME)).as("8,317 > 8,316").isFalse();
        assertThat(b.admit(0, 2 * FRAME + 1)).isFalse();
    }

    @Test
    void aPerPortBufferKeepsNoSharedAccountsAndNeverRefusesOnSharedMemory() {
        BufferModel b = BufferModel.perPort(8_316);
        b.add(FRAME);
        b.add(FRAME);
        assertThat(b.sharedUsedBytes()).isZero();
        assertThat(b.maxSharedUsedBytes()).isZero();
        assertThat(b.fitsShared(1_000_000)).isTrue();
        b.remove(FRAME);
        assertThat(b.sharedUsedBytes()).isZero();
        // the per-port share alone decides, however many frames other ports were charged
        assertThat(b.admit(FRAME, FRAME)).isTrue();
    }

    @Test
    void aSharedBufferReportsItsTotalAsEveryPortsLimit() {
        BufferModel b = BufferModel.sharedDynamic(150_000, 1.0);
        assertThat(b.isShared()).isTrue();
        assertThat(b.sharedTotalBytes()).isEqualTo(150_000);
        assertThat(b.portLimitBytes()).isEqualTo(150_000);
        assertThat(b.sharedUsedBytes()).isZero();
    }

    @Test
    void aSharedBufferCountsTheMemoryInUseAndItsPeak() {
        BufferModel b = BufferModel.sharedDynamic(100_000, 1.0);
        b.add(3_000);
        b.add(2_000);
        assertThat(b.sharedUsedBytes()).isEqualTo(5_000);
        b.remove(4_000);
        assertThat(b.sharedUsedBytes()).isEqualTo(1_000);
        b.add(1_000);
        assertThat(b.sharedUsedBytes()).isEqualTo(2_000);
        assertThat(b.maxSharedUsedBytes()).as("peak of 3,000 + 2,000").isEqualTo(5_000);
        b.add(4_000);
        assertThat(b.maxSharedUsedBytes()).as("a new peak").isEqualTo(6_000);
        b.remove(6_000);
        assertThat(b.sharedUsedBytes()).isZero();
        assertThat(b.maxSharedUsedBytes()).isEqualTo(6_000);
    }

    @Test
    void theDynamicThresholdIsAlphaTimesTheFreeMemory() {
        // 100,000 B total, 60,000 B used: 40,000 B free; alpha 1 lets a port hold up to 40,000 B
        BufferModel b = BufferModel.sharedDynamic(100_000, 1.0);
        b.add(60_000);
        assertThat(b.admit(36_000, 4_000)).as("36,000 + 4,000 = 40,000 = 1 x free").isTrue();
        assertThat(b.admit(36_001, 4_000)).as("40,001 > 40,000").isFalse();
        // alpha 0.5 halves it: 20,000 B
        BufferModel half = BufferModel.sharedDynamic(100_000, 0.5);
        half.add(60_000);
        assertThat(half.admit(16_000, 4_000)).isTrue();
        assertThat(half.admit(16_001, 4_000)).isFalse();
        // alpha 2 doubles it to 80,000 B, but the frame must still fit the 40,000 B free
        BufferModel twice = BufferModel.sharedDynamic(100_000, 2.0);
        twice.add(60_000);
        assertThat(twice.admit(76_000, 4_000)).isTrue();
        assertThat(twice.admit(76_001, 4_000)).isFalse();
    }

    @Test
    void theThresholdShrinksAsOtherPortsFillTheSharedMemory() {
        // a port holding 30,000 B: admitted while 30,000 + 4,000 <= free, i.e. free >= 34,000 (used <= 66,000)
        BufferModel b = BufferModel.sharedDynamic(100_000, 1.0);
        b.add(66_000);
        assertThat(b.admit(30_000, 4_000)).isTrue();
        b.add(1);
        assertThat(b.admit(30_000, 4_000)).isFalse();
        b.remove(10_001);
        assertThat(b.admit(30_000, 4_000)).as("memory freed elsewhere raises the threshold").isTrue();
    }

    @Test
    void aFrameLargerThanTheFreeMemoryIsRefusedWhateverAlpha() {
        // 2,000 B free; alpha 8 would allow a port 16,000 B, but a frame must fit the free memory itself
        BufferModel b = BufferModel.sharedDynamic(100_000, 8.0);
        b.add(98_000);
        assertThat(b.admit(0, 2_000)).as("exactly the free memory").isTrue();
        assertThat(b.admit(0, 2_001)).isFalse();
    }

    @Test
    void fitsSharedIsTheHardLimitOfTheSharedMemory() {
        BufferModel b = BufferModel.sharedDynamic(10_000, 0.1);
        b.add(6_000);
        assertThat(b.fitsShared(4_000)).as("6,000 + 4,000 = 10,000").isTrue();
        assertThat(b.fitsShared(4_001)).isFalse();
        // the dynamic threshold (0.1 x 4,000 = 400 B) does not enter
        assertThat(b.admit(0, 4_000)).isFalse();
    }
}
