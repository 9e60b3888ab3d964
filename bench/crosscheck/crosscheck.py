#!/usr/bin/env python3
"""lbsim against htsim on shared scenarios: build htsim, generate traffic with htsim's own
connection-matrix generators, run both simulators, write one CSV row per scenario and the page
docs/validation.md from that CSV.

  python3 bench/crosscheck/crosscheck.py run --htsim PATH/TO/HTSIM-TREE      # build, run, CSV, page
  python3 bench/crosscheck/crosscheck.py run --htsim T --only perm-1mib-spray --seeds 1,2
  python3 bench/crosscheck/crosscheck.py page                                # page from the CSV only
  python3 bench/crosscheck/crosscheck.py list                                # the scenarios

Nothing is fetched. PATH/TO/HTSIM-TREE is a checkout whose sim/ (or htsim/sim/) holds htsim's
sources: with a hand-written sim/Makefile (csg-htsim) `make` runs in sim/ and sim/datacenter/; with
only CMakeLists.txt (the UEC htsim and its forks, whose committed Makefiles are CMake output with
their author's paths) CMake configures sim/build and builds htsim_uec, and htsim_roce for the roce-
rows. Every build and run is under
`nice -n 10`, one job at a time. Python 3 standard library only.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_CSV = os.path.join(REPO, "results", "validation", "crosscheck.csv")
DEFAULT_PAGE = os.path.join(REPO, "docs", "validation.md")
DEFAULT_JAR = os.path.join(REPO, "cli", "target", "lbsim.jar")
# builds and simulators run at niceness 10, also when this script itself already runs niced
NICE = ["nice", "-n", str(max(0, 10 - os.nice(0)))]

# ---------------------------------------------------------------------------------------------
# The shared fabric. Each value is set on both sides; docs/validation.md gives the htsim source
# line each one comes from (PARAMETERS below).
LINK_GBPS = 800
LINK_DELAY_US = 0.5
PAYLOAD_BYTES = 4096
HEADER_BYTES = 64          # htsim UecSrc::_hdr_size
ACK_BYTES = 64             # htsim UecBasePacket::ACKSIZE
QUEUE_PKTS = 192           # per-port drop-tail buffer, in htsim data packets
FRAME_BYTES = PAYLOAD_BYTES + HEADER_BYTES
QUEUE_BYTES = QUEUE_PKTS * FRAME_BYTES
SPRAY_PATHS = 64           # htsim -paths: entropies an oblivious sender cycles through


# The RoCE rows (htsim_roce, datacenter/main_roce.cpp): each value is set on both sides; the page's
# parameter mapping gives the htsim source line of each.
ROCE_MSS_BYTES = 4096        # -mtu 4096: a RocePacket carries 4096 B of the flow, on the wire 4096 + 64 (rocepacket.h:46, 68)
ROCE_QUEUE_PKTS = 192        # -q 192: 192 x 4096 B per egress; under PFC only the AR bands (5/10/20 %) use it
ROCE_PFC_LOW_PKTS = 12       # -pfc_thresholds 12 15 (main_roce.cpp's defaults, given explicitly): resume below
ROCE_PFC_HIGH_PKTS = 15      # 12 x 4096 B, pause above 15 x 4096 B, per switch ingress
ROCE_ECN_PKTS = 20           # -dcqcn 20: mark on dequeue when the egress holds more than 20 x 4096 B
ROCE_END_US = 100000         # -end: htsim_roce stops at 1 ms by default
ROCE_REORDER_PKTS = 64       # roceMaxReorder (roce.h:25): the sink keeps seqno - cumulative ack <= 64, the expected packet and 63 after it


def roce_dcqcn():
    """lbsim's DCQCN with htsim's DCQCNSrc constants (dcqcn.cpp:19-27, 60-62, 165-197, 231-267)."""
    line = float(LINK_GBPS)
    return {"type": "dcqcn",
            "rateIncreaseTimerUs": 55,          # _cc_update_period
            "rateDecreaseIntervalUs": 0.0416,   # htsim cuts on the CNP itself; lbsim at its next check, at most one frame time (the least it allows) later
            "byteCounterBytes": 10000000,       # _B: never reached here, so (as in htsim) never hyper increase
            "additiveIncreaseGbps": line / 20,  # _RAI = rate / 20
            "hyperIncreaseGbps": line / 10,     # _RHAI = rate / 10
            "alphaGain": 1.0 / 256,             # _g
            "alphaUpdateUs": 55,                # alpha decays every _cc_update_period
            "fastRecoveryStages": 5,            # _F
            "minRateGbps": line / 1000,         # _min_rate = rate / 1000
            "cnpIntervalUs": 50,                # DCQCNSink::_cnp_interval
            "clampTargetRate": True,            # processCNP: _RT = _RC on every CNP
            "nackIsCongestionSignal": False}    # processNack never touches the rate


def k_for_hosts(hosts):
    for k in range(4, 66, 2):
        if k ** 3 // 4 == hosts:
            return k
    raise SystemExit("crosscheck: %d hosts is not a k-ary fat tree (k^3/4)" % hosts)


# A scenario: the generator (script in htsim's connection_matrices/ and its arguments, SEED is
# replaced by the seed), the load balancing on both sides, optional link degradation, and
# optional one-change variants of either side (explanations of a difference).
SCENARIOS = [
    {"name": "perm-1mib-spray", "hosts": 128,
     "what": "permutation, 1 MiB per host, packet spraying",
     "gen": ["gen_permutation.py", "{cm}", "128", "128", "1048576", "0", "{seed}"],
     "lb": "spray"},
    {"name": "perm-4mib-spray", "hosts": 128,
     "what": "permutation, 4 MiB per host, packet spraying",
     "gen": ["gen_permutation.py", "{cm}", "128", "128", "4194304", "0", "{seed}"],
     "lb": "spray"},
    {"name": "perm-1mib-ecmp", "hosts": 128,
     "what": "permutation, 1 MiB per host, per-flow ECMP",
     "gen": ["gen_permutation.py", "{cm}", "128", "128", "1048576", "0", "{seed}"],
     "lb": "ecmp"},
    {"name": "perm-4mib-ecmp", "hosts": 128,
     "what": "permutation, 4 MiB per host, per-flow ECMP",
     "gen": ["gen_permutation.py", "{cm}", "128", "128", "4194304", "0", "{seed}"],
     "lb": "ecmp"},
    {"name": "a2a-128kib-spray", "hosts": 128,
     "what": "all-to-all (all 16,256 flows at once), 128 KiB per pair, packet spraying",
     "gen": ["gen_serialn_alltoall.py", "{cm}", "128", "128", "128", "127", "131072", "0", "{seed}"],
     "lb": "spray"},
    {"name": "a2a-128kib-ecmp", "hosts": 128,
     "what": "all-to-all (all 16,256 flows at once), 128 KiB per pair, per-flow ECMP",
     "gen": ["gen_serialn_alltoall.py", "{cm}", "128", "128", "128", "127", "131072", "0", "{seed}"],
     "lb": "ecmp"},
    {"name": "incast-3to1-4mib", "hosts": 128,
     "what": "3-to-1 incast onto host 0, 4 MiB per sender, packet spraying",
     "gen": ["gen_incast.py", "{cm}", "128", "3", "4194304", "0", "{seed}", "0"],
     "lb": "spray"},
    {"name": "perm-4mib-spray-degraded", "hosts": 128,
     "what": "permutation, 4 MiB, packet spraying, core 0 -> aggregation 0 at 25 % (200 Gb/s)",
     "gen": ["gen_permutation.py", "{cm}", "128", "128", "4194304", "0", "{seed}"],
     "lb": "spray", "degraded": True},
    {"name": "perm-1mib-spray-1024", "hosts": 1024,
     "what": "permutation, 1 MiB per host, packet spraying, 1,024 hosts (k = 16)",
     "gen": ["gen_permutation.py", "{cm}", "1024", "1024", "1048576", "0", "{seed}"],
     "lb": "spray"},
    {"name": "perm-1mib-ecmp-1024", "hosts": 1024,
     "what": "permutation, 1 MiB per host, per-flow ECMP, 1,024 hosts (k = 16)",
     "gen": ["gen_permutation.py", "{cm}", "1024", "1024", "1048576", "0", "{seed}"],
     "lb": "ecmp"},
    # htsim_roce: DCQCN senders, PFC (lossless input queues), go-back-N past a 64-packet reorder window;
    # its switches route these flows adaptively per packet (see ROCE_* below and the page's mapping)
    {"name": "roce-perm-1mib", "hosts": 128, "htsim": "roce",
     "what": "RoCE: permutation, 1 MiB per host, DCQCN + PFC, go-back-N, switch adaptive routing per packet",
     "gen": ["gen_permutation.py", "{cm}", "128", "128", "1048576", "0", "{seed}"],
     "lb": "switch-ar"},
    {"name": "roce-incast-3to1-4mib", "hosts": 128, "htsim": "roce",
     "what": "RoCE: 3-to-1 incast onto host 0, 4 MiB per sender, DCQCN + PFC, go-back-N, switch adaptive routing per packet",
     "gen": ["gen_incast.py", "{cm}", "128", "3", "4194304", "0", "{seed}", "0"],
     "lb": "switch-ar"},
]

# One-change rows: the scenario they vary, the one change, on which side.
VARIANTS = []


def variant(base, change, what, htsim_extra=None, lbsim_set=None, htsim_patch=None):
    VARIANTS.append({"base": base, "change": change, "name": "%s:%s" % (base, change), "what": what,
                     "htsim_extra": htsim_extra or [], "lbsim_set": lbsim_set or {},
                     "htsim_patch": list(htsim_patch or [])})


# One-line changes to htsim's own sources, to measure what one of its mechanisms does: (file under
# sim/, the exact text, its replacement). A variant naming some of them runs a copy of the program
# built from the patched files (build_patched); the tree itself is never modified.
HTSIM_PATCHES = {
    # dcqcn.cpp:301: after a go-back-N rewind _highest_sent is below _old_highest_sent, the unsigned
    # difference wraps around, the byte counter passes _B at once and the rate goes up (dcqcn.cpp:304-308)
    "dcqcn-bytecounter-forward-only": (
        "dcqcn.cpp",
        "    _byte_counter += (_highest_sent - _old_highest_sent) * static_cast<uint64_t>(_mss);",
        "    if (_highest_sent > _old_highest_sent)\n"
        "        _byte_counter += (_highest_sent - _old_highest_sent) * static_cast<uint64_t>(_mss);"),
    # dcqcn.cpp:486-496: at the end of each CNP interval the sink sends a CNP for the marked packets
    # that arrived during it; without this, as lbsim's notification point does, a CNP goes only for a
    # marked packet arriving once the interval has passed (dcqcn.cpp:472-481)
    "dcqcn-no-deferred-cnp": (
        "dcqcn.cpp",
        "    if (eventlist().now() - _last_cnp_sent_time >= _cnp_interval &&\n"
        "        _marked_packets_since_last_cnp > 0) {",
        "    if (false) {"),
    # uec.cpp:2711-2719: at a retransmission timer expiry with more than the window in flight the sender
    # also sends an RTS control packet (sendRTS, uec.cpp:2493-2523: a sequence number and a send record
    # under the same timer); without it only the resend goes (queueForRtx has already asked the NIC, 2542-2548)
    "uec-no-rts-on-timeout": (
        "uec.cpp",
        "                cout << \"sendRTS 3\"\n"
        "                     << \" flow \" << _flow.str() << endl;\n"
        "            sendRTS();  \n"
        "            return;",
        "                cout << \"sendRTS 3\"\n"
        "                     << \" flow \" << _flow.str() << endl;\n"
        "            return;"),
    # fat_tree_switch.cpp:308-315: a ToR shuffles its uplinks at the first packet it sends up (457-458),
    # an aggregation switch its uplinks towards each destination at the first packet there (503-504),
    # with draws from the generator every sender also draws from once per packet (uec_mp.cpp:55-58), so
    # the order depends on how many packets htsim has sent by then; without the shuffle a switch's
    # ECMP index counts its uplinks in the order the FIB lists them (440-449, 484-501)
    # compositequeue.cpp:162-183: a data packet arriving at a full queue takes, with probability 0.5, the
    # place of the packet queued last, which is dropped (trimmed with trimming on); otherwise it is dropped
    # itself. Without the coin the arriving packet is always the one dropped: drop-tail, as lbsim's buffer
    "composite-drop-arriving": (
        "compositequeue.cpp",
        "        if (_queuesize_low+pkt.size() <= _maxsize  || drand()<0.5) {",
        "        if (_queuesize_low+pkt.size() <= _maxsize) {"),
    "no-uplink-shuffle": (
        "datacenter/fat_tree_switch.cpp",
        "void FatTreeSwitch::permute_paths(vector<FibEntry *>* uproutes) {\n",
        "void FatTreeSwitch::permute_paths(vector<FibEntry *>* uproutes) {\n    return;\n"),
}


# htsim's oblivious sender cycles through a fixed set of entropies per flow; with 8192 (the most
# main_uec.cpp:968-971 allows) a flow of a thousand packets sees as many distinct ones as packets
for _base in ("perm-1mib-spray", "perm-4mib-spray", "perm-4mib-spray-degraded", "perm-1mib-spray-1024"):
    variant(_base, "htsim-paths-8192", "htsim `-paths 8192` instead of 64 (the largest power of two its ECMP check allows): as many distinct entropies as "
            "packets, like lbsim's fresh random entropy per packet", htsim_extra=["-paths", "8192"])
HTSIM_MIN_RTO_US = 62.9232   # htsim's auto min RTO here: 15 us + 6 x 798,720 B at 800 Gb/s
for _base in ("perm-1mib-ecmp", "perm-4mib-ecmp", "a2a-128kib-ecmp", "incast-3to1-4mib", "perm-1mib-ecmp-1024"):
    variant(_base, "lbsim-sack-rto", "lbsim `lossRecovery: {type: sack, rtoUs: 62.9232}` (htsim's "
            "automatic minimum RTO) instead of the erasure sender: lost packets are resent, a lost tail waits "
            "for a timer, as in htsim", lbsim_set={"lossRecovery": {"type": "sack", "rtoUs": HTSIM_MIN_RTO_US}})
# htsim_uec as run here (-disable_trim: no NACKs; no -sleek: no out-of-order threshold, no probes,
# uec.cpp:82, 1159, 1955) finds a loss only by its retransmission timer (rtxTimerExpired,
# uec.cpp:2639-2709), set per packet: the oldest unacknowledged packet's send time plus the minimum
# RTO, again for the next oldest after each expiry (startRTO, recalculateRTO: uec.cpp:2316-2343,
# 2627-2637). Two steps from [lbsim-sack-rto], one change each: the fast resend off (`threshold` the
# flow's packet count, which its ack gap never exceeds; for 128 KiB flows the default 32 already is),
# then the timer per packet (`rtoFrom: send`).
TIMER_ONLY_WHAT = (
    "lbsim `lossRecovery: {type: sack, threshold: P, rtoUs: 62.9232}`, P the flow's packet count (256 for 1 MiB, "
    "1,024 for 4 MiB): `[lbsim-sack-rto]` with the fast resend off (a flow's ack gap never exceeds its packet count), "
    "so only the timer finds a loss, as in htsim run without trimming and without `-sleek`; the timer still runs from "
    "the last ACK progress")
TIMER_PER_PACKET_WHAT = (
    "lbsim `lossRecovery: {type: sack, threshold: P, rtoUs: 62.9232, rtoFrom: send}`, P the flow's packet count "
    "(256 for 1 MiB, 1,024 for 4 MiB, 32 for 128 KiB): `[lbsim-sack-rto-timer-only]` with the timer per packet as "
    "htsim's (a packet is resent 62.9 us after it was sent, whatever ACKs arrived since): htsim's loss detection. "
    "For 128 KiB flows `[lbsim-sack-rto]`'s default threshold, 32, is already the packet count, so there it is "
    "`[lbsim-sack-rto]` with the timer per packet")


def sack_timer(base, flow_bytes, per_packet):
    recovery = {"type": "sack", "threshold": flow_bytes // PAYLOAD_BYTES, "rtoUs": HTSIM_MIN_RTO_US}
    if per_packet:
        recovery["rtoFrom"] = "send"
    variant(base, "lbsim-sack-rto-timer-per-packet" if per_packet else "lbsim-sack-rto-timer-only",
            TIMER_PER_PACKET_WHAT if per_packet else TIMER_ONLY_WHAT, lbsim_set={"lossRecovery": recovery})


for _base, _flow_bytes in (("perm-1mib-ecmp", 1048576), ("perm-4mib-ecmp", 4194304), ("a2a-128kib-ecmp", 131072),
                           ("incast-3to1-4mib", 4194304), ("perm-1mib-ecmp-1024", 1048576)):
    if _flow_bytes > 32 * PAYLOAD_BYTES:
        sack_timer(_base, _flow_bytes, per_packet=False)
    sack_timer(_base, _flow_bytes, per_packet=True)
for _base in ("roce-perm-1mib", "roce-incast-3to1-4mib"):
    variant(_base, "lbsim-strict-go-back-n", "lbsim `lossRecovery: go-back-n` (receiver keeps only the expected packet and "
            "NACKs the first gap, sender rewinds to it) instead of `sack` with a 64-packet threshold: go-back-N without "
            "htsim's 64-packet reorder window", lbsim_set={"lossRecovery": {"type": "go-back-n", "rtoUs": ROCE_END_US}})
    variant(_base, "lbsim-go-back-n-window-64", "lbsim `lossRecovery: {type: go-back-n, reorderWindowPackets: 64}` instead of "
            "`sack` with a 64-packet threshold: htsim's receiver (keeps the expected packet and the 63 after it unanswered, drops "
            "and NACKs beyond, the cumulative ACK jumps when the hole fills) with go-back-N's rewind",
            lbsim_set={"lossRecovery": {"type": "go-back-n", "rtoUs": ROCE_END_US, "reorderWindowPackets": ROCE_REORDER_PKTS}})
variant("roce-incast-3to1-4mib", "htsim-bytecounter-fix", "htsim with its DCQCN byte counter counting only forward "
        "progress (dcqcn.cpp:301 patched in a copy): a go-back-N rewind no longer wraps the unsigned difference "
        "around and fires a rate increase", htsim_patch=["dcqcn-bytecounter-forward-only"])
variant("roce-incast-3to1-4mib", "htsim-no-deferred-cnp", "htsim's DCQCN receiver without its deferred CNP "
        "(dcqcn.cpp:486-496 disabled in a copy): a CNP only for a marked packet arriving once the 50 us "
        "interval has passed, as lbsim's notification point sends them", htsim_patch=["dcqcn-no-deferred-cnp"])
variant("roce-incast-3to1-4mib", "htsim-both-dcqcn-changes", "htsim with both DCQCN changes above (two changes, "
        "to see what is left)", htsim_patch=["dcqcn-bytecounter-forward-only", "dcqcn-no-deferred-cnp"])
variant("roce-incast-3to1-4mib", "htsim-both-dcqcn-changes-lbsim-window-64", "htsim with both DCQCN changes above and lbsim "
        "with go-back-N and htsim's 64-packet reorder window (`[lbsim-go-back-n-window-64]`): the three measured "
        "differences removed at once, to see what is left", htsim_patch=["dcqcn-bytecounter-forward-only", "dcqcn-no-deferred-cnp"],
        lbsim_set={"lossRecovery": {"type": "go-back-n", "rtoUs": ROCE_END_US, "reorderWindowPackets": ROCE_REORDER_PKTS}})
# the collision pattern alone: the same matrix with buffers no queue here fills (100,000 packets per port
# on both sides; htsim parses the later -q, main_uec.cpp:569-572), so nothing is dropped and each FCT is
# set by how many flows each simulator's hash put on the links a flow crosses
NO_DROP_QUEUE_PKTS = 100000
for _base in ("perm-1mib-ecmp", "a2a-128kib-ecmp", "perm-1mib-ecmp-1024"):
    variant(_base, "both-no-drop", "both simulators with 100,000-packet buffers per port (htsim `-q 100000`, "
            "lbsim `bytesPerPort` the same in bytes), lbsim with `[lbsim-sack-rto]`'s `sack`: one change from `[lbsim-sack-rto]` "
            "(the buffers), on both sides; nothing is dropped, so the FCTs show each simulator's own collision pattern alone",
            htsim_extra=["-q", str(NO_DROP_QUEUE_PKTS)],
            lbsim_set={"switches.buffer.bytesPerPort": NO_DROP_QUEUE_PKTS * FRAME_BYTES,
                       "lossRecovery": {"type": "sack", "rtoUs": HTSIM_MIN_RTO_US}})
variant("a2a-128kib-ecmp", "htsim-no-rts-lbsim-timer-per-packet", "htsim without the RTS its sender sends at a timer "
        "expiry with more than its window in flight (uec.cpp:2711-2719 changed in a copy), lbsim with "
        "`[lbsim-sack-rto-timer-per-packet]`: one change from that row, on htsim's side",
        htsim_patch=["uec-no-rts-on-timeout"],
        lbsim_set={"lossRecovery": {"type": "sack", "threshold": 131072 // PAYLOAD_BYTES, "rtoUs": HTSIM_MIN_RTO_US,
                                    "rtoFrom": "send"}})
# the same flow-to-path assignment on both sides: lbsim with htsim's switch hash, its path ids and salts
# (`loadBalancing: {type: ecmp, hash: htsim}`, org.lbsim.lb.HtsimEcmpHash; htsimSeed is the run's seed,
# set in lbsim_scenario) and htsim without its uplink shuffle (no-uplink-shuffle above, whose draws depend
# on htsim's event order), lbsim with htsim's loss detection ([lbsim-sack-rto-timer-per-packet])
SAME_PATHS = "htsim-no-uplink-shuffle-lbsim-htsim-hash-timer-per-packet"
for _base, _flow_bytes in (("perm-4mib-ecmp", 4194304), ("a2a-128kib-ecmp", 131072), ("perm-1mib-ecmp-1024", 1048576)):
    variant(_base, SAME_PATHS, "both simulators with one flow-to-path assignment: htsim without the shuffle of each switch's "
            "uplinks at its first packet (fat_tree_switch.cpp:308-315 changed in a copy; its draws depend on how many packets "
            "htsim has sent by then, so lbsim cannot follow it), lbsim `loadBalancing: {type: ecmp, hash: htsim}` (htsim's "
            "switch hash, fat_tree_switch.cpp:370-374, with htsim's path ids and salts for the same seed) and "
            "`[lbsim-sack-rto-timer-per-packet]`'s loss recovery: one change on each side from that row",
            htsim_patch=["no-uplink-shuffle"],
            lbsim_set={"loadBalancing": {"type": "ecmp", "hash": "htsim"},
                       "lossRecovery": {"type": "sack", "threshold": _flow_bytes // PAYLOAD_BYTES, "rtoUs": HTSIM_MIN_RTO_US,
                                        "rtoFrom": "send"}})
# the same, with htsim's full queue dropping the arriving packet always (composite-drop-arriving above),
# as lbsim's drop-tail buffer does: one change on htsim's side from SAME_PATHS
SAME_PATHS_DROP_TAIL = "htsim-drop-tail-no-uplink-shuffle-lbsim-htsim-hash-timer-per-packet"
for _base, _flow_bytes in (("perm-4mib-ecmp", 4194304), ("a2a-128kib-ecmp", 131072)):
    variant(_base, SAME_PATHS_DROP_TAIL, "`[" + SAME_PATHS + "]` with htsim's full queue always dropping the "
            "arriving data packet (compositequeue.cpp:162 changed in a copy: without its coin that, half the time, queues "
            "the arriving packet and drops the one queued last instead), as lbsim's drop-tail buffer does: one change on "
            "htsim's side from that row",
            htsim_patch=["no-uplink-shuffle", "composite-drop-arriving"],
            lbsim_set={"loadBalancing": {"type": "ecmp", "hash": "htsim"},
                       "lossRecovery": {"type": "sack", "threshold": _flow_bytes // PAYLOAD_BYTES, "rtoUs": HTSIM_MIN_RTO_US,
                                        "rtoFrom": "send"}})
variant("perm-1mib-ecmp", "htsim-switch-ar", "htsim `-fg_ar adaptive`, this htsim's default for flows below "
        "`-bg_threshold`: switches route each packet adaptively, whatever the host's entropy",
        htsim_extra=["-fg_ar", "adaptive"])


# ---------------------------------------------------------------------------------------------
# htsim


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def find_sim_dir(tree):
    for cand in (os.path.join(tree, "sim"), os.path.join(tree, "htsim", "sim"), tree):
        if os.path.isdir(os.path.join(cand, "datacenter")) and os.path.isfile(os.path.join(cand, "eventlist.cpp")):
            return cand
    fail("crosscheck: --htsim %s: no htsim sources there (expected sim/datacenter/ or "
                     "htsim/sim/datacenter/ beside eventlist.cpp)" % tree)


def is_cmake_output(makefile):
    try:
        with open(makefile, errors="replace") as f:
            return "CMAKE generated file" in f.read(400)
    except OSError:
        return True


def build_htsim(sim, log, target="htsim_uec"):
    """Returns the path of the htsim program `target` (htsim_uec or htsim_roce), building it if needed."""
    plain = os.path.join(sim, "Makefile")
    dc = os.path.join(sim, "datacenter")
    if os.path.isfile(plain) and not is_cmake_output(plain):
        # csg-htsim: hand-written Makefiles
        for d in (sim, dc):
            run_logged(NICE + ["make", "-j1"], d, log)
        binary = os.path.join(dc, target)
    else:
        build = os.path.join(sim, "build")
        binary = os.path.join(build, "datacenter", target)
        if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
            run_logged(NICE + ["cmake", "-S", sim, "-B", build, "-DCMAKE_BUILD_TYPE=Release"], sim, log)
        run_logged(NICE + ["cmake", "--build", build, "-j1", "--target", target], sim, log)
    if not os.access(binary, os.X_OK):
        raise SystemExit("crosscheck: the build finished but %s is missing: this htsim has no "
                         "%s, a binary this script drives" % (binary, target))
    return binary


def build_patched(sim, log, target, patches, work):
    """A copy of htsim's `target` with HTSIM_PATCHES `patches` applied: the patched files are compiled
    with the tree's CMake flags and linked before its libraries, so they replace the originals."""
    build = os.path.join(sim, "build")
    link_txt = os.path.join(build, "datacenter", "CMakeFiles", target + ".dir", "link.txt")
    if not os.path.isfile(link_txt):
        raise SystemExit("crosscheck: patched htsim variants need the CMake build of %s (%s)" % (target, link_txt))

    def cmake_flags(src):
        # sim/X.cpp is built into libhtsim, sim/datacenter/X.cpp into libhtsim_dc, each with its own flags
        in_dc = os.path.dirname(src) == "datacenter"
        flags_make = os.path.join(build, *(["datacenter", "CMakeFiles", "htsim_dc.dir"] if in_dc else ["CMakeFiles", "htsim.dir"]),
                                  "flags.make")
        if not os.path.isfile(flags_make):
            raise SystemExit("crosscheck: patched htsim variants need the CMake build of %s (%s)" % (target, flags_make))
        flags = {}
        with open(flags_make) as f:
            for line in f:
                if " = " in line and not line.startswith("#"):
                    k, v = line.split(" = ", 1)
                    flags[k.strip()] = v.split()
        return flags
    out_dir = os.path.join(work, "%s+%s" % (target, "+".join(patches)))
    os.makedirs(out_dir, exist_ok=True)
    texts = {}
    for name in patches:
        src, old, new = HTSIM_PATCHES[name]
        if src not in texts:
            with open(os.path.join(sim, src)) as f:
                texts[src] = f.read()
        if texts[src].count(old) != 1:
            raise SystemExit("crosscheck: patch %s: its text is not found exactly once in %s (another htsim version?)" % (name, src))
        texts[src] = texts[src].replace(old, new)
    objs = []
    for src, text in sorted(texts.items()):
        path = os.path.join(out_dir, os.path.basename(src))
        with open(path, "w") as f:
            f.write(text)
        obj = path + ".o"
        flags = cmake_flags(src)
        run_logged(NICE + ["c++"] + flags.get("CXX_FLAGS", []) + flags.get("CXX_DEFINES", []) + flags.get("CXX_INCLUDES", [])
                   + ["-c", path, "-o", obj], out_dir, log)
        objs.append(obj)
    binary = os.path.join(out_dir, target)
    with open(link_txt) as f:
        tokens = f.read().split()
    at = tokens.index("-o")
    tokens[at + 1] = binary
    run_logged(NICE + tokens[:at] + objs + tokens[at:], os.path.join(build, "datacenter"), log)
    return binary


