"""docs/validation.md from results/validation/crosscheck.csv: the prose, the parameter mapping and
the explanations live here; every number on the page comes from the CSV (crosscheck.py page)."""
import re

# the variant that gives both simulators one flow-to-path assignment (crosscheck.py SAME_PATHS)
SAME_PATHS = "htsim-no-uplink-shuffle-lbsim-htsim-hash-timer-per-packet"
# the same with htsim's full queue always dropping the arriving packet (crosscheck.py SAME_PATHS_DROP_TAIL)
SAME_PATHS_DROP_TAIL = "htsim-drop-tail-no-uplink-shuffle-lbsim-htsim-hash-timer-per-packet"
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
    ("buffer", "`-q 192`: 192 data packets = 798,720 B per port, dropping (`-queue_type composite -disable_trim`: "
     "a full queue drops instead of trimming: a data packet arriving at it half the time, otherwise the packet queued "
     "last, the arriving one taking its place; header-only packets such as ACKs go to a separate priority queue); "
     "default is lossless PFC input queues",
     "`switches.buffer: {type: per-port, bytesPerPort: 798720}`: drop tail, the arriving packet always (ACKs share the "
     "FIFO and the buffer); variant `[" + SAME_PATHS_DROP_TAIL + "]`: htsim's queue without the coin",
     "datacenter/main_uec.cpp:209, 478-500, 569-573, 632-634; compositequeue.cpp:162-183, 245-253"),
    ("ECN", "`-no_ecn`", "`switches.ecn.enabled: false`", "datacenter/main_uec.cpp:616-619"),
    ("sender", "`-sender_cc_algo constant`: a UEC source whose congestion control never changes anything; for "
     "every algorithm but NSCC this htsim ignores the window (`can_send_NSCC`: \"rate-based CCs\"), so it sends "
     "whenever its NIC is free, at line rate; in loss-recovery mode it would send only resends, but only `-sleek` "
     "enters that mode (uec.cpp:1159-1187, 1770-1775), and these rows run without it",
     "`congestionControl: fixed-rate` at line rate",
     "datacenter/main_uec.cpp:351-372; uec.cpp:614-616, 1426-1434"),
    ("loss recovery", "UEC selective repeat with drops: no trimming (`-disable_trim`), so no NACKs, and no "
     "`-sleek`, so no out-of-order threshold, probes or loss-recovery mode (uec.cpp:82, 1159-1187, 1955); a loss is "
     "found only by the RTO, set per packet: the oldest unacknowledged packet is resent its minimum RTO after it was "
     "sent (auto minimum 15 us + 6 queue drains = 62.9 us here), then the timer is set for the next oldest; a flow's "
     "resends go before its new packets, and new packets go out whenever the NIC is free",
     "`lossRecovery: {type: erasure, endOfMessage: srtt-after-pass}` (the OFAN "
     "authors' ideal erasure sender; never resends a PSN); htsim's loss detection: `{type: sack, threshold: P, "
     "rtoUs: 62.9232, rtoFrom: send}`, P the flow's packet count (256 for 1 MiB, 1,024 for 4 MiB, 32 for 128 KiB), "
     "so no fast resend (variant `[lbsim-sack-rto-timer-per-packet]`)",
     "datacenter/main_uec.cpp:612-614, 1159-1167; uec.cpp:2308-2343, 2627-2709"),
    ("spraying", "`-load_balancing_algo oblivious -paths 64`: each packet takes the next of 64 entropies, in an "
     "order XOR-permuted at random every 64 packets; switches hash (flow, entropy)",
     "`loadBalancing: host-spray`: a fresh random entropy per packet, switches hash it",
     "datacenter/main_uec.cpp:423-445, 665-668; uec_mp.cpp:30-44; datacenter/fat_tree_switch.cpp:371-374"),
    ("per-flow ECMP", "`-load_balancing_algo oblivious -paths 1`: one entropy per flow (its path id, drawn once); "
     "a switch takes member freeBSDHash(flow id, path id, its salt) mod n of its uplinks, listed in an order it "
     "shuffles at its first packet up", "`loadBalancing: ecmp` (lbsim's own hash and draw); variant `[" + SAME_PATHS + "]`: "
     "`{type: ecmp, hash: htsim}`, htsim's hash, path ids and salts, against htsim "
     "without the shuffle", "uec_mp.cpp:14-15, 30-63 (mask 0); datacenter/fat_tree_switch.cpp:18, 308-315, 370-374, 440-458, 484-504; rng.cpp:9-26"),
    ("degraded link", "`-failed 1`: the core 0 -> aggregation 0 direction runs at 25 % (200 Gb/s) and its queue "
     "shrinks to 25 %; the other direction and routing are unchanged",
     "`failures.events: [{atUs: 0, link: {a: c0, b: a0}, action: degrade, rateGbps: 200}]`: both directions at "
     "200 Gb/s, buffer unchanged", "datacenter/main_uec.cpp:650-653, 1149-1151; datacenter/fat_tree_topology.cpp:104, 1013-1015, 1173-1177"),
    ("traffic", "the matrix written by htsim's generator; `start` read as microseconds (0 here)",
     "`workload: {type: htsim-cm, file: ...}`, the same file", "uec.cpp:662-663; datacenter/connection_matrices/gen_permutation.py:61, gen_incast.py:54"),
    ("seed", "`-seed S` (and the generator's seed)", "`seed: S`", "datacenter/main_uec.cpp:658-661"),
    ("FCT", "`NSCC_FINISH ... time_ps` minus the flow's `starting at`: sender holds the last ACK",
     "`flows.csv` `fct_ps`: sender holds the ACK of the whole message", "uec.cpp:880-903, 2039"),
    # the RoCE rows: htsim_roce (datacenter/main_roce.cpp), DCQCN + PFC + go-back-N
    ("RoCE: program", "`htsim_roce -dcqcn 20`: DCQCN sources and sinks (without `-dcqcn`, plain RoCE sources with no "
     "congestion control); switch queues are lossless input queues (PFC) by default",
     "`congestionControl: dcqcn`, `switches.pfc.enabled: true`",
     "datacenter/main_roce.cpp:67, 106-110, 333-336, 516-519, 543-546"),
    ("RoCE: fabric", "`-nodes 128 -tiers 3 -linkspeed 800000 -hop_latency 0.5 -switch_latency 0 -seed S`, as for `htsim_uec`",
     "as for the UEC rows: `fat-tree` k = 8, 800 Gb/s, 500 ns per link, `seed: S`",
     "datacenter/main_roce.cpp:102-105, 115-119, 195-202, 210-213, 218-221"),
    ("RoCE: packet", "`-mtu 4096`: a data packet carries 4,096 B of the flow and is 4,096 + 64 B on the wire (1 MiB = 256 "
     "packets); ACK, NACK, CNP and PAUSE frames are 64 B",
     "`mtuBytes: 4096, headerBytes: 64, ackBytes: 64`; PFC frames 64 B",
     "rocepacket.h:28, 46, 68, 85, 118; cnppacket.h:18, 33; eth_pause_packet.h:14; datacenter/main_roce.cpp:203-205, 320"),
    ("RoCE: routing", "all these flows have ids <= 1000 (`_bg_flowid_threshold`), \"foreground\", which this tree's switches "
     "route per packet to the egress of lowest quantized queue: 4 bands (< 5, 10, 20 % of the port's `-q` size, "
     "refreshed every 0.1 us), random among the lowest; packets under 100 B hashed on (flow, path id). `main_roce.cpp` "
     "has no `-fg_ar` and aborts unless `-strat ecmp_host`, so per-flow ECMP cannot be chosen here",
     "`loadBalancing: switch-pkt-ar`: bins at 5/10/20 % of `bytesPerPort`, random port of the lowest bin; lbsim reads "
     "the queue at each decision and bins every packet",
     "datacenter/fat_tree_switch.cpp:101-130, 224-238, 319, 340-384; datacenter/fat_tree_switch.h:133-138; "
     "queue.cpp:8, 97-115; datacenter/main_roce.cpp:289-291, 560-561"),
    ("RoCE: buffer", "`-q 192`: 192 x 4,096 = 786,432 B per egress; lossless queues never drop (past the size they only "
     "log), so here the size only sets the routing bands",
     "`switches.buffer: {type: per-port, bytesPerPort: 786432}` (with PFC lbsim does not enforce it either)",
     "queue_lossless_output.cpp:109-117; datacenter/fat_tree_topology.cpp:1220-1221; datacenter/main_roce.cpp:188-190, 339"),
    ("RoCE: PFC", "`-pfc_thresholds 12 15` (the defaults, given): per switch ingress, pause above 15 x 4,096 = 61,440 B "
     "held in the switch, resume below 12 x 4,096 = 49,152 B; a packet's bytes leave at the end of its egress "
     "serialization; the PAUSE reaches the upstream port one link delay later, unserialized; the upstream finishes the "
     "frame on the wire; no headroom limit; a paused host queue also stops its senders; hosts never pause",
     "`pfc: {xoffBytes: 61440, xonBytes: 49151, headroomBytes: 100000000}` (lbsim resumes at <= XON, so XON is one byte "
     "below; the headroom never binds); PAUSE after a 64 B frame plus the link delay",
     "queue_lossless_input.cpp:67-85, 113-150; queue_lossless_output.cpp:44-74; queue.cpp:440-472; "
     "datacenter/fat_tree_topology.cpp:874-877; datacenter/main_roce.cpp:75, 231-235, 330-331"),
    ("RoCE: ECN", "`-dcqcn 20`: every switch egress marks a data packet as it finishes leaving if the egress, that packet "
     "included, holds more than K = 20 x 4,096 = 81,920 B: a step, no probability",
     "`ecn: {kminBytes: 77760, kmaxBytes: 77760, pmax: 1, markAt: dequeue}`: lbsim's dequeue mark reads the queue behind "
     "the packet as it starts to leave, so K minus one 4,160 B frame",
     "queue_lossless_output.cpp:155-169; datacenter/main_roce.cpp:333-336"),
    ("RoCE: DCQCN cut", "on each CNP, at once: target = current, current *= 1 - alpha/2 (not below the minimum), then "
     "alpha = (1-g) alpha + g, and the increase counters restart; g = 1/256; alpha starts at 1 and is one variable "
     "shared by all senders (`static`)",
     "`rateDecreaseIntervalUs: 0.0416` (lbsim cuts at its next check, at most one frame time after the CNP: the least "
     "it allows), `clampTargetRate: true`, `alphaGain: 0.00390625`; alpha per queue pair",
     "dcqcn.cpp:23-24, 165-197; dcqcn.h:83"),
    ("RoCE: DCQCN alpha", "each sender multiplies the shared alpha by 1-g when 55 us have passed since its last alpha "
     "change", "`alphaUpdateUs: 55`: every 55 us from the first CNP, (1-g) alpha + g if a CNP came in the period, "
     "else (1-g) alpha", "dcqcn.cpp:20, 311-315"),
    ("RoCE: DCQCN increase", "T += 1 every 55 us since the last cut or increase; a byte counter stage every B = 10 MB sent; "
     "fast recovery while max(T, BC) <= F = 5, additive (RAI = rate / 20 = 40 Gb/s) once one of them passed F, hyper "
     "(RHAI = rate / 10 = 80 Gb/s) once both; minimum rate / 1000 = 0.8 Gb/s",
     "`rateIncreaseTimerUs: 55, byteCounterBytes: 10000000, fastRecoveryStages: 5, additiveIncreaseGbps: 40, "
     "hyperIncreaseGbps: 80, minRateGbps: 0.8` (10 MB is never sent in one of these flows, so neither side reaches hyper)",
     "dcqcn.cpp:20, 25-28, 60-62, 231-267, 299-322"),
    ("RoCE: pacing", "until its first CNP a source spaces its 4,160 B packets at line rate (roce.h:48); from the first "
     "CNP on, DCQCN's own spacing counts 4,096 B per packet, so at a rate R it offers 4,160 / 4,096 R to its host "
     "queue, which serializes at line rate",
     "the sender paces wire bytes (4,160 B) at R: after a cut 1.6 % slower than htsim at the same R",
     "roce.h:48; roce.cpp:83, 368-376; dcqcn.cpp:432-440"),
    ("RoCE: CNP", "the sink sends a CNP for a marked packet if 50 us have passed since its last CNP, and at the end of "
     "each 50 us interval if marked packets arrived during it",
     "`cnpIntervalUs: 50`: a CNP for a marked packet once 50 us have passed; **no deferred CNP** (marks inside the "
     "interval are not answered later; variant `[htsim-no-deferred-cnp]`)", "dcqcn.cpp:19, 462-496"),
    ("RoCE: NACK and rate", "a NACK does not touch the rate", "`nackIsCongestionSignal: false`", "dcqcn.cpp:220-229"),
    ("RoCE: receiver, go-back-N", "the sink keeps the next expected packet and the 63 after it (`seqno - _cumulative_ack "
     "<= roceMaxReorder`, 64; `ooo_enabled` is true from the start, `-out_of_order` only sets it again) without "
     "answering, ACKs cumulative progress only, and for a packet further ahead sends one NACK (expected) and drops "
     "it; the source then rewinds to the NACKed packet and resends all after it, up to the highest it had sent "
     "(`_highest_sent = _last_acked`, which ACKs never raise)",
     "base rows: `lossRecovery: {type: sack, threshold: 64}`: keeps everything, ACKs every packet, resends only the "
     "holes once the ack gap exceeds 64. htsim's receiver: `{type: go-back-n, reorderWindowPackets: 64}` (variant "
     "`[lbsim-go-back-n-window-64]`; lbsim's sender skips ahead when a cumulative ACK passes its rewound position). "
     "Strict go-back-N (NACK at the first gap): `[lbsim-strict-go-back-n]`",
     "roce.cpp:22, 157-175 (RoceSrc::processNack), 209-213, 422-490 (RoceSink::receivePacket); roce.h:25; "
     "datacenter/main_roce.cpp:214-217, 322-328"),
    ("RoCE: RTO", "`setMinRTO(1000)` bounds an estimate nothing uses: the RoCE source has no retransmission timer",
     "`rtoUs: 100000`, beyond every run", "datacenter/main_roce.cpp:379; roce.cpp:178-207, 341-377"),
    ("RoCE: NIC", "the host queue serves ACK, NACK and CNP (high priority) before data, and a PAUSE stops all of it; "
     "switch egresses are one FIFO",
     "`nic.controlPriority: true` (lbsim's NIC also sends control frames while paused), `switches.controlPriority: false`",
     "queue.cpp:440-560; rocepacket.h:67, 99, 131; cnppacket.h:30; queue_lossless_output.cpp:83-87"),
    ("RoCE: run end", "`-end 100000` (us; default 1,000 us, which a slow incast can pass)", "none (runs to completion)",
     "datacenter/main_roce.cpp:88, 98-101, 338"),
    ("RoCE: FCT, resends", "`DCQCN_FINISH ... time_ps` (the source holds the cumulative ACK of the last packet; every flow "
     "starts at 0); resends: the `Rtx:` total, packets rewound by go-back-N; PFC drops nothing",
     "`flows.csv` `fct_ps`, `retransmissions`", "dcqcn.cpp:212-217; roce.cpp:159, 220-244; datacenter/main_roce.cpp:644-649"),
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
    "**Measured**: only htsim's entropy count changed to 8,192 (`[htsim-paths-8192]`, so a flow meets as "
    "many distinct entropies as it has packets) takes htsim's max FCT from {perm-1mib-spray|1|htsim_fct_max_us} "
    "to {perm-1mib-spray [htsim-paths-8192]|1|htsim_fct_max_us} us, {perm-1mib-spray [htsim-paths-8192]|1|diff_max_pct} "
    "from lbsim's, and the median to {perm-1mib-spray [htsim-paths-8192]|1|diff_p50_pct}.")
