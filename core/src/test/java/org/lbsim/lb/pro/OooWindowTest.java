package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PRO III-B, Fig. 4 and Algorithm 2: the receiver's out-of-order window. */
class OooWindowTest {
    private static List<Integer> nacks(OooWindow w, boolean[] arrived) {
        int head = 0;
        while (head < arrived.length && arrived[head]) {
            head++;
        }
        List<Integer> out = new ArrayList<>();
        for (int psn = w.nextNack(head, p -> arrived[p]); psn >= 0; psn = w.nextNack(head, p -> arrived[p])) {
            out.add(psn);
        }
        return out;
    }

    @Test
    void figure4WindowEightTellsLossFromReordering() {
        // Fig. 4: PSN 0 and 4-8, 11-12, 16 have arrived; wnd = 8
        boolean[] arrived = new boolean[17];
        OooWindow w = new OooWindow(8);
        for (int psn : new int[] {0, 4, 5, 6, 7, 8, 11, 12, 16}) {
            arrived[psn] = true;
            w.accepted(psn);
        }
        assertThat(w.tail()).isEqualTo(16);
        for (int psn : new int[] {1, 2, 3}) {
            assertThat(w.lost(psn)).as("PSN %d is older than tail - wnd: lost", psn).isTrue();
        }
        for (int psn : new int[] {9, 10, 13, 14, 15}) {
            assertThat(w.lost(psn)).as("PSN %d is inside the window: out of order", psn).isFalse();
        }
        assertThat(nacks(w, arrived)).containsExactly(1, 2, 3);
        assertThat(nacks(w, arrived)).as("each lost PSN is NACKed once").isEmpty();
        // more arrivals push the window: 9 and 10 fall out of it and are NACKed then
        boolean[] longer = java.util.Arrays.copyOf(arrived, 20);
        longer[19] = true;
        w.accepted(19);
        assertThat(nacks(w, longer)).containsExactly(9, 10);
    }

    @Test
    void aimdStartsAtTheGivenWindowAddsOnePerRepeatAndHalvesPerTimeout() {
        OooWindow w = new OooWindow(13);
        assertThat(w.window()).isEqualTo(13);
        w.repeated();
        w.repeated();
        assertThat(w.window()).isEqualTo(15);
        w.timedOut();
        assertThat(w.window()).isEqualTo(7);
        w.timedOut();
        w.timedOut();
        w.timedOut();
        assertThat(w.window()).isEqualTo(1);
        w.timedOut();
        assertThat(w.window()).as("the window never closes").isEqualTo(1);
        w.repeated();
        assertThat(w.window()).isEqualTo(2);
    }

    @Test
    void aHalvedWindowNacksWhatTheWiderOneHeldAsReordering() {
        boolean[] arrived = new boolean[10];
        OooWindow w = new OooWindow(8);
        for (int psn : new int[] {0, 1, 3, 4, 5, 6, 7, 8, 9}) {
            arrived[psn] = true;
            w.accepted(psn);
        }
        assertThat(nacks(w, arrived)).as("PSN 2 is within 8 of tail 9").isEmpty();
        w.timedOut();
        assertThat(nacks(w, arrived)).containsExactly(2);
    }

    @Test
    void theMissingPsnExactlyWndBehindTheTailIsStillReorderingAndOneArrivalLaterItIsLost() {
        // wnd = 4, tail = 6: tail - wnd = 2 is the window's oldest PSN (Fig. 4: lost means older than tail - wnd)
        boolean[] arrived = new boolean[8];
        OooWindow w = new OooWindow(4);
        for (int psn : new int[] {0, 3, 4, 5, 6}) {
            arrived[psn] = true;
            w.accepted(psn);
        }
        assertThat(w.lost(1)).isTrue();
        assertThat(w.lost(2)).as("PSN 2 = tail - wnd: inside the window").isFalse();
        assertThat(nacks(w, arrived)).containsExactly(1);
        arrived[7] = true;
        w.accepted(7);
        assertThat(w.lost(2)).isTrue();
        assertThat(w.lost(3)).isFalse();
        assertThat(nacks(w, arrived)).containsExactly(2);
    }
}
