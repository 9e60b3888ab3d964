#!/usr/bin/env bash
# End-to-end benchmark: runs each reference scenario in a fresh JVM and prints a Markdown table.
#
#   bench/run-e2e.sh [--reps N] [--jvm-opts "FLAGS"] [--wait-idle] [--no-build] [--check] [--raw] [S1 S2 S3 ...]
#
#   --reps N        run every scenario N times (fresh JVM each time) and report the median of each column (default 1)
#   --stat S        median (default) or min: the statistic taken over the repetitions, column by column
#   --jvm-opts F    JVM flags (default: -XX:+UseSerialGC; also taken from $LBSIM_BENCH_JVM_OPTS)
#   --cds           use an application class-data-sharing archive (bench/target/lbsim-bench.jsa, made on first
#                   use from an S1 run and remade when the jar changes): faster JVM start
#   --wait-idle     before each run, wait (up to 10 min) until the machine has been >= 90% idle for 2 s
#   --no-build      use bench/target/lbsim-bench.jar as it is
#   --check         also verify the run's invariants after each run (outside the timed part)
#   --raw           also print every run's raw line from EndToEnd (to stderr)
#
# Whole-process wall time is measured here around the `java` command; peak RSS and CPU time
# (user + system, all JVM threads) come from GNU time (/usr/bin/time) when installed, otherwise
# RSS is the VmHWM read by the JVM just before exit and CPU time is not shown.
# Works from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/bench/target/lbsim-bench.jar"
REPS=1
JVM_OPTS="${LBSIM_BENCH_JVM_OPTS:--XX:+UseSerialGC}"
BUILD=1
CHECK=""
RAW=0
STAT=median
WAIT_IDLE=0
CDS=0
SCENARIOS=()

usage() { sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --reps) REPS="${2:?--reps needs a number}"; shift 2 ;;
        --reps=*) REPS="${1#*=}"; shift ;;
        --jvm-opts) JVM_OPTS="${2?--jvm-opts needs a value}"; shift 2 ;;
        --jvm-opts=*) JVM_OPTS="${1#*=}"; shift ;;
        --stat) STAT="${2:?--stat needs median or min}"; shift 2 ;;
        --stat=*) STAT="${1#*=}"; shift ;;
        --no-build) BUILD=0; shift ;;
        --wait-idle) WAIT_IDLE=1; shift ;;
        --cds) CDS=1; shift ;;
        --check) CHECK="--check"; shift ;;
        --raw) RAW=1; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
        *) SCENARIOS+=("$(echo "$1" | tr '[:lower:]' '[:upper:]')"); shift ;;
    esac
