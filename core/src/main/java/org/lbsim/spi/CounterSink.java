package org.lbsim.spi;

/**
 * Where a scheme reports its per-run counters at the end of a run (NACKs blocked, probes sent,
 * ring high-water marks...). Names are the scheme's own, prefixed with its name
 * ({@code themis.nacksBlocked}); a name reported twice (two traffic classes running the same scheme)
 * is summed. Called once per run, never on the packet path. What many switches or queue pairs count
 * is kept in their own objects or per partition ({@link PerPartition}) and summed here, so that a
 * partitioned run reports what the sequential run does.
 */
public interface CounterSink {
    void add(String name, long value);

    void add(String name, double value);
}
