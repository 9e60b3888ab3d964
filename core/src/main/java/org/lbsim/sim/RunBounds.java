package org.lbsim.sim;

/**
 * What the run is measured against, computed on the idle fabric before it starts.
 *
 * @param lowerBoundPs the collective's lower bound (the awaited flows')
 * @param rhoMaxMbps   rho_max of the converged routes (Long.MAX_VALUE without flows)
 * @param jobIdealPs   each job's critical path on an idle fabric (empty for workloads without jobs)
 */
record RunBounds(long lowerBoundPs, long rhoMaxMbps, long[] jobIdealPs) {
}
