package org.lbsim.lb;

import org.lbsim.net.Packet;

/** How the receiver labels the ACKs of one queue pair. By default an ACK echoes its data packet's entropy. */
public interface AckPolicy {
    AckPolicy ECHO = (ack, data) -> ack.entropy = data.entropy;

    void stampAck(Packet ack, Packet data);
}