SPRAY_4 = (
    "The same mechanism as for 1 MiB, four times as long: the static imbalance of 64 entropies lasts the "
    "whole 4 MiB flow, queues behind the overloaded uplinks reach the 192-packet buffer, htsim drops "
    "{perm-4mib-spray|1|htsim_drops} packets, and the flows that lose a packet late wait htsim's "
    "retransmission timer (minimum RTO 62.9 us, datacenter/main_uec.cpp:1166), which sets the max and p99. "
    "**Measured**: with 8,192 entropies (`[htsim-paths-8192]`, the only change) htsim drops "
    "{perm-4mib-spray [htsim-paths-8192]|1|htsim_drops} packets and its max FCT is "
    "{perm-4mib-spray [htsim-paths-8192]|1|htsim_fct_max_us} us, {perm-4mib-spray [htsim-paths-8192]|1|diff_max_pct} "
    "from lbsim's (median {perm-4mib-spray [htsim-paths-8192]|1|diff_p50_pct}).")
ECMP_1 = (
    "**Mechanism: htsim, run as here, finds a loss only by its retransmission timer, set per packet; measured "
    "one change at a time.** Per-flow ECMP puts colliding line-rate senders on one link in both simulators, whose "
    "queues overflow (drops {perm-1mib-ecmp|1|htsim_drops} in htsim, {perm-1mib-ecmp|1|lbsim_drops} in lbsim). "
    "lbsim's ideal erasure sender never resends: it sends fresh symbols one smoothed RTT after its first pass, so "
    "a flow that lost packets finishes about one round trip after its share of the link is done. htsim's UEC "
    "sender resends, and with trimming off (`-disable_trim`: no NACKs) and without `-sleek` (its out-of-order "
    "threshold, probes and loss-recovery mode run only with it, uec.cpp:82, 1159-1187) a loss is found only by "
    "the retransmission timer (uec.cpp:2639-2709), which is set for the oldest unacknowledged packet's send time "
    "plus the minimum RTO, 62.9 us here (datacenter/main_uec.cpp:1166), and after each expiry for the next oldest "
    "(uec.cpp:2316-2343, 2627-2637). Every flow that lost a packet waits for it: htsim's median "
    "({perm-1mib-ecmp|1|htsim_fct_p50_us} us) lies one timer after the about 18 us a flow takes alone, and in both "
    "simulators more than half of the flows lose a packet (per flow: htsim's `rtx`, lbsim's `retransmissions` "
    "under `sack`), so the median flow is one that lost. "
    "**(1) Selective repeat with htsim's timer** (`[lbsim-sack-rto]`: `sack`, `rtoUs: 62.9232`) takes lbsim's max "
    "from {perm-1mib-ecmp|1|lbsim_fct_max_us} to {perm-1mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_max_us} us "
    "({perm-1mib-ecmp [lbsim-sack-rto]|1|diff_max_pct} from htsim) and its p99 to "
    "{perm-1mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_p99_us} us ({perm-1mib-ecmp [lbsim-sack-rto]|1|diff_p99_pct}), "
    "but its median only to {perm-1mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_p50_us} us "
    "({perm-1mib-ecmp [lbsim-sack-rto]|1|diff_p50_pct}): lbsim's `sack` also resends a hole as soon as the ack gap "
    "exceeds 32 packets, so fewer than half of its flows wait for the timer. "
    "**(2) That fast resend off** (`[lbsim-sack-rto-timer-only]`: `threshold: 256`, which a 256-packet flow's ack gap "
    "never exceeds) makes every losing flow wait, and the median overshoots: "
    "{perm-1mib-ecmp [lbsim-sack-rto-timer-only]|1|lbsim_fct_p50_us} us "
    "({perm-1mib-ecmp [lbsim-sack-rto-timer-only]|1|diff_p50_pct}), since lbsim's timer runs from the last ACK "
    "progress and so starts only once the flow's last packets are acknowledged. "
    "**(3) The timer per packet as htsim's** (`[lbsim-sack-rto-timer-per-packet]`: `rtoFrom: send`, a packet resent "
    "62.9 us after it was sent, whatever ACKs arrived since; with (2) this is htsim's loss detection) brings "
    "lbsim's median to {perm-1mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_p50_us} us "
    "({perm-1mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_p50_pct}), its p99 to "
    "{perm-1mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_p99_pct} and its max to "
    "{perm-1mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_max_us} us "
    "({perm-1mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_max_pct}): the median gap was loss detection. "
    "**(4) The collision pattern alone** (`[both-no-drop]`: 100,000-packet buffers on both sides, nothing dropped): "
    "each simulator's own hash draw gives a median of {perm-1mib-ecmp [both-no-drop]|1|htsim_fct_p50_us} us in htsim "
    "against {perm-1mib-ecmp [both-no-drop]|1|lbsim_fct_p50_us} us in lbsim "
    "({perm-1mib-ecmp [both-no-drop]|1|diff_p50_pct}) and a max of "
    "{perm-1mib-ecmp [both-no-drop]|1|htsim_fct_max_us} against {perm-1mib-ecmp [both-no-drop]|1|lbsim_fct_max_us} us "
    "({perm-1mib-ecmp [both-no-drop]|1|diff_max_pct}). With drops the median flow is one that lost a packet in both "
    "simulators, and its FCT is set by the timer it waits, not by how many flows share its link: which flows "
    "collide is not what separated the medians. `[htsim-switch-ar]` shows "
    "what this htsim runs without `-fg_ar ecmp`: per-packet adaptive routing in the switches, max "
    "{perm-1mib-ecmp [htsim-switch-ar]|1|htsim_fct_max_us} us, a different scheme than ECMP.")
