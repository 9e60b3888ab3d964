"""docs/validation.md from results/validation/crosscheck.csv: the prose, the parameter mapping and
the explanations live here; every number on the page comes from the CSV (crosscheck.py page)."""
import re

HTSIM = "the-sure/htsim"
HTSIM_AT = "953aec4"
P = "htsim/sim/"

# (what, htsim side, lbsim side, htsim source line)
PARAMETERS = [
    ("fabric", "`-nodes N -tiers 3`: 3-tier fat tree, N / (k/2) ToRs of k/2 hosts",
     "`topology: {type: fat-tree, k}` (k^3/4 = N hosts)", "datacenter/fat_tree_topology.cpp:113-118, 255-330"),
    ("core wiring", "aggregation switch at pod position p reaches cores p + (k/2) l",
     "aggregation switch j reaches cores j k/2 .. j k/2 + k/2 - 1: another numbering of the same graph",
     "datacenter/fat_tree_topology.cpp:982-985"),
    ("link rate", "`-linkspeed 800000` (Mb/s) on every link", "`rateGbps: 800` on every tier",
     "datacenter/main_uec.cpp:654-656"),
    ("link delay", "`-hop_latency 0.5` (us) per link, 6 links host to host; default 1 us",
     "`delayNs: 500` on every tier", "datacenter/main_uec.cpp:206, 685-688; datacenter/fat_tree_topology.cpp:146-152"),
    ("switch latency", "`-switch_latency 0`", "none (store and forward only)", "datacenter/main_uec.cpp:693-696"),
    ("packet", "`-mtu 4160`: a 4160 B data packet, 64 B of it header (`_hdr_size`), so 4096 B payload",
     "`mtuBytes: 4096, headerBytes: 64`", "datacenter/main_uec.cpp:192, 662-664, 926; uec.cpp:28"),
    ("ACK", "64 B (`ACKSIZE`), one per 4096 B received (`_bytes_unacked_threshold`): one per packet",
     "`ackBytes: 64`, one per packet", "uecpacket.h:30; uec.cpp:22"),
    ("inter-frame gap", "none", "`interFrameGapBytes: 0`", "queue.cpp (serialisation = size / rate)"),
    ("buffer", "`-q 192`: 192 data packets = 798,720 B per port, drop tail (`-queue_type composite -disable_trim`: "
     "full queue drops instead of trimming); default is lossless PFC input queues",
     "`switches.buffer: {type: per-port, bytesPerPort: 798720}`", "datacenter/main_uec.cpp:209, 478-500, 569-573, 632-634; compositequeue.cpp:180-182, 245-253"),
    ("ECN", "`-no_ecn`", "`switches.ecn.enabled: false`", "datacenter/main_uec.cpp:616-619"),
    ("sender", "`-sender_cc_algo constant`: a UEC source whose congestion control never changes anything; for "
     "every algorithm but NSCC this htsim ignores the window (`can_send_NSCC`: \"rate-based CCs\"), so it sends "
     "whenever its NIC is free, at line rate, and during loss recovery only resends",
     "`congestionControl: fixed-rate` at line rate",
     "datacenter/main_uec.cpp:351-372; uec.cpp:614-616, 1426-1434"),
    ("loss recovery", "UEC selective repeat with drops (no trimming, so no NACKs): RTO, auto min RTO = 15 us + "
     "6 x queue drain (63 us here)", "`lossRecovery: {type: erasure, endOfMessage: srtt-after-pass}` (the OFAN "
     "authors' ideal erasure sender; never resends a PSN)", "datacenter/main_uec.cpp:1159-1167"),
    ("spraying", "`-load_balancing_algo oblivious -paths 64`: each packet takes the next of 64 entropies, in an "
     "order XOR-permuted at random every 64 packets; switches hash (flow, entropy)",
     "`loadBalancing: host-spray`: a fresh random entropy per packet, switches hash it",
     "datacenter/main_uec.cpp:423-445, 665-668; uec_mp.cpp:30-44; datacenter/fat_tree_switch.cpp:371-374"),
    ("per-flow ECMP", "`-load_balancing_algo oblivious -paths 1`: one entropy per flow", "`loadBalancing: ecmp`",
     "uec_mp.cpp:30-44 (mask 0)"),
    ("degraded link", "`-failed 1`: the core 0 -> aggregation 0 direction runs at 25 % (200 Gb/s) and its queue "
     "shrinks to 25 %; the other direction and routing are unchanged",
     "`failures.events: [{atUs: 0, link: {a: c0, b: a0}, action: degrade, rateGbps: 200}]`: both directions at "
     "200 Gb/s, buffer unchanged", "datacenter/main_uec.cpp:650-653, 1149-1151; datacenter/fat_tree_topology.cpp:104, 1013-1015, 1173-1177"),
    ("traffic", "the matrix written by htsim's generator; `start` read as microseconds (0 here)",
     "`workload: {type: htsim-cm, file: ...}`, the same file", "uec.cpp:662-663; datacenter/connection_matrices/gen_permutation.py:61, gen_incast.py:54"),
    ("seed", "`-seed S` (and the generator's seed)", "`seed: S`", "datacenter/main_uec.cpp:658-661"),
    ("FCT", "`NSCC_FINISH ... time_ps` minus the flow's `starting at`: sender holds the last ACK",
     "`flows.csv` `fct_ps`: sender holds the ACK of the whole message", "uec.cpp:880-903, 2039"),
]

