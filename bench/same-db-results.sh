#!/usr/bin/env bash
# same-db-results.sh BEFORE.duckdb AFTER.duckdb: are two results databases (e.g. of `lbsim reproduce NAME --quick`
# from two builds) identical? Every table, every column but wall time, version, commit and the event count
# (which a change of the kernel's event structure may change on purpose), rows sorted. Prints each table's
# verdict, the summed event counts, and IDENTICAL (exit 0) or exit 1. Uses cli/target/lbsim.jar (`lbsim query`).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${LBSIM_JAR:-$ROOT/cli/target/lbsim.jar}"
A=$1; B=$2; bad=0
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
q() { java -jar "$JAR" query "$1" "$2" --format csv; }
for t in $(q "$A" "SELECT table_name FROM information_schema.tables ORDER BY 1" | tail -n +2); do
  cols=$(q "$A" "SELECT string_agg('\"' || column_name || '\"', ',' ORDER BY ordinal_position) FROM information_schema.columns
              WHERE table_name='$t' AND column_name NOT IN ('lbsim_version','git_commit','events') AND column_name NOT LIKE '%wall%'" \
         | tail -n +2 | tr -d '"' | sed 's/\([^,]*\)/"\1"/g')
  sql="SELECT $cols FROM \"$t\""
  [ "$t" = counters ] && sql="$sql WHERE name <> 'events'"
  q "$A" "$sql ORDER BY ALL" > "$tmp/a.csv" 2>&1
  q "$B" "$sql ORDER BY ALL" > "$tmp/b.csv" 2>&1
  if cmp -s "$tmp/a.csv" "$tmp/b.csv"; then echo "  $t: same"; else echo "  $t: DIFF"; bad=1; fi
done
echo "  events (all runs): $(q "$A" "SELECT sum(events) FROM runs" | tail -1) -> $(q "$B" "SELECT sum(events) FROM runs" | tail -1)"
[ $bad = 0 ] && echo IDENTICAL
exit $bad
