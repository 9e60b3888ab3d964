package org.lbsim.scenario;

/** Packet sizes on the wire (OFAN 5: RoCEv2-sized packets, 4096 B payload + 62 B header, 64 B ACKs, 20 B gap). */
public record PacketSpec(
        @Doc("maximum payload bytes per data packet") int mtuBytes,
        @Doc("header bytes added to every data packet") int headerBytes,
        @Doc("bytes of an ACK / NACK / CNP control packet") int ackBytes,
        @Doc("inter-frame gap plus preamble, bytes of idle line after every frame") int interFrameGapBytes) {

    public PacketSpec {
        ScenarioException.require(mtuBytes >= 1 && mtuBytes <= 1 << 20, "mtuBytes", "must be between 1 and 1048576, got " + mtuBytes);
        ScenarioException.require(headerBytes >= 0 && headerBytes <= 4096, "headerBytes", "must be between 0 and 4096, got " + headerBytes);
        ScenarioException.require(ackBytes >= 1 && ackBytes <= 4096, "ackBytes", "must be between 1 and 4096, got " + ackBytes);
        ScenarioException.require(interFrameGapBytes >= 0 && interFrameGapBytes <= 4096, "interFrameGapBytes", "must be between 0 and 4096, got " + interFrameGapBytes);
    }

    public static PacketSpec defaults() {
        return new PacketSpec(4096, 62, 64, 20);
    }
}
