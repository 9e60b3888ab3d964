package org.lbsim.lb.dnlb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** CTCCL 3.2's Eqs. 1-3 and 3.3's Eq. 4, on the numbers alone. */
class PortSegmentsTest {

    /** 4.1's ACL example: 8 uplinks, udf1 = 49152-51199, udf2 = 51200-53247, ..., udf8 = 63488-65535. */
    @Test
    void eightUplinksGiveThePapersAclRanges() {
        assertThat(PortSegments.step(8)).isEqualTo(2048);
        List<String> ranges = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            ranges.add(PortSegments.segmentLow(n, 8) + "-" + PortSegments.segmentHigh(n, 8));
        }
        assertThat(ranges).containsExactly("49152-51199", "51200-53247", "53248-55295", "55296-57343", "57344-59391", "59392-61439",
                "61440-63487", "63488-65535");
    }

    /** Eq. 3 with 8 uplinks: QP q of NIC i starts segment (8i + q) mod 8 = q, at its first port. */
    @Test
    void eq3PutsEachQueuePairOfANicAtTheStartOfItsOwnSegment() {
        for (int nic = 0; nic < 8; nic++) {
            for (int q = 0; q < 8; q++) {
                int sport = PortSegments.sourcePort(nic, 8, q, 8);
                assertThat(sport).isEqualTo(0xC000 + q * 2048);
                assertThat(PortSegments.segmentOf(sport, 8)).isEqualTo(q);
            }
        }
        // one QP per connection: consecutive NICs of a leaf walk the segments
        assertThat(PortSegments.sourcePort(3, 1, 0, 8)).isEqualTo(0xC000 + 3 * 2048);
        assertThat(PortSegments.sourcePort(9, 1, 0, 8)).isEqualTo(0xC000 + 2048); // (9 x 2048) mod 0x4000
        // 2 QPs per connection: NIC 1's QPs are slots 2 and 3
        assertThat(PortSegments.sourcePort(1, 2, 1, 8)).isEqualTo(0xC000 + 3 * 2048);
    }

    /** Every port Eq. 3 gives is a RoCE source port, in range for the leaf ACLs. */
    @Test
    void eq3StaysInTheRoceRange() {
        SplittableRandom rng = new SplittableRandom(18);
        for (int i = 0; i < 10_000; i++) {
            int uplinks = 1 + rng.nextInt(64);
            int sport = PortSegments.sourcePort(rng.nextInt(100_000), 1 + rng.nextInt(1024), rng.nextInt(1024), uplinks);
            assertThat(sport).isBetween(0xC000, 0xFFFF);
            int n = PortSegments.segmentOf(sport, uplinks);
            assertThat(sport).isBetween(PortSegments.segmentLow(n, uplinks), PortSegments.segmentHigh(n, uplinks));
        }
    }

    static Stream<Arguments> leaves() {
        List<Arguments> out = new ArrayList<>();
        for (int uplinks : new int[] {2, 4, 8, 16, 32}) {
            for (int nics = 1; nics <= 16; nics++) {
                for (int qps : new int[] {1, 2, 3, 4, 8, 16}) {
                    out.add(Arguments.of(uplinks, nics, qps));
                }
            }
        }
        return out.stream();
    }

    /**
     * Eq. 4: with nNIC x nqp >= uplinks every uplink gets exactly nNIC x nqp / uplinks queue pairs when
     * that divides, and never more than one apart otherwise; below it only nNIC x nqp uplinks carry one
     * queue pair each (the reduced balance of Fig. 6c's small configurations).
     */
    @ParameterizedTest
    @MethodSource("leaves")
    void queuePairsPerUplinkFollowEq4(int uplinks, int nics, int qps) {
        int[] perUplink = new int[uplinks];
        for (int nic = 0; nic < nics; nic++) {
            for (int q = 0; q < qps; q++) {
                perUplink[PortSegments.segmentOf(PortSegments.sourcePort(nic, qps, q, uplinks), uplinks)]++;
            }
        }
        int slots = nics * qps;
        int min = java.util.Arrays.stream(perUplink).min().orElseThrow();
        int max = java.util.Arrays.stream(perUplink).max().orElseThrow();
        if (slots >= uplinks && slots % uplinks == 0) {
            assertThat(perUplink).containsOnly(slots / uplinks);
        } else if (slots >= uplinks) {
            assertThat(min).isEqualTo(slots / uplinks);
            assertThat(max).isEqualTo(slots / uplinks + 1);
        } else {
            assertThat(java.util.Arrays.stream(perUplink).filter(c -> c > 0).count()).isEqualTo(slots);
            assertThat(max).isEqualTo(1);
        }
    }

    /** Eq. 1 needs a whole port per segment: from 1 uplink (the whole range) to 16384 (one port each). */
    @Test
    void stepTakesOneToSixteenThousandThreeHundredEightyFourUplinks() {
        assertThat(PortSegments.step(1)).isEqualTo(16384);
        assertThat(PortSegments.step(16384)).isEqualTo(1);
        assertThatThrownBy(() -> PortSegments.step(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PortSegments.step(16385)).isInstanceOf(IllegalArgumentException.class);
    }

    /** With 3 uplinks (step 5461) the last segment also takes the remainder: 0xFFFF lies in segment 2. */
    @Test
    void theLastSegmentTakesTheRemainderWhenTheUplinksDoNotDivideTheRange() {
        assertThat(PortSegments.segmentLow(2, 3)).isEqualTo(0xC000 + 2 * 5461);
        assertThat(PortSegments.segmentHigh(2, 3)).isEqualTo(0xFFFF);
        assertThat(PortSegments.segmentOf(0xFFFF, 3)).isEqualTo(2);
        assertThat(PortSegments.segmentOf(0xC000 + 3 * 5461, 3)).isEqualTo(2);
    }
}
