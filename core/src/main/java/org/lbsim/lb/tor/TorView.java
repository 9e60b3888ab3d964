package org.lbsim.lb.tor;

import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * The fabric as a ToR-based scheme sees it (LetFlow, CONGA, ConWeave): which ToR each host hangs
 * under, a dense index per ToR (for leaf-to-leaf tables), and the propagation round trip between
 * two ToRs. Built once per switch program, read on every packet.
 */
public final class TorView {
    private final int[] torOfHost;
    private final int[] leafIndexOfNode;
    private final int leafCount;
    private final int[] someHostOfLeaf;

    public TorView(Topology t) {
        torOfHost = new int[t.hostCount()];
        leafIndexOfNode = new int[t.nodeCount()];
        java.util.Arrays.fill(leafIndexOfNode, -1);
        int leaves = 0;
        int[] firstHost = new int[t.nodeCount()];
        for (int h = 0; h < t.hostCount(); h++) {
            int tor = t.hostSwitch(h);
            torOfHost[h] = tor;
            if (leafIndexOfNode[tor] < 0) {
                firstHost[leaves] = h;
                leafIndexOfNode[tor] = leaves++;
            }
        }
        leafCount = leaves;
        someHostOfLeaf = java.util.Arrays.copyOf(firstHost, leaves);
    }

    /** The ToR switch node of {@code host}. */
    public int torOf(int host) {
        return torOfHost[host];
    }

    /** The dense index (0 .. leafCount-1) of the ToR of {@code host}. */
    public int leafOfHost(int host) {
        return leafIndexOfNode[torOfHost[host]];
    }

    /** The dense index of switch {@code node}, or -1 when no host hangs under it. */
    public int leafIndex(int node) {
        return leafIndexOfNode[node];
    }

    public int leafCount() {
        return leafCount;
    }

    /** A host under the leaf with index {@code leaf} (for routing walks). */
    public int someHostOf(int leaf) {
        return someHostOfLeaf[leaf];
    }

    /**
     * Twice the summed link delays along the first shortest path from ToR {@code fromNode} to the
     * leaf {@code toLeaf}: the base RTT between two ToRs with empty queues. The ConWeave ns-3 model
     * sets it the same way, as 4 one-hop delays for ToR-spine-ToR (network-load-balance.cc:1571-1572).
     */
    public long baseRttPs(Topology t, Fib fib, int fromNode, int toLeaf) {
        int host = someHostOfLeaf[toLeaf];
        int target = torOfHost[host];
        long oneWay = 0;
        int node = fromNode;
        for (int hop = 0; node != target && hop < 64; hop++) {
            int group = fib.group(node, host);
            if (fib.groupSize(group) == 0) {
                break;
            }
            int port = fib.port(group, 0);
            oneWay += t.delayPs(port);
            node = t.peerNode(port);
        }
        return 2 * oneWay;
    }
}