# htsim_uec as crosscheck runs it (-disable_trim, no -sleek): what its UEC sender does after a loss
HTSIM_TIMER = (
    "htsim's UEC sender, run as here (`-disable_trim`: no NACKs; no `-sleek`: no out-of-order threshold, probes or "
    "loss-recovery mode, uec.cpp:82, 1159-1187), keeps sending new packets whenever its NIC is free "
    "(`can_send_NSCC`, uec.cpp:1426-1434) and finds a loss only by its retransmission timer, set per packet: the "
    "oldest unacknowledged packet is resent the minimum RTO, 62.9 us, after it was sent, then the timer is set for "
    "the next oldest (uec.cpp:2316-2343, 2627-2709); a flow's resends go before its new packets (`sendPacket`, "
    "uec.cpp:2308-2314)")
ECMP_4 = (
    "**Mechanism: loss detection, as in `perm-1mib-ecmp`, then which packet a full queue drops, as in "
    "`a2a-128kib-ecmp`; measured one change at a time: with htsim's loss detection, one flow-to-path assignment and "
    "a drop-tail queue on both sides max, median and p99 agree within {maxabs:perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]} "
    "(seeds 1-3).** Per-flow ECMP puts "
    "colliding line-rate senders on one link in both simulators (drops {perm-4mib-ecmp|1|htsim_drops} in htsim, "
    "{perm-4mib-ecmp|1|lbsim_drops} in lbsim). " + HTSIM_TIMER + ". lbsim's erasure sender never waits for a timer, "
    "so its median flow finishes {perm-4mib-ecmp|1|lbsim_fct_p50_us} us after the start against htsim's "
    "{perm-4mib-ecmp|1|htsim_fct_p50_us} ({perm-4mib-ecmp|1|diff_p50_pct}). "
    "**(1)** `[lbsim-sack-rto]` (selective repeat, htsim's timer running from the last ACK progress, fast resend "
    "once the ack gap exceeds 32 packets): median {perm-4mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_p50_us} us "
    "({perm-4mib-ecmp [lbsim-sack-rto]|1|diff_p50_pct}), max {perm-4mib-ecmp [lbsim-sack-rto]|1|lbsim_fct_max_us} us "
    "({perm-4mib-ecmp [lbsim-sack-rto]|1|diff_max_pct}). **(2)** The fast resend off "
    "(`[lbsim-sack-rto-timer-only]`, `threshold: 1024`): every loss waits for a timer that starts only once the flow's "
    "later packets are acknowledged, max {perm-4mib-ecmp [lbsim-sack-rto-timer-only]|1|lbsim_fct_max_us} us "
    "({perm-4mib-ecmp [lbsim-sack-rto-timer-only]|1|diff_max_pct}), median "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-only]|1|diff_p50_pct}. **(3)** The timer per packet too "
    "(`[lbsim-sack-rto-timer-per-packet]`, htsim's loss detection): max "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_max_us} us "
    "({perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_max_pct}), median "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_p50_us} us "
    "({perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_p50_pct}), p99 "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_p99_pct}, drops "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_drops} against htsim's {perm-4mib-ecmp|1|htsim_drops}. "
    "On seeds 2 and 3 the max agrees as closely ({perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|2|diff_max_pct}, "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|3|diff_max_pct}; p99 "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|2|diff_p99_pct}, "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|3|diff_p99_pct}), and so does the seed 2 median "
    "({perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|2|diff_p50_pct}). The seed 3 median stays apart "
    "({perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|3|htsim_fct_p50_us} us in htsim against "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|3|lbsim_fct_p50_us} in lbsim, "
    "{perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]|3|diff_p50_pct}), and it is not the hash draw: **(4)** with "
    "one flow-to-path assignment on both sides (`[" + SAME_PATHS + "]`: htsim without its uplink shuffle, lbsim with "
    "htsim's switch hash, path ids and salts, and htsim's loss detection as in (3)) the max and p99 agree on seed 1 "
    "({perm-4mib-ecmp [" + SAME_PATHS + "]|1|diff_max_pct}, {perm-4mib-ecmp [" + SAME_PATHS + "]|1|diff_p99_pct}) "
    "and seed 3 ({perm-4mib-ecmp [" + SAME_PATHS + "]|3|diff_max_pct}, {perm-4mib-ecmp [" + SAME_PATHS + "]|3|diff_p99_pct}), "
    "the seed 1 median too ({perm-4mib-ecmp [" + SAME_PATHS + "]|1|diff_p50_pct}), and the seed 3 median stays as far apart: "
    "{perm-4mib-ecmp [" + SAME_PATHS + "]|3|htsim_fct_p50_us} us in htsim against "
    "{perm-4mib-ecmp [" + SAME_PATHS + "]|3|lbsim_fct_p50_us} in lbsim "
    "({perm-4mib-ecmp [" + SAME_PATHS + "]|3|diff_p50_pct}). In both simulators the FCTs fall into "
    "groups one 62.9 us timer apart (about 45 us for the flows that lose nothing, then about 100-140, 160-200 and "
    "220-260 us), and the median lies where the second group ends: per flow (counted by hand in the run folders `--keep` keeps, not in the CSV), seed 3, 68 of htsim's 128 flows "
    "finish below 150 us and 53 of lbsim's, so the median is in htsim's second group and in lbsim's third (seed 1: "
    "50 and 60, seed 2: 63 and 53, all four medians in the third). How many flows wait two or more timers differs "
    "by up to 15 of 128 either way with the seed. With one flow-to-path assignment (seed 3, `[" + SAME_PATHS + "]`, "
    "counted the same way) 108 of the 128 flows end in the same group in both simulators, 14 one timer later in lbsim "
    "and 6 one timer earlier: 64 of htsim's flows and 56 of lbsim's finish below 150 us, so htsim's median (the 64th "
    "flow) is the last of its second group, and a few flows either way move it by a timer. **(5) Which packet a full "
    "queue drops**, htsim's coin as in `a2a-128kib-ecmp` (compositequeue.cpp:162: a data packet arriving at a full "
    "queue is dropped only half the time, otherwise the packet queued last). Only that changed "
    "(`[" + SAME_PATHS_DROP_TAIL + "]`: htsim's queue always dropping the arriving packet, as lbsim's drop tail does; "
    "lbsim as in (4)), the seed 3 median agrees: {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|htsim_fct_p50_us} us in "
    "htsim against {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|lbsim_fct_p50_us} in lbsim "
    "({perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|diff_p50_pct}; max {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|diff_max_pct}, "
    "p99 {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|diff_p99_pct}), and seeds 1 and 2 agree too: max "
    "{perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|diff_max_pct} and {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|diff_max_pct}, "
    "median {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|diff_p50_pct} and {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|diff_p50_pct}, "
    "p99 {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|diff_p99_pct} and {perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|diff_p99_pct}. "
    "The seed 3 median gap closes. Per flow (counted the same way), seed 3: 59 of htsim's flows and 56 of lbsim's finish below "
    "150 us, so both medians are in the third group, 5 and 8 flows from its edge (seed 1: 51 and 57, seed 2: 51 and "
    "58); 108 of the 128 flows end in the same group in both simulators, 17 one timer later in lbsim and 3 one timer "
    "earlier (seed 1: 107, 8, 13; seed 2: 109, 7, 12). What is left: about 20 of 128 flows a timer apart flow by flow, "
    "in both directions, and on seed 2 a max, median and p99 about 2 % apart that were closer with htsim's coin "
    "(`[" + SAME_PATHS + "]` seed 2, run for this comparison: max {perm-4mib-ecmp [" + SAME_PATHS + "]|2|diff_max_pct}, median "
    "{perm-4mib-ecmp [" + SAME_PATHS + "]|2|diff_p50_pct}, p99 {perm-4mib-ecmp [" + SAME_PATHS + "]|2|diff_p99_pct}; "
    "htsim's max moves from {perm-4mib-ecmp [" + SAME_PATHS + "]|2|htsim_fct_max_us} to "
    "{perm-4mib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|htsim_fct_max_us} us). Which packets of a collision each "
    "simulator drops, flow by flow, was not compared.")

