package org.lbsim.scenario;

/** How hosts map connections onto queue pairs and schedule them. */
public record NicSpec(
        @Doc("queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION); each carries an equal share and has its own UDP source port") int qpsPerConnection,
        @Doc("packets a queue pair sends in a row before the NIC's round robin moves to the next (PRO III-A batches)") int batchPackets) {

    public NicSpec {
        ScenarioException.require(qpsPerConnection >= 1 && qpsPerConnection <= 1024, "qpsPerConnection", "must be between 1 and 1024, got " + qpsPerConnection);
        ScenarioException.require(batchPackets >= 1 && batchPackets <= 1 << 20, "batchPackets", "must be between 1 and 1048576, got " + batchPackets);
    }

    public static NicSpec defaults() {
        return new NicSpec(1, 1);
    }
}
