package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The bit sets of the receivers' and senders' PSN maps ({@link Bits} over a bare {@code long[]},
 * {@link BitSet64} as an object): sized in whole words, grown on a set beyond the end, and read
 * beyond the end as clear bits.
 */
class BitsTest {

    @Test
    void wordsHoldTheBitsInWholeWordsAndAtLeastOne() {
        assertThat(Bits.words(0)).hasSize(1);
        assertThat(Bits.words(1)).hasSize(1);
        assertThat(Bits.words(64)).hasSize(1);
        assertThat(Bits.words(65)).hasSize(2);
        assertThat(Bits.words(128)).hasSize(2);
        assertThat(Bits.words(129)).hasSize(3);
    }

    @Test
    void aBitSetIsReadBackAndItsNeighboursStayClear() {
        long[] w = Bits.words(128);
        for (int i : new int[] {0, 5, 63, 64, 127}) {
            assertThat(Bits.set(w, i)).as("no growth within the words").isSameAs(w);
        }
        for (int i = 0; i < 128; i++) {
            assertThat(Bits.get(w, i)).as("bit %d", i).isEqualTo(i == 0 || i == 5 || i == 63 || i == 64 || i == 127);
        }
        assertThat(w).containsExactly(1L | 1L << 5 | 1L << 63, 1L | 1L << 63);
    }

    @Test
    void bitsBeyondTheWordsReadClearAndClearingThemChangesNothing() {
        long[] w = {-1L};
        assertThat(Bits.get(w, 63)).isTrue();
        assertThat(Bits.get(w, 64)).isFalse();
        assertThat(Bits.get(w, 1000)).isFalse();
        Bits.clear(w, 64);
        Bits.clear(w, 1000);
        assertThat(w).containsExactly(-1L);
    }

    @Test
    void clearingABitKeepsEveryOther() {
        long[] w = {-1L, -1L};
        Bits.clear(w, 3);
        Bits.clear(w, 64);
        Bits.clear(w, 127);
        assertThat(w).containsExactly(~(1L << 3), ~1L & ~(1L << 63));
        assertThat(Bits.get(w, 3)).isFalse();
        assertThat(Bits.get(w, 2)).isTrue();
        assertThat(Bits.get(w, 4)).isTrue();
    }

    @Test
    void aSetBeyondTheWordsGrowsToTheLargerOfTwiceTheWordsAndTheWordItNeeds() {
        long[] one = Bits.words(64);
        long[] two = Bits.set(one, 64);
        assertThat(two).as("the first bit past the end doubles the words").hasSize(2).containsExactly(0L, 1L);
        assertThat(one).containsExactly(0L);
        long[] four = Bits.set(Bits.words(64), 200);
        assertThat(four).as("bit 200 lies in word 3: four words, more than twice one").hasSize(4);
        assertThat(Bits.get(four, 200)).isTrue();
        long[] eight = Bits.set(four, 300);
        assertThat(eight).as("bit 300 lies in word 4: twice four words").hasSize(8);
        assertThat(Bits.get(eight, 200)).as("kept across the growth").isTrue();
        assertThat(Bits.get(eight, 300)).isTrue();
        assertThat(eight[4]).isEqualTo(1L << (300 - 256));
    }

    @Test
    void aWindowAtAWordBoundaryIsThatWord() {
        long[] w = {0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L};
        assertThat(Bits.window(w, 0)).isEqualTo(w[0]);
        assertThat(Bits.window(w, 64)).isEqualTo(w[1]);
        assertThat(Bits.window(w, 128)).as("past the end").isZero();
        assertThat(Bits.window(w, 1000)).isZero();
    }

    @Test
    void aWindowAcrossTwoWordsTakesTheHighBitsOfTheFirstAndTheLowBitsOfTheNext() {
        long[] w = {0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L};
        for (int from = 1; from < 64; from++) {
            long expected = 0;
            for (int k = 0; k < 64; k++) {
                if (Bits.get(w, from + k)) {
                    expected |= 1L << k;
                }
            }
            assertThat(Bits.window(w, from)).as("from %d", from).isEqualTo(expected);
        }
        assertThat(Bits.window(w, 4)).isEqualTo(0x0012_3456_789A_BCDEL);
    }

    @Test
    void aWindowInTheLastWordReadsClearBitsBeyondIt() {
        long[] w = {0L, 0xFEDC_BA98_7654_3210L};
        assertThat(Bits.window(w, 68)).isEqualTo(0x0FED_CBA9_8765_4321L);
        assertThat(Bits.window(w, 127)).isEqualTo(1L);
    }

    @Test
    void theNextClearBitIsFoundInTheWordOfTheStartOrAfterIt() {
        long[] w = {0b1011L, -1L, 0L};
        assertThat(Bits.nextClear(w, 0)).isEqualTo(2);
        assertThat(Bits.nextClear(w, 2)).isEqualTo(2);
        assertThat(Bits.nextClear(w, 3)).as("bits below the start are not looked at").isEqualTo(4);
        assertThat(Bits.nextClear(w, 70)).as("a full word is skipped").isEqualTo(128);
        assertThat(Bits.nextClear(w, 130)).isEqualTo(130);
        assertThat(Bits.nextClear(w, 500)).as("past the words every bit is clear").isEqualTo(500);
    }

    @Test
    void withEveryWordFullTheNextClearBitIsTheFirstBeyondThem() {
        assertThat(Bits.nextClear(new long[] {-1L, -1L}, 5)).isEqualTo(128);
        assertThat(Bits.nextClear(new long[] {-1L}, 63)).isEqualTo(64);
        long[] oneLeft = {-1L, ~(1L << 40)};
        assertThat(Bits.nextClear(oneLeft, 1)).isEqualTo(104);
    }

    @Test
    void theObjectFormGrowsAndReadsAsTheBareWords() {
        BitSet64 set = new BitSet64(10);
        assertThat(set.get(3)).isFalse();
        set.set(3);
        set.set(200);
        assertThat(set.get(3)).isTrue();
        assertThat(set.get(200)).isTrue();
        assertThat(set.get(199)).isFalse();
        assertThat(set.window(197)).isEqualTo(0b1000L);
        assertThat(set.nextClear(3)).isEqualTo(4);
        set.set(4);
        assertThat(set.nextClear(3)).isEqualTo(5);
        set.clear(3);
        assertThat(set.get(3)).isFalse();
        assertThat(set.nextClear(0)).isEqualTo(0);
        assertThat(set.nextClear(3)).isEqualTo(3);
        assertThat(set.window(0)).isEqualTo(0b10000L);
    }
}