A2A_ECMP = (
    "**Mechanism: loss detection, then which packet a full queue drops, measured one change at a time: with htsim's "
    "loss detection, one flow-to-path assignment and a drop-tail queue on both sides the max agrees.** Median and p99 agree in the base row ({a2a-128kib-ecmp|1|diff_p50_pct}, "
    "{a2a-128kib-ecmp|1|diff_p99_pct}); the max does not. Per-flow ECMP puts more flows on some ToR uplinks than "
    "on others, and their queues overflow. " + HTSIM_TIMER + ". htsim drops {a2a-128kib-ecmp|1|htsim_drops} "
    "packets. lbsim's fixed-rate erasure sender sends fresh symbols one smoothed RTT after its first pass until the "
    "completing ACK, lost packet or not, which keeps the overloaded uplinks full: it drops "
    "{a2a-128kib-ecmp|1|lbsim_drops} packets, and the flows behind the most overloaded link finish last, "
    "{a2a-128kib-ecmp|1|lbsim_fct_max_us} us. **(1)** `[lbsim-sack-rto]` (selective repeat with htsim's timer "
    "running from the last ACK progress; its default 32-packet threshold is the flow's packet count, so no fast "
    "resend): {a2a-128kib-ecmp [lbsim-sack-rto]|1|lbsim_drops} drops, max "
    "{a2a-128kib-ecmp [lbsim-sack-rto]|1|lbsim_fct_max_us} us ({a2a-128kib-ecmp [lbsim-sack-rto]|1|diff_max_pct}). "
    "**(2)** The timer per packet (`[lbsim-sack-rto-timer-per-packet]`, htsim's loss detection, the one change): "
    "{a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_drops} drops, median "
    "{a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_p50_pct}, p99 "
    "{a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_p99_pct}, max "
    "{a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_max_us} us against htsim's "
    "{a2a-128kib-ecmp|1|htsim_fct_max_us} ({a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_max_pct}). "
    "**(3)** The collision pattern alone (`[both-no-drop]`: 100,000-packet buffers on both sides, nothing dropped) "
    "agrees: max {a2a-128kib-ecmp [both-no-drop]|1|htsim_fct_max_us} against "
    "{a2a-128kib-ecmp [both-no-drop]|1|lbsim_fct_max_us} us ({a2a-128kib-ecmp [both-no-drop]|1|diff_max_pct}), "
    "median {a2a-128kib-ecmp [both-no-drop]|1|diff_p50_pct}, p99 {a2a-128kib-ecmp [both-no-drop]|1|diff_p99_pct}: "
    "neither simulator's hash draw loads its worst links more than the other's. With htsim's loss detection lbsim's max is "
    "{a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|diff_max_pct} from htsim's. Per flow (seed 1; counted by hand in the run folders `--keep` keeps, not in the CSV): in each "
    "simulator the slowest flows come from one ToR (hosts 64-67 in htsim, 120-123 in lbsim), and that ToR's flows resend about as much in both (1,278 and 1,215 packets); about as many "
    "flows finish after 240 us (569 and 549). But 23 of htsim's flows, all from that ToR, finish together between "
    "306 and 310 us, about two 62.9 us timers after the median flow ({a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|htsim_fct_p50_us} us; "
    "no flow finishes between 255 and 306 us), while no lbsim flow finishes after 254 us, about one timer after its "
    "median ({a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_p50_us} us). It is not the RTS, a difference of the "
    "senders: at a timer "
    "expiry with more than its window in flight htsim's sender also sends a 64 B RTS control packet that takes a "
    "sequence number and a send record under the same timer (at most once per network RTT; uec.cpp:2493-2523, "
    "2711-2719), {a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]|1|htsim_retx} resends and 5,494 RTS (counted by hand) in this "
    "run, and lbsim sends none. Only that changed (`[htsim-no-rts-lbsim-timer-per-packet]`: htsim without the RTS, "
    "lbsim as in (2)): htsim's max {a2a-128kib-ecmp [htsim-no-rts-lbsim-timer-per-packet]|1|htsim_fct_max_us} us, "
    "median {a2a-128kib-ecmp [htsim-no-rts-lbsim-timer-per-packet]|1|htsim_fct_p50_us} us (lbsim's max "
    "{a2a-128kib-ecmp [htsim-no-rts-lbsim-timer-per-packet]|1|diff_max_pct} from it). Nor is it the hash draw alone: with "
    "one flow-to-path assignment on both sides (`[" + SAME_PATHS + "]`: htsim without its uplink shuffle, lbsim with "
    "htsim's switch hash, path ids and salts, and htsim's loss detection as in (2)) the two drop about as many packets "
    "({a2a-128kib-ecmp [" + SAME_PATHS + "]|1|htsim_drops} and {a2a-128kib-ecmp [" + SAME_PATHS + "]|1|lbsim_drops}), median and p99 agree ({a2a-128kib-ecmp [" + SAME_PATHS + "]|1|diff_p50_pct}, {a2a-128kib-ecmp [" + SAME_PATHS + "]|1|diff_p99_pct}), "
    "and the max stays as far apart: {a2a-128kib-ecmp [" + SAME_PATHS + "]|1|htsim_fct_max_us} us in htsim against {a2a-128kib-ecmp [" + SAME_PATHS + "]|1|lbsim_fct_max_us} in lbsim "
    "({a2a-128kib-ecmp [" + SAME_PATHS + "]|1|diff_max_pct}). **(4) Which packet a full queue drops.** Packet by packet in that row "
    "(seed 1; each simulator run once more with a temporary print, not committed, of every drop with its queue, time, flow, "
    "sequence number and whether it was a resend, and of every timer expiry and resend; counted, not in the CSV): the 18 htsim "
    "flows that finish after 300 us (308.1-309.4 us; none between 255 and 300) all leave hosts 64-67 through one ToR uplink "
    "(`LS16->US19`, ToR 16 to aggregation switch 19; lbsim's `e16>a19` with htsim's hash), which drops 1,218 packets in htsim "
    "and 1,135 in lbsim. Near the end of its first pass each host's NIC serves fewer and fewer unfinished flows, so each "
    "remaining flow's packets come closer together and that uplink drops a burst of first transmissions: 334 in htsim "
    "between 170.4 and 178.0 us, 274 in lbsim between 172.1 and 180.2 us. Each dropped packet is resent 62.9 us after it "
    "was sent, so the burst comes back as a burst of resends: hosts 64-67 resend 353 packets between 234 and 240 us in "
    "htsim and 249 in lbsim, into an uplink that forwards 24 packets per us and holds 192. In htsim 26 of them, of exactly "
    "those 18 flows, are dropped again on that uplink (239.5-240.7 us) and wait a second timer (resent at 301.9-303.1 us); "
    "lbsim drops nothing after 180.2 us. htsim's burst is denser because the four hosts end their first pass together "
    "(their last dropped first transmission on that uplink at 177.0, 177.0, 177.9 and 178.0 us; in lbsim 173.4, 176.0, "
    "179.9 and 180.2 us): a host ends its pass later the more it resent before, and the uplink's drops before 170 us fall "
    "evenly on the four hosts in htsim (234, 235, 173 and 178 packets; 132, 123, 102 and 107 resends by then) and "
    "unevenly in lbsim (235, 207, 67 and 308; 164, 82, 32 and 183 resends). That is htsim's drop rule: its composite "
    "queue, run without trimming, drops a data packet arriving at a full queue only half the time and otherwise queues "
    "it and drops the packet queued last (compositequeue.cpp:162-183, 245-253), a coin that spreads the losses over the senders, "
    "where a drop-tail buffer (lbsim's) always drops the arriving packet, so which host loses is set by when its packets "
    "arrive. Only that changed (`[" + SAME_PATHS_DROP_TAIL + "]`: htsim's queue without the coin, lbsim as in "
    "`[" + SAME_PATHS + "]`): the uplink's drops before 170 us fall on the four hosts as unevenly as in lbsim (277, 144, "
    "121 and 277), their last dropped first transmissions on that uplink fall at 174.5-179.2 us, the four hosts resend 281 packets between 234 and 240 us, nothing is "
    "dropped after 180.2 us, and the max agrees: {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|htsim_fct_max_us} us in "
    "htsim against {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|lbsim_fct_max_us} in lbsim "
    "({a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|diff_max_pct}; median {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|diff_p50_pct}, "
    "p99 {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|diff_p99_pct}; drops {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|htsim_drops} "
    "and {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|1|lbsim_drops}). Seeds 2 and 3 of that row (`[" + SAME_PATHS + "]` itself was run at seed 1 only): max "
    "{a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|diff_max_pct} and {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|diff_max_pct}, median {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|diff_p50_pct} and "
    "{a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|diff_p50_pct}, p99 {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|2|diff_p99_pct} and {a2a-128kib-ecmp [" + SAME_PATHS_DROP_TAIL + "]|3|diff_p99_pct}.")
