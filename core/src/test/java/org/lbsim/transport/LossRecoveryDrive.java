package org.lbsim.transport;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.spi.LossRecovery;

/** Test helper: a loss recovery asked directly, the way a sender's poll asks it. */
public final class LossRecoveryDrive {
    private LossRecoveryDrive() {
    }

    /** Sends whatever {@code s} hands out at {@code nowPs}, in order, until it hands out nothing; returns the PSNs sent. */
    public static List<Integer> sendAll(LossRecovery s, long nowPs) {
        List<Integer> sent = new ArrayList<>();
        for (int psn = s.nextPsn(nowPs); psn >= 0; psn = s.nextPsn(nowPs)) {
            s.onSent(psn, nowPs);
            sent.add(psn);
        }
        return sent;
    }
}
