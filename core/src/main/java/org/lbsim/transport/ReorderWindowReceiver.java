package org.lbsim.transport;

import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * Go-back-N's receiver with a reorder window ({@code lossRecovery.reorderWindowPackets} W): data
 * whose PSN is less than the expected PSN + W is kept in the receiver's bitmap and not answered;
 * data further ahead is thrown away and answered as {@link InOrderOnlyReceiver} answers it, with
 * one NACK carrying the expected PSN ({@link NackGeneration}). When the expected packet arrives the
 * expected PSN moves past every packet held above it and the cumulative ACK jumps with it.
 *
 * <p>This is htsim's RoCE sink (the-sure/htsim at 953aec4, htsim/sim/roce.cpp:422-490,
 * {@code RoceSink::receivePacket}): a packet with {@code seqno - _cumulative_ack <= roceMaxReorder}
 * is marked in {@code _epsn_rx_bitmap} and freed without an answer, one further ahead is dropped and
 * NACKed once ({@code _nack_sent} until the expected packet arrives), and the expected packet moves
 * {@code _cumulative_ack} over the marked ones and is ACKed. htsim numbers packets from 1 and
 * {@code _cumulative_ack} is the last one in order, so with {@code roceMaxReorder} = 64 (roce.h:25)
 * it keeps the expected packet and the 63 after it: W = 64.
 *
 * <p>The bitmap is the receiver's own ({@link ReceiverQp#keep}), sized for the whole message when
 * the queue pair is made: nothing is allocated per packet.
 */
public final class ReorderWindowReceiver implements ReceiverPolicy {
    private final NackGeneration nacks;
    private final int windowPackets;

    ReorderWindowReceiver(NackGeneration nacks, int windowPackets) {
        this.nacks = nacks;
        this.windowPackets = windowPackets;
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        int epsn = rx.expectedPsn();
        if (data.psn - epsn < windowPackets) {
            rx.keep(data);
            return;
        }
        rx.discard();
        if (nacks.nackNow(epsn, nowPs)) {
            rx.nack();
        }
    }
}
