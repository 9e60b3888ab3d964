package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * How the receiver labels the answers (ACKs, NACKs, a scheme's own packets) of one queue pair.
 * By default an answer echoes the entropy of the latest data packet.
 */
public interface AckPolicy {
    AckPolicy ECHO = (ack, dataEntropy) -> ack.entropy = dataEntropy;

    /** Labels {@code ack}, which answers data that carried {@code dataEntropy}. */
    void stampAck(Packet ack, int dataEntropy);
}
