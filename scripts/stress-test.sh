#!/usr/bin/env bash
# Run the whole test suite N times in a row (default 5) while two busy loops keep both cores
# busy: a test that depends on timing fails here long before it flakes for someone else.
#
#   scripts/stress-test.sh [N] [extra pytest arguments...]
#   scripts/stress-test.sh 1 tests/test_cli.py tests/test_orchestrator.py   # a subset
#
# Stops at the first run that fails and says which one; each run's output is kept in a log
# file under $TMPDIR. The busy loops are killed on exit (also on Ctrl-C), and each dies on its
# own after STRESS_MAX_S seconds (default 6 h) should this script itself be killed with -9.
set -u

cd "$(dirname "$0")/.."
runs=${1:-5}
shift $(( $# > 0 ? 1 : 0 ))
case $runs in
  '' | *[!0-9]* | 0) echo "usage: $0 [N>=1] [pytest args...]" >&2; exit 2 ;;
esac
PY=.venv/bin/python

make -s .venv/.stamp-test || exit 2   # what `make test` installs first

loops=()
stop_loops() {
  for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
}
trap stop_loops EXIT
trap 'exit 130' INT TERM HUP

for _ in 1 2; do
  timeout "${STRESS_MAX_S:-21600}" sh -c 'while :; do :; done' &
  loops+=("$!")
done

logs=$(mktemp -d "${TMPDIR:-/tmp}/anovax-stress.XXXXXX")
echo "stress-test: $runs run(s) of the suite with two busy loops (pids ${loops[*]}); logs in $logs"
for (( run = 1; run <= runs; run++ )); do
  log="$logs/run-$run.log"
  started=$SECONDS
  echo "== run $run of $runs =="
  "$PY" -m pytest -p no:cacheprovider "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  echo "== run $run of $runs: exit $status after $(( SECONDS - started )) s =="
  if (( status != 0 )); then
    echo "stress-test: run $run of $runs FAILED (exit $status); its log: $log" >&2
    grep -E '^(FAILED|ERROR) ' "$log" >&2
    exit 1
  fi
done
echo "stress-test: all $runs run(s) passed under load; logs in $logs"
