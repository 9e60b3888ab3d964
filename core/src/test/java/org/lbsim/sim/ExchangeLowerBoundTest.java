package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.Scenario;

/**
 * Two hosts under one edge switch exchange 4096 packets each, so each NIC carries 4096 data frames
 * and 4096 ACKs (docs/lower-bounds.md, OFAN App. B). Started together, the exchange is a
 * permutation: the bound is App. B's replay of data and ACKs interleaved, and the simulation meets
 * it to the picosecond. With one flow started a nanosecond later it is not a permutation: the bound
 * is the general one's NIC term (all frames of both kinds back to back), exactly, and the simulation
 * lands within 1% above it (the first microsecond carries no ACKs yet, the last ones wait for data,
 * as in App. B's modes 1 and 3); a data-only NIC term would sit more than 2% below the simulation.
 */
class ExchangeLowerBoundTest {
    private static final long PACKETS = 4096;
    private static final long DATA_SLOT_PS = 41_780; // (4096 + 62 + 20) B at 800 Gb/s
    private static final long ACK_SLOT_PS = 840; // (64 + 20) B
    private static final long ACK_PS = 640;
    private static final long GAP_PS = 200;
    private static final long LINK_DELAY_PS = 500_000;
    // all frames of both kinds back to back, then the last ACK's one-way trip (2 links, one switch)
    private static final long NIC_BOUND_PS = PACKETS * DATA_SLOT_PS + PACKETS * ACK_SLOT_PS + 2 * LINK_DELAY_PS + ACK_PS - GAP_PS;

    @TempDir
    Path dir;

    private RunResult exchange(long secondStartNs, String name) {
        List<long[]> rows = List.of(flow(0, 1, PACKETS * 4096), new long[] {1, 0, PACKETS * 4096, secondStartNs});
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", trace(dir, name, rows), 1);
        return CheckedRun.of(s, dir).result();
    }

    @Test
    void anExchangeStartedTogetherIsAPermutationAndMeetsAppendixBsBoundExactly() {
        RunResult r = exchange(0, "together.csv");
        String measured = "CCT " + r.cctPs() + " ps, bound " + r.lowerBoundPs() + " ps, NIC term " + NIC_BOUND_PS + " ps";
        assertThat(r.flowsFinished()).isEqualTo(2);
        assertThat(r.cctPs()).as(measured).isEqualTo(r.lowerBoundPs());
        assertThat(r.lowerBoundPs()).as(measured).isGreaterThan(NIC_BOUND_PS);
    }

    @Test
    void anExchangeStartedApartIsBoundByEachNicCarryingItsDataAndItsAcks() {
        RunResult r = exchange(1, "apart.csv");
        long nicBound = NIC_BOUND_PS + 1_000; // the later host's link, from its start 1 ns in
        long dataOnly = nicBound - PACKETS * ACK_SLOT_PS;
        String measured = "CCT " + r.cctPs() + " ps, bound " + r.lowerBoundPs() + " ps, NIC term " + nicBound + " ps";
        assertThat(r.flowsFinished()).isEqualTo(2);
        assertThat(r.lowerBoundPs()).as(measured).isEqualTo(nicBound);
        assertThat(r.cctPs()).as(measured).isGreaterThanOrEqualTo(nicBound);
        assertThat((double) (r.cctPs() - nicBound) / r.cctPs()).as(measured).isLessThan(0.01);
        assertThat((double) (r.cctPs() - dataOnly) / r.cctPs()).as(measured).isGreaterThan(0.02);
    }
}
