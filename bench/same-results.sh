#!/usr/bin/env bash
# Do two source trees give the same results to the picosecond?
#
#   bench/same-results.sh OLD_TREE NEW_TREE [OUT_DIR]
#
# Runs, in each tree (its own ./lbsim, built on first use): S1-S4 (bench/scenarios), the quickstart's
# fabric and permutation with nic-sr, go-back-n and sack at 256 KiB (bench/scenarios/loss-recovery.yaml),
# S1 with a link and then a switch failing during the run (sequential and --threads 2),
# `reproduce fig1 --quick`, `reproduce fig6 --quick` and `reproduce themis-fig1`, then compares flows.csv,
# ooo.csv and summary.json of every run field by field (bench/compare-runs.py: old names read as renamed
# in 0.1; keys present in only one are listed, not counted as a difference) and the flows and counters
# tables of every reproduction. Prints one line per difference and "same results" when there is none.
# Takes about 15 minutes per tree on the 2-core machine. Exit 1 when anything differs.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: bench/same-results.sh OLD_TREE NEW_TREE [OUT_DIR]" >&2; exit 2; }
for tree in "$1" "$2"; do
    [ -x "$tree/lbsim" ] || { echo "bench/same-results.sh: $tree: not an lbsim source tree (no ./lbsim there)" >&2; exit 2; }
done
OLD=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); OUT=${3:-$(mktemp -d)}
snapshot() {
    local tree=$1 out=$2
    rm -rf "$out"; mkdir -p "$out"
    (cd "$tree"
    for s in bench/scenarios/s*.yaml; do ./lbsim run "$s" --out "$out/run-$(basename "$s" .yaml)" --quiet >/dev/null; done
    for lr in nic-sr go-back-n sack; do
        ./lbsim run "$NEW/bench/scenarios/loss-recovery.yaml" --out "$out/run-qs-$lr" --quiet --set lossRecovery.type=$lr >/dev/null
    done
    # links that fail with frames on the wire (a link, then a whole switch), on both kernels
    local fail=(--set 'failures.events[0].atUs=5' --set 'failures.events[0].link.a=a0' --set 'failures.events[0].link.b=c0'
                --set 'failures.events[0].action=down' --set 'failures.events[1].atUs=20' --set 'failures.events[1].node=a3'
                --set 'failures.events[1].action=down' --set failures.convergenceDelayRtts=8)
    for t in 0 2; do
        ./lbsim run bench/scenarios/s1.yaml --out "$out/run-s1-failing-t$t" --quiet --threads $t "${fail[@]}" >/dev/null
    done
    ./lbsim reproduce fig1 --quick --jobs 1 --out "$out/rep-fig1" >/dev/null
    ./lbsim reproduce fig6 --quick --jobs 1 --out "$out/rep-fig6" >/dev/null
    ./lbsim reproduce themis-fig1 --jobs 1 --out "$out/rep-themis" >/dev/null
    for d in "$out"/rep-*; do
        ./lbsim query "$d/results.duckdb" "SELECT * FROM flows ORDER BY ALL" --format csv > "$d/flows.cmp"
        ./lbsim query "$d/results.duckdb" "SELECT * FROM counters ORDER BY ALL" --format csv > "$d/counters.cmp"
    done)
}
snapshot "$OLD" "$OUT/old"
snapshot "$NEW" "$OUT/new"
python3 - "$OUT/old" "$OUT/new" "$(cd "$(dirname "$0")" && pwd)/compare-runs.py" <<'PY'
import os, subprocess, sys, filecmp
old, new, compare = sys.argv[1], sys.argv[2], sys.argv[3]
bad = 0
for name in sorted(os.listdir(old)):
    a, b = os.path.join(old, name), os.path.join(new, name)
    if name.startswith('run-'):
        # field by field, reading folders written before the renames of 0.1 under the new names
        r = subprocess.run([compare, a, b], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            if not line.startswith('IDENTICAL'):
                print(f'{name}: {line}')
        bad += r.returncode != 0
    elif name.startswith('rep-'):
        for f in ('flows.cmp', 'counters.cmp'):
            if not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False):
                print(f'differs: {name}/{f}'); bad += 1
print('same results' if bad == 0 else f'{bad} differences')
sys.exit(1 if bad else 0)
PY