def run_logged(cmd, cwd, log):
    with open(log, "a") as f:
        f.write("$ (cd %s && %s)\n" % (cwd, " ".join(cmd)))
        f.flush()
        r = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise SystemExit("crosscheck: `%s` failed in %s (exit %d); see %s" % (" ".join(cmd), cwd, r.returncode, log))


def git_commit(path):
    try:
        r = subprocess.run(["git", "-C", path, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else ""
    except OSError:
        return ""


def htsim_args(sc, cm, seed, extra):
    args = ["-tm", cm, "-o", "htsim.log", "-nodes", str(sc["hosts"]), "-tiers", "3",
            "-linkspeed", str(LINK_GBPS * 1000), "-hop_latency", str(LINK_DELAY_US), "-switch_latency", "0",
            "-mtu", str(FRAME_BYTES), "-q", str(QUEUE_PKTS),
            "-queue_type", "composite", "-disable_trim", "-no_ecn",
            "-sender_cc_algo", "constant", "-load_balancing_algo", "oblivious",
            "-paths", str(SPRAY_PATHS if sc["lb"] == "spray" else 1),
            # this htsim's switches route a "foreground" flow (flow id <= -bg_threshold, default 1000)
            # adaptively per packet unless -fg_ar ecmp (fat_tree_switch.cpp:319, 368-382), and run a
            # flow above the threshold as a PFC-only background flow on one path (main_uec.cpp:1319-1320; flow ids are 32-bit)
            "-fg_ar", "ecmp", "-bg_threshold", str(2 ** 32 - 1),
            "-seed", str(seed), "-verbose"]
    if sc.get("degraded"):
        args += ["-failed", "1"]
    return args + list(extra)


def htsim_roce_args(sc, cm, seed, extra):
    return ["-tm", cm, "-o", "htsim.log", "-nodes", str(sc["hosts"]), "-tiers", "3",
            "-linkspeed", str(LINK_GBPS * 1000), "-hop_latency", str(LINK_DELAY_US), "-switch_latency", "0",
            "-mtu", str(ROCE_MSS_BYTES), "-q", str(ROCE_QUEUE_PKTS),
            "-pfc_thresholds", str(ROCE_PFC_LOW_PKTS), str(ROCE_PFC_HIGH_PKTS),
            "-dcqcn", str(ROCE_ECN_PKTS),
            # main_roce.cpp accepts only -strat ecmp_host here (560-561); switches then route a flow with
            # id <= 1000 (all of these) adaptively per packet (fat_tree_switch.cpp:319, 333-382)
            "-strat", "ecmp_host", "-paths", "1",
            "-end", str(ROCE_END_US), "-seed", str(seed)] + list(extra)


FLOW_START = re.compile(r"^Flow \S+ flowId (\d+) .* starting at ([0-9.eE+-]+)")
FLOW_DONE = re.compile(r"^Flow \S+ flowId (\d+) .* finished at [0-9.eE+-]+ .* rtx (\d+) rto (\d+) nack (\d+) dup (\d+) ")
FINISH_PS = re.compile(r"^NSCC_FINISH flowid (\d+) time_ps (\d+)")


def parse_htsim(stdout):
    starts, rtx, rto, dup, finish = {}, 0, 0, 0, []
    pending = None
    for line in stdout.splitlines():
        m = FLOW_START.match(line)
        if m:
            starts[m.group(1)] = round(float(m.group(2)) * 1e6)
            continue
        m = FLOW_DONE.match(line)
        if m:
            pending = m.group(1)
            rtx += int(m.group(2))
            rto += int(m.group(3))
            dup += int(m.group(5))
            continue
        m = FINISH_PS.match(line)
        if m and pending is not None:
            finish.append((pending, int(m.group(2))))
            pending = None
    fcts = [(t - starts.get(fid, 0)) / 1e6 for fid, t in finish]
    return {"fcts_us": fcts, "retx": rtx, "timeouts": rto,
            # htsim_uec prints no drop count; with drop-tail queues (no trimming) every resend
            # that did not arrive as a duplicate replaced a dropped packet
            "drops": max(rtx - dup, 0)}


ROCE_FINISH = re.compile(r"^DCQCN_FINISH flowid (\d+) time_ps (\d+)")
ROCE_RTX = re.compile(r"^New: \d+ Rtx: (\d+)")


def parse_htsim_roce(stdout):
    """FCTs from DCQCN_FINISH (the sender holds the ACK of the last byte; every flow here starts at 0);
    resends are go-back-N's rewound packets (main_roce.cpp:644-649); PFC drops nothing."""
    finish, rtx = [], 0
    for line in stdout.splitlines():
        m = ROCE_FINISH.match(line)
        if m:
            finish.append(int(m.group(2)) / 1e6)
            continue
        m = ROCE_RTX.match(line)
        if m:
            rtx = int(m.group(1))
    return {"fcts_us": finish, "retx": rtx, "timeouts": 0, "drops": 0}


# ---------------------------------------------------------------------------------------------
# lbsim


def lbsim_roce_scenario(sc, cm_name, seed):
    k = k_for_hosts(sc["hosts"])
    link = {"rateGbps": LINK_GBPS, "delayNs": round(LINK_DELAY_US * 1000)}
    ecn_bytes = ROCE_ECN_PKTS * ROCE_MSS_BYTES - (ROCE_MSS_BYTES + HEADER_BYTES)
    return {
        "name": sc["name"], "seed": seed,
        "topology": {"type": "fat-tree", "k": k, "hostLink": link, "edgeAggLink": link, "aggCoreLink": link},
        "packets": {"mtuBytes": ROCE_MSS_BYTES, "headerBytes": HEADER_BYTES, "ackBytes": ACK_BYTES,
                    "interFrameGapBytes": 0},
        "switches": {
            "buffer": {"type": "per-port", "bytesPerPort": ROCE_QUEUE_PKTS * ROCE_MSS_BYTES},
            # htsim marks a leaving packet when the egress, that packet included, holds more than K
            # (queue_lossless_output.cpp:166-169); lbsim's dequeue mark counts the queue behind it
            "ecn": {"enabled": True, "kminBytes": ecn_bytes, "kmaxBytes": ecn_bytes, "pmax": 1.0, "markAt": "dequeue"},
            # pause above high, resume below low (strictly: lbsim resumes at <= xon)
            "pfc": {"enabled": True, "xoffBytes": ROCE_PFC_HIGH_PKTS * ROCE_MSS_BYTES,
                    "xonBytes": ROCE_PFC_LOW_PKTS * ROCE_MSS_BYTES - 1, "headroomBytes": 100000000},
            "controlPriority": False},
        # htsim's host queue serves ACK / NACK / CNP first (FairPriorityQueue, PRIO_HI, rocepacket.h:99, 131)
        "nic": {"controlPriority": True},
        "loadBalancing": {"type": "switch-pkt-ar"},
        "congestionControl": roce_dcqcn(),
        # htsim's RoCE sink keeps the expected packet and the 63 after it and NACKs only past them
        # (RoceSink::receivePacket, roce.cpp:422-490; roce.h:25). The base rows keep everything and resend
        # once the ack gap exceeds 64; [lbsim-go-back-n-window-64] runs htsim's receiver (go-back-n,
        # reorderWindowPackets: 64). htsim's RoceSrc has no retransmission timer: the lbsim timer is beyond the run.
        "lossRecovery": {"type": "sack", "threshold": ROCE_REORDER_PKTS, "rtoUs": ROCE_END_US},
        "workload": {"type": "htsim-cm", "file": cm_name},
        "metrics": {"sampleIntervalUs": 0, "rateSeriesQps": 0},
    }


def apply_sets(s, sets):
    for path, value in sets.items():
        node = s
        keys = path.split(".")
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        node[keys[-1]] = value
    return s


def lbsim_scenario(sc, cm_name, seed, sets):
    if sc.get("htsim") == "roce":
        return apply_sets(lbsim_roce_scenario(sc, cm_name, seed), sets)
    k = k_for_hosts(sc["hosts"])
    link = {"rateGbps": LINK_GBPS, "delayNs": round(LINK_DELAY_US * 1000)}
    s = {
        "name": sc["name"], "seed": seed,
        "topology": {"type": "fat-tree", "k": k, "hostLink": link, "edgeAggLink": link, "aggCoreLink": link},
        "packets": {"mtuBytes": PAYLOAD_BYTES, "headerBytes": HEADER_BYTES, "ackBytes": ACK_BYTES,
                    "interFrameGapBytes": 0},
        "switches": {"buffer": {"type": "per-port", "bytesPerPort": QUEUE_BYTES}, "ecn": {"enabled": False}},
        "loadBalancing": {"type": "host-spray" if sc["lb"] == "spray" else "ecmp"},
        "congestionControl": {"type": "fixed-rate"},
        "lossRecovery": {"type": "erasure", "endOfMessage": "srtt-after-pass"},
        "workload": {"type": "htsim-cm", "file": cm_name},
        "metrics": {"sampleIntervalUs": 0, "rateSeriesQps": 0},
    }
    if sc.get("degraded"):
        # htsim -failed 1: the first core -> aggregation link (core 0 to aggregation 0) at 25 %
        s["failures"] = {"events": [{"atUs": 0, "link": {"a": "c0", "b": "a0", "index": 0},
                                     "action": "degrade", "rateGbps": LINK_GBPS // 4}]}
    s = apply_sets(s, sets)
    if s["loadBalancing"].get("hash") == "htsim":
        s["loadBalancing"]["htsimSeed"] = seed   # htsim runs with -seed SEED
    return s


def parse_lbsim(run_dir, stdout):
    fcts = []
    retx = timeouts = 0
    with open(os.path.join(run_dir, "flows.csv")) as f:
        for row in csv.DictReader(f):
            fct = int(row["fct_ps"])
            fcts.append(fct / 1e6 if fct >= 0 else float("inf"))
            retx += int(row["retransmissions"])
            timeouts += int(row["timeouts"])
    rows = list(csv.reader(stdout.splitlines()))
    summary = dict(zip(rows[0], rows[1])) if len(rows) >= 2 else {}
    drops = summary.get("counters.dropped", "")
    extra = 0
    with open(os.path.join(run_dir, "flows.csv")) as f:
        for row in csv.DictReader(f):
            pkts = -(-int(row["bytes"]) // PAYLOAD_BYTES)
            extra += int(row["packets_sent"]) - pkts
    return {"fcts_us": fcts, "retx": retx, "timeouts": timeouts,
            "drops": int(drops) if drops not in ("", None) else "", "extra_symbols": extra}


# ---------------------------------------------------------------------------------------------
# running with whole-process wall time and peak RSS


def timed(cmd, cwd):
    """Runs cmd (already niced); returns (stdout, wall s, CPU s (user + system), peak RSS MiB) of the
    whole process: /usr/bin/time -v where present, else the kernel's rusage of the child (wait4;
    `nice` execs the simulator, so the child is the simulator itself)."""
    time_bin = "/usr/bin/time"
    use_time = os.access(time_bin, os.X_OK)
    full = ([time_bin, "-v"] if use_time else []) + cmd
    with tempfile.TemporaryFile("w+") as out_f, tempfile.TemporaryFile("w+") as err_f:
        t0 = time.monotonic()
        p = subprocess.Popen(full, cwd=cwd, stdout=out_f, stderr=err_f, text=True)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
    if use_time:
        def num(label):
            m = re.search(re.escape(label) + r": ([0-9.]+)", err)
            return float(m.group(1)) if m else 0.0
        cpu = num("User time (seconds)") + num("System time (seconds)")
        rss_kib = num("Maximum resident set size (kbytes)")
    else:
        cpu = ru.ru_utime + ru.ru_stime
        rss_kib = ru.ru_maxrss
    if p.returncode != 0:
        tail = "\n".join(err.splitlines()[-15:])
        raise RuntimeError("`%s` exited %d in %s:\n%s" % (" ".join(cmd), p.returncode, cwd, tail))
    return out, wall, cpu, rss_kib / 1024.0


def pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    # nearest rank
    idx = max(0, min(len(v) - 1, int(-(-q * len(v) // 1)) - 1))
    return v[idx]


def diff_pct(lb, ht):
    if ht in ("", None) or lb in ("", None) or ht == 0:
        return ""
    return round(100.0 * (lb - ht) / ht, 2)


# ---------------------------------------------------------------------------------------------

FIELDS = ["scenario", "base", "what", "change", "seed", "hosts", "flows",
          "htsim_fct_max_us", "htsim_fct_p50_us", "htsim_fct_p99_us", "htsim_drops", "htsim_retx", "htsim_timeouts",
          "htsim_wall_s", "htsim_cpu_s", "htsim_rss_mib",
          "lbsim_fct_max_us", "lbsim_fct_p50_us", "lbsim_fct_p99_us", "lbsim_drops", "lbsim_retx", "lbsim_extra_symbols",
          "lbsim_wall_s", "lbsim_cpu_s", "lbsim_rss_mib",
          "diff_max_pct", "diff_p50_pct", "diff_p99_pct",
          "htsim_commit", "lbsim_commit", "command"]


def run_one(sc, seed, htsim_bin, sim_dir, jar, work, htsim_extra, lbsim_set, change, base, patches):
    d = tempfile.mkdtemp(prefix="%s-s%d-" % (sc["name"], seed), dir=work)
    cm_name = "traffic.cm"
    gen = [a.format(cm=cm_name, seed=seed) for a in sc["gen"]]
    script = os.path.join(sim_dir, "datacenter", "connection_matrices", gen[0])
    subprocess.run(NICE + [sys.executable, script] + gen[1:], cwd=d, check=True, stdout=subprocess.DEVNULL)
    cm = os.path.join(d, cm_name)
    flows = sum(1 for line in open(cm) if "->" in line)

    roce = sc.get("htsim") == "roce"
    hargs = (htsim_roce_args if roce else htsim_args)(sc, cm_name, seed, htsim_extra)
    yaml_path = os.path.join(d, "lbsim.yaml")
    with open(yaml_path, "w") as f:
        # JSON is YAML: the scenario written as JSON needs no YAML library
        json.dump(lbsim_scenario(sc, cm_name, seed, lbsim_set), f, indent=1)
    lb_out = os.path.join(d, "lbsim-run")
    lcmd = NICE + ["java", "-jar", jar, "run", yaml_path, "--out", lb_out, "--format", "csv", "--threads", "0"]
    hcmd = NICE + [htsim_bin[(sc.get("htsim", "uec"),) + tuple(patches)]] + hargs

    # alternate: htsim first, then lbsim (one run each; --repeats alternates further)
    h_out, h_wall, h_cpu, h_rss = timed(hcmd, d)
    ht = (parse_htsim_roce if roce else parse_htsim)(h_out)
    with open(os.path.join(d, "htsim.stdout"), "w") as f:
        f.write(h_out)
    l_out, l_wall, l_cpu, l_rss = timed(lcmd, d)
    lb = parse_lbsim(lb_out, l_out)
    if len(ht["fcts_us"]) != flows:
        raise RuntimeError("%s: htsim finished %d of %d flows (see %s/htsim.stdout)" % (sc["name"], len(ht["fcts_us"]), flows, d))

    def stats(fcts):
        return round(max(fcts), 3), round(pct(fcts, 0.5), 3), round(pct(fcts, 0.99), 3)
    hm, h50, h99 = stats(ht["fcts_us"])
    lm, l50, l99 = stats(lb["fcts_us"])
    only = "--only %s --seeds %d" % ("%s:%s" % (base, change) if change else sc["name"], seed)
    return {
        "scenario": sc["name"] if not change else "%s [%s]" % (base, change),
        "base": base or sc["name"], "what": sc["what"], "change": change, "seed": seed,
        "hosts": sc["hosts"], "flows": flows,
        "htsim_fct_max_us": hm, "htsim_fct_p50_us": h50, "htsim_fct_p99_us": h99,
        "htsim_drops": ht["drops"], "htsim_retx": ht["retx"], "htsim_timeouts": ht["timeouts"],
        "htsim_wall_s": round(h_wall, 2), "htsim_cpu_s": round(h_cpu, 2), "htsim_rss_mib": round(h_rss, 1),
        "lbsim_fct_max_us": lm, "lbsim_fct_p50_us": l50, "lbsim_fct_p99_us": l99,
        "lbsim_drops": lb["drops"], "lbsim_retx": lb["retx"], "lbsim_extra_symbols": lb["extra_symbols"],
        "lbsim_wall_s": round(l_wall, 2), "lbsim_cpu_s": round(l_cpu, 2), "lbsim_rss_mib": round(l_rss, 1),
        "diff_max_pct": diff_pct(lm, hm), "diff_p50_pct": diff_pct(l50, h50), "diff_p99_pct": diff_pct(l99, h99),
        "htsim_commit": git_commit(sim_dir), "lbsim_commit": git_commit(REPO),
        "command": "python3 bench/crosscheck/crosscheck.py run --htsim HTSIM %s" % only,
    }


def cmd_run(a):
    jar = os.path.abspath(a.jar)
    if not os.path.isfile(jar):
        fail("crosscheck: --jar %s: no such file (build it: ./mvnw -B -q -o -pl cli -am package -DskipTests)" % jar)
    sim = find_sim_dir(os.path.abspath(a.htsim))
    seeds_text = a.seeds.split(",")
    if not all(re.fullmatch(r"[0-9]+", t) for t in seeds_text):
        fail("crosscheck: --seeds %s: comma-separated non-negative integers" % a.seeds)
    seeds = [int(t) for t in seeds_text]
    names = set(a.only.split(",")) if a.only else None
    by_name = {s["name"]: s for s in SCENARIOS}
    if names:
        unknown = names - set(by_name) - {v["name"] for v in VARIANTS}
        if unknown:
            fail("crosscheck: --only: unknown scenario %s (see `crosscheck.py list`)" % ", ".join(sorted(unknown)))
    work = os.path.abspath(a.work or tempfile.mkdtemp(prefix="crosscheck-"))
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "build.log")
    jobs = []
    for sc in SCENARIOS:
        if names is None or sc["name"] in names:
            jobs.append((sc, [], {}, "", "", []))
    for v in VARIANTS:
        if (names and v["name"] in names) or (a.variants and (names is None or v["base"] in names)):
            jobs.append((by_name[v["base"]], v["htsim_extra"], v["lbsim_set"], v["change"], v["base"], v["htsim_patch"]))
    print("crosscheck: building htsim in %s (log %s)" % (sim, log), file=sys.stderr)
    htsim_bin = {}
    for kind in sorted({job[0].get("htsim", "uec") for job in jobs}):
        htsim_bin[(kind,)] = build_htsim(sim, log, "htsim_" + kind)
    for job in jobs:
        key = (job[0].get("htsim", "uec"),) + tuple(job[5])
        if key not in htsim_bin:
            htsim_bin[key] = build_patched(sim, log, "htsim_" + key[0], job[5], work)
    rows = existing_rows(a.csv)
    for sc, hx, ls, change, base, patches in jobs:
        if sc["hosts"] > 128 and not a.large:
            print("crosscheck: skipping %s (%d hosts; --large runs it)" % (sc["name"], sc["hosts"]), file=sys.stderr)
            continue
        for seed in seeds:
            label = sc["name"] + (" [%s]" % change if change else "")
            print("crosscheck: %s seed %d ..." % (label, seed), file=sys.stderr)
            try:
                row = run_one(sc, seed, htsim_bin, sim, jar, work, hx, ls, change, base, patches)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print("crosscheck: %s seed %d failed: %s" % (label, seed, e), file=sys.stderr)
                continue
            rows[(row["scenario"], str(seed))] = row
            write_csv(a.csv, rows)
            print("  htsim max %.2f us (%.1f s CPU), lbsim max %.2f us (%.1f s CPU): %s %%" % (
                row["htsim_fct_max_us"], row["htsim_cpu_s"], row["lbsim_fct_max_us"], row["lbsim_cpu_s"],
                row["diff_max_pct"]), file=sys.stderr)
    write_page(a.csv, a.page)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


def existing_rows(path):
    rows = {}
    if os.path.isfile(path):
        with open(path) as f:
            for r in csv.DictReader(f):
                rows[(r["scenario"], r["seed"])] = r
    return rows


def write_csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    order = {s["name"]: i for i, s in enumerate(SCENARIOS)}
    vorder = {(v["base"], v["change"]): i for i, v in enumerate(VARIANTS)}

    def key(r):
        return (order.get(r["base"], 99), vorder.get((r["base"], r["change"]), -1) if r["change"] else -1, int(r["seed"]))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        for r in sorted(rows.values(), key=key):
            w.writerow({k: r.get(k, "") for k in FIELDS})


# ---------------------------------------------------------------------------------------------
# the page


def write_page(csv_path, page_path):
    sys.path.insert(0, HERE)
    sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
    import page  # noqa: E402  (the page's prose and parameter table live beside this script)
    page.VARIANT_TEXT = list(dict.fromkeys((v["change"], v["what"]) for v in VARIANTS))
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    text = page.render(rows, os.path.relpath(csv_path, REPO))
    with open(page_path, "w") as f:
        f.write(text)
    print("crosscheck: wrote %s (%d rows)" % (os.path.relpath(page_path, REPO), len(rows)), file=sys.stderr)


def cmd_page(a):
    write_page(a.csv, a.page)


def cmd_list(_):
    for s in SCENARIOS:
        print("%-28s %5d hosts  %s" % (s["name"], s["hosts"], s["what"]))
    for v in VARIANTS:
        print("%s\n    %s" % (v["name"], v["what"]))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="build htsim, run both simulators, write the CSV and the page")
    r.add_argument("--htsim", required=True, help="htsim source tree (with sim/ or htsim/sim/)")
    r.add_argument("--jar", default=DEFAULT_JAR, help="lbsim jar (default cli/target/lbsim.jar)")
    r.add_argument("--only", help="comma-separated scenario or variant names")
    r.add_argument("--seeds", default="1", help="comma-separated seeds (default 1)")
    r.add_argument("--variants", action="store_true", help="also run the one-change variants")
    r.add_argument("--large", action="store_true", help="also run the 1,024-host scenarios")
    r.add_argument("--csv", default=DEFAULT_CSV)
    r.add_argument("--page", default=DEFAULT_PAGE)
    r.add_argument("--work", help="working folder (default: a new temporary one)")
    r.add_argument("--keep", action="store_true", help="keep the working folder")
    r.set_defaults(func=cmd_run)
    g = sub.add_parser("page", help="write docs/validation.md from the CSV")
    g.add_argument("--csv", default=DEFAULT_CSV)
    g.add_argument("--page", default=DEFAULT_PAGE)
    g.set_defaults(func=cmd_page)
    sub.add_parser("list", help="the scenarios").set_defaults(func=cmd_list)
    a = p.parse_args()
    a.func(a)


if __name__ == "__main__":
    main()
