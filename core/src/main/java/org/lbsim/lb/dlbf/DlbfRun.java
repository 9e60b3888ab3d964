package org.lbsim.lb.dlbf;

import java.util.ArrayList;
import java.util.List;

/**
 * What DLBF shares across the queue pairs of one run: the packet kind ids it registered and its
 * queue pairs' senders and receivers, read once at the end for the run's counters.
 */
final class DlbfRun {
    byte notifyKind;
    byte sackKind;
    byte bufferHighKind;
    byte bufferOkKind;
    final List<DlbfSender> senders = new ArrayList<>();
    final List<DlbfReceiver> receivers = new ArrayList<>();
    /** With host-pair path states: the latest sender of each (source, destination) pair, keyed source << 32 | destination. */
    final java.util.Map<Long, DlbfSender> lastByPair = new java.util.HashMap<>();
}
