#!/usr/bin/env python3
"""The traffic traces of pro-fig8 (PRO VI-A, "Traffic"), written as lbsim trace CSV.

    bench/pro-fig8-traces.py ring   --bytes 16777216              > ring-16m.csv
    bench/pro-fig8-traces.py tree   --bytes 16777216 --tree-edge half  > tree-16m.csv
    bench/pro-fig8-traces.py tree   --bytes 16777216 --tree-edge whole > tree-whole-16m.csv
    bench/pro-fig8-traces.py tree   --bytes 16777216 --tree-shape nccl > tree-nccl-16m.csv
    bench/pro-fig8-traces.py --check cli/src/main/resources/reproduce/pro-fig8.yaml

One random order of the hosts (Python's random.Random(SEED).shuffle of 0..N-1, seed 8, 128 hosts)
gives both traces:
- ring: every host sends the message to the next host of the order (a random cycle; PRO VI-A (i):
  "each server randomly selects its neighborhood and forms a ring").
- tree: a double binary tree over that order (PRO VI-A (ii), NCCL's double binary tree [21]); every
  edge of both trees is one flow from parent to child, all flows start at t = 0. --tree-shape says
  which two trees:
    heap : tree 1 in heap layout (order[i] is the parent of order[2i+1] and order[2i+2]), tree 2 the
           same layout over the reversed order (lbsim's own construction; it has no source)
    nccl : the trees of the NCCL source the paper cites ([21], v2.17.1-1, src/graph/trees.cc,
           ncclGetBtree / ncclGetDtree): tree 1 over ranks 0..N-1 with rank 0 as a root with one
           child, every other rank's parent and children found from its lowest set bit; tree 2 the
           mirror image (rank r in tree 2 is rank N-1-r in tree 1) for even N, tree 1 shifted by
           one rank for odd N; rank r is host order[r] (the "random" in "each server randomly
           selects its pattern/child server"). Each rank is inner in one tree and a leaf in the
           other, as in heap; unlike heap, the two hosts that send a single flow (the roots) send
           it to a host that receives two, and the two that receive a single flow receive it from
           a host that sends two, so no flow has a whole sender NIC and a whole receiver NIC to itself.
  --tree-edge says how much one tree edge carries, the one thing the paper does not state:
    half  : half of the message (NCCL splits a message over its two trees, each tree carries half);
            pro-fig8's default reading (tree-16m.csv, tree-1m.csv)
    whole : the whole message, as every flow of the ring does ("The message size is 16MB by
            default" read as the size of every flow of the trace)
--check regenerates every trace that a pro-fig8 YAML holds inline and says whether each is
byte-identical to the file's text (exit 1 if one is not).
"""
import argparse
import random
import re
import sys


def order(hosts, seed):
    o = list(range(hosts))
    random.Random(seed).shuffle(o)
    return o


def ring(hosts, seed, size):
    o = order(hosts, seed)
    return [(o[i], o[(i + 1) % hosts], size) for i in range(hosts)]


def heap_edges(o):
    return [(o[i], o[c]) for i in range(len(o)) for c in (2 * i + 1, 2 * i + 2) if c < len(o)]


def nccl_children(n, rank):
    """Children of `rank` in NCCL's binary tree over ranks 0..n-1 (ncclGetBtree at v2.17.1-1)."""
    bit = 1
    while bit < n and not bit & rank:
        bit <<= 1
    if rank == 0:
        return [bit >> 1] if n > 1 else []
    low = bit >> 1
    if low == 0:  # odd ranks are leaves
        return []
    first, second = rank - low, rank + low
    while second >= n and low:  # the largest step below `low` that stays in range, if any
        low >>= 1
        second = rank + low
    return [first, second] if low else [first]


def nccl_edges(o):
    """Both trees of ncclGetDtree (v2.17.1-1) as (parent host, child host), rank r = host o[r]."""
    n = len(o)
    first = [(r, c) for r in range(n) for c in nccl_children(n, r)]
    if n % 2 == 0:  # mirror
        second = [(n - 1 - r, n - 1 - c) for r, c in first]
    else:  # shift by one rank
        second = [((r + 1) % n, (c + 1) % n) for r, c in first]
    return [(o[p], o[c]) for p, c in first + second]


def tree(hosts, seed, size, edge, shape="heap"):
    if edge not in ("half", "whole"):
        raise SystemExit(f"--tree-edge: {edge!r}; allowed: half, whole")
    if shape not in ("heap", "nccl"):
        raise SystemExit(f"--tree-shape: {shape!r}; allowed: heap, nccl")
    per_edge = size // 2 if edge == "half" else size
    o = order(hosts, seed)
    edges = heap_edges(o) + heap_edges(o[::-1]) if shape == "heap" else nccl_edges(o)
    return [(s, d, per_edge) for s, d in edges]


def csv_text(flows):
    return "src,dst,bytes,start_ns\n" + "".join(f"{s},{d},{b},0\n" for s, d, b in flows)


# name of an inline file of pro-fig8.yaml -> how to make it
def expected(name, hosts, seed):
    m = re.fullmatch(r"(ring|tree|tree-whole|tree-nccl|tree-nccl-whole)-(\d+)m\.csv", name)
    if not m:
        return None
    size = int(m.group(2)) * 1024 * 1024
    if m.group(1) == "ring":
        return csv_text(ring(hosts, seed, size))
    kind = m.group(1)
    return csv_text(tree(hosts, seed, size, "whole" if kind.endswith("whole") else "half", "nccl" if "nccl" in kind else "heap"))


def inline_files(yaml_text):
    """The `files:` block of a reproduction YAML: name -> text (block scalars indented by 4)."""
    files, name, lines, inside = {}, None, [], False
    for line in yaml_text.splitlines():
        if line == "files:":
            inside = True
            continue
        if not inside:
            continue
        if line and not line.startswith(" "):
            break
        m = re.fullmatch(r"  (\S+): \|", line)
        if m:
            if name:
                files[name] = "".join(lines)
            name, lines = m.group(1), []
        elif line.startswith("    "):
            lines.append(line[4:] + "\n")
    if name:
        files[name] = "".join(lines)
    return files


def check(path, hosts, seed):
    bad = 0
    for name, text in inline_files(open(path).read()).items():
        want = expected(name, hosts, seed)
        if want is None:
            print(f"{name}: not a trace of this generator")
        elif want == text:
            print(f"{name}: identical")
        else:
            print(f"{name}: DIFFERS")
            bad += 1
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", nargs="?", choices=["ring", "tree"])
    p.add_argument("--bytes", type=int, default=16 * 1024 * 1024, help="the message size (default 16 MiB)")
    p.add_argument("--tree-edge", default="half", help="half (default) | whole: bytes of one tree edge")
    p.add_argument("--tree-shape", default="heap", help="heap (default) | nccl: which two trees")
    p.add_argument("--hosts", type=int, default=128)
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--check", metavar="YAML", help="compare a YAML's inline traces with this generator's")
    a = p.parse_args()
    if a.check:
        sys.exit(check(a.check, a.hosts, a.seed))
    if a.kind is None:
        p.error("ring or tree (or --check YAML)")
    flows = ring(a.hosts, a.seed, a.bytes) if a.kind == "ring" else tree(a.hosts, a.seed, a.bytes, a.tree_edge, a.tree_shape)
    sys.stdout.write(csv_text(flows))


if __name__ == "__main__":
    main()
