package org.lbsim.sim;

import org.lbsim.net.PfcWatchdog;

/**
 * What watches a run besides the transport's own counters.
 *
 * @param watchdog        the PFC deadlock watchdog, or null in a lossy fabric
 * @param sampler         the periodic sampler, or null without {@code metrics.sampleIntervalUs}
 * @param portLoads       the ports' load over the run or the configured window
 * @param failureTimeline failures during the run, or null without any
 */
record RunObservers(PfcWatchdog watchdog, Sampler sampler, PortLoads portLoads, FailureTimeline failureTimeline) {
}
