package org.lbsim.lb.pro;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topology;

/**
 * The equivalent paths of a 2-tier ToR-Aggr fabric as PRO III-A numbers them: every ToR's uplinks in
 * an order that changes Aggr first (uplink u goes to Aggr u mod A over its (u / A)-th parallel link),
 * and every Aggr's parallel downlinks to each ToR. PRO is built for 2 tiers only: footnote 2 says it
 * "can support 3-stage topology" but gives neither the PathID layout nor the forwarding for a third
 * tier (the 12-bit PathID has fields for exactly two hops). On a fabric of more tiers we do not
 * build it: there PRO steers only the ToR uplink (Algorithm 1 over the uplinks, M = uplinks) and
 * every switch above the ToRs forwards with AR, a fallback that lets such runs work, not PRO's design.
 */
final class ProFabric {
    final int uplinks;
    final int downlinks;
    final int paths;
    final int[] pathIdOfIndex;
    /** The inverse of pathIdOfIndex over the 12-bit PathID space, -1 where no path has that id. */
    final int[] indexOfPathId;
    private final Topology topology;

    ProFabric(Topology t) {
        this.topology = t;
        int tor = firstOfTier(1);
        this.uplinks = tor < 0 ? 0 : torUplinks(tor).length;
        int aggr = firstOfTier(2);
        this.downlinks = twoTier() ? downlinksTo(aggr, tor).length : 1;
        ScenarioException.require(uplinks <= PathIds.MAX_PORTS && downlinks <= PathIds.MAX_PORTS, "topology",
                "pro's 6-bit PathID fields name at most 64 ToR uplinks and 64 parallel Aggr downlinks, got " + uplinks + " and " + downlinks);
        this.paths = Math.max(1, uplinks * downlinks);
        this.pathIdOfIndex = new int[paths];
        for (int i = 0; i < paths; i++) {
            pathIdOfIndex[i] = PathIds.ofIndex(i, Math.max(1, uplinks)); // no uplinks (one tier): the single path, PathID 0
        }
        this.indexOfPathId = new int[1 << (2 * PathIds.TOR_BITS)];
        java.util.Arrays.fill(indexOfPathId, -1);
        for (int i = 0; i < paths; i++) {
            indexOfPathId[pathIdOfIndex[i]] = i;
        }
    }

    private int firstOfTier(int tier) {
        for (int n = 0; n < topology.nodeCount(); n++) {
            if (!topology.isHost(n) && topology.tier(n) == tier) {
                return n;
            }
        }
        return -1;
    }

    /** Whether the fabric is PRO's ToR-Aggr 2-tier one (Aggr downlinks are then named by the PathID too). */
    boolean twoTier() {
        return topology.maxTier() == 2;
    }

    /** The ToR's uplink ports, index u = (Aggr u mod A, its (u / A)-th parallel link). */
    int[] torUplinks(int tor) {
        List<Integer> aggrs = new ArrayList<>();
        for (int p = topology.firstPort(tor); p < topology.portEnd(tor); p++) {
            int peer = topology.peerNode(p);
            if (!topology.isHost(peer) && topology.tier(peer) == 2 && !aggrs.contains(peer)) {
                aggrs.add(peer);
            }
        }
        aggrs.sort(Integer::compare);
        int[][] byAggr = new int[aggrs.size()][];
        int per = -1;
        for (int a = 0; a < byAggr.length; a++) {
            byAggr[a] = topology.portsBetween(tor, aggrs.get(a));
            ScenarioException.require(per < 0 || per == byAggr[a].length, "topology", "pro needs the same number of links from a ToR to every Aggr switch");
            per = byAggr[a].length;
        }
        int[] out = new int[byAggr.length * Math.max(per, 0)];
        for (int u = 0; u < out.length; u++) {
            out[u] = byAggr[u % byAggr.length][u / byAggr.length];
        }
        return out;
    }

    /** The Aggr's parallel downlinks to {@code tor}, in port order. */
    int[] downlinksTo(int aggr, int tor) {
        return topology.portsBetween(aggr, tor);
    }

    /** The ToR a host sits under. */
    int torOf(int host) {
        return topology.hostSwitch(host);
    }

    /** The lowest and highest host under {@code tor}; they must be consecutive for a policy rule's destination range. */
    int[] hostRange(int tor) {
        int low = Integer.MAX_VALUE;
        int high = -1;
        int count = 0;
        for (int h = 0; h < topology.hostCount(); h++) {
            if (topology.hostSwitch(h) == tor) {
                low = Math.min(low, h);
                high = Math.max(high, h);
                count++;
            }
        }
        ScenarioException.require(count == high - low + 1, "topology", "pro needs the hosts of a ToR numbered consecutively (leaf-spine)");
        return new int[] {low, high};
    }

    Topology topology() {
        return topology;
    }
}
