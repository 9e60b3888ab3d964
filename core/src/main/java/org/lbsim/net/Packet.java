package org.lbsim.net;

/**
 * One frame in flight. Pooled and reused: every field is primitive and rewritten by
 * {@link PacketPool#acquire}. A packet sits in at most one queue or link at a time, which
 * threads it through {@link #next} (no per-hop allocation).
 */
public final class Packet {
    public static final byte DATA = 0;
    public static final byte ACK = 1;
    public static final byte NACK = 2;
    public static final byte CNP = 3;

    /** The first kind id left for schemes to register (org.lbsim.spi.PacketKinds); ids up to 127. */
    public static final byte FIRST_SCHEME_KIND = 4;

    /** What the packet is: {@link #DATA}, {@link #ACK}, {@link #NACK}, {@link #CNP}, or a kind a scheme registered. */
    public byte kind;
    /** Queue pair (flow) id. */
    public int flow;
    /** Source and destination host. */
    public int src;
    public int dst;
    /** Bytes on the wire, headers included (the inter-frame gap is not part of it). */
    public int sizeBytes;
    /** Payload bytes carried (0 for control packets). */
    public int payloadBytes;
    /** Packet sequence number of a data packet; for an ACK, the PSN being acknowledged. */
    public int psn;
    /** Cumulative ack: every PSN below it has arrived (ACK / NACK only). */
    public int cumAck;
    /** Selective ack bits for PSNs cumAck+1 .. cumAck+64 (ACK only). */
    public long sackBits;
    /** Flow label / UDP source port that switches hash on. */
    public int entropy;
    /** Explicit path id for source-routed schemes; -1 when unused. */
    public int pathId;
    /** Traffic class (DSCP) of the queue pair's flow, on data and on its answers; 0 by default. */
    public byte trafficClass;
    /** Congestion Experienced mark set by a switch. */
    public boolean ecnMarked;
    /** ECN-echo: the data packet this ACK answers was marked. */
    public boolean ecnEcho;
    /** On ACKs: the receiver already holds the whole message (erasure-coded transports stop on it). */
    public boolean receiverComplete;
    /** On ACKs: payload bytes the receiver held when it sent this ACK (htsim's {@code ds_ackno}). */
    public long receivedBytes;
    /**
     * A switch cut this data packet's payload (packet trimming, NDP 3.1; htsim's {@code header_only}):
     * only its header travels on, and the receiver asks for the PSN again.
     */
    public boolean headerOnly;
    /** The sender has sent this PSN before. */
    public boolean retransmission;
    /** When the sender put the packet on the wire. */
    public long sentPs;
    /** When the receiving NIC took the packet off the wire (its last bit arrived). */
    public long nicRxPs;
    /** For ACKs: the {@link #sentPs} of the data packet being acknowledged (DLBF III-C: t1). */
    public long echoSentPs;
    /** For ACKs: the {@link #nicRxPs} of the data packet being acknowledged (DLBF III-C: t2; one-way delay = t2 - t1). */
    public long echoNicRxPs;
    /** Free for the scheme that owns the queue pair (e.g. a notification's flags); 0 unless it writes it. */
    public int schemeBits;
    /** In-network header that ToR switch programs write and read (CONGA's CE and feedback, ConWeave's epoch, phase and flag); 0 unless one writes it. */
    public int switchBits;
    /** In-network timestamps a source ToR stamps for the destination ToR (ConWeave's TX_TSTAMP and TAIL_TSTAMP); 0 unless a switch program writes them. */
    public long switchStampPs;
    public long switchTailStampPs;
    /** Switch hops taken so far. */
    public int hops;
    /** Port the packet entered its current switch on (for per-ingress accounting), -1 at hosts. */
    public int ingressPort;
    /**
     * On a link ({@link Link}): when its own last bit arrives at the far end until the link takes it in, then when that
     * of the packet behind it arrives, so the link learns its next arrival from the packet it delivers, never
     * touching the next one (a cache miss per hop in a large fabric).
     */
    long arrivalPs;
    /** Intrusive link for queues and links. */
    Packet next;
    /** Identity in the pool, for leak checks. */
    final int poolId;

    Packet(int poolId) {
        this.poolId = poolId;
    }

    /** Cuts the payload: the packet becomes its {@code headerBytes}-byte header ({@link #headerOnly}). */
    public void trimToHeader(int headerBytes) {
        headerOnly = true;
        payloadBytes = 0;
        sizeBytes = headerBytes;
    }

    public boolean isData() {
        return kind == DATA;
    }
}
