package org.lbsim.net;

/** Whatever sits at the far end of a link: a switch or a host's NIC. */
public interface PacketReceiver {
    void receive(Packet packet, int ingressPort);
}
