#!/usr/bin/env python3
"""Compare two run folders field by field: flows.csv and ooo.csv by column name, summary.json by key.

    bench/compare-runs.py OLD_RUN NEW_RUN

Folders written before the renames of 0.1 (docs/results.md, "Renamed in 0.1") are read under the
new names first, so an old and a new folder of the same run compare equal. Wall-time keys are left
out; a column or key present in one folder only is listed as a note, not counted as a difference
(a new column is new information, not a changed result). Prints "IDENTICAL" or one line per
difference; exit 1 when anything differs.
"""
import csv
import json
import os
import sys

# old name -> new name (docs/results.md, "Renamed in 0.1")
FLOWS_RENAMED = {"duplicates": "duplicates_received"}
SUMMARY_RENAMED = {"scenario": "scenarioName", "cctIncreasePercent": "cctIncreasePct"}
OUT_OF_ORDER_RENAMED = {"outOfOrderArrivals": "arrivals"}
FAILURE_EVENT_RENAMED = {"index": "event"}


def rows(path, renamed):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    if not r:
        return [], []
    header = [renamed.get(c, c) for c in r[0]]
    return header, [dict(zip(header, row)) for row in r[1:]]


def summary(path):
    s = json.load(open(path))
    s = {SUMMARY_RENAMED.get(k, k): v for k, v in s.items()}
    if isinstance(s.get("outOfOrder"), dict):
        s["outOfOrder"] = {OUT_OF_ORDER_RENAMED.get(k, k): v for k, v in s["outOfOrder"].items()}
    if isinstance(s.get("failureEvents"), list):
        s["failureEvents"] = [{FAILURE_EVENT_RENAMED.get(k, k): v for k, v in e.items()} for e in s["failureEvents"]]
    return {k: v for k, v in s.items() if not any(w in k.lower() for w in ("wall", "eventspersecond", "elapsed"))}


def main(a, b):
    diffs, notes, checked = [], [], 0
    for name, renamed in (("flows.csv", FLOWS_RENAMED), ("ooo.csv", {})):
        ha, ra = rows(os.path.join(a, name), renamed)
        hb, rb = rows(os.path.join(b, name), renamed)
        common = [c for c in ha if c in hb]
        for c in sorted(set(ha) ^ set(hb)):
            notes.append(f"note: {name} column {c} only in {'the first' if c in ha else 'the second'}")
        if len(ra) != len(rb):
            diffs.append(f"DIFF {name}: {len(ra)} rows against {len(rb)}")
            continue
        for i, (x, y) in enumerate(zip(ra, rb)):
            for c in common:
                checked += 1
                if x[c] != y[c]:
                    diffs.append(f"DIFF {name} row {i + 1} {c}: {x[c]} -> {y[c]}")
    sa, sb = summary(os.path.join(a, "summary.json")), summary(os.path.join(b, "summary.json"))
    for k in sorted(set(sa) ^ set(sb)):
        notes.append(f"note: summary.json key {k} only in {'the first' if k in sa else 'the second'}")
    for k in sa:
        if k in sb:
            checked += 1
            if sa[k] != sb[k]:
                diffs.append(f"DIFF summary.json {k}: {sa[k]} -> {sb[k]}")
    for line in notes + diffs:
        print(line)
    print(f"IDENTICAL ({checked} fields compared)" if not diffs else f"{len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench/compare-runs.py OLD_RUN NEW_RUN")
    sys.exit(main(sys.argv[1], sys.argv[2]))