# Explanations of differences, keyed by the scenario (base) name. {SCEN|SEED|FIELD} is replaced
# by that CSV cell, so every number in the prose comes from the CSV too.
SPRAY_1 = (
    "**Mechanism: htsim's sender sprays over a fixed set of 64 entropies per flow, lbsim's over a fresh "
    "random one per packet.** htsim's oblivious sender (`-paths 64`, uec_mp.cpp:30-44) cycles each flow "
    "through 64 entropy values, and every switch hashes (flow, entropy) onto its 4 uplinks "
    "(datacenter/fat_tree_switch.cpp:371-374). 64 values do not split evenly over 4 uplinks (binomial: "
    "16 +- 3.5 each), and the split is the same for every round of 64 packets, so for the whole flow one "
    "uplink gets more than a quarter of its packets and its queue grows as long as the flow sends. "
    "lbsim draws a new entropy for every packet (`host-spray`), so a flow's split evens out. "
    "**Measured**: only htsim's entropy count changed to 32,768 (`[htsim-paths-32768]`, so a flow meets as "
    "many distinct entropies as it has packets) takes htsim's max FCT from {perm-1mib-spray|1|htsim_fct_max_us} "
    "to {perm-1mib-spray [htsim-paths-32768]|1|htsim_fct_max_us} us, {perm-1mib-spray [htsim-paths-32768]|1|diff_max_pct} "
    "from lbsim's, and the median to {perm-1mib-spray [htsim-paths-32768]|1|diff_p50_pct}.")
SPRAY_4 = (
    "The same mechanism as for 1 MiB, four times as long: the static imbalance of 64 entropies lasts the "
    "whole 4 MiB flow, queues behind the overloaded uplinks reach the 192-packet buffer, htsim drops "
    "{perm-4mib-spray|1|htsim_drops} packets, and the flows that lose a packet late wait htsim's "
    "retransmission timer (minimum RTO 62.9 us, datacenter/main_uec.cpp:1166), which sets the max and p99. "
    "**Measured**: with 32,768 entropies (`[htsim-paths-32768]`, the only change) htsim drops "
    "{perm-4mib-spray [htsim-paths-32768]|1|htsim_drops} packets and its max FCT is "
    "{perm-4mib-spray [htsim-paths-32768]|1|htsim_fct_max_us} us, {perm-4mib-spray [htsim-paths-32768]|1|diff_max_pct} "
    "from lbsim's (median {perm-4mib-spray [htsim-paths-32768]|1|diff_p50_pct}).")
