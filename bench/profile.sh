#!/usr/bin/env bash
# Profiles one reference scenario with Java Flight Recorder (cold JVM, like run-e2e.sh) and prints
# the hottest methods (top frame of execution samples), the hottest org.lbsim frames anywhere on
# the stack, and the top allocation sites (jdk.ObjectAllocationSample, weighted by bytes).
#
#   bench/profile.sh [--runs N] [--jvm-opts "FLAGS"] [--top N] S1|S2|S3
#
# --runs N repeats the run in N fresh JVMs and merges the samples (JFR samples every 10-20 ms,
# so a 1-second run yields only ~100 samples). Recordings are kept in $TMPDIR/lbsim-profile/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/bench/target/lbsim-bench.jar"
RUNS=3
TOP=25
JVM_OPTS="${LBSIM_BENCH_JVM_OPTS:--XX:+UseSerialGC}"
SCENARIO=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        --top) TOP="$2"; shift 2 ;;
        --jvm-opts) JVM_OPTS="$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) SCENARIO="$(echo "$1" | tr '[:lower:]' '[:upper:]')"; shift ;;
    esac
done
[[ -z "$SCENARIO" ]] && { echo "usage: bench/profile.sh [--runs N] [--jvm-opts FLAGS] [--top N] S1|S2|S3" >&2; exit 2; }
[[ -f "$JAR" ]] || { echo "missing $JAR (build with: ./mvnw -q -B -DskipTests -pl bench -am package)" >&2; exit 1; }

OUT="${TMPDIR:-/tmp}/lbsim-profile"
mkdir -p "$OUT"
: >"$OUT/$SCENARIO.samples.txt"
: >"$OUT/$SCENARIO.alloc.txt"
for ((r = 1; r <= RUNS; r++)); do
    rec="$OUT/$SCENARIO-$r.jfr"
    # shellcheck disable=SC2086
    java $JVM_OPTS -XX:StartFlightRecording=filename="$rec",settings=profile -Xlog:jfr+startup=warning \
        -cp "$JAR" org.lbsim.bench.EndToEnd "$SCENARIO" >&2
    jfr print --events jdk.ExecutionSample "$rec" >>"$OUT/$SCENARIO.samples.txt"
    jfr print --events jdk.ObjectAllocationSample --stack-depth 8 "$rec" >>"$OUT/$SCENARIO.alloc.txt"
done

samples=$(grep -c 'jdk.ExecutionSample' "$OUT/$SCENARIO.samples.txt" || true)
echo "== $SCENARIO: $samples execution samples from $RUNS run(s), JVM flags: $JVM_OPTS"
echo
echo "-- top frames (self time), share of all samples"
awk '/stackTrace = \[/ {getline; sub(/^[ \t]+/, ""); sub(/[ \t]+line:.*/, ""); print}' "$OUT/$SCENARIO.samples.txt" \
    | sort | uniq -c | sort -rn | head -"$TOP" | awk -v n="$samples" '{c=$1; $1=""; printf "%6d %5.1f%% %s\n", c, 100*c/n, $0}'
echo
echo "-- org.lbsim methods anywhere on the stack (inclusive), share of all samples"
awk '/jdk.ExecutionSample/ {delete seen} /^[ \t]+org\.lbsim/ {m=$0; sub(/^[ \t]+/, "", m); sub(/[ \t]+line:.*/, "", m); if (!(m in seen)) {seen[m]=1; print m}}' \
    "$OUT/$SCENARIO.samples.txt" | sort | uniq -c | sort -rn | head -"$TOP" \
    | awk -v n="$samples" '{c=$1; $1=""; printf "%6d %5.1f%% %s\n", c, 100*c/n, $0}'
echo
echo "-- allocation sites: sampled weight in MB by (class, first org.lbsim frame)"
awk '
  /jdk.ObjectAllocationSample/ {cls=""; w=0; site=""}
  /objectClass = / {cls=$3}
  /weight = / {w=$3; u=$4; if (u ~ /kB/) w*=1e3; else if (u ~ /MB/) w*=1e6; else if (u ~ /GB/) w*=1e9}
  /^[ \t]+org\.lbsim/ && site == "" {site=$0; sub(/^[ \t]+/, "", site); sub(/[ \t]+line:.*/, "", site)}
  /^}/ && cls != "" {key=cls " @ " (site == "" ? "(outside org.lbsim)" : site); tot[key]+=w; cls=""}
  END {for (k in tot) printf "%10.1f MB  %s\n", tot[k]/1e6, k}' "$OUT/$SCENARIO.alloc.txt" | sort -rn | head -"$TOP"
