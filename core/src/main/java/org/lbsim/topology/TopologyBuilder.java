package org.lbsim.topology;

import java.util.ArrayList;
import java.util.List;

/** Collects nodes and links, then freezes them into a {@link Topology}. */
final class TopologyBuilder {
    private final String kind;
    private final String[] tierNames;
    private final List<String> names = new ArrayList<>();
    private final List<Integer> tiers = new ArrayList<>();
    private final List<Integer> pods = new ArrayList<>();
    private final List<long[]> links = new ArrayList<>(); // {a, b, rateMbps, delayPs}
    private int hostCount;

    TopologyBuilder(String kind, String[] tierNames) {
        this.kind = kind;
        this.tierNames = tierNames;
    }

    int addNode(String name, int tier) {
        return addNode(name, tier, -1);
    }

    /** A node in a pod (a group of switches and hosts below one layer of the fabric), or pod -1. */
    int addNode(String name, int tier, int pod) {
        if (tier == Topology.HOST_TIER) {
            if (hostCount != names.size()) {
                throw new IllegalStateException("hosts must be added first");
            }
            hostCount++;
        }
        names.add(name);
        tiers.add(tier);
        pods.add(pod);
        return names.size() - 1;
    }

    void link(int a, int b, long rateMbps, long delayPs) {
        links.add(new long[] {a, b, rateMbps, delayPs});
    }

    Topology build() {
        int n = names.size();
        int[] degree = new int[n];
        for (long[] l : links) {
            degree[(int) l[0]]++;
            degree[(int) l[1]]++;
        }
        int[] start = new int[n + 1];
        for (int i = 0; i < n; i++) {
            start[i + 1] = start[i] + degree[i];
        }
        int ports = start[n];
        int[] owner = new int[ports];
        int[] peerNode = new int[ports];
        int[] peerPort = new int[ports];
        long[] rate = new long[ports];
        long[] delay = new long[ports];
        int[] linkId = new int[ports];
        int[] fill = new int[n];
        for (int id = 0; id < links.size(); id++) {
            long[] l = links.get(id);
            int a = (int) l[0];
            int b = (int) l[1];
            int pa = start[a] + fill[a]++;
            int pb = start[b] + fill[b]++;
            owner[pa] = a;
            owner[pb] = b;
            peerNode[pa] = b;
            peerNode[pb] = a;
            peerPort[pa] = pb;
            peerPort[pb] = pa;
            rate[pa] = rate[pb] = l[2];
            delay[pa] = delay[pb] = l[3];
            linkId[pa] = linkId[pb] = id;
        }
        int[] tierArr = tiers.stream().mapToInt(Integer::intValue).toArray();
        int[] podArr = pods.stream().mapToInt(Integer::intValue).toArray();
        return new Topology(kind, hostCount, names.toArray(String[]::new), tierArr, podArr, start, owner, peerNode, peerPort,
                rate, delay, linkId, links.size(), tierNames);
    }
}
