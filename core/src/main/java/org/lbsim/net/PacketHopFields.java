package org.lbsim.net;

/**
 * The fields of {@link Packet} that every hop touches (link FIFO, switch forwarding and hashing,
 * port admission and ECN, the first switch's drop list). HotSpot lays out a superclass's fields
 * before its subclass's, so declaring them here keeps them together at the start of the object,
 * 64 bytes with the header, instead of spread over the 152 bytes (three to four cache lines) the
 * JVM's own ordering (longs, then ints, then bytes, then the reference) gives them: at k = 32 the
 * 1.5 M packets do not fit in any cache and each hop's first touch of a packet misses (issue 21).
 * Every field is {@link Packet}'s public API; use it through {@code Packet}.
 */
abstract class PacketHopFields {
    /** What the packet is: {@link #DATA}, {@link #ACK}, {@link #NACK}, {@link #CNP}, or a kind a scheme registered. */
    public byte kind;
    /** Queue pair (flow) id. */
    public int flow;
    /** Source and destination host. */
    public int src;
    public int dst;
    /** Bytes on the wire, headers included (the inter-frame gap is not part of it). */
    public int sizeBytes;
    /** Packet sequence number of a data packet; for an ACK, the PSN being acknowledged. */
    public int psn;
    /** Flow label / UDP source port that switches hash on. */
    public int entropy;
    /** Explicit path id for source-routed schemes; -1 when unused. */
    public int pathId;
    /** Traffic class (DSCP) of the queue pair's flow, on data and on its answers; 0 by default. */
    public byte trafficClass;
    /** Congestion Experienced mark set by a switch. */
    public boolean ecnMarked;
    /** The sender has sent this PSN before. */
    public boolean retransmission;
    /** Switch hops taken so far. */
    public int hops;
    /** Port the packet entered its current switch on (for per-ingress accounting), -1 at hosts. */
    public int ingressPort;
    /** On a link: the arrival time of the packet behind it (Link). */
    long nextArrivalPs;
    /** Intrusive link for queues and links. */
    Packet next;
}