INCAST = (
    "**Mechanism: loss detection; with htsim's, lbsim agrees.** Three line-rate senders share one 800 Gb/s host "
    "link; both simulators drop what exceeds the buffer (htsim {incast-3to1-4mib|1|htsim_drops}, lbsim "
    "{incast-3to1-4mib|1|lbsim_drops} packets). Every fresh symbol of lbsim's ideal erasure sender is useful, so "
    "the host link stays busy and the last flow finishes {incast-3to1-4mib|1|lbsim_fct_max_us} us after the start "
    "(3 x 1,024 packets of 4,160 B take 127.8 us on the link). " + HTSIM_TIMER + ". htsim receives no packet "
    "twice (its `dup` count is 0), so its host link carries the 3,072 packets in 127.8 us and idles while lost "
    "packets wait for their timers: the three flows finish together at {incast-3to1-4mib|1|htsim_fct_max_us} us. "
    "**(1)** `[lbsim-sack-rto]` (selective repeat with htsim's timer running from the last ACK progress, fast resend "
    "once the ack gap exceeds 32 packets): max {incast-3to1-4mib [lbsim-sack-rto]|1|lbsim_fct_max_us} us "
    "({incast-3to1-4mib [lbsim-sack-rto]|1|diff_max_pct}): a resend lost again waits for that timer. **(2)** The fast resend off "
    "(`[lbsim-sack-rto-timer-only]`, `threshold: 1024`): {incast-3to1-4mib [lbsim-sack-rto-timer-only]|1|lbsim_fct_max_us} us "
    "({incast-3to1-4mib [lbsim-sack-rto-timer-only]|1|diff_max_pct}): a timer that runs from the last ACK progress "
    "starts only once a flow's later packets are acknowledged. **(3)** The timer per packet too "
    "(`[lbsim-sack-rto-timer-per-packet]`, htsim's loss detection): max "
    "{incast-3to1-4mib [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_max_us} us "
    "({incast-3to1-4mib [lbsim-sack-rto-timer-per-packet]|1|diff_max_pct}), median "
    "{incast-3to1-4mib [lbsim-sack-rto-timer-per-packet]|1|diff_p50_pct}, "
    "{incast-3to1-4mib [lbsim-sack-rto-timer-per-packet]|1|lbsim_drops} drops and "
    "{incast-3to1-4mib [lbsim-sack-rto-timer-per-packet]|1|lbsim_retx} resends against htsim's "
    "{incast-3to1-4mib|1|htsim_drops} and {incast-3to1-4mib|1|htsim_retx}: the difference is the loss detection.")
DEGRADED = (
    "htsim's FCTs here are those of the healthy fabric (`perm-4mib-spray`: max {perm-4mib-spray|1|htsim_fct_max_us} "
    "against {perm-4mib-spray-degraded|1|htsim_fct_max_us} us): its max and p99 are set by the 64-entropy "
    "imbalance and a timeout (see `perm-4mib-spray`), which hides the degraded link; lbsim's max grows from "
    "{perm-4mib-spray|1|lbsim_fct_max_us} to {perm-4mib-spray-degraded|1|lbsim_fct_max_us} us. **Measured**: with "
    "8,192 entropies (`[htsim-paths-8192]`, the only change) htsim's median comes to "
    "{perm-4mib-spray-degraded [htsim-paths-8192]|1|htsim_fct_p50_us} us "
    "({perm-4mib-spray-degraded [htsim-paths-8192]|1|diff_p50_pct} from lbsim), but its max stays at "
    "{perm-4mib-spray-degraded [htsim-paths-8192]|1|htsim_fct_max_us} us, about one 62.9 us timer above the "
    "median: htsim drops {perm-4mib-spray-degraded [htsim-paths-8192]|1|htsim_drops} packets (our reading: at the "
    "degraded link, whose queue htsim shrinks to 25 %, 48 packets), and the flows that lost their last ones "
    "wait for htsim's retransmission timer, where lbsim's erasure sender ({perm-4mib-spray-degraded|1|lbsim_drops} "
    "drops) recovers in about one round trip: the loss-recovery difference of `perm-1mib-ecmp`. The two degradations also "
    "differ (parameter mapping, \"degraded link\"): htsim slows one direction of the link and shrinks its queue to 25 %, "
    "lbsim slows both directions and keeps the buffer.")

LARGE_SPRAY = (
    "The mechanism of `perm-1mib-spray` and `perm-4mib-spray` (each flow sprays over 64 fixed entropies in "
    "htsim), stronger at k = 16: a switch has 8 uplinks, so 64 entropies split more unevenly over them "
    "(8 +- 2.6 each) and the queues behind the overloaded uplinks grow faster; nothing is dropped here "
    "(htsim {perm-1mib-spray-1024|1|htsim_drops} drops), so the cost is queueing delay alone. **Measured**: only "
    "htsim's entropy count changed to 8,192 (`[htsim-paths-8192]`) brings its max to "
    "{perm-1mib-spray-1024 [htsim-paths-8192]|1|htsim_fct_max_us} us ({perm-1mib-spray-1024 [htsim-paths-8192]|1|diff_max_pct} "
    "from lbsim), its median to {perm-1mib-spray-1024 [htsim-paths-8192]|1|diff_p50_pct} and its p99 to "
    "{perm-1mib-spray-1024 [htsim-paths-8192]|1|diff_p99_pct}.")
