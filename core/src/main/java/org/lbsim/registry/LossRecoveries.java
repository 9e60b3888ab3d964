package org.lbsim.registry;

import org.lbsim.spi.LossRecoveryFactory;
import org.lbsim.transport.GoBackN;
import org.lbsim.transport.IdealErasure;
import org.lbsim.transport.Irn;
import org.lbsim.transport.NicSelectiveRepeat;
import org.lbsim.transport.SackThreshold;

/** Every loss-recovery scheme a scenario can name. */
public final class LossRecoveries {
    public static final Registry<LossRecoveryFactory> REGISTRY = new Registry<>("loss recovery", java.util.Set.of(Capability.PARTITION_SAFE),
            Component.of("erasure", "ideal erasure coding", "rateless: fresh symbols until the message is acknowledged; never resends a PSN",
                    "OFAN 4", IdealErasure.Params.defaults(), IdealErasure::factory, Capability.PARTITION_SAFE),
            Component.of("sack", "SACK", "selective acks; resend all holes when the ack gap exceeds a threshold, plus an RTO",
                    "OFAN 4, 8.2", new SackThreshold.Params(32, 80), SackThreshold::factory, Capability.PARTITION_SAFE),
            Component.of("irn", "IRN", "IRN-style selective acks, a hole is resent once a later-sent packet is acked past it, at most one BDP in flight",
                    "IRN (SIGCOMM 2018); RoCE transport issue", new Irn.Params(80, 1), Irn::factory),
            Component.of("go-back-n", "go-back-N", "receiver keeps only in-order data and NACKs the first gap; sender rewinds to the expected PSN",
                    "RoCEv2; PRO 5 (RTO 80 us)", new GoBackN.Params(80), GoBackN::factory, Capability.PARTITION_SAFE),
            Component.of("nic-sr", "NIC selective repeat", "as commodity RNICs run it: ePSN + bitmap, one NACK per ePSN carrying only the ePSN, resend only that packet",
                    "Themis 2.2", new NicSelectiveRepeat.Params(80), NicSelectiveRepeat::factory, Capability.PARTITION_SAFE));

    private LossRecoveries() {
    }
}
