package org.lbsim.net;

/**
 * Packet trimming (NDP, Handley et al., SIGCOMM 2017, 3.1; UEC's trimming): a data packet the
 * buffer refuses is not dropped; its payload is cut and its header goes on from the port's priority
 * queue, ahead of the data (htsim's CompositeQueue: csg-htsim sim/compositequeue.cpp:216-218 strips
 * the arriving packet when the low-priority queue is full; sim/ndppacket.h:72-73 leaves its 64-byte
 * header, :105; here the header is the run's {@code packets.headerBytes}, 62 by default). The header keeps the data's PSN, so the receiver NACKs exactly that PSN
 * ({@code ReceiverPolicy.onTrimmed}) and the sender resends it. A header that reaches a later port is
 * queued ahead of the data there too. Headers are dropped only when the priority queue already holds
 * twice the port's buffer (compositequeue.cpp:225). Not modelled: htsim's coin flip that trims a
 * queued packet instead of the arriving one (compositequeue.cpp:142-163), and NDP's pull pacing.
 * Counts {@code switch.trimmed} (data packets cut, at any port).
 */
public final class PacketTrimming implements OverflowPolicy {
    /** The header queue may hold this many times the port's buffer (htsim: 2 x maxsize, compositequeue.cpp:225). */
    static final int HEADER_QUEUE_BUFFERS = 2;

    private final Network network;
    private final int headerBytes;
    private final int trimmed;

    /** @param headerBytes what is left of a trimmed data packet: its header (the run's {@code packets.headerBytes}) */
    public PacketTrimming(Network network, int headerBytes) {
        this.network = network;
        this.headerBytes = headerBytes;
        this.trimmed = network.counter("switch.trimmed");
    }

    @Override
    public boolean onOverflow(EgressPort port, Packet p) {
        if (p.kind != Packet.DATA) {
            return false; // control and schemes' packets carry no payload to cut: drop-tail
        }
        int size = p.headerOnly ? p.sizeBytes : headerBytes;
        if (port.priorityQueueBytes() + size > HEADER_QUEUE_BUFFERS * port.bufferLimitBytes()) {
            return false;
        }
        if (!p.headerOnly) {
            p.trimToHeader(headerBytes);
            network.count(trimmed, port.port(), 1);
        }
        port.enqueuePriority(p);
        return true;
    }

    @Override
    public boolean reorders() {
        return true;
    }
}