LARGE_ECMP = (
    "The mechanism of `perm-1mib-ecmp`: htsim finds each loss only by its per-packet retransmission timer; "
    "lbsim's erasure sender needs no loss detection. **Measured, the same steps, one change each**: "
    "(1) `[lbsim-sack-rto]` brings the drops to {R [lbsim-sack-rto]|1|lbsim_drops} (htsim {R|1|htsim_drops}), "
    "lbsim's max to {R [lbsim-sack-rto]|1|lbsim_fct_max_us} us ({R [lbsim-sack-rto]|1|diff_max_pct} from htsim) and its "
    "p99 to {R [lbsim-sack-rto]|1|diff_p99_pct}, the median stays apart ({R [lbsim-sack-rto]|1|diff_p50_pct}); "
    "(2) with the fast resend off (`[lbsim-sack-rto-timer-only]`) the median overshoots, "
    "{R [lbsim-sack-rto-timer-only]|1|lbsim_fct_p50_us} us ({R [lbsim-sack-rto-timer-only]|1|diff_p50_pct}); "
    "(3) with the timer per packet too (`[lbsim-sack-rto-timer-per-packet]`, htsim's loss detection) the median is "
    "{R [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_p50_us} us ({R [lbsim-sack-rto-timer-per-packet]|1|diff_p50_pct}) "
    "and the max {R [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_max_us} us "
    "({R [lbsim-sack-rto-timer-per-packet]|1|diff_max_pct}), about two timers in both: flows whose resends were "
    "dropped again; the p99 stays apart ({R [lbsim-sack-rto-timer-per-packet]|1|lbsim_fct_p99_us} against "
    "{R|1|htsim_fct_p99_us} us, {R [lbsim-sack-rto-timer-per-packet]|1|diff_p99_pct}). It is the 11th slowest of "
    "1,024 flows, and more of lbsim's flows than htsim's waited a second timer, enough to reach it in lbsim and not in "
    "htsim (per flow, seed 1, counted by hand in the run folders `--keep` keeps: in both they are flows from the same few ToRs, whose uplink the hash draw loaded with "
    "several flows, so their resends, all due one timer after the same burst, collide again). "
    "(4) The collision pattern alone (`[both-no-drop]`, nothing dropped): median "
    "{R [both-no-drop]|1|htsim_fct_p50_us} us in htsim against {R [both-no-drop]|1|lbsim_fct_p50_us} us in lbsim "
    "({R [both-no-drop]|1|diff_p50_pct}), p99 {R [both-no-drop]|1|diff_p99_pct}, max "
    "{R [both-no-drop]|1|htsim_fct_max_us} against {R [both-no-drop]|1|lbsim_fct_max_us} us "
    "({R [both-no-drop]|1|diff_max_pct}): lbsim's draw puts more flows on its most loaded links, which is where "
    "the second timers are waited. **(5) The draw sets the p99**: with one flow-to-path assignment on both sides "
    "(`[" + SAME_PATHS + "]`: htsim without its uplink shuffle, lbsim with htsim's switch hash, path ids and salts, "
    "and htsim's loss detection as in (3)) the p99 is {R [" + SAME_PATHS + "]|1|htsim_fct_p99_us} us in htsim and "
    "{R [" + SAME_PATHS + "]|1|lbsim_fct_p99_us} in lbsim ({R [" + SAME_PATHS + "]|1|diff_p99_pct}), the max "
    "{R [" + SAME_PATHS + "]|1|diff_max_pct}, the median {R [" + SAME_PATHS + "]|1|diff_p50_pct}, drops "
    "{R [" + SAME_PATHS + "]|1|htsim_drops} and {R [" + SAME_PATHS + "]|1|lbsim_drops}; on seeds 2 and 3 p99 "
    "{R [" + SAME_PATHS + "]|2|diff_p99_pct} and {R [" + SAME_PATHS + "]|3|diff_p99_pct} (max "
    "{R [" + SAME_PATHS + "]|2|diff_max_pct}, {R [" + SAME_PATHS + "]|3|diff_max_pct}; median "
    "{R [" + SAME_PATHS + "]|2|diff_p50_pct}, {R [" + SAME_PATHS + "]|3|diff_p50_pct}). With each simulator's own draw "
    "(`[lbsim-sack-rto-timer-per-packet]`) the p99 moves with the seed: {R [lbsim-sack-rto-timer-per-packet]|2|diff_p99_pct} "
    "on seed 2 and {R [lbsim-sack-rto-timer-per-packet]|3|diff_p99_pct} on seed 3 (max "
    "{R [lbsim-sack-rto-timer-per-packet]|2|diff_max_pct}, {R [lbsim-sack-rto-timer-per-packet]|3|diff_max_pct}; median "
    "{R [lbsim-sack-rto-timer-per-packet]|2|diff_p50_pct}, {R [lbsim-sack-rto-timer-per-packet]|3|diff_p50_pct}).").replace("{R", "{" + "perm-1mib-ecmp-1024")

RI = "roce-incast-3to1-4mib"
ROCE_INCAST = (
    "**Mechanism: two behaviours of htsim's DCQCN code and htsim's go-back-N receiver window, each measured "
    "alone, and all three together.** Three line-rate senders meet at host 0's ToR port; the "
    "port's queue passes K, PFC pauses the ingresses behind it, the per-packet adaptive routing reorders packets "
    "by more than 64 while paths are paused, and DCQCN halves each sender at every CNP (alpha stays near 1 for "
    "these few hundred microseconds on both sides). Seed 1: htsim's max FCT is {RI|1|htsim_fct_max_us} us with "
    "{RI|1|htsim_retx} packets rewound by go-back-N, lbsim's {RI|1|lbsim_fct_max_us} us with {RI|1|lbsim_retx} "
    "holes resent; seed 2 is the mildest draw in both ({RI|2|htsim_fct_max_us} against {RI|2|lbsim_fct_max_us} us). "
    "**(1) htsim's byte counter counts a rewind as a burst of bytes.** It adds `(_highest_sent - _old_highest_sent) "
    "* _mss` on unsigned integers (dcqcn.cpp:301); after a go-back-N rewind `_highest_sent` is smaller, the "
    "difference wraps around, the counter passes B = 10 MB at once and the sender steps its rate up (dcqcn.cpp:"
    "304-308): every NACK raises the rate of a sender that is being cut (a copy of htsim whose `log_rate`, empty in "
    "the tree at dcqcn.cpp:269-271, prints each rate change shows increases 20 us after a cut, long before the 55 us "
    "timer; that copy is not part of the driver). Only this changed (`[htsim-bytecounter-fix]`, the "
    "counter counts forward progress only): htsim's max {RI [htsim-bytecounter-fix]|1|htsim_fct_max_us} us and "
    "{RI [htsim-bytecounter-fix]|1|htsim_retx} rewound packets (seed 3: {RI [htsim-bytecounter-fix]|3|htsim_fct_max_us} "
    "us); on seed 2 it goes the other way ({RI [htsim-bytecounter-fix]|2|htsim_fct_max_us} us), where the spurious "
    "increases had refilled an idle port. "
    "**(2) htsim's receiver sends a CNP at the end of every 50 us interval in which a marked packet arrived** "
    "(dcqcn.cpp:486-496), so a queue that drained early in the interval still costs every sender a halving at its "
    "end; lbsim's notification point answers only a marked packet arriving after the interval, and a backlog that "
    "is gone by then costs nothing. Only this removed (`[htsim-no-deferred-cnp]`): htsim's max "
    "{RI [htsim-no-deferred-cnp]|1|htsim_fct_max_us}, {RI [htsim-no-deferred-cnp]|2|htsim_fct_max_us} and "
    "{RI [htsim-no-deferred-cnp]|3|htsim_fct_max_us} us on seeds 1-3 ({RI [htsim-no-deferred-cnp]|2|diff_max_pct} "
    "from lbsim on seed 2). With both (`[htsim-both-dcqcn-changes]`) htsim cuts as often as lbsim does (the "
    "printing copy, seed 1: six cuts per sender before, three after; lbsim sends three CNPs per sender) and its max is {RI [htsim-both-dcqcn-changes]|1|htsim_fct_max_us}, "
    "{RI [htsim-both-dcqcn-changes]|2|htsim_fct_max_us} and {RI [htsim-both-dcqcn-changes]|3|htsim_fct_max_us} us "
    "({RI [htsim-both-dcqcn-changes]|1|diff_max_pct}, {RI [htsim-both-dcqcn-changes]|2|diff_max_pct}, "
    "{RI [htsim-both-dcqcn-changes]|3|diff_max_pct} from lbsim). "
    "**(3) htsim's receiver keeps only 64 packets, and its source rewinds.** htsim's sink (`RoceSink::receivePacket`, "
    "roce.cpp:422-490) keeps the expected packet and the 63 after it without answering and NACKs a packet further "
    "ahead; its source then resends everything after the expected packet, including what the receiver already "
    "holds (roce.cpp:157-175). The base rows run lbsim's `sack`, which keeps everything and resends only the "
    "{RI|1|lbsim_retx} missing ones, every one of them spurious (they were late, not lost). Only this changed, "
    "lbsim with htsim's receiver (`[lbsim-go-back-n-window-64]`: `go-back-n` with `reorderWindowPackets: 64`): "
    "lbsim resends {RI [lbsim-go-back-n-window-64]|1|lbsim_retx}, {RI [lbsim-go-back-n-window-64]|2|lbsim_retx} and "
    "{RI [lbsim-go-back-n-window-64]|3|lbsim_retx} packets on seeds 1-3 and its max goes from "
    "{RI|1|lbsim_fct_max_us}, {RI|2|lbsim_fct_max_us} and {RI|3|lbsim_fct_max_us} to "
    "{RI [lbsim-go-back-n-window-64]|1|lbsim_fct_max_us}, {RI [lbsim-go-back-n-window-64]|2|lbsim_fct_max_us} and "
    "{RI [lbsim-go-back-n-window-64]|3|lbsim_fct_max_us} us: the difference from htsim goes from "
    "{RI|1|diff_max_pct}, {RI|2|diff_max_pct} and {RI|3|diff_max_pct} to "
    "{RI [lbsim-go-back-n-window-64]|1|diff_max_pct}, {RI [lbsim-go-back-n-window-64]|2|diff_max_pct} and "
    "{RI [lbsim-go-back-n-window-64]|3|diff_max_pct}, the window alone closing {closed:RI|RI [lbsim-go-back-n-window-64]|1}, "
    "{closed:RI|RI [lbsim-go-back-n-window-64]|2} and {closed:RI|RI [lbsim-go-back-n-window-64]|3} of the gap in max FCT. "
    "lbsim's strict go-back-N (`[lbsim-strict-go-back-n]`, NACK at the first gap) overshoots: "
    "{RI [lbsim-strict-go-back-n]|1|lbsim_retx} resends and a max of {RI [lbsim-strict-go-back-n]|1|lbsim_fct_max_us} us on seed 1. "
    "**All three together** (`[htsim-both-dcqcn-changes-lbsim-window-64]`: htsim with both DCQCN changes, lbsim "
    "with htsim's receiver): max {RI [htsim-both-dcqcn-changes-lbsim-window-64]|1|htsim_fct_max_us} against "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|1|lbsim_fct_max_us} us ({RI [htsim-both-dcqcn-changes-lbsim-window-64]|1|diff_max_pct}), "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|2|htsim_fct_max_us} against "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|2|lbsim_fct_max_us} ({RI [htsim-both-dcqcn-changes-lbsim-window-64]|2|diff_max_pct}) and "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|3|htsim_fct_max_us} against "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|3|lbsim_fct_max_us} ({RI [htsim-both-dcqcn-changes-lbsim-window-64]|3|diff_max_pct}) "
    "on seeds 1-3, medians {RI [htsim-both-dcqcn-changes-lbsim-window-64]|1|diff_p50_pct}, "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|2|diff_p50_pct} and {RI [htsim-both-dcqcn-changes-lbsim-window-64]|3|diff_p50_pct}, "
    "and the resends agree ({RI [htsim-both-dcqcn-changes-lbsim-window-64]|1|htsim_retx} against "
    "{RI [htsim-both-dcqcn-changes-lbsim-window-64]|1|lbsim_retx}, {RI [htsim-both-dcqcn-changes-lbsim-window-64]|2|htsim_retx} "
    "against {RI [htsim-both-dcqcn-changes-lbsim-window-64]|2|lbsim_retx}, {RI [htsim-both-dcqcn-changes-lbsim-window-64]|3|htsim_retx} "
    "against {RI [htsim-both-dcqcn-changes-lbsim-window-64]|3|lbsim_retx}). So the three measured mechanisms "
    "explain the whole difference: all that is left is {maxabs:RI [htsim-both-dcqcn-changes-lbsim-window-64]} "
    "at most (max, median, p99, seeds 1-3). One known difference is left and not measured alone: after a "
    "rewind, lbsim's go-back-N sender skips to a cumulative ACK that jumps past it, while htsim's source resends "
    "up to its highest sent (`_highest_sent = _last_acked`, roce.cpp:171, which ACKs never raise, 209-213). "
    "The permutation shows why the window matters at all: with per-packet routing and lbsim's strict go-back-N, "
    "`roce-perm-1mib [lbsim-strict-go-back-n]` rewinds {roce-perm-1mib [lbsim-strict-go-back-n]|2|lbsim_retx} "
    "packets and takes {roce-perm-1mib [lbsim-strict-go-back-n]|2|lbsim_fct_max_us} us (seed 2; on seed 1 a flow "
    "waits out the 100 ms timer), where `sack` and htsim's window (`[lbsim-go-back-n-window-64]`, no resend "
    "on either side) agree with htsim within 5 %.").replace("{RI", "{" + RI).replace("{closed:RI|RI", "{closed:" + RI + "|" + RI).replace("{maxabs:RI", "{maxabs:" + RI)

