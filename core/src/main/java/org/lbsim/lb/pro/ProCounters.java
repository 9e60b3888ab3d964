package org.lbsim.lb.pro;

/** Run totals of one PRO scheme instance, reported at the end of the run. */
final class ProCounters {
    long nacks;
    long repeats;
    long timeouts;
    long senderTimeouts;
}
