package org.lbsim.spi;

/** The queue pairs of a run, by id, as a {@link PacketKinds.Handler} reaches them. */
public interface QueuePairs {
    /** Queue pair {@code qp}'s sender; null when it is not started yet or already released. */
    SenderQp senderOf(int qp);

    /** Queue pair {@code qp}'s receiver; null when its sender is. */
    ReceiverQp receiverOf(int qp);
}
