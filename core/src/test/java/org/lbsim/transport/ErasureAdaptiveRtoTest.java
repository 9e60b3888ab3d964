package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.Packets;

/**
 * The erasure sender's RTO: fixed at rtoUs, or with adaptiveRto the RFC 6298 estimate from the
 * queue pair's own RTT samples (srtt + 4 rttvar), never below rtoUs.
 */
class ErasureAdaptiveRtoTest {
    private static final QpContext QP = new QpContext(0, 0, 1, 100 * 4096L, 100, 4096, 62, 20, 800_000, Time.ns(6253), 800_000);
    private final PacketPool pool = new PacketPool();

    /** The ACK of symbol psn, echoing the time it was sent. */
    private Packet ack(int psn, long sentPs) {
        Packet p = Packets.ack(pool, psn, 0);
        p.echoSentPs = sentPs;
        return p;
    }

    @Test
    void aFixedRtoNeverMoves() {
        IdealErasure e = new IdealErasure(QP, Time.us(80), false);
        e.onSent(0, 0);
        e.onAck(ack(0, 0), Time.us(50));
        e.onSent(1, Time.us(50));
        assertThat(e.rtoPs()).isEqualTo(Time.us(80));
        assertThat(e.timerDeadlinePs()).isEqualTo(Time.us(130));
    }

    @Test
    void theFirstSamplesFollowRfc6298() {
        IdealErasure e = new IdealErasure(QP, Time.us(6.25), true);
        assertThat(e.rtoPs()).as("before any sample: rtoUs").isEqualTo(Time.us(6.25));
        e.onSent(0, 0);
        e.onSent(1, Time.us(1));
        e.onAck(ack(0, 0), Time.us(10)); // R = 10: srtt 10, rttvar 5
        assertThat(e.rtoPs()).isEqualTo(Time.us(30));
        e.onAck(ack(1, Time.us(1)), Time.us(15)); // R = 14: rttvar (15 + 4) / 4 = 4.75, srtt (70 + 14) / 8 = 10.5
        assertThat(e.rtoPs()).isEqualTo(Time.us(10.5) + 4 * Time.us(4.75));
        assertThat(e.timerDeadlinePs()).as("nothing in flight").isEqualTo(Long.MAX_VALUE);
        e.onSent(2, Time.us(16));
        assertThat(e.timerDeadlinePs()).isEqualTo(Time.us(16) + e.rtoPs());
    }

    @Test
    void aLateAckOfASymbolPresumedLostIsStillASample() {
        IdealErasure e = new IdealErasure(QP, Time.us(6.25), true);
        e.onSent(0, 0);
        List<Integer> lost = new ArrayList<>();
        assertThat(e.onTimer(Time.us(6.25), lost::add)).isTrue();
        assertThat(lost).containsExactly(0);
        e.onAck(ack(0, 0), Time.us(20));
        assertThat(e.rtoPs()).as("srtt 20 + 4 x 10").isEqualTo(Time.us(60));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void theRtoTracksSteadyRttsAndNeverFallsBelowTheFloor(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        long rttPs = Time.ns(2000 + rng.nextInt(30_000));
        long floor = Time.us(6.25);
        IdealErasure e = new IdealErasure(QP, floor, true);
        long now = 0;
        for (int psn = 0; psn < 90; psn++) {
            e.onSent(psn, now);
            e.onAck(ack(psn, now), now + rttPs);
            now += rttPs;
            assertThat(e.rtoPs()).isGreaterThanOrEqualTo(floor);
        }
        // rttvar decays by 3/4 per sample: after 90 identical samples the RTO is srtt, or the floor
        assertThat(e.rtoPs()).as("RTT %d ps", rttPs).isBetween(Math.max(floor, rttPs), Math.max(floor, rttPs) + 1000);
    }
}