ECMP_1 = (
    "**Mechanism: the same collisions cost a timeout in htsim and one round trip in lbsim.** Per-flow ECMP "
    "puts colliding line-rate senders on one link in both simulators, whose queues overflow (drops "
    "{perm-1mib-ecmp|1|htsim_drops} in htsim, {perm-1mib-ecmp|1|lbsim_drops} in lbsim). lbsim's ideal erasure "
    "sender never resends: it sends fresh symbols one smoothed RTT after its first pass, so a flow that lost "
    "packets finishes about one round trip after its share of the link is done. htsim's UEC sender resends, "
    "and a flow whose last packets were lost (nothing behind them to reveal the hole) waits for its "
    "retransmission timer, 62.9 us here (datacenter/main_uec.cpp:1166): htsim's sorted FCTs jump from "
    "about 20 us to about 80 us (20 + 63), and the max ({perm-1mib-ecmp|1|htsim_fct_max_us} us) is two timeouts. "
    "**Measured**: only lbsim's loss recovery changed to selective repeat with htsim's timer "
    "(`[lbsim-sack-rto]`: `sack`, `rtoUs: 62.9232`) takes lbsim's max from {perm-1mib-ecmp|1|lbsim_fct_max_us} "
    "to {perm-1mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_max_us} us ({perm-1mib-ecmp [lbsim-sack-rto]|1|diff_max_pct} "
    "from htsim) and its p99 to {perm-1mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_p99_us} us "
    "({perm-1mib-ecmp [lbsim-sack-rto]|1|diff_p99_pct}). **Finding**: the median stays apart "
    "({perm-1mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_p50_us} against {perm-1mib-ecmp|1|htsim_fct_p50_us} us): more "
    "than half of htsim's flows wait a timeout, fewer than half of lbsim's with `sack`. Which flows collide depends on each simulator's hash (htsim: a "
    "FreeBSD hash of flow id and entropy with a per-switch salt; lbsim: its own per-flow entropy), and how "
    "many losses a selective-repeat sender repairs before its timer depends on its loss detection (lbsim "
    "`sack`: a hole more than 32 packets below the highest ACK; htsim UEC: its own out-of-order threshold "
    "and probes, uec.cpp:1160-1180, 1760-1780); neither was varied alone here. `[htsim-switch-ar]` shows "
    "what this htsim runs without `-fg_ar ecmp`: per-packet adaptive routing in the switches, max "
    "{perm-1mib-ecmp [htsim-switch-ar]|1|htsim_fct_max_us} us, a different scheme than ECMP.")
ECMP_4 = (
    "The same two mechanisms as for 1 MiB (collisions drawn by two different hashes; losses recovered by "
    "fresh symbols in lbsim and by resends and timeouts in htsim); with 4 MiB per flow the time the "
    "colliding flows share a link dominates the timeout, so the max is set by the most loaded link of each "
    "simulator's draw: {perm-4mib-ecmp|1|htsim_fct_max_us} us in htsim against {perm-4mib-ecmp|1|lbsim_fct_max_us} "
    "us in lbsim. Not measured with one change; the seeds' rows show how much the draw alone moves it.")

EXPLANATIONS = {
    "perm-1mib-spray": SPRAY_1,
    "perm-4mib-spray": SPRAY_4,
    "perm-1mib-ecmp": ECMP_1,
    "perm-4mib-ecmp": ECMP_4,
}

GAPS = [
    "**ns-3 (HPCC / ConWeave RDMA model) is not built.** Both trees are ns-3.19 built with its `waf` "
    "script, which needs Python 2 (`#!/usr/bin/env python`, waf 1.7); this machine has only Python 3 (no "
    "`python2`, and Debian 12 packages none), and the ConWeave authors build in an Ubuntu 20.04 container "
    "(gcc 9; this machine has gcc 12, which ns-3.19's `-Werror` build is not known to pass). So no DCQCN row.",
    "**DCQCN + PFC with go-back-N (htsim_roce)** has no row: the driver runs `htsim_uec` only.",
    "**The OFAN authors' sender** (`smcclure20/csg-htsim`, `constant_cca_erasure.cpp`) is not in the "
    "htsim tree used here; this htsim's closest sender is a constant-window UEC source with selective "
    "repeat. On a fabric that loses nothing both send at line rate; where packets are dropped they differ "
    "by design (window against rate, RTO against erasure), which is what most differences below are.",
    "**A hard link failure** has no row: this htsim's `failure` lines in a connection matrix "
    "(`FatTreeTopology::add_failed_link`) clear the link's queues, but its switches still build routes "
    "through every uplink and assert on the missing queue (datacenter/fat_tree_switch.cpp:483-488), so "
    "the degraded-link row (`-failed`, 25 % rate) stands in for it.",
    "**htsim drops** are derived: `htsim_uec` prints no drop count, so the table shows resends minus "
    "duplicates received (with drop-tail queues every resend that did not arrive twice replaced a lost packet).",
]


