package org.lbsim.lb.dlbf;

import org.lbsim.net.Packet;

/** Test helper: the packet kinds a run registers for DLBF, fixed for tests that drive its sender or receiver alone. */
final class DlbfTestKinds {
    static final byte NOTIFY = Packet.FIRST_SCHEME_KIND;
    static final byte SACK = Packet.FIRST_SCHEME_KIND + 1;
    static final byte HIGH = Packet.FIRST_SCHEME_KIND + 2;
    static final byte OK = Packet.FIRST_SCHEME_KIND + 3;

    private DlbfTestKinds() {
    }

    /** A run with these kinds registered. */
    static DlbfRun run() {
        DlbfRun run = new DlbfRun();
        run.notifyKind = NOTIFY;
        run.sackKind = SACK;
        run.bufferHighKind = HIGH;
        run.bufferOkKind = OK;
        return run;
    }
}
