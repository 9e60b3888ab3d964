package org.lbsim.metrics;

/**
 * What happened around one failure, repair or degradation during a run. The losses are counted in
 * three windows: from the start of the run to the event, from the event to routing convergence (or
 * to the end of the run when routes never converged within it), and from convergence to the end.
 *
 * @param event          the event's position in {@code failures.events}, or -1 for one of the random process
 * @param target         the link ({@code e0-a0}, {@code e0-a0#1} for a parallel link) or the switch
 * @param action         down, up or degrade
 * @param atPs           when it happened
 * @param rateMbps       the new rate of a degraded link, else 0
 * @param convergedAtPs  when routing converged to the fabric after this event, -1 if not within the run (never, or degrade)
 * @param lostAtEvent    packets on the failed links' wires and queued at the ports feeding them, lost at that moment
 * @param before         losses from the start of the run up to the event
 * @param during         losses from the event (those lost at it included) to convergence or the end
 * @param after          losses from convergence to the end (zero without convergence)
 */
public record FailureEventStats(int event, String target, String action, long atPs, long rateMbps, long convergedAtPs, long lostAtEvent,
                                Losses before, Losses during, Losses after) {

    /**
     * Packets lost in a window.
     *
     * @param bufferDrops congestion drops at full switch buffers
     * @param linkLoss    packets lost on failed links (sent onto them, on their wire or queued for them when they failed)
     * @param noRoute     packets a switch had no route for
     */
    public record Losses(long bufferDrops, long linkLoss, long noRoute) {
        public static final Losses NONE = new Losses(0, 0, 0);

        public Losses minus(Losses earlier) {
            return new Losses(bufferDrops - earlier.bufferDrops, linkLoss - earlier.linkLoss, noRoute - earlier.noRoute);
        }

        public long total() {
            return bufferDrops + linkLoss + noRoute;
        }
    }
}