EXPLANATIONS = {
    "roce-incast-3to1-4mib": ROCE_INCAST,
    "perm-1mib-spray-1024": LARGE_SPRAY,
    "perm-1mib-ecmp-1024": LARGE_ECMP,
    "a2a-128kib-ecmp": A2A_ECMP,
    "incast-3to1-4mib": INCAST,
    "perm-4mib-spray-degraded": DEGRADED,
    "perm-1mib-spray": SPRAY_1,
    "perm-4mib-spray": SPRAY_4,
    "perm-1mib-ecmp": ECMP_1,
    "perm-4mib-ecmp": ECMP_4,
}

GAPS = [
    "**ns-3 (HPCC / ConWeave RDMA model) is not built.** Both trees are ns-3.19 (`VERSION`) built by its "
    "`waf` script, which runs under Python 2 (`#!/usr/bin/env python`, waf 1.7); this machine has only "
    "Python 3 (no `python2`; Debian 12 packages none). HPCC's README says the build fails with gcc newer "
    "than 5 (`CC='gcc-5' CXX='g++-5' ./waf configure`); this machine has gcc 12, and ConWeave's README "
    "builds in an Ubuntu 20.04 container. So there is no ns-3 column and no DCQCN row from ns-3.",
    "**The tree**: `the-sure/htsim` is the UEC consortium's htsim (`uec-transport-simulation-code`) with a "
    "fork's additions (MCC, foreground/background flows, switch adaptive routing by default), laid out like "
    "csg-htsim (`htsim/sim/`, `htsim/sim/datacenter/`) but built by CMake; its committed Makefiles are CMake "
    "output with another machine's paths. Its datacenter programs are `htsim_uec`, `htsim_eqds`, "
    "`htsim_roce`, `htsim_ndp`, `htsim_tcp`, `htsim_swift`, `htsim_hpcc`; `htsim_uec`, `htsim_eqds` and "
    "`htsim_roce` build here (about 15 minutes at -O3 -g on this shared machine). Permutations, incasts and all-to-alls come "
    "from its `connection_matrices/gen_permutation.py`, `gen_incast.py` and `gen_serialn_alltoall.py`.",
    "**EQDS** (`htsim_eqds`) has no row: it is receiver-driven (the receiver paces pulls), which lbsim does "
    "not model; `htsim_uec` with oblivious spraying and a constant-rate sender is the sender closest to "
    "lbsim's OFAN setup.",
    "**DCQCN + PFC with per-flow ECMP** has no row: in this tree `htsim_roce` cannot route per flow. Its "
    "switches route every flow with id <= 1000 (`_bg_flowid_threshold`) adaptively per packet unless `-fg_ar "
    "ecmp`, an option only `htsim_uec` parses (datacenter/fat_tree_switch.cpp:319, datacenter/main_uec.cpp:808); "
    "`main_roce.cpp` accepts only `-strat ecmp_host` (560-561); and a flow with a higher id is \"background\", "
    "which a ToR sends up its first uplink only (`_bg_paths` = 1, datacenter/fat_tree_switch.cpp:347-364). "
    "The RoCE rows therefore run htsim's per-packet adaptive routing against lbsim's `switch-pkt-ar`.",
    "**htsim_roce without `-dcqcn`** (plain RoCE sources, no congestion control) has no row: a NACK that "
    "arrives after a source has sent its last new packet never restarts it, since `processNack` compares "
    "`_highest_sent` (packets) with `_flow_size` (bytes) (roce.cpp:164) and the source has no timer: "
    "`roce-incast-3to1-4mib` seed 1 without `-dcqcn` has not finished when the run ends at 100 ms, and a copy with "
    "that comparison made in bytes finishes it in 0.72 ms. A DCQCN source has its own 55 us timer events "
    "(dcqcn.cpp:273-331), which can restart it; that copy gives the same FCTs in all six RoCE rows (checked by hand, not a driver variant).",
    "**htsim's DCQCN alpha is one variable for all senders** (`static double _alpha`, dcqcn.h:83): every CNP "
    "of any flow raises it and every sender decays it. In these rows it stays near 1 on both sides (the runs "
    "are a few hundred microseconds, g = 1/256); with many flows cut and recovering over milliseconds the two "
    "would part.",
    "**The OFAN authors' sender** (`smcclure20/csg-htsim`, `constant_cca_erasure.cpp`) is not in the "
    "htsim tree used here; this htsim's closest sender is a constant-rate UEC source that resends lost "
    "packets. On a fabric that loses nothing both send at line rate and agree; where packets are dropped "
    "they differ by design (resends after a per-packet timer against fresh symbols), which is what most "
    "differences above are.",
    "**A hard link failure** has no row: this htsim's `failure` lines in a connection matrix "
    "(`FatTreeTopology::add_failed_link`, datacenter/fat_tree_topology.cpp:1246-1262) clear the link's "
    "queues, but its switches still build routes through every uplink (datacenter/fat_tree_switch.cpp:"
    "480-492): `failure switch_type AGG switch_id 0 link_id 0` in a permutation's matrix stops htsim_uec "
    "at `Route::push_back: Assertion 'sink != NULL' failed` (route.h:22). The degraded-link row "
    "(`-failed 1`, 25 % rate) stands in for it.",
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


def fct_cells(r):
    """The FCT, drop and resend cells of a row, htsim's value before lbsim's."""
    return "%s / %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s / %s" % (
        fnum(r["htsim_fct_max_us"]), fnum(r["lbsim_fct_max_us"]), fpct(r["diff_max_pct"]),
        fnum(r["htsim_fct_p50_us"]), fnum(r["lbsim_fct_p50_us"]), fpct(r["diff_p50_pct"]),
        fnum(r["htsim_fct_p99_us"]), fnum(r["lbsim_fct_p99_us"]), fpct(r["diff_p99_pct"]),
        fnum(r["htsim_drops"], 0), fnum(r["lbsim_drops"], 0),
        fnum(r["htsim_retx"], 0), fnum(r["lbsim_retx"], 0))


def over10(r):
    return any(r[k] not in ("", None) and abs(float(r[k])) > 10 for k in ("diff_max_pct", "diff_p50_pct", "diff_p99_pct"))


def max_abs_diff(rows, *scenarios, fields=("diff_max_pct", "diff_p50_pct", "diff_p99_pct")):
    """The largest difference of some rows over their seeds and the given fields (max, p50 and p99), as "3.0 %"."""
    diffs = [abs(float(r[k])) for r in rows if r["scenario"] in scenarios
             for k in fields if r[k] not in ("", None)]
    return "%.1f %%" % max(diffs) if diffs else "(no row %s)" % ", ".join(scenarios)


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

    def closed(m):
        # the share of the base row's gap in max FCT (htsim - lbsim) that the variant row closes
        base, var = index.get((m.group(1), m.group(3))), index.get((m.group(2), m.group(3)))
        if base is None or var is None:
            return "(no row %s / %s seed %s)" % (m.group(1), m.group(2), m.group(3))
        gap = float(base["htsim_fct_max_us"]) - float(base["lbsim_fct_max_us"])
        left = float(var["htsim_fct_max_us"]) - float(var["lbsim_fct_max_us"])
        return "%.0f %% (%.1f of %.1f us)" % (100.0 * (gap - left) / gap, gap - left, gap)
    text = re.sub(r"\{closed:([^|{}]+)\|([^|{}]+)\|(\d+)\}", closed, text)
    text = re.sub(r"\{maxabs:([^|{}]+)\}", lambda m: max_abs_diff(rows, m.group(1)), text)
    return re.sub(r"\{([^|{}]+)\|(\d+)\|([a-z0-9_]+)\}", sub, text)


def render(rows, csv_rel):
    out = []
    w = out.append
    w("# Cross-validation against htsim")
    w("")
    w("<!-- generated by bench/crosscheck/crosscheck.py from %s; do not edit by hand -->" % csv_rel)
    w("")
    w("lbsim and htsim run the same scenarios: the same fat tree, link rates and delays, packet sizes, "
      "drop-tail buffers (lossless PFC queues in the `roce-` rows) and the same traffic, a connection matrix written by htsim's own generators "
      "(`htsim/sim/datacenter/connection_matrices/`) and read by both (lbsim's `htsim-cm` workload). Each "
      "row gives both simulators' flow completion times (FCT: max, median, 99th percentile, nearest rank), "
      "lbsim's difference in percent of htsim's (a bold difference is over 10 %), drops and resends, and "
      "each whole process's wall time, CPU time and peak RSS (`/usr/bin/time -v`; htsim run first, then "
      "lbsim, one scenario after the other on a shared 2-core machine, both under `nice -n 10`, lbsim with "
      "`--threads 0`). Both simulators are deterministic for a given seed: a rerun gives the same FCTs.")
    w("")
    w("Reference: `%s` at %s (UEC htsim with a fork's additions; binaries `htsim_uec` and, for the `roce-` "
      "rows (DCQCN + PFC + go-back-N), `htsim_roce`, built by CMake from `htsim/sim/`). Source lines below are in "
      "that tree. The data: [`%s`](../%s)." % (HTSIM, HTSIM_AT, csv_rel, csv_rel))
    w("")
    w("**Regenerate** (builds htsim, about 15 minutes here, and fetches nothing; then a few CPU seconds per "
      "128-host permutation and up to a CPU minute per all-to-all or 1,024-host row, both simulators together):")
    w("")
    w("```")
    w("./mvnw -B -q -pl cli -am package -DskipTests")
    w("python3 bench/crosscheck/crosscheck.py run --htsim PATH/TO/htsim --variants --large")
    w("python3 bench/crosscheck/crosscheck.py run --htsim PATH/TO/htsim --only perm-1mib-ecmp,perm-4mib-ecmp --seeds 2,3")
    w("python3 bench/crosscheck/crosscheck.py run --htsim PATH/TO/htsim --only roce-perm-1mib,roce-incast-3to1-4mib --variants --seeds 1,2,3")
    w("```")
    w("")
    w("`--only NAME[,NAME]` and `--seeds 1,2,3` run single rows (each row's command is in the CSV); "
      "`crosscheck.py page` rewrites this page from the CSV; `crosscheck.py list` names the scenarios.")
    w("")
    base = [r for r in rows if not r["change"]]
    var = [r for r in rows if r["change"]]
    w("## Results")
    w("")
    agree = [r for r in base if not over10(r)]
    w("%d of %d rows agree within 10 %% on max, median and p99 FCT (%s). Where they differ, the cause "
      "measured below is mostly in the hosts: this htsim sprays each flow over 64 fixed entropies "
      "where lbsim draws a fresh one per packet, and it has no sender like lbsim's ideal erasure sender, so "
      "queue imbalance, losses and how losses are recovered separate the two. With htsim's entropies raised "
      "to 8,192 the sprayed permutations come close (\"One change at a time\"). In the rows with drops "
      "htsim, run without trimming and without `-sleek`, finds each loss only by a per-packet timer; with lbsim "
      "given that loss detection (`[lbsim-sack-rto-timer-per-packet]`) the incast agrees within %s, the 4 MiB "
      "per-flow ECMP permutation within %s on max and p99 (seeds 1-3), and the medians of the 1 MiB per-flow ECMP "
      "permutations and of the per-flow ECMP all-to-all within %s. Per-flow ECMP rows also differ by each simulator's "
      "own hash draw: with one flow-to-path assignment on both sides (htsim's switch hash, path ids and salts in lbsim, "
      "htsim's shuffle of its uplinks off) the 1,024-host permutation agrees within %s on max, median and p99 (seeds "
      "1-3), where its p99 was a timer apart with each simulator's own draw. The all-to-all's max and the 4 MiB "
      "permutation's seed 3 median, as far apart with that assignment as without it, agree within %s and %s on max, "
      "median and p99 (seeds 1-3) once htsim's full queue also always drops the arriving packet, as lbsim's does "
      "(htsim's drops the packet queued last instead half the time, which spreads the losses over the senders). The RoCE rows (DCQCN + PFC + go-back-N, "
      "`htsim_roce`): the permutation agrees; the incast differs by two behaviours of htsim's DCQCN code and by "
      "htsim's go-back-N receiver window against lbsim's selective resends, and with all three matched the two "
      "agree within %s." % (len(agree), len(base), ", ".join("`%s` seed %s" % (r["scenario"], r["seed"]) for r in agree) or "none",
                            max_abs_diff(rows, "incast-3to1-4mib [lbsim-sack-rto-timer-per-packet]"),
                            max_abs_diff(rows, "perm-4mib-ecmp [lbsim-sack-rto-timer-per-packet]", fields=("diff_max_pct", "diff_p99_pct")),
                            max_abs_diff(rows, "perm-1mib-ecmp [lbsim-sack-rto-timer-per-packet]", "perm-1mib-ecmp-1024 [lbsim-sack-rto-timer-per-packet]",
                                         "a2a-128kib-ecmp [lbsim-sack-rto-timer-per-packet]", fields=("diff_p50_pct",)),
                            max_abs_diff(rows, "perm-1mib-ecmp-1024 [%s]" % SAME_PATHS),
                            max_abs_diff(rows, "a2a-128kib-ecmp [%s]" % SAME_PATHS_DROP_TAIL),
                            max_abs_diff(rows, "perm-4mib-ecmp [%s]" % SAME_PATHS_DROP_TAIL),
                            max_abs_diff(rows, "roce-incast-3to1-4mib [htsim-both-dcqcn-changes-lbsim-window-64]")))
    w("")
    w("| scenario | seed | flows | FCT max us htsim / lbsim | diff | p50 htsim / lbsim | diff | p99 htsim / lbsim | diff | drops htsim / lbsim | resends htsim / lbsim |")
    w("|---|---:|---:|---|---:|---|---:|---|---:|---|---|")
    for r in base:
        w("| %s | %s | %s | %s |" % (r["scenario"], r["seed"], fnum(r["flows"], 0), fct_cells(r)))
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
      "pass until the completing ACK, lost packet or not. In the `roce-` rows nothing is lost (PFC): htsim's resends "
      "are packets its go-back-N rewound, lbsim's the holes its `sack` sender resent, every one of them spurious "
      "(in `[lbsim-strict-go-back-n]` and `[lbsim-go-back-n-window-64]` rows, the packets its go-back-N resent).")
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
            w("| %s | %s | %s |" % (r["scenario"], r["seed"], fct_cells(r)))
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
