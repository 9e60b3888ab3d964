package org.lbsim.lb.pro;

/**
 * PRO III-A, Algorithm 1: the equivalent path set of one NIC towards one destination ToR, shared by
 * the NIC's queue pairs to that ToR. It holds the global counter C and the number P of active queue
 * pairs; each queue pair keeps its own path (a {@link Cursor}). Per packet: an invited queue pair
 * moves its path on by span = P forced odd (any odd span visits all M paths in M packets when M
 * is a power of two); a new one starts at C mod M; then C = path + 1, so the next new queue pair
 * starts just after, staggered from the others.
 *
 * <p>Batch scheduling (III-A, "Adapting to batch scheduling"): with n packets per QP turn the set is
 * cut into M/n blocks of n consecutive paths; Algorithm 1 runs over the blocks (M becomes M/n) once
 * per batch, the batch's packets take the n paths of its block in sequence, and C advances by n
 * paths (here counted in blocks: C = block + 1). n = 1 is Algorithm 1 itself.
 *
 * <p>The counter's initial value is the NIC's initial state: Algorithm 1 writes "initial value zero",
 * while the proof of Lemma 4 (IV-B) has RNICs "pick the initial state uniformly and independently";
 * {@link Pro} draws it per NIC and destination ToR ({@code roundRobinStart: random}) or takes 0.
 */
public final class PathSet {
    private final int paths;
    private final int batch;
    private final int blocks;
    private final boolean staggered;
    /** The initial value of C (in blocks when batching): where the set's first queue pair starts. */
    private final int start;
    /** Algorithm 1's global counter C (in blocks when batching). */
    private int counter;
    private int active;

    /** A set whose counter C starts at zero, as Algorithm 1 prints it. */
    public PathSet(int paths, int batch, boolean staggered) {
        this(paths, batch, staggered, 0);
    }

    /**
     * @param paths     M, the paths of the set
     * @param batch     n, packets a queue pair sends per scheduler turn (1 = per-packet scheduling)
     * @param staggered false for the "RR without inter-QP orchestration" ablation (PRO VI-C): every
     *                  queue pair starts at the set's start with span 1, as if alone on its NIC
     * @param start     the initial value of C, 0 .. blocks() - 1 (0 .. M-1 without batching)
     */
    public PathSet(int paths, int batch, boolean staggered, int start) {
        if (paths < 1 || batch < 1) {
            throw new IllegalArgumentException("a path set needs paths >= 1 and batch >= 1, got " + paths + ", " + batch);
        }
        this.paths = paths;
        this.batch = batch;
        this.blocks = Math.max(1, paths / batch);
        this.staggered = staggered;
        if (start < 0 || start >= blocks) {
            throw new IllegalArgumentException("a path set's start must be between 0 and " + (blocks - 1) + ", got " + start);
        }
        this.start = start;
        this.counter = start;
    }

    /** One queue pair's place in the set: its current path, whether it has sent yet, and its position in the current batch. */
    public static final class Cursor {
        int path;
        boolean invited;
        int inBatch;
        boolean left;

        /** The path of the packet last sent (0 .. M-1), or its block when batching. */
        public int path() {
            return path;
        }
    }

    /** A new queue pair of the NIC to this ToR: it becomes active with its first packet. */
    public Cursor newCursor() {
        return new Cursor();
    }

    /** The path for the next packet of the queue pair at {@code c} (CALC_PATH with span = P). */
    public int next(Cursor c) {
        if (!c.invited) {
            active++; // the queue pair joins the active list with its first packet
        }
        if (batch == 1) {
            c.path = step(c, paths);
            return c.path;
        }
        if (c.inBatch == 0) {
            c.path = step(c, blocks); // one Algorithm 1 step per batch, over M/n blocks
        }
        int path = (c.path * batch + c.inBatch) % paths;
        c.inBatch = (c.inBatch + 1) % batch;
        return path;
    }

    private int step(Cursor c, int m) {
        int span = staggered ? active : 1;
        if (span % 2 == 0) {
            span++; // Alg. 1 lines 6-7: an odd span visits all M paths
        }
        int p;
        if (c.invited) {
            p = (c.path + span) % m; // line 9
        } else {
            c.invited = true;
            p = staggered ? counter % m : start; // line 11
        }
        counter = p + 1; // line 12
        return p;
    }

    /** The queue pair at {@code c} has finished: it leaves the active list (P shrinks). */
    public void leave(Cursor c) {
        if (c.invited && !c.left) {
            c.left = true;
            active--;
        }
    }

    public int paths() {
        return paths;
    }

    /** Blocks of n paths Algorithm 1 runs over: M / n (M without batching). */
    public int blocks() {
        return blocks;
    }

    /** The initial value of C. */
    public int start() {
        return start;
    }

    /** Active queue pairs P. */
    public int active() {
        return active;
    }

    /** The counter C (in blocks when batching). */
    public int counter() {
        return counter;
    }
}