def fnum(v, digits=2):
    if v in ("", None):
        return ""
    try:
        x = float(v)
    except ValueError:
        return str(v)
    if x == int(x) and abs(x) >= 1000:
        return "{:,}".format(int(x))
    return ("{:,.%df}" % digits).format(x)


def fpct(v):
    if v in ("", None):
        return ""
    x = float(v)
    s = "%+.1f %%" % x
    return "**%s**" % s if abs(x) > 10 else s


def over10(r):
    return any(r[k] not in ("", None) and abs(float(r[k])) > 10 for k in ("diff_max_pct", "diff_p50_pct", "diff_p99_pct"))


def fill(text, rows):
    index = {(r["scenario"], r["seed"]): r for r in rows}

    def sub(m):
        scen, seed, field = m.group(1), m.group(2), m.group(3)
        r = index.get((scen, seed))
        if r is None or field not in r:
            return "(no row %s seed %s)" % (scen, seed)
        v = r[field]
        if field.startswith("diff"):
            return fpct(v).replace("**", "")
        return fnum(v, 0 if re.fullmatch(r"-?\d+", v or "") else 2)
    return re.sub(r"\{([^|{}]+)\|(\d+)\|([a-z0-9_]+)\}", sub, text)


def render(rows, csv_rel):
    out = []
    w = out.append
    w("# Cross-validation against htsim")
    w("")
    w("<!-- generated by bench/crosscheck/crosscheck.py from %s; do not edit by hand -->" % csv_rel)
    w("")
    w("lbsim and htsim run the same scenarios: the same fat tree, link rates and delays, packet sizes, "
      "drop-tail buffers and the same traffic, a connection matrix written by htsim's own generators "
      "(`htsim/sim/datacenter/connection_matrices/`) and read by both (lbsim's `htsim-cm` workload). Each "
      "row gives both simulators' flow completion times (FCT: max, median, 99th percentile, nearest rank), "
      "lbsim's difference in percent of htsim's, drops and resends, and each whole process's wall time and "
      "peak RSS (`/usr/bin/time -v`; htsim run first, then lbsim, one scenario after the other on a shared "
      "2-core machine, both under `nice -n 10`, lbsim with `--threads 0`).")
    w("")
    w("Reference: `%s` at %s (UEC htsim with a fork's additions; binary `htsim_uec`, built by CMake from "
      "`htsim/sim/`). Source lines below are in that tree. The data: [`%s`](../%s)."
      % (HTSIM, HTSIM_AT, csv_rel, csv_rel))
    w("")
    w("**Regenerate** (builds htsim, fetches nothing; about one CPU minute per 128-host scenario):")
    w("")
    w("```")
    w("./mvnw -B -q -pl cli -am package -DskipTests")
    w("python3 bench/crosscheck/crosscheck.py run --htsim PATH/TO/htsim --variants --large")
    w("```")
    w("")
    w("`--only NAME[,NAME]` and `--seeds 1,2,3` run single rows (each row's command is in the CSV); "
      "`crosscheck.py page` rewrites this page from the CSV; `crosscheck.py list` names the scenarios.")
    w("")
    base = [r for r in rows if not r["change"]]
    var = [r for r in rows if r["change"]]
    w("## Results")
    w("")
    w("| scenario | seed | flows | FCT max us htsim / lbsim | diff | p50 htsim / lbsim | diff | p99 htsim / lbsim | diff | drops htsim / lbsim | resends htsim / lbsim |")
    w("|---|---:|---:|---|---:|---|---:|---|---:|---|---|")
    for r in base:
        w("| %s | %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s / %s |" % (
            r["scenario"], r["seed"], fnum(r["flows"], 0),
            fnum(r["htsim_fct_max_us"]), fnum(r["lbsim_fct_max_us"]), fpct(r["diff_max_pct"]),
            fnum(r["htsim_fct_p50_us"]), fnum(r["lbsim_fct_p50_us"]), fpct(r["diff_p50_pct"]),
            fnum(r["htsim_fct_p99_us"]), fnum(r["lbsim_fct_p99_us"]), fpct(r["diff_p99_pct"]),
            fnum(r["htsim_drops"], 0), fnum(r["lbsim_drops"], 0),
            fnum(r["htsim_retx"], 0), fnum(r["lbsim_retx"], 0)))
    w("")
    w("### Cost: whole process, wall and CPU time, peak memory")
    w("")
    w("Wall time depends on what else the shared machine ran at that moment; CPU time (user + system) "
      "much less. lbsim's includes the JVM's start (about 1 s of CPU) and its JIT threads.")
    w("")
    w("| scenario | seed | wall s htsim / lbsim | CPU s htsim / lbsim | CPU lbsim / htsim | RSS MiB htsim / lbsim |")
    w("|---|---:|---|---|---:|---|")
    for r in base:
        ratio = ""
        if r.get("htsim_cpu_s") and r.get("lbsim_cpu_s") and float(r["htsim_cpu_s"]) > 0:
            ratio = "%.2f x" % (float(r["lbsim_cpu_s"]) / float(r["htsim_cpu_s"]))
        w("| %s | %s | %s / %s | %s / %s | %s | %s / %s |" % (
            r["scenario"], r["seed"], fnum(r["htsim_wall_s"]), fnum(r["lbsim_wall_s"]),
            fnum(r.get("htsim_cpu_s", "")), fnum(r.get("lbsim_cpu_s", "")), ratio,
            fnum(r["htsim_rss_mib"], 0), fnum(r["lbsim_rss_mib"], 0)))
    w("")
    w("Scenarios:")
    w("")
    seen = set()
    for r in base:
        if r["scenario"] not in seen:
            seen.add(r["scenario"])
            w("- `%s`: %s, %s hosts." % (r["scenario"], r["what"], r["hosts"]))
    w("")
    w("lbsim's resends are the erasure sender's extra symbols counted as retransmissions (`flows.csv`): "
      "with `endOfMessage: srtt-after-pass` a sender sends fresh symbols one smoothed RTT after its first "
      "pass until the completing ACK, lost packet or not.")
    w("")
    if var:
        w("## One change at a time")
        w("")
        w("Each row repeats a scenario with one setting changed on one side (the change in brackets), "
          "to measure what a difference above comes from.")
        w("")
        w("| row | seed | FCT max us htsim / lbsim | diff | p50 htsim / lbsim | diff | p99 htsim / lbsim | diff | drops htsim / lbsim | resends htsim / lbsim |")
        w("|---|---:|---|---:|---|---:|---|---:|---|---|")
        for r in var:
            w("| %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s / %s |" % (
                r["scenario"], r["seed"],
                fnum(r["htsim_fct_max_us"]), fnum(r["lbsim_fct_max_us"]), fpct(r["diff_max_pct"]),
                fnum(r["htsim_fct_p50_us"]), fnum(r["lbsim_fct_p50_us"]), fpct(r["diff_p50_pct"]),
                fnum(r["htsim_fct_p99_us"]), fnum(r["lbsim_fct_p99_us"]), fpct(r["diff_p99_pct"]),
                fnum(r["htsim_drops"], 0), fnum(r["lbsim_drops"], 0),
                fnum(r["htsim_retx"], 0), fnum(r["lbsim_retx"], 0)))
        w("")
        for v in VARIANT_TEXT:
            w("- `[%s]`: %s" % v)
        w("")
    w("## Differences over 10 %")
    w("")
    flagged = []
    for r in base:
        if over10(r) and r["base"] not in flagged:
            flagged.append(r["base"])
    if not flagged:
        w("None.")
        w("")
    for name in flagged:
        text = EXPLANATIONS.get(name)
        w("### %s" % name)
        w("")
        if text:
            w(fill(text, rows))
        else:
            w("**Unexplained: a finding.** No measured explanation yet.")
        w("")
    w("## Parameter mapping")
    w("")
    w("| what | htsim | lbsim | htsim source (%s at %s, under `%s`) |" % (HTSIM, HTSIM_AT, P))
    w("|---|---|---|---|")
    for what, h, l, src in PARAMETERS:
        w("| %s | %s | %s | %s |" % (what, h, l, src))
    w("")
    w("## What is not compared, and why")
    w("")
    for g in GAPS:
        w("- " + g)
    w("")
    return "\n".join(out)


# one-change variants: (name, what it changes); filled by crosscheck.py's VARIANTS at render time
VARIANT_TEXT = []