done
[[ ${#SCENARIOS[@]} -eq 0 ]] && SCENARIOS=(S1 S2 S3)
for s in "${SCENARIOS[@]}"; do
    case "$s" in
        S1|S2|S3|S4) ;;
        *) echo "unknown scenario '$s'; known: S1 S2 S3 S4" >&2; exit 2 ;;
    esac
done
if [[ "$STAT" != median && "$STAT" != min ]]; then
    echo "--stat must be median or min, got '$STAT'" >&2
    exit 2
fi
if ! [[ "$REPS" =~ ^[1-9][0-9]*$ ]]; then
    echo "--reps must be a positive integer, got '$REPS'" >&2
    exit 2
fi

# Build when the jar is missing or older than any source or pom it is made from.
if [[ $BUILD -eq 1 ]]; then
    stale=0
    if [[ ! -f "$JAR" ]]; then
        stale=1
    elif [[ -n "$(find "$ROOT/pom.xml" "$ROOT"/{core,bench}/pom.xml "$ROOT"/{core,bench}/src/main \
                  -newer "$JAR" -type f 2>/dev/null | head -1)" ]]; then
        stale=1
    fi
    if [[ $stale -eq 1 ]]; then
        echo "building $JAR ..." >&2
        if ! (cd "$ROOT" && ./mvnw -q -B -DskipTests -pl bench -am package) >&2; then
            echo "build failed; fix it, or pass --no-build to measure the jar that is already there" >&2
            exit 1
        fi
    fi
fi
if [[ ! -f "$JAR" ]]; then
    echo "missing $JAR (build with: ./mvnw -q -B -DskipTests -pl bench -am package)" >&2
    exit 1
fi

if [[ $CDS -eq 1 ]]; then
    JSA="$ROOT/bench/target/lbsim-bench.jsa"
    if [[ ! -f "$JSA" || "$JAR" -nt "$JSA" ]]; then
        echo "making the class-data-sharing archive $JSA ..." >&2
        rm -f "$JSA"
        # shellcheck disable=SC2086
        # -Xint: a method queued for compilation when the archive is written would never be compiled in the
        # timed runs (JDK-8306460; the launcher ./lbsim trains the same way, see its comment)
        java -XX:ArchiveClassesAtExit="$JSA" -Xint $JVM_OPTS -cp "$JAR" org.lbsim.bench.EndToEnd S1 >/dev/null 2>&1 || true
        [[ -f "$JSA" ]] || { echo "could not make $JSA" >&2; exit 1; }
    fi
    JVM_OPTS="$JVM_OPTS -XX:SharedArchiveFile=$JSA -Xshare:auto"
fi

GNU_TIME=""
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M true >/dev/null 2>&1; then
    GNU_TIME=/usr/bin/time
else
    echo "note: GNU time not found (apt-get install time); peak RSS is the JVM's own VmHWM" >&2
fi

# Waits until the CPUs were >= 90% idle over a 2-second window (gives up after 10 minutes).
wait_idle() {
    local deadline=$((SECONDS + 600)) a b idle
    while ((SECONDS < deadline)); do
        read -r -a a < <(grep '^cpu ' /proc/stat)
        sleep 2
        read -r -a b < <(grep '^cpu ' /proc/stat)
        idle=$(awk -v i1="${a[4]}" -v i2="${b[4]}" -v w1="${a[5]}" -v w2="${b[5]}" \
            -v t1="$(IFS=+; echo "$((${a[*]:1}))")" -v t2="$(IFS=+; echo "$((${b[*]:1}))")" \
            'BEGIN {d = t2 - t1; print (d > 0 ? int(100 * ((i2 - i1) + (w2 - w1)) / d) : 100)}')
        ((idle >= 90)) && return 0
    done
    echo "warning: the machine did not become idle; measuring anyway" >&2
}

# field NAME LINE -> value of NAME=... in a line of key=value pairs
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# median (or, with --stat min, the minimum) of the numbers given as arguments
median() {
    printf '%s\n' "$@" | sort -g | awk -v stat="$STAT" '{a[NR]=$1}
        END {if (stat == "min") print a[1]; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

ROWS=()
STATUS=0
for s in "${SCENARIOS[@]}"; do
    walls=(); cpus=(); setups=(); sims=(); events=(); hops=(); heaps=(); rsss=(); ccts=()
    for ((r = 1; r <= REPS; r++)); do
        [[ $WAIT_IDLE -eq 1 ]] && wait_idle
        start=$(date +%s%N)
        set +e
        # shellcheck disable=SC2086
        if [[ -n "$GNU_TIME" ]]; then
            "$GNU_TIME" -f '%M %U %S' -o "$TMP/time" java $JVM_OPTS -cp "$JAR" org.lbsim.bench.EndToEnd "$s" $CHECK >"$TMP/out" 2>"$TMP/err"
        else
            java $JVM_OPTS -cp "$JAR" org.lbsim.bench.EndToEnd "$s" $CHECK >"$TMP/out" 2>"$TMP/err"
        fi
        rc=$?
        set -e
        end=$(date +%s%N)
        line="$(grep '^scenario=' "$TMP/out" | tail -1 || true)"
        if [[ $rc -ne 0 || -z "$line" ]]; then
            echo "run $r of $s failed (exit $rc):" >&2
            cat "$TMP/out" "$TMP/err" >&2
            STATUS=1
            continue
        fi
        [[ $RAW -eq 1 ]] && echo "$line" >&2
        walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", (b - a) / 1e9}')")
        setups+=("$(field setup_s "$line")")
        sims+=("$(field sim_s "$line")")
        events+=("$(field events "$line")")
        hops+=("$(field hops "$line")")
        heaps+=("$(field peak_heap_mb "$line")")
        ccts+=("$(field cct_us "$line")")
        if [[ -n "$GNU_TIME" ]]; then
            # last line of the -o file is "maxRSS_KB user_s sys_s" (a line before it may report a signal)
            rsss+=("$(awk 'NF == 3 {v = $1} END {printf "%.1f", v * 1024 / 1e6}' "$TMP/time")")
            cpus+=("$(awk 'NF == 3 {v = $2 + $3} END {printf "%.2f", v}' "$TMP/time")")
        else
            rsss+=("$(field vmhwm_mb "$line")")
            cpus+=("nan")
        fi
    done
    [[ ${#walls[@]} -eq 0 ]] && continue
    cpu="n/a"
    [[ -n "$GNU_TIME" ]] && cpu="$(median "${cpus[@]}")"
    # rates from the aggregated sim wall time (events and hops are the same in every run)
    sim="$(median "${sims[@]}")"
    ev="$(median "${events[@]}")"
    hp="$(median "${hops[@]}")"
    ROWS+=("$(printf '| %s | %s | %.2f | %s | %.3f | %.2f | %d | %.2fM | %.2fM | %.3f | %.0f | %.0f |' \
        "$s" "$(median "${ccts[@]}")" "$(median "${walls[@]}")" "$cpu" "$(median "${setups[@]}")" "$sim" \
        "$ev" "$(awk -v n="$ev" -v t="$sim" 'BEGIN {print n / t / 1e6}')" \
        "$(awk -v n="$hp" -v t="$sim" 'BEGIN {print n / t / 1e6}')" \
        "$(awk -v n="$ev" -v h="$hp" 'BEGIN {print (h > 0 ? n / h : "nan")}')" "$(median "${heaps[@]}")" "$(median "${rsss[@]}")")")
done

echo "JVM: java $JVM_OPTS; $REPS run(s) per scenario, $STAT of each column; MB = 10^6 bytes"
echo
echo "| scenario | simulated CCT us | whole-process wall s | process CPU s | setup s | sim wall s | events | events/s | packet-hops/s | events/hop | peak heap MB | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "${ROWS[@]}"; do
    echo "$row"
done
exit $STATUS
