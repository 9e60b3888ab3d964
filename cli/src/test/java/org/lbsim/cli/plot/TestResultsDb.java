package org.lbsim.cli.plot;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * A small results database with the tables of docs/results.md, filled with a synthetic sweep
 * "msg" (schemes x message sizes x seeds) whose largest queue follows a known power law per
 * scheme, and one single run. Independent of the writer in cli/store, so figures and reports are
 * checked against the documented schema.
 */
public final class TestResultsDb {
    public static final List<String> SCHEMES = List.of("ecmp", "host-spray", "ofan");
    public static final long[] SIZES = {16_384, 65_536, 262_144, 1_048_576, 4_194_304};
    public static final int SEEDS = 3;
    /** Exponent of max queue against message size, per scheme. */
    public static final double[] QUEUE_SLOPE = {0.5, 0.35, 0.25};

    private TestResultsDb() {
    }

    public static Path create(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath()); Statement s = c.createStatement()) {
            s.execute("""
                    CREATE TABLE runs (run_id VARCHAR PRIMARY KEY, sweep VARCHAR, point INTEGER, seed BIGINT, scenario_name VARCHAR,
                      scenario_yaml VARCHAR, hosts INTEGER, flows INTEGER, flows_finished INTEGER, cct_ps BIGINT, lower_bound_ps BIGINT,
                      cct_increase_pct DOUBLE, rho_max_mbps BIGINT, simulated_ps BIGINT, events BIGINT, packet_hops BIGINT, drops BIGINT,
                      link_loss BIGINT, no_route_drops BIGINT, ecn_marks BIGINT, retransmissions BIGINT, spurious_retransmissions BIGINT,
                      timeouts BIGINT, pfc_pauses BIGINT, pfc_deadlock VARCHAR, ooo_max_degree BIGINT, ooo_max_held BIGINT, ooo_arrivals BIGINT,
                      wall_time_ms BIGINT, lbsim_version VARCHAR, git_commit VARCHAR,
                      "topology.type" VARCHAR, "topology.k" BIGINT, "loadBalancing.type" VARCHAR, "loadBalancing.weighted" BOOLEAN,
                      "workload.type" VARCHAR, "workload.messageBytes" BIGINT)""");
            s.execute("CREATE TABLE flows (run_id VARCHAR, flow INTEGER, src INTEGER, dst INTEGER, bytes BIGINT, start_ps BIGINT, fct_ps BIGINT,"
                    + " receiver_done_ps BIGINT, packets_sent BIGINT, retransmissions BIGINT, spurious_retransmissions BIGINT,"
                    + " duplicates_received BIGINT, timeouts BIGINT)");
            s.execute("CREATE TABLE layers (run_id VARCHAR, layer VARCHAR, ports INTEGER, max_queue_bytes BIGINT, mean_queue_bytes DOUBLE,"
                    + " drops BIGINT, link_loss BIGINT, ecn_marks BIGINT, tx_packets BIGINT, pauses BIGINT, paused_ps BIGINT)");
            s.execute("CREATE TABLE counters (run_id VARCHAR, name VARCHAR, value BIGINT)");
            s.execute("CREATE TABLE series (run_id VARCHAR, series VARCHAR, unit VARCHAR, t_ps BIGINT, value DOUBLE)");
            s.execute("CREATE TABLE ooo_histogram (run_id VARCHAR, bucket INTEGER, count BIGINT)");
            int point = 0;
            for (int k = 0; k < SCHEMES.size(); k++) {
                for (long size : SIZES) {
                    for (int seed = 1; seed <= SEEDS; seed++) {
                        String id = "msg-p" + point + "-seed" + seed;
                        double maxQueue = 40 * Math.pow(size, QUEUE_SLOPE[k]) * (1 + 0.01 * (seed - 2));
                        long bound = 6_000_000 + size * 4;
                        double inc = (k == 0 ? 30 : k == 1 ? 8 : 2) + seed;
                        insert(c, id, "msg", point, seed, SCHEMES.get(k), size, bound, inc, (long) maxQueue);
                    }
                    point++;
                }
            }
            insert(c, "single-seed1", null, null, 1, "ofan", 65_536, 6_262_144, 1.5, 20_000);
        }
        return file;
    }

    private static void insert(Connection c, String id, String sweep, Integer point, int seed, String scheme, long size, long bound, double inc,
                               long maxQueue) throws SQLException {
        long cct = Math.round(bound * (1 + inc / 100));
        String yaml = String.format(Locale.ROOT, "name: t%nseed: %d%ntopology: {type: fat-tree, k: 4}%nloadBalancing: {type: %s}%n"
                + "workload: {type: permutation, messageBytes: %d}%n", seed, scheme, size);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO runs VALUES (?, ?, ?, ?, 't', ?, 16, 16, 16, ?, ?, ?, 800000, ?, 1000, 900,"
                + " ?, 0, 0, 5, ?, 0, 0, 0, '', 7, 3, 40, 12, '0.1.0-test', 'abc', 'fat-tree', 4, ?, ?, 'permutation', ?)")) {
            int i = 1;
            ps.setString(i++, id);
            ps.setString(i++, sweep);
            if (point == null) {
                ps.setNull(i++, java.sql.Types.INTEGER);
            } else {
                ps.setInt(i++, point);
            }
            ps.setLong(i++, seed);
            ps.setString(i++, yaml);
            ps.setLong(i++, cct);
            ps.setLong(i++, bound);
            ps.setDouble(i++, inc);
            ps.setLong(i++, cct);
            ps.setLong(i++, scheme.equals("ecmp") ? 10 : 0);
            ps.setLong(i++, scheme.equals("ecmp") ? 10 : 0);
            ps.setString(i++, scheme);
            if (scheme.equals("ofan")) {
                ps.setBoolean(i++, true);
            } else {
                ps.setNull(i++, java.sql.Types.BOOLEAN);
            }
            ps.setLong(i++, size);
            ps.executeUpdate();
        }
        try (Statement s = c.createStatement()) {
            String[] layers = {"H->E", "E->A", "A->C", "C->A", "A->E", "E->H"};
            StringBuilder values = new StringBuilder();
            for (int l = 0; l < layers.length; l++) {
                long q = l == 2 ? maxQueue : maxQueue / (l + 2);
                values.append(l == 0 ? "" : ", ").append(String.format(Locale.ROOT, "('%s', '%s', 16, %d, %f, 0, 0, 1, 1000, 0, 0)", id, layers[l], q, q / 10.0));
            }
            s.execute("INSERT INTO layers VALUES " + values);
            s.execute(String.format(Locale.ROOT, "INSERT INTO flows SELECT '%s', i, i, (i + 5) %% 16, %d, 0, %d + i * 1000, %d + i * 1000, 10, 0, 0, 0, 0"
                    + " FROM range(16) t(i)", id, size, bound, bound));
            s.execute("INSERT INTO counters VALUES ('" + id + "', 'events', 1000), ('" + id + "', 'drops', 0)");
            s.execute("INSERT INTO ooo_histogram VALUES ('" + id + "', 0, 900), ('" + id + "', 2, 40), ('" + id + "', 3, 10)");
            s.execute("INSERT INTO series SELECT '" + id + "', 'queue.max A->C', 'bytes', i * 1000000, (i % 50) * 1000.0 FROM range(200) t(i)");
            s.execute("INSERT INTO series SELECT '" + id + "', 'goodput', 'Gb/s', i * 1000000, 700 + (i % 7) FROM range(200) t(i)");
        }
    }
}
