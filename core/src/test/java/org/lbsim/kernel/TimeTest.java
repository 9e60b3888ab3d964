package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TimeTest {

    @ParameterizedTest(name = "{0} Gb/s: 1 B = {1} ps")
    @CsvSource({"100, 80", "200, 40", "400, 20", "800, 10"})
    void serializationIsExactAtTheUsualRates(long gbps, long psPerByte) {
        long mbps = gbps * 1000;
        assertThat(Time.serializationPs(1, mbps)).isEqualTo(psPerByte);
        assertThat(Time.serializationPs(64, mbps)).isEqualTo(64 * psPerByte);
        assertThat(Time.serializationPs(4158, mbps)).isEqualTo(4158 * psPerByte);
        assertThat(Time.serializationPs(0, mbps)).isZero();
        SplittableRandom rng = new SplittableRandom(gbps);
        for (int i = 0; i < 10_000; i++) {
            long bytes = rng.nextLong(1L << 40);
            long ps = Time.serializationPs(bytes, mbps);
            assertThat(ps).isEqualTo(bytes * psPerByte);
            assertThat(ps * mbps).isEqualTo(bytes * 8 * 1_000_000); // exactly bits / rate, no rounding
        }
    }

    @Test
    void serializationRoundsUpToAWholePicosecondAtOtherRates() {
        // 300 Gb/s: 1 B = 26.67 ps
        assertThat(Time.serializationPs(1, 300_000)).isEqualTo(27);
        assertThat(Time.serializationPs(3, 300_000)).isEqualTo(80);
        // 25 Gb/s is exact again: 320 ps per byte
        assertThat(Time.serializationPs(1, 25_000)).isEqualTo(320);
    }

    @ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 3, 4})
    void thePrecomputedPicosecondsPerByteGiveTheDividedTimeBitForBit(int seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        long[] usual = {1_000, 10_000, 25_000, 40_000, 100_000, 200_000, 400_000, 800_000, 1_600_000, 8_000_000, 300_000, 3_200_000, 123_457};
        for (int i = 0; i < 20_000; i++) {
            long mbps = i < usual.length * 100 ? usual[i % usual.length] : 1 + rng.nextLong(10_000_000);
            long bytes = rng.nextLong(1L << 32);
            long exact = Time.exactPsPerByte(mbps);
            assertThat(Time.serializationPs(bytes, mbps, exact)).as("%d B at %d Mb/s", bytes, mbps).isEqualTo(Time.serializationPs(bytes, mbps));
            if (exact == 0) {
                assertThat(8_000_000L % mbps).isNotZero(); // only a rate without a whole ps per byte divides
            }
        }
        assertThat(Time.exactPsPerByte(800_000)).isEqualTo(10);
        assertThat(Time.exactPsPerByte(300_000)).isZero();
        assertThat(Time.exactPsPerByte(3_200_000)).isZero(); // 2.5 ps per byte
    }

    @Test
    void unitConversionsRoundToTheNearestPicosecond() {
        assertThat(Time.ns(0.5)).isEqualTo(500);
        assertThat(Time.ns(0.0004)).isZero();
        assertThat(Time.us(17.05674)).isEqualTo(17_056_740);
        assertThat(Time.toUs(17_056_740)).isEqualTo(17.05674);
        assertThat(Time.toNs(640)).isEqualTo(0.64);
    }
}
