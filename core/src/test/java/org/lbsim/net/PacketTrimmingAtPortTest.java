package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link PacketTrimming} at one port, by hand ({@link PortBench}: 100 Gb/s, 80 ps per byte, 1,600 ps gap, 1 us link),
 * with a 1000 B buffer and 500 B headers: the header queue may hold 2 x 1000 = 2,000 B. Everything is enqueued at 0,
 * where the first 1000 B frame fills the buffer and starts at once; the refused data frames become headers until the
 * header queue is exactly full, the next one is dropped, and a refused ACK (no payload to cut) is dropped too.
 */
class PacketTrimmingAtPortTest {
    private static final int HEADER_BYTES = 500;

    @Test
    void refusedDataIsCutToHeadersUntilTheHeaderQueueHoldsTwiceTheBufferAndControlIsDropped() {
        PortBench b = PortBench.lossy(1000);
        b.net.setOverflowPolicy(new PacketTrimming(b.net, HEADER_BYTES));
        long[] priorityBytes = new long[1];
        b.at(0, () -> {
            for (int psn = 0; psn < 6; psn++) {
                b.port.enqueue(b.data(1000, psn));
            }
            b.port.enqueue(b.packet(Packet.ACK, 64, 9));
            priorityBytes[0] = b.port.priorityQueueBytes();
        });
        b.run();

        assertThat(priorityBytes[0]).as("four headers: exactly the 2,000 B the header queue may hold").isEqualTo(4 * HEADER_BYTES);
        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2, 3, 4);
        assertThat(b.arrivals).extracting(PortBench.Arrival::sizeBytes).containsExactly(1000, 500, 500, 500, 500);
        assertThat(b.arrivals).extracting(PortBench.Arrival::headerOnly).containsExactly(false, true, true, true, true);
        // frame 0 holds the line to 81,600; each 500 B header takes 40,000 ps and its gap 1,600 ps
        assertThat(b.arrivalTimes()).containsExactly(80_000 + PortBench.LINK_PS, 121_600 + PortBench.LINK_PS, 163_200 + PortBench.LINK_PS,
                204_800 + PortBench.LINK_PS, 246_400 + PortBench.LINK_PS);
        assertThat(b.port.drops()).as("data frame 5 (the header queue is full) and the ACK").isEqualTo(2);
        assertThat(b.net.totalDropped()).isEqualTo(2);
        assertThat(b.net.counterTotal(b.net.counter("switch.trimmed"))).isEqualTo(4);
        assertThat(b.net.pool().outstanding()).isZero();
    }

    /**
     * A header trimmed upstream takes its own size in the header queue, not this port's header size: three 700 B
     * headers of 1000 B data fill 2,100 B of the 2,000 allowed, but as three 62 B headers already cut they take 186 B.
     */
    @Test
    void aHeaderTrimmedUpstreamIsQueuedAtItsOwnSizeAndNotCountedAsTrimmedAgain() {
        PortBench b = PortBench.lossy(1000);
        b.net.setOverflowPolicy(new PacketTrimming(b.net, 700));
        b.at(0, () -> {
            b.port.enqueue(b.data(1000, 0));
            for (int psn = 1; psn <= 3; psn++) {
                Packet header = b.data(1000, psn);
                header.trimToHeader(62);
                b.port.enqueue(header);
            }
        });
        b.run();

        assertThat(b.arrivalPsns()).containsExactly(0, 1, 2, 3);
        assertThat(b.arrivals).extracting(PortBench.Arrival::sizeBytes).containsExactly(1000, 62, 62, 62);
        assertThat(b.port.drops()).isZero();
        assertThat(b.net.counterTotal(b.net.counter("switch.trimmed"))).isZero();
    }
}
