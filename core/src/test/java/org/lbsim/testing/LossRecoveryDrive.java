package org.lbsim.testing;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.kernel.Time;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;

/** Test helper: a loss recovery asked directly, the way a sender's poll asks it. */
public final class LossRecoveryDrive {
    private LossRecoveryDrive() {
    }

    /**
     * Queue pair 0 from host 0 to host 1 with a message of {@code messageBytes} in packets of 1,000 B (62 B of header,
     * a 20 B gap; the last packet carries the rest) on a 200 Gb/s line with a base RTT of 8 us.
     */
    public static QpContext qp(long messageBytes) {
        int packets = (int) ((messageBytes + 999) / 1000);
        return new QpContext(0, 0, 1, messageBytes, packets, 1000, 62, 20, 200_000, Time.us(8), 200_000);
    }

    /** Sends whatever {@code s} hands out at {@code nowPs}, in order, until it hands out nothing; returns the PSNs sent. */
    public static List<Integer> sendAll(LossRecovery s, long nowPs) {
        return sendUpTo(s, Integer.MAX_VALUE, nowPs);
    }

    /** As {@link #sendAll}, but asks for no more than {@code max} packets. */
    public static List<Integer> sendUpTo(LossRecovery s, int max, long nowPs) {
        List<Integer> sent = new ArrayList<>();
        int psn;
        while (sent.size() < max && (psn = s.nextPsn(nowPs)) >= 0) {
            s.onSent(psn, nowPs);
            sent.add(psn);
        }
        return sent;
    }
}
