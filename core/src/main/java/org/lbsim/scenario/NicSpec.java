package org.lbsim.scenario;

/** How hosts map connections onto queue pairs and schedule them. */
public record NicSpec(
        @Doc("queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION); each carries an equal share and has its own UDP source port") int qpsPerConnection,
        @Doc("packets a queue pair sends in a row before the NIC's round robin moves to the next (PRO III-A batches)") int batchPackets,
        @Doc("per-message: every message (collective step) gets a fresh queue pair; persistent: successive messages of one job between "
                + "the same two hosts (same traffic class, channel and queue-pair index) reuse one queue pair, as NCCL keeps its "
                + "connections: congestion control and the scheme's per-queue-pair state carry over, a message waits until the "
                + "previous one on its queue pair is acknowledged") String queuePairs,
        @Doc("ACK, NACK and CNP leave the NIC ahead of data, in a priority class PFC never pauses (ns-3's RDMA NIC sends them from "
                + "its queue 0, first and unpaused: conweave-ns3 qbb-net-device.cc:67, :108); false = they alternate with data "
                + "(OFAN App. B) and a pause stops both") boolean controlPriority) {

    /** The values {@code queuePairs} may take. */
    public static final java.util.List<String> QUEUE_PAIRS = java.util.List.of("per-message", "persistent");

    public NicSpec {
        ScenarioException.require(qpsPerConnection >= 1 && qpsPerConnection <= 1024, "qpsPerConnection", "must be between 1 and 1024, got " + qpsPerConnection);
        ScenarioException.require(batchPackets >= 1 && batchPackets <= 1 << 20, "batchPackets", "must be between 1 and 1048576, got " + batchPackets);
        queuePairs = queuePairs == null ? "per-message" : queuePairs;
        ScenarioException.require(QUEUE_PAIRS.contains(queuePairs), "queuePairs",
                "must be one of " + String.join(", ", QUEUE_PAIRS) + ", got '" + queuePairs + "'");
    }

    /** Fresh queue pairs per message. */
    public NicSpec(int qpsPerConnection, int batchPackets) {
        this(qpsPerConnection, batchPackets, "per-message");
    }

    /** Control frames alternating with data, paused with it. */
    public NicSpec(int qpsPerConnection, int batchPackets, String queuePairs) {
        this(qpsPerConnection, batchPackets, queuePairs, false);
    }

    public static NicSpec defaults() {
        return new NicSpec(1, 1, "per-message", false);
    }

    /** Whether successive messages between the same two hosts of a job reuse one queue pair. */
    public boolean persistentQueuePairs() {
        return queuePairs.equals("persistent");
    }
}
